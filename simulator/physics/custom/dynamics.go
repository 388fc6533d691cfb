package custom

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/argosgo/argos/config"
)

// Method is an integration method.
type Method string

// The integration methods.
const (
	RK4   Method = "rk4"
	Euler Method = "euler"
)

// Dynamics is an agent model written in the experiment file: its states,
// its control commands, and one equation per state giving its derivative,
// as ASCARI writes them:
//
//	<dynamics name="unicycle" states="x, y, theta" controls="v, w">
//	  <equation>x' = v*cos(theta)</equation>
//	  <equation>y' = v*sin(theta)</equation>
//	  <equation>theta' = w</equation>
//	</dynamics>
//
// An <equation> may also define a name for the equations after it
// (L = 0.12, or speed = sqrt(v^2 + w^2)). The states x, y and theta, when
// the dynamics has them, are the agent's position (metres) and heading
// (radians) in the arena.
type Dynamics struct {
	Name     string
	States   []string
	Controls []string
	Method   Method
	prog     *program
	// pose holds the indices of the states x, y and theta, -1 when absent
	pose [3]int
	node *config.Node
	eqs  []*node // the folded derivatives, for tests
}

// inputs is the number of input registers: the states, the controls, t.
func (d *Dynamics) inputs() int { return len(d.States) + len(d.Controls) + 1 }

// reserved are the names no state, control or definition may take.
func reserved(name string) bool {
	_, f := arity(name)
	return f || name == "pi" || name == "e" || name == "t"
}

// parseNames reads a comma-separated list of new names.
func parseNames(n *config.Node, attr string, taken map[string]string) ([]string, error) {
	v, ok := n.Attr(attr)
	if !ok {
		return nil, nil
	}
	var out []string
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if !isIdent(s) {
			return nil, n.AttrErrorf(attr, "custom: %q is not a name (letters, digits and _, not starting with a digit); list names separated by commas", s)
		}
		if reserved(s) {
			return nil, n.AttrErrorf(attr, "custom: %q is the name of a function or of pi, e or t; rename it", s)
		}
		if prev, dup := taken[s]; dup {
			return nil, n.AttrErrorf(attr, "custom: %q is also a %s; each name is used once", s, prev)
		}
		taken[s] = attr
		out = append(out, s)
	}
	return out, nil
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// ParseDynamics reads a <dynamics> element; method is the engine's
// default integration method.
func ParseDynamics(n *config.Node, method Method) (*Dynamics, error) {
	if err := n.CheckAttrs("name", "states", "controls", "method"); err != nil {
		return nil, err
	}
	d := &Dynamics{node: n, Method: method}
	var err error
	if d.Name, err = n.String("name"); err != nil {
		return nil, err
	}
	if m, ok := n.Attr("method"); ok {
		if d.Method, err = parseMethod(n, m); err != nil {
			return nil, err
		}
	}
	taken := map[string]string{}
	if d.States, err = parseNames(n, "states", taken); err != nil {
		return nil, err
	}
	if len(d.States) == 0 {
		return nil, n.Errorf("custom: dynamics %q has no states; list them, as states=\"x, y, theta\"", d.Name)
	}
	if d.Controls, err = parseNames(n, "controls", taken); err != nil {
		return nil, err
	}
	ns := &names{regs: map[string]int{}, consts: map[string]float64{}, defs: map[string]*node{}}
	for i, s := range d.States {
		ns.regs[s] = i
	}
	for i, c := range d.Controls {
		ns.regs[c] = len(d.States) + i
	}
	ns.regs["t"] = len(d.States) + len(d.Controls)
	eqs := make([]*node, len(d.States))
	lines := make([]*config.Node, len(d.States))
	for _, c := range n.Children {
		if c.Name != "equation" {
			return nil, c.Errorf("custom: unknown element <%s> in <dynamics>; write each equation as <equation>x' = v*cos(theta)</equation>", c.Name)
		}
		if err := c.CheckAttrs(); err != nil {
			return nil, err
		}
		lhs, rhs, ok := strings.Cut(c.Text, "=")
		if !ok {
			return nil, c.Errorf("custom: %q is not an equation; write x' = expression (a derivative) or name = expression (a definition)", c.Text)
		}
		lhs = strings.TrimSpace(lhs)
		col := len(c.Text) - len(rhs) // where rhs starts in the text
		name, prime := strings.CutSuffix(lhs, "'")
		name = strings.TrimSpace(name)
		if !isIdent(name) {
			return nil, c.Errorf("custom: %q: the left side %q is neither a state's derivative (x') nor a new name", c.Text, lhs)
		}
		e, err := parseExpr(rhs, col, ns)
		if err == nil {
			e, err = fold(e, rhs)
		}
		var xe *exprError
		if errors.As(err, &xe) {
			return nil, c.Errorf("custom: %q: %s (column %d)", strings.TrimSpace(c.Text), xe.msg, col+xe.pos+1)
		}
		if err != nil {
			return nil, c.Errorf("custom: %q: %v", strings.TrimSpace(c.Text), err)
		}
		if !prime {
			if _, isReg := ns.regs[name]; isReg || reserved(name) || ns.defs[name] != nil {
				return nil, c.Errorf("custom: %q: %q is already a state, control, function or definition; a definition takes a new name (write %s' = ... for a state's derivative)",
					strings.TrimSpace(c.Text), name, name)
			}
			if _, isConst := ns.consts[name]; isConst {
				return nil, c.Errorf("custom: %q: %q is defined twice", strings.TrimSpace(c.Text), name)
			}
			if e.op == "num" {
				ns.consts[name] = e.num
			} else {
				ns.defs[name] = e
			}
			continue
		}
		i := slices.Index(d.States, name)
		if i < 0 {
			return nil, c.Errorf("custom: %q: %q is not a state of dynamics %q (its states are %s); write the derivative of a state",
				strings.TrimSpace(c.Text), name, d.Name, strings.Join(d.States, ", "))
		}
		if eqs[i] != nil {
			return nil, c.Errorf("custom: %q: the derivative of %s is given twice (also at line %d)", strings.TrimSpace(c.Text), name, lines[i].Line)
		}
		eqs[i], lines[i] = e, c
	}
	for i, e := range eqs {
		if e == nil {
			return nil, n.Errorf("custom: dynamics %q gives no derivative of state %s; add <equation>%s' = ...</equation> (%s' = 0 for a constant)",
				d.Name, d.States[i], d.States[i], d.States[i])
		}
	}
	d.eqs = eqs
	d.prog = compile(eqs, d.inputs())
	for k, s := range []string{"x", "y", "theta"} {
		d.pose[k] = slices.Index(d.States, s)
	}
	return d, nil
}

func parseMethod(n *config.Node, m string) (Method, error) {
	switch Method(m) {
	case RK4, Euler:
		return Method(m), nil
	}
	return "", n.AttrErrorf("method", "custom: use rk4 (the default, fourth-order Runge-Kutta) or euler")
}

// String names the dynamics for messages.
func (d *Dynamics) String() string {
	return fmt.Sprintf("dynamics %q (states %s; controls %s)", d.Name, strings.Join(d.States, ", "), strings.Join(d.Controls, ", "))
}
