package sweep

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/argosgo/argos/config"
)

// A path points at one element of an experiment file and, after @, at one
// of its attributes:
//
//	controllers/footbot_diffusion_controller/params@velocity
//	controllers/*[id=fdc]/params@alpha
//	arena/distribute[2]/entity@quantity
//	physics_engines/*[1]/name()       the element's tag: the engine's type
//
// Steps are separated by /; the first step is a child of
// <argos-configuration> (which may be written first, as may a leading /).
// A step is a tag or *, optionally followed by [N] (the N-th element
// matching so far, from 1) or [attr=value] (elements whose attribute has
// that value). A path must match exactly one element.
type path struct {
	steps  []step
	attr   string // "" with rename
	rename bool
}

type step struct {
	name      string // "*" for any
	index     int    // 1-based, 0 when absent
	predAttr  string
	predValue string
}

func (s step) String() string {
	out := s.name
	switch {
	case s.index > 0:
		out += "[" + strconv.Itoa(s.index) + "]"
	case s.predAttr != "":
		out += "[" + s.predAttr + "=" + s.predValue + "]"
	}
	return out
}

var (
	stepRe = regexp.MustCompile(`^([A-Za-z_*][A-Za-z0-9_.\-]*)(?:\[(?:(\d+)|([A-Za-z_][A-Za-z0-9_.\-]*)=(?:"([^"]*)"|'([^']*)'|([^\]]*)))\])?$`)
	attrRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)
)

func parsePath(s string) (*path, error) {
	const how = "write it like controllers/*/params@velocity or physics_engines/*[1]/name()"
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("the path is empty; %s", how)
	}
	p := &path{}
	body := strings.TrimPrefix(s, "/")
	body = strings.TrimPrefix(body, "argos-configuration/")
	if strings.HasSuffix(body, "/name()") {
		p.rename = true
		body = strings.TrimSuffix(body, "/name()")
	} else if i := strings.LastIndexByte(body, '@'); i >= 0 && !strings.ContainsAny(body[i:], "]/") {
		p.attr = body[i+1:]
		body = body[:i]
		if !attrRe.MatchString(p.attr) {
			return nil, fmt.Errorf("path %q: %q is not an attribute name; %s", clip(s), clip(p.attr), how)
		}
	} else {
		return nil, fmt.Errorf("path %q names an element but neither an attribute (@name) nor its tag (/name()); %s", clip(s), how)
	}
	if body == "" {
		return nil, fmt.Errorf("path %q has no element; %s", clip(s), how)
	}
	for _, part := range splitSteps(body) {
		m := stepRe.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("path %q: step %q is not a tag, *, tag[N] or tag[attr=value]; %s", clip(s), clip(part), how)
		}
		st := step{name: m[1]}
		if strings.Contains(st.name, "*") && st.name != "*" {
			return nil, fmt.Errorf("path %q: step %q: * stands alone for any tag", clip(s), clip(part))
		}
		if m[2] != "" {
			n, err := strconv.Atoi(m[2])
			if err != nil || n < 1 {
				return nil, fmt.Errorf("path %q: step %q: count elements from 1", clip(s), clip(part))
			}
			st.index = n
		}
		if m[3] != "" {
			st.predAttr, st.predValue = m[3], m[4]+m[5]+m[6]
		}
		p.steps = append(p.steps, st)
	}
	if len(p.steps) > 64 {
		return nil, fmt.Errorf("path %q has more than 64 steps", clip(s))
	}
	return p, nil
}

// splitSteps splits at / outside brackets.
func splitSteps(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '/':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// resolve finds the one element p points at under root.
func (p *path) resolve(root *config.Node) (*config.Node, error) {
	cur := []*config.Node{root}
	where := "<" + root.Name + ">"
	for _, st := range p.steps {
		var next []*config.Node
		for _, n := range cur {
			var match []*config.Node
			for _, c := range n.Children {
				if st.name != "*" && c.Name != st.name {
					continue
				}
				if st.predAttr != "" {
					if v, ok := c.Attr(st.predAttr); !ok || v != st.predValue {
						continue
					}
				}
				match = append(match, c)
			}
			if st.index > 0 {
				if st.index > len(match) {
					match = nil
				} else {
					match = match[st.index-1 : st.index]
				}
			}
			next = append(next, match...)
		}
		if len(next) == 0 {
			return nil, fmt.Errorf("no element matches %q under %s%s", st, where, listChildren(cur))
		}
		cur = next
		where = describe(cur[0])
		if len(cur) > 1 {
			where = fmt.Sprintf("%d elements", len(cur))
		}
	}
	if len(cur) > 1 {
		var lines []string
		for _, n := range cur {
			lines = append(lines, fmt.Sprintf("%s at line %d", describe(n), n.Line))
		}
		return nil, fmt.Errorf("%d elements match (%s); pick one with [N] or [id=...]", len(cur), strings.Join(limitList(lines), ", "))
	}
	return cur[0], nil
}

func describe(n *config.Node) string {
	if id, ok := n.Attr("id"); ok {
		return fmt.Sprintf("<%s id=%q>", n.Name, clip(id))
	}
	return "<" + n.Name + ">"
}

func listChildren(ns []*config.Node) string {
	var names []string
	seen := map[string]bool{}
	for _, n := range ns {
		for _, c := range n.Children {
			d := describe(c)
			if !seen[d] {
				seen[d] = true
				names = append(names, d)
			}
		}
	}
	if len(names) == 0 {
		return ", which has no child elements"
	}
	return "; the children there are " + strings.Join(limitList(names), ", ")
}

func limitList(s []string) []string {
	if len(s) > 8 {
		return append(s[:8:8], fmt.Sprintf("and %d more", len(s)-8))
	}
	return s
}

// edit is one change to the text of an experiment file.
type edit struct {
	node   *config.Node
	nth    int    // how many elements of the same tag start earlier on the node's line
	attr   string // the attribute to set, or "" to rename the element
	value  string
	rename bool
}

// nthOnLine counts the elements with n's tag that start on n's line
// before n, in document order.
func nthOnLine(root, n *config.Node) int {
	count, found := 0, false
	var walk func(*config.Node)
	walk = func(x *config.Node) {
		if found {
			return
		}
		if x == n {
			found = true
			return
		}
		if x.Name == n.Name && x.Line == n.Line {
			count++
		}
		for _, c := range x.Children {
			walk(c)
		}
	}
	walk(root)
	return count
}

// apply makes the edits in data, attribute changes first and renames
// last, so that the elements are still found under their old tag. Values
// never hold line breaks, so lines stay where they were.
func apply(data []byte, edits []edit) ([]byte, error) {
	out := data
	var err error
	for pass := 0; pass < 2; pass++ {
		for _, e := range edits {
			if e.rename != (pass == 1) {
				continue
			}
			if out, err = e.do(out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (e edit) do(data []byte) ([]byte, error) {
	lt, gt, err := config.StartTag(data, e.node, e.nth)
	if err != nil {
		return nil, err
	}
	if !e.rename {
		return config.SetAttr(data, lt, gt, e.attr, e.value), nil
	}
	return config.RenameElement(data, e.node.Name, lt, gt, e.value)
}
