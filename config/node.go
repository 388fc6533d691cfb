package config

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Attr is one attribute of an element, as written in the file.
type Attr struct{ Name, Value string }

// Node is one XML element with where it came from.
//
// The typed accessors (Float, Vector3, Euler, ...) return errors of type
// [*Error] that point at the element's line, name the element and the
// attribute, and say what to write instead.
type Node struct {
	Name     string
	Attrs    []Attr // in file order
	Children []*Node
	Text     string // trimmed character data, rarely used
	File     string // path as given to Load or Parse
	Line     int    // line of the start tag

	parent *Node
}

// Parent returns the element that contains n, or nil for the root element
// and for nodes built by hand.
func (n *Node) Parent() *Node {
	if n == nil {
		return nil
	}
	return n.parent
}

// Where returns the position of n as "file.argos:12".
func (n *Node) Where() string {
	if n == nil {
		return ""
	}
	return where(n.File, n.Line)
}

func where(file string, line int) string {
	switch {
	case line <= 0:
		return file
	case file == "":
		return "line " + strconv.Itoa(line)
	default:
		return file + ":" + strconv.Itoa(line)
	}
}

// Describe returns how error messages name n: `<box id="wall">` when it
// has an id, else its tag followed by the nearest enclosing element that
// has one, like `<body> in <box id="wall">`, else just `<body>`.
func (n *Node) Describe() string {
	if n == nil {
		return "<nil>"
	}
	if n.Has("id") {
		return n.tag()
	}
	for p := n.parent; p != nil; p = p.parent {
		if p.Has("id") {
			return n.tag() + " in " + p.tag()
		}
	}
	return n.tag()
}

// tag returns `<name id="...">` or `<name>`.
func (n *Node) tag() string {
	if id, ok := n.Attr("id"); ok {
		return fmt.Sprintf("<%s id=%q>", n.Name, shorten(id))
	}
	return "<" + n.Name + ">"
}

// Errorf returns an [*Error] at n's position. Its message is n's
// description (see [Node.Describe]) followed by the formatted text, so
//
//	n.Errorf("no physics engine can hold this robot; add one under <physics_engines>")
//
// reads `exp.argos:40: <e-puck id="ep3">: no physics engine can hold ...`.
// An error wrapped with %w is kept for errors.Is and errors.As.
func (n *Node) Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, clipArgs(args)...)
	e := &Error{Msg: n.Describe() + ": " + capMessage(err.Error())}
	if n != nil {
		e.File, e.Line = n.File, n.Line
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		e.Err = u.Unwrap()
	case interface{ Unwrap() []error }:
		e.Err = err
	}
	return e
}

// AttrErrorf is [Node.Errorf] about one attribute: the message starts with
// the element and the attribute with its value, like
// `<box id="wall">: attribute size="1,-2,0.5": sizes must be positive; ...`.
func (n *Node) AttrErrorf(name, format string, args ...any) error {
	v, ok := n.Attr(name)
	if !ok {
		return n.Errorf("attribute %q: "+format, append([]any{name}, args...)...)
	}
	return n.Errorf("attribute %s=%q: "+format, append([]any{name, quoted(v)}, args...)...)
}

// Attr returns the value of an attribute and whether it is present.
func (n *Node) Attr(name string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Has reports whether the attribute is present.
func (n *Node) Has(name string) bool {
	_, ok := n.Attr(name)
	return ok
}

// String returns a required attribute.
func (n *Node) String(name string) (string, error) {
	v, ok := n.Attr(name)
	if !ok {
		return "", n.missing(name, `"..."`, "")
	}
	return v, nil
}

// StringOr returns the attribute, or def when it is absent.
func (n *Node) StringOr(name, def string) string {
	if v, ok := n.Attr(name); ok {
		return v
	}
	return def
}

func (n *Node) missing(name, placeholder, what string) error {
	if what != "" {
		what = " with " + what
	}
	return n.Errorf("attribute %q is missing; add %s=%s%s", name, name, placeholder, what)
}

// Float returns a required number. NaN and infinities are refused.
func (n *Node) Float(name string) (float64, error) {
	v, ok := n.Attr(name)
	if !ok {
		return 0, n.missing(name, `"..."`, "a number, like 0.5")
	}
	return n.parseFloat(name, v)
}

// FloatOr returns the number, or def when the attribute is absent. A
// present but malformed value is an error.
func (n *Node) FloatOr(name string, def float64) (float64, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseFloat(name, v)
}

func (n *Node) parseFloat(name, v string) (float64, error) {
	f, ok := parseFinite(v)
	if !ok {
		return 0, n.Errorf("attribute %s=%q is not a number; write it like 0.5 or 1e-3", name, quoted(v))
	}
	return f, nil
}

// parseFinite parses a finite float64, allowing spaces around it.
func parseFinite(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f-f != 0 { // f-f != 0 for NaN and infinities
		return 0, false
	}
	return f, true
}

// Int returns a required integer.
func (n *Node) Int(name string) (int, error) {
	v, ok := n.Attr(name)
	if !ok {
		return 0, n.missing(name, `"..."`, "an integer, like 10")
	}
	return n.parseInt(name, v)
}

// IntOr returns the integer, or def when the attribute is absent.
func (n *Node) IntOr(name string, def int) (int, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseInt(name, v)
}

func (n *Node) parseInt(name, v string) (int, error) {
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, n.Errorf("attribute %s=%q is too large for an integer; write a smaller number", name, quoted(v))
		}
		return 0, n.Errorf("attribute %s=%q is not an integer; write it like 10", name, quoted(v))
	}
	return i, nil
}

// Uint64 returns a required non-negative integer.
func (n *Node) Uint64(name string) (uint64, error) {
	v, ok := n.Attr(name)
	if !ok {
		return 0, n.missing(name, `"..."`, "a non-negative integer, like 10")
	}
	return n.parseUint64(name, v)
}

// Uint64Or returns the non-negative integer, or def when the attribute is
// absent.
func (n *Node) Uint64Or(name string, def uint64) (uint64, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseUint64(name, v)
}

func (n *Node) parseUint64(name, v string) (uint64, error) {
	s := strings.TrimSpace(v)
	u, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		if _, ierr := strconv.ParseInt(s, 10, 64); ierr == nil || strings.HasPrefix(s, "-") {
			return 0, n.Errorf("attribute %s=%q is negative; write 0 or a positive integer, like 10", name, quoted(v))
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, n.Errorf("attribute %s=%q is too large; write an integer below 2^64", name, quoted(v))
		}
		return 0, n.Errorf("attribute %s=%q is not a non-negative integer; write it like 10", name, quoted(v))
	}
	return u, nil
}

// Bool returns a required boolean, written "true" or "false" as in ARGoS.
func (n *Node) Bool(name string) (bool, error) {
	v, ok := n.Attr(name)
	if !ok {
		return false, n.Errorf("attribute %q is missing; add %s=\"true\" or %s=\"false\"", name, name, name)
	}
	return n.parseBool(name, v)
}

// BoolOr returns the boolean, or def when the attribute is absent.
func (n *Node) BoolOr(name string, def bool) (bool, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseBool(name, v)
}

func (n *Node) parseBool(name, v string) (bool, error) {
	switch strings.TrimSpace(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, n.Errorf("attribute %s=%q is not a boolean; write true or false", name, quoted(v))
}

// parseNumbers splits "a,b,c" into exactly len(out) finite numbers;
// spaces around the numbers are allowed. On failure it returns the index
// of the offending component, or -1 when the count is wrong.
func parseNumbers(s string, out []float64) (bad int, ok bool) {
	if strings.Count(s, ",") != len(out)-1 { // counted first: a value may be huge
		return -1, false
	}
	for i, p := range strings.Split(s, ",") {
		f, ok := parseFinite(p)
		if !ok {
			return i, false
		}
		out[i] = f
	}
	return 0, true
}

// numbersError explains why attribute name=v is not a list of numbers;
// bad is what parseNumbers returned and want says what to write, like
// `three numbers "x,y,z", like "0,0,0.5"`.
func (n *Node) numbersError(name, v string, bad int, want string) error {
	switch {
	case strings.TrimSpace(v) == "":
		return n.Errorf("attribute %s=%q is empty; write %s", name, quoted(v), want)
	case bad < 0:
		return n.Errorf("attribute %s=%q has %s; write %s", name, quoted(v), countValues(strings.Count(v, ",")+1), want)
	}
	parts := strings.Split(v, ",") // as many as parseNumbers accepted
	switch {
	case strings.TrimSpace(parts[bad]) == "":
		return n.Errorf("attribute %s=%q: value %d is empty; write %s", name, quoted(v), bad+1, want)
	default:
		return n.Errorf("attribute %s=%q: %q is not a number; write %s", name, quoted(v), quoted(strings.TrimSpace(parts[bad])), want)
	}
}

// countValues says how many comma-separated values an attribute has.
func countValues(k int) string {
	if k == 1 {
		return "1 value"
	}
	return strconv.Itoa(k) + " comma-separated values"
}

// Vector2 returns a required "x,y" attribute.
func (n *Node) Vector2(name string) (ci.Vector2, error) {
	v, ok := n.Attr(name)
	if !ok {
		return ci.Vector2{}, n.missing(name, `"x,y"`, "two numbers")
	}
	return n.parseVector2(name, v)
}

// Vector2Or returns the "x,y" attribute, or def when it is absent.
func (n *Node) Vector2Or(name string, def ci.Vector2) (ci.Vector2, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseVector2(name, v)
}

func (n *Node) parseVector2(name, v string) (ci.Vector2, error) {
	var f [2]float64
	if bad, ok := parseNumbers(v, f[:]); !ok {
		return ci.Vector2{}, n.numbersError(name, v, bad, `two numbers "x,y", like "0.5,-1"`)
	}
	return ci.Vector2{X: f[0], Y: f[1]}, nil
}

// Vector3 returns a required "x,y,z" attribute.
func (n *Node) Vector3(name string) (ci.Vector3, error) {
	v, ok := n.Attr(name)
	if !ok {
		return ci.Vector3{}, n.missing(name, `"x,y,z"`, "three numbers")
	}
	return n.parseVector3(name, v)
}

// Vector3Or returns the "x,y,z" attribute, or def when it is absent.
func (n *Node) Vector3Or(name string, def ci.Vector3) (ci.Vector3, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseVector3(name, v)
}

func (n *Node) parseVector3(name, v string) (ci.Vector3, error) {
	var f [3]float64
	if bad, ok := parseNumbers(v, f[:]); !ok {
		return ci.Vector3{}, n.numbersError(name, v, bad, `three numbers "x,y,z", like "0.5,-1,0"`)
	}
	return ci.Vector3{X: f[0], Y: f[1], Z: f[2]}, nil
}

// EulerDeg is an orientation as ARGoS writes it: "z,y,x", the rotation
// about Z (yaw), then Y (pitch), then X (roll), in degrees.
type EulerDeg struct{ Z, Y, X float64 }

// Quaternion returns the rotation e describes.
func (e EulerDeg) Quaternion() ci.Quaternion {
	return ci.QuaternionFromEulerZYX(ci.Radians(e.Z), ci.Radians(e.Y), ci.Radians(e.X))
}

// Euler returns a required orientation "z,y,x" in degrees.
func (n *Node) Euler(name string) (EulerDeg, error) {
	v, ok := n.Attr(name)
	if !ok {
		return EulerDeg{}, n.missing(name, `"z,y,x"`, "three angles in degrees")
	}
	return n.parseEuler(name, v)
}

// EulerOr returns the orientation "z,y,x" in degrees, or def when the
// attribute is absent.
func (n *Node) EulerOr(name string, def EulerDeg) (EulerDeg, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseEuler(name, v)
}

func (n *Node) parseEuler(name, v string) (EulerDeg, error) {
	var f [3]float64
	if bad, ok := parseNumbers(v, f[:]); !ok {
		return EulerDeg{}, n.numbersError(name, v, bad, `three angles "z,y,x" in degrees, like "90,0,0"`)
	}
	return EulerDeg{Z: f[0], Y: f[1], X: f[2]}, nil
}

// Color returns a required colour: a name ("red", "gray50") or "r,g,b" or
// "r,g,b,a" with components in 0-255, as [ci.ParseColor] reads it.
func (n *Node) Color(name string) (ci.Color, error) {
	v, ok := n.Attr(name)
	if !ok {
		return ci.Color{}, n.missing(name, `"..."`, `a colour name (red, gray50, ...) or "r,g,b"`)
	}
	return n.parseColor(name, v)
}

// ColorOr returns the colour, or def when the attribute is absent.
func (n *Node) ColorOr(name string, def ci.Color) (ci.Color, error) {
	v, ok := n.Attr(name)
	if !ok {
		return def, nil
	}
	return n.parseColor(name, v)
}

func (n *Node) parseColor(name, v string) (ci.Color, error) {
	if len(v) > maxQuote && strings.Count(v, ",") > 3 { // ParseColor would split it all
		return ci.Color{}, n.Errorf("attribute %s=%q is not a colour: it has %s; write a name (red, green, gray50, ...) or \"r,g,b\" or \"r,g,b,a\" with values 0-255",
			name, quoted(v), countValues(strings.Count(v, ",")+1))
	}
	c, err := ci.ParseColor(v)
	if err != nil {
		return ci.Color{}, &Error{
			File: n.File, Line: n.Line, Err: err,
			Msg: fmt.Sprintf("%s: attribute %s=%q is not a colour; write a name (red, green, gray50, ...) or \"r,g,b\" or \"r,g,b,a\" with values 0-255",
				n.Describe(), name, quoted(v)),
		}
	}
	return c, nil
}

// Child returns the first child element with the given tag, or an error
// that says where to add it.
func (n *Node) Child(name string) (*Node, error) {
	if c := n.FirstChild(name); c != nil {
		return c, nil
	}
	return nil, n.Errorf("element <%s> is missing; add <%s .../> inside <%s>", name, name, n.nameOrNil())
}

// OptionalChild returns the child element with the given tag, nil when
// there is none, and an error when there is more than one.
func (n *Node) OptionalChild(name string) (*Node, error) {
	var first *Node
	for _, c := range n.ChildrenNamed(name) {
		if first != nil {
			return nil, c.Errorf("<%s> appears twice in <%s> (first at line %d); keep only one",
				name, n.Name, first.Line)
		}
		first = c
	}
	return first, nil
}

func (n *Node) nameOrNil() string {
	if n == nil {
		return "nil"
	}
	return n.Name
}

// FirstChild returns the first child element with the given tag, or nil.
func (n *Node) FirstChild(name string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// ChildrenNamed returns the child elements with the given tag, in file
// order.
func (n *Node) ChildrenNamed(name string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// Params converts the subtree rooted at n into [ci.Params], the form
// controllers receive: Where is n.Where(), Name the tag, Attrs the
// attributes and Children the nested elements, recursively.
func (n *Node) Params() ci.Params {
	if n == nil {
		return ci.Params{Name: "params", Attrs: map[string]string{}}
	}
	p := ci.Params{Where: n.Where(), Name: n.Name, Attrs: make(map[string]string, len(n.Attrs))}
	for _, a := range n.Attrs {
		p.Attrs[a.Name] = a.Value
	}
	if len(n.Children) > 0 {
		p.Children = make([]ci.Params, len(n.Children))
		for i, c := range n.Children {
			p.Children[i] = c.Params()
		}
	}
	return p
}

// CheckAttrs returns an error naming the first attribute of n that is not
// one of allowed, with a suggestion when it looks like a misspelling and
// the list of allowed attributes.
func (n *Node) CheckAttrs(allowed ...string) error {
	if n == nil {
		return nil
	}
	for _, a := range n.Attrs {
		if contains(allowed, a.Name) {
			continue
		}
		if len(allowed) == 0 {
			return n.Errorf("unknown attribute %q: <%s> takes no attributes; remove it", a.Name, n.Name)
		}
		return n.Errorf("unknown attribute %q%s; <%s> accepts %s",
			a.Name, ci.DidYouMean(a.Name, allowed, "%q"), n.Name, quoteList(allowed, "%s"))
	}
	return nil
}

// CheckChildren returns an error at the first child element of n whose
// tag is not one of allowed, with a suggestion and the allowed tags.
func (n *Node) CheckChildren(allowed ...string) error {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if contains(allowed, c.Name) {
			continue
		}
		if len(allowed) == 0 {
			return c.Errorf("unexpected element: <%s> holds no elements; remove it", n.Name)
		}
		return c.Errorf("unknown element inside <%s>%s; the elements allowed there are %s",
			n.Name, ci.DidYouMean(c.Name, allowed, "<%s>"), quoteList(allowed, "<%s>"))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// quoteList formats list as "a, b and c", each item with format.
func quoteList(list []string, format string) string { return joinList(list, format, " and ") }

// orList formats list as "a, b or c", each item with format.
func orList(list []string, format string) string { return joinList(list, format, " or ") }

func joinList(list []string, format, last string) string {
	var b strings.Builder
	for i, s := range list {
		switch {
		case i == 0:
		case i == len(list)-1:
			b.WriteString(last)
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, format, s)
	}
	return b.String()
}

// Error is every error this package returns about file content: it says
// where (File and Line of the element) and what to do (Msg). Err is the
// underlying cause, if any.
type Error struct {
	File string
	Line int
	Msg  string
	Err  error
}

// Error returns "file.argos:12: msg", without the line part when Line is
// 0. A message longer than a few KB keeps its start and its end.
func (e *Error) Error() string {
	w := where(e.File, e.Line)
	if w == "" {
		return capMessage(e.Msg)
	}
	return w + ": " + capMessage(e.Msg)
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }
