package ci

import (
	"fmt"
	"strconv"
	"strings"
)

// Params is the <params> element of a controller (or one of its children),
// with where it was read so that errors can point at it.
type Params struct {
	// Where locates the element for error messages, as "file.argos:12".
	Where string
	// Name is the element name ("params", or a child's tag).
	Name string
	// Attrs are the element's attributes.
	Attrs map[string]string
	// Children are the nested elements, in file order.
	Children []Params
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

// Has reports whether the attribute is present.
func (p Params) Has(attr string) bool {
	_, ok := p.Attrs[attr]
	return ok
}

// String returns a required attribute.
func (p Params) String(attr string) (string, error) {
	v, ok := p.Attrs[attr]
	if !ok {
		return "", p.missing(attr, "a value")
	}
	return v, nil
}

// StringOr returns the attribute, or def when it is absent.
func (p Params) StringOr(attr, def string) string {
	if v, ok := p.Attrs[attr]; ok {
		return v
	}
	return def
}

// Float returns a required number.
func (p Params) Float(attr string) (float64, error) {
	v, ok := p.Attrs[attr]
	if !ok {
		return 0, p.missing(attr, "a number")
	}
	return p.parseFloat(attr, v)
}

// FloatOr returns the number, or def when the attribute is absent. A
// present but malformed value is an error.
func (p Params) FloatOr(attr string, def float64) (float64, error) {
	v, ok := p.Attrs[attr]
	if !ok {
		return def, nil
	}
	return p.parseFloat(attr, v)
}

// Int returns a required integer.
func (p Params) Int(attr string) (int, error) {
	v, ok := p.Attrs[attr]
	if !ok {
		return 0, p.missing(attr, "an integer")
	}
	return p.parseInt(attr, v)
}

// IntOr returns the integer, or def when the attribute is absent.
func (p Params) IntOr(attr string, def int) (int, error) {
	v, ok := p.Attrs[attr]
	if !ok {
		return def, nil
	}
	return p.parseInt(attr, v)
}

// Bool returns a required boolean ("true"/"false", as ARGoS writes them).
func (p Params) Bool(attr string) (bool, error) {
	v, ok := p.Attrs[attr]
	if !ok {
		return false, p.missing(attr, "true or false")
	}
	return p.parseBool(attr, v)
}

// BoolOr returns the boolean, or def when the attribute is absent.
func (p Params) BoolOr(attr string, def bool) (bool, error) {
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
	for _, c := range p.Children {
		if c.Name == tag {
			return c
		}
	}
	return Params{Where: p.Where, Name: tag}
}

// Child returns the first nested element with the given tag.
func (p Params) Child(tag string) (Params, error) {
	for _, c := range p.Children {
		if c.Name == tag {
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
		return 0, fmt.Errorf("ci: %s: attribute %s=%q is not a number; write it like 0.5 or 1e-3", p.where(), attr, v)
	}
	return f, nil
}

func (p Params) parseInt(attr, v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("ci: %s: attribute %s=%q is not an integer; write it like 10", p.where(), attr, v)
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
	return false, fmt.Errorf("ci: %s: attribute %s=%q is not a boolean; write true or false", p.where(), attr, v)
}
