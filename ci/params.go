package ci

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Params is the <params> element of a controller (or one of its children),
// with where it was read so that errors can point at it.
//
// The runtimes check that a controller reads every parameter it is given:
// they pass Init a tracked copy (see [Params.Track]) and, after Init,
// report an attribute or element the controller never asked for as an
// error with a suggestion, so that a misspelled <params velocty="50"/>
// does not silently leave the default in place. Read parameters through
// the methods (Float, FloatOr, Has, Lookup, Child, ChildOr, ...): reading
// the Attrs map or the Children slice directly is not seen. A controller
// that takes free-form parameters (names it does not know in advance)
// says so with [Params.FreeForm].
type Params struct {
	// Where locates the element for error messages, as "file.argos:12".
	Where string
	// Name is the element name ("params", or a child's tag).
	Name string
	// Attrs are the element's attributes.
	Attrs map[string]string
	// Children are the nested elements, in file order.
	Children []Params

	use *paramUse // what the controller asked for; nil unless made by Track
}

// NewParams builds Params from attribute name/value pairs; handy in tests.
func NewParams(kv ...string) Params {
	if len(kv)%2 != 0 {
		panic("ci.NewParams: odd number of arguments")
	}
	p := Params{Name: "params", Attrs: make(map[string]string, len(kv)/2)}
	for i := 0; i < len(kv); i += 2 {
		p.Attrs[kv[i]] = kv[i+1]
	}
	return p
}

// Location names the element for error messages: "file.argos:12: <params>"
// (just "<params>" when the position is unknown).
func (p Params) Location() string {
	if p.Where == "" {
		return "<" + p.name() + ">"
	}
	return p.Where + ": <" + p.name() + ">"
}

func (p Params) where() string { return p.Location() }

func (p Params) name() string {
	if p.Name == "" {
		return "params"
	}
	return p.Name
}

// Lookup returns the attribute as written and whether it is present: the
// Attrs map, read in a way the runtimes see (see [Params]).
func (p Params) Lookup(attr string) (string, bool) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	return v, ok
}

// Has reports whether the attribute is present.
func (p Params) Has(attr string) bool {
	p.asked(attr)
	_, ok := p.Attrs[attr]
	return ok
}

// String returns a required attribute.
func (p Params) String(attr string) (string, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return "", p.missing(attr, "a value")
	}
	return v, nil
}

// StringOr returns the attribute, or def when it is absent.
func (p Params) StringOr(attr, def string) string {
	p.asked(attr)
	if v, ok := p.Attrs[attr]; ok {
		return v
	}
	return def
}

// Float returns a required number.
func (p Params) Float(attr string) (float64, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return 0, p.missing(attr, "a number")
	}
	return p.parseFloat(attr, v)
}

// FloatOr returns the number, or def when the attribute is absent. A
// present but malformed value is an error.
func (p Params) FloatOr(attr string, def float64) (float64, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return def, nil
	}
	return p.parseFloat(attr, v)
}

// Int returns a required integer.
func (p Params) Int(attr string) (int, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return 0, p.missing(attr, "an integer")
	}
	return p.parseInt(attr, v)
}

// IntOr returns the integer, or def when the attribute is absent.
func (p Params) IntOr(attr string, def int) (int, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return def, nil
	}
	return p.parseInt(attr, v)
}

// Bool returns a required boolean ("true"/"false", as ARGoS writes them).
func (p Params) Bool(attr string) (bool, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return false, p.missing(attr, "true or false")
	}
	return p.parseBool(attr, v)
}

// BoolOr returns the boolean, or def when the attribute is absent.
func (p Params) BoolOr(attr string, def bool) (bool, error) {
	p.asked(attr)
	v, ok := p.Attrs[attr]
	if !ok {
		return def, nil
	}
	return p.parseBool(attr, v)
}

// ChildOr returns the first nested element with the given tag, or an
// empty one (every attribute at its default, located at p) when there is
// none: for optional groups of parameters such as <wheel_turning>.
func (p Params) ChildOr(tag string) Params {
	p.askedChild(tag)
	for _, c := range p.Children {
		if c.Name == tag {
			c.reached()
			return c
		}
	}
	return Params{Where: p.Where, Name: tag}
}

// Child returns the first nested element with the given tag.
func (p Params) Child(tag string) (Params, error) {
	p.askedChild(tag)
	for _, c := range p.Children {
		if c.Name == tag {
			c.reached()
			return c, nil
		}
	}
	return Params{}, fmt.Errorf("ci: %s: element <%s> is missing; add it inside <%s>", p.where(), tag, p.name())
}

func (p Params) missing(attr, what string) error {
	return fmt.Errorf("ci: %s: attribute %q is missing; add %s=\"...\" with %s", p.where(), attr, attr, what)
}

func (p Params) parseFloat(attr, v string) (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		return 0, fmt.Errorf("ci: %s: attribute %s=%q is not a number; write it like 0.5 or 1e-3", p.where(), attr, quote(v))
	}
	return f, nil
}

func (p Params) parseInt(attr, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("ci: %s: attribute %s=%q is not an integer; write it like 10", p.where(), attr, quote(v))
	}
	return n, nil
}

func (p Params) parseBool(attr, v string) (bool, error) {
	switch strings.TrimSpace(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("ci: %s: attribute %s=%q is not a boolean; write true or false", p.where(), attr, quote(v))
}

// paramUse records what a controller asked of one element of its params.
// Copies of a Params share it, so reads through any copy count; it is
// safe for concurrent use (robots of one controller share it).
//
// The sets of names are copied on write: a name asked for again, as every
// robot of a controller entry asks for the same ones, is found in the
// published set without the lock and without writing to memory the other
// threads read, so that a million robots' Init run on several threads
// (ConcurrentInit) do not contend here.
type paramUse struct {
	done  atomic.Bool // CheckUnread ran: nothing more is recorded
	hit   atomic.Bool // the controller reached this element
	mu    sync.Mutex  // held to replace attrs or tags, and for free
	attrs nameSet     // attribute names asked for, present or not
	tags  nameSet     // child tags asked for
	free  bool        // FreeForm: anything goes
}

// nameSet is a set of names that is replaced, never changed, once
// published.
type nameSet struct {
	p atomic.Pointer[map[string]bool]
}

// get returns the set (nil when empty), not to be changed.
func (n *nameSet) get() map[string]bool {
	if m := n.p.Load(); m != nil {
		return *m
	}
	return nil
}

// add puts name in the set of u, unless it is there.
func (u *paramUse) add(set *nameSet, name string) {
	if !u.hit.Load() {
		u.hit.Store(true)
	}
	if set.get()[name] {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	old := set.get()
	if old[name] {
		return
	}
	m := make(map[string]bool, len(old)+1)
	for k := range old {
		m[k] = true
	}
	m[name] = true
	set.p.Store(&m)
}

// Track returns a copy of p (and of its nested elements) that records
// which attributes and elements the controller asks for, for
// [Params.CheckUnread]. The runtimes give Init a tracked copy; a
// controller never needs to call it. Every robot of one controller entry
// shares the copy, so that a parameter read by any of them counts.
func (p Params) Track() Params {
	q := p
	q.use = &paramUse{}
	q.use.hit.Store(true)
	if len(p.Children) > 0 {
		q.Children = make([]Params, len(p.Children))
		for i, c := range p.Children {
			q.Children[i] = c.Track()
			q.Children[i].use.hit.Store(false)
		}
	}
	return q
}

// FreeForm tells the runtime that the controller takes p's attributes and
// nested elements as they come, without asking for each by name (a table
// of values, names chosen by the user): none of them is reported as
// unknown. Call it in Init, on the element that is free-form:
//
//	func (c *Lookup) Init(r ci.Robot, p ci.Params) error {
//		table := p.ChildOr("table")
//		table.FreeForm()
//		for name, v := range table.Attrs { ... }
//		...
//	}
func (p Params) FreeForm() {
	if u := p.use; u != nil && !u.done.Load() {
		u.mu.Lock()
		u.free = true
		u.mu.Unlock()
	}
}

// CheckUnread returns an error naming the first attribute or nested
// element of p that the controller never asked for since [Params.Track],
// with a suggestion when it looks like a misspelling of one it did ask
// for, like
//
//	ci: exp.argos:14: <params>: unknown attribute "velocty" (did you mean "velocity"?); the controller reads alpha, delta and velocity: correct the name or remove it
//
// It returns nil for a Params that Track did not make. The runtimes call
// it once, after Init; afterwards the copy records nothing more.
func (p Params) CheckUnread() error {
	if p.use == nil {
		return nil
	}
	p.stop()
	return p.unread()
}

// stop ends the recording in p and below.
func (p Params) stop() {
	if p.use != nil {
		p.use.done.Store(true)
	}
	for _, c := range p.Children {
		c.stop()
	}
}

func (p Params) asked(attr string) {
	if u := p.use; u != nil && !u.done.Load() {
		u.add(&u.attrs, attr)
	}
}

func (p Params) askedChild(tag string) {
	if u := p.use; u != nil && !u.done.Load() {
		u.add(&u.tags, tag)
	}
}

func (p Params) reached() {
	if u := p.use; u != nil && !u.done.Load() && !u.hit.Load() {
		u.hit.Store(true)
	}
}

func (p Params) unread() error {
	u := p.use
	if u == nil || u.free {
		return nil
	}
	var unknown []string
	for name := range p.Attrs {
		if !u.attrs.get()[name] {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		known := sortedKeys(u.attrs.get())
		what := "unknown attribute "
		if len(unknown) > 1 {
			what = "unknown attributes "
		}
		for i, name := range unknown {
			switch {
			case i == 0:
			case i == len(unknown)-1:
				what += " and "
			default:
				what += ", "
			}
			what += fmt.Sprintf("%q", quote(name)) + DidYouMean(name, known, "%q")
		}
		reads := "no attribute of <" + p.name() + ">"
		if len(known) > 0 {
			reads = joinAnd(known, "%s")
		}
		return fmt.Errorf("ci: %s: %s; the controller reads %s: correct the name or remove it", p.where(), what, reads)
	}
	first := map[string]Params{} // the first reached child of each tag
	for _, c := range p.Children {
		if c.use == nil || !c.use.hit.Load() {
			continue
		}
		if _, ok := first[c.Name]; !ok {
			first[c.Name] = c
		}
	}
	for _, c := range p.Children {
		if c.use != nil && c.use.hit.Load() {
			if err := c.unread(); err != nil {
				return err
			}
			continue
		}
		if f, ok := first[c.Name]; ok {
			return fmt.Errorf("ci: %s: another <%s> in <%s> (the first is at %s), and the controller reads only the first: merge them or remove this one",
				c.where(), quote(c.name()), p.name(), f.Where)
		}
		tags := sortedKeys(u.tags.get())
		if len(tags) == 0 {
			return fmt.Errorf("ci: %s: unknown element inside <%s>; the controller reads no element there: remove it", c.where(), p.name())
		}
		return fmt.Errorf("ci: %s: unknown element inside <%s>%s; the controller reads %s there: correct the name or remove it",
			c.where(), p.name(), DidYouMean(c.Name, tags, "<%s>"), joinAnd(tags, "<%s>"))
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// joinAnd formats list as "a, b and c", each item with format.
func joinAnd(list []string, format string) string {
	var b strings.Builder
	for i, s := range list {
		switch {
		case i == 0:
		case i == len(list)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, format, quote(s))
	}
	return b.String()
}

// quote shortens a value for quoting in a message.
func quote(s string) string {
	const n = 64
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + fmt.Sprintf("... (%d bytes in all)", len(s))
}
