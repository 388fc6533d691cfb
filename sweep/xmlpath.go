package sweep

import (
	"bytes"
	"errors"
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
	lt, gt, err := startTag(data, e.node, e.nth)
	if err != nil {
		return nil, err
	}
	if !e.rename {
		return setAttr(data, lt, gt, e.attr, e.value), nil
	}
	return renameElement(data, e.node.Name, lt, gt, e.value)
}

// skipComment returns the offset after a comment, CDATA section or
// processing instruction starting at i, or i.
func skipComment(data []byte, i int) int {
	for _, d := range [][2]string{{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}} {
		if bytes.HasPrefix(data[i:], []byte(d[0])) {
			j := bytes.Index(data[i+len(d[0]):], []byte(d[1]))
			if j < 0 {
				return len(data)
			}
			return i + len(d[0]) + j + len(d[1])
		}
	}
	return i
}

func nameEnd(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/' || c == '>'
}

// startTag finds the start tag of n: the nth element with n's tag from
// the start of n's line. It returns the offsets of '<' and of the '>' or
// "/>" that closes the tag.
func startTag(data []byte, n *config.Node, nth int) (lt, gt int, err error) {
	off := 0
	for line := 1; line < n.Line; line++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return 0, 0, fmt.Errorf("sweep: cannot find line %d of the experiment", n.Line)
		}
		off += i + 1
	}
	// a comment may have begun on an earlier line and end on this one:
	// scan from the start of the file for comment boundaries only up to off
	for i := 0; i < off; {
		j := bytes.IndexByte(data[i:off], '<')
		if j < 0 {
			break
		}
		i += j
		if k := skipComment(data, i); k > i {
			i = k
			if i > off {
				off = i
			}
			continue
		}
		i++
	}
	tag := []byte("<" + n.Name)
	found := false
	for i := off; i < len(data); {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if k := skipComment(data, i); k > i {
			i = k
			continue
		}
		if bytes.HasPrefix(data[i:], tag) && i+len(tag) < len(data) && nameEnd(data[i+len(tag)]) {
			if nth == 0 {
				lt, found = i, true
				break
			}
			nth--
		}
		i++
	}
	if !found {
		return 0, 0, fmt.Errorf("sweep: cannot find <%s> of line %d in the experiment", n.Name, n.Line)
	}
	var quote byte
	for gt = lt; gt < len(data); gt++ {
		c := data[gt]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			if data[gt-1] == '/' {
				gt--
			}
			return lt, gt, nil
		}
	}
	return 0, 0, fmt.Errorf("sweep: <%s> of line %d is not closed", n.Name, n.Line)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// escapeAttr escapes a value for a double-quoted attribute.
func escapeAttr(v string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;")
	return r.Replace(v)
}

// setAttr sets attribute name of the start tag data[lt:gt] to value,
// adding it when absent.
func setAttr(data []byte, lt, gt int, name, value string) []byte {
	value = escapeAttr(value)
	tag := data[lt:gt]
	var quote byte
	for i := 0; i < len(tag); i++ {
		c := tag[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		if c == '"' || c == '\'' {
			quote = c
			continue
		}
		if !isSpace(c) || !bytes.HasPrefix(tag[i+1:], []byte(name)) {
			continue
		}
		j := i + 1 + len(name)
		for j < len(tag) && isSpace(tag[j]) {
			j++
		}
		if j >= len(tag) || tag[j] != '=' {
			continue
		}
		j++
		for j < len(tag) && isSpace(tag[j]) {
			j++
		}
		if j >= len(tag) || (tag[j] != '"' && tag[j] != '\'') {
			continue
		}
		end := bytes.IndexByte(tag[j+1:], tag[j])
		if end < 0 {
			break
		}
		q := tag[j]
		v := value
		if q == '\'' {
			v = strings.ReplaceAll(value, "'", "&apos;")
		}
		vs, ve := lt+j+1, lt+j+1+end
		return concat(data[:vs], []byte(v), data[ve:])
	}
	at := gt
	for at > lt && isSpace(data[at-1]) {
		at--
	}
	return concat(data[:at], []byte(` `+name+`="`+value+`"`), data[at:])
}

var tagRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)

// renameElement changes the tag of the element whose start tag is
// data[lt:gt] from old to name, in its end tag too.
func renameElement(data []byte, old string, lt, gt int, name string) ([]byte, error) {
	if !tagRe.MatchString(name) {
		return nil, fmt.Errorf("sweep: %q is not a tag name", clip(name))
	}
	selfClosing := data[gt] == '/'
	start := lt + 1
	if selfClosing {
		return concat(data[:start], []byte(name), data[start+len(old):]), nil
	}
	// find the matching end tag, counting nested elements of the same tag
	depth := 0
	open, closeTag := []byte("<"+old), []byte("</"+old)
	for i := gt + 1; i < len(data); {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			break
		}
		i += j
		if k := skipComment(data, i); k > i {
			i = k
			continue
		}
		switch {
		case bytes.HasPrefix(data[i:], closeTag) && i+len(closeTag) < len(data) && nameEnd(data[i+len(closeTag)]):
			if depth == 0 {
				out := concat(data[:start], []byte(name), data[start+len(old):i+2], []byte(name), data[i+len(closeTag):])
				return out, nil
			}
			depth--
		case bytes.HasPrefix(data[i:], open) && i+len(open) < len(data) && nameEnd(data[i+len(open)]):
			// a nested element of the same tag: self-closing ones do not nest
			k := i
			var quote byte
			for ; k < len(data); k++ {
				c := data[k]
				if quote != 0 {
					if c == quote {
						quote = 0
					}
					continue
				}
				if c == '"' || c == '\'' {
					quote = c
				} else if c == '>' {
					break
				}
			}
			if k < len(data) && data[k-1] != '/' {
				depth++
			}
		}
		i++
	}
	return nil, errors.New("sweep: the end tag of <" + old + "> is missing")
}

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
