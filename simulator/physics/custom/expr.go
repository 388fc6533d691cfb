package custom

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The expressions of the equations: numbers, symbols (states, controls,
// constants, t, pi, e), + - * / ^ (power, right-associative, binding
// tighter than a unary minus: -x^2 is -(x^2)), parentheses and the
// functions of funcs. They are parsed once into a tree, folded where
// constant, and compiled into a program (compile.go).

// node is an expression tree node.
type node struct {
	op   string // "num", "sym", "neg", "+", "-", "*", "/", "^", or a function name
	num  float64
	sym  int // for "sym": the symbol's index
	args []*node
	pos  int    // byte offset in the source, for errors
	span [2]int // where the node's text starts and ends in the source
	done bool   // folded already (a definition used again)
}

// funcNames are the functions an expression may call.
var funcNames = []string{"abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "exp", "floor", "hypot", "log", "max", "min", "pow", "sign", "sin", "sqrt", "tan"}

// arity returns the number of arguments of a function (-1: two or
// more), and whether there is such a function.
func arity(name string) (int, bool) {
	switch name {
	case "atan2", "pow", "hypot":
		return 2, true
	case "min", "max":
		return -1, true
	}
	if slices.Contains(funcNames, name) {
		return 1, true
	}
	return 0, false
}

// exprError is a parse or check error at a byte offset of the source.
type exprError struct {
	pos int
	msg string
}

func (e *exprError) Error() string { return e.msg }

// parser reads one expression.
type parser struct {
	src   string
	at    int
	base  int // where src starts in the text errors quote, for columns
	names *names
	depth int
}

// names are the symbols an expression may use: the states and controls
// of the dynamics and t (registers), the constants of the file (values)
// and the definitions before the equation (trees).
type names struct {
	regs   map[string]int
	consts map[string]float64
	defs   map[string]*node
}

// all lists every name, for suggestions.
func (ns *names) all() []string {
	var out []string
	for n := range ns.regs {
		out = append(out, n)
	}
	for n := range ns.consts {
		out = append(out, n)
	}
	for n := range ns.defs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// maxDepth bounds the nesting of expressions (the parser recurses).
const maxDepth = 200

// parseExpr parses src with the symbols of ns; base is where src starts
// in the text that errors give columns of.
func parseExpr(src string, base int, ns *names) (*node, error) {
	p := &parser{src: src, base: base, names: ns}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.at < len(p.src) {
		return nil, p.fail("unexpected %q after the expression", p.rest())
	}
	return n, nil
}

func (p *parser) fail(format string, args ...any) error {
	return &exprError{pos: p.at, msg: fmt.Sprintf(format, args...)}
}

func (p *parser) rest() string {
	r := p.src[p.at:]
	if len(r) > 12 {
		r = r[:12] + "..."
	}
	return r
}

func (p *parser) space() {
	for p.at < len(p.src) && (p.src[p.at] == ' ' || p.src[p.at] == '\t' || p.src[p.at] == '\n' || p.src[p.at] == '\r') {
		p.at++
	}
}

func (p *parser) peek() byte {
	p.space()
	if p.at < len(p.src) {
		return p.src[p.at]
	}
	return 0
}

func (p *parser) expr() (*node, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, p.fail("the expression nests deeper than %d levels", maxDepth)
	}
	defer func() { p.depth-- }()
	left, err := p.term()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '+' && c != '-' {
			return left, nil
		}
		pos := p.at
		p.at++
		right, err := p.term()
		if err != nil {
			return nil, err
		}
		left = &node{op: string(c), args: []*node{left, right}, pos: pos, span: [2]int{left.span[0], right.span[1]}}
	}
}

func (p *parser) term() (*node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		c := p.peek()
		if c != '*' && c != '/' {
			return left, nil
		}
		pos := p.at
		p.at++
		right, err := p.unary()
		if err != nil {
			return nil, err
		}
		left = &node{op: string(c), args: []*node{left, right}, pos: pos, span: [2]int{left.span[0], right.span[1]}}
	}
}

func (p *parser) unary() (*node, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, p.fail("the expression nests deeper than %d levels", maxDepth)
	}
	defer func() { p.depth-- }()
	switch p.peek() {
	case '-':
		pos := p.at
		p.at++
		a, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &node{op: "neg", args: []*node{a}, pos: pos, span: [2]int{pos, a.span[1]}}, nil
	case '+':
		p.at++
		return p.unary()
	}
	return p.power()
}

func (p *parser) power() (*node, error) {
	base, err := p.primary()
	if err != nil {
		return nil, err
	}
	if p.peek() != '^' {
		return base, nil
	}
	pos := p.at
	p.at++
	exp, err := p.unary() // right-associative: a^b^c = a^(b^c)
	if err != nil {
		return nil, err
	}
	return &node{op: "^", args: []*node{base, exp}, pos: pos, span: [2]int{base.span[0], exp.span[1]}}, nil
}

func (p *parser) primary() (*node, error) {
	c := p.peek()
	pos := p.at
	switch {
	case c == 0:
		return nil, p.fail("the expression ends where a value is expected")
	case c == '(':
		p.at++
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, p.fail("missing ) to close the ( at column %d", p.base+pos+1)
		}
		p.at++
		if n.op != "sym" && n.op != "num" || n.span == [2]int{} {
			n.span = [2]int{pos, p.at}
		} else {
			// a symbol or number in parentheses: quote them too
			n = &node{op: n.op, num: n.num, sym: n.sym, pos: n.pos, span: [2]int{pos, p.at}}
		}
		return n, nil
	case c >= '0' && c <= '9' || c == '.':
		return p.number()
	case c == '_' || c < 0x80 && unicode.IsLetter(rune(c)):
		name := p.ident()
		if p.peek() == '(' {
			return p.call(name, pos)
		}
		if _, isFunc := arity(name); isFunc {
			p.at = pos
			return nil, p.fail("%s is a function: write %s(...)", name, name)
		}
		switch name {
		case "pi":
			return &node{op: "num", num: math.Pi, pos: pos, span: [2]int{pos, p.at}}, nil
		case "e":
			return &node{op: "num", num: math.E, pos: pos, span: [2]int{pos, p.at}}, nil
		}
		span := [2]int{pos, p.at}
		if v, ok := p.names.consts[name]; ok {
			return &node{op: "num", num: v, pos: pos, span: span}, nil
		}
		if d, ok := p.names.defs[name]; ok {
			return d, nil
		}
		i, ok := p.names.regs[name]
		if !ok {
			p.at = pos
			return nil, p.fail("unknown symbol %q; the symbols are %s, pi and e", name, strings.Join(p.names.all(), ", "))
		}
		return &node{op: "sym", sym: i, pos: pos, span: span}, nil
	}
	return nil, p.fail("unexpected %q where a value is expected", p.rest())
}

func (p *parser) ident() string {
	start := p.at
	for p.at < len(p.src) {
		c := p.src[p.at]
		if c == '_' || c >= '0' && c <= '9' || c < 0x80 && unicode.IsLetter(rune(c)) {
			p.at++
			continue
		}
		break
	}
	return p.src[start:p.at]
}

func (p *parser) number() (*node, error) {
	start := p.at
	for p.at < len(p.src) && (p.src[p.at] >= '0' && p.src[p.at] <= '9' || p.src[p.at] == '.') {
		p.at++
	}
	if p.at < len(p.src) && (p.src[p.at] == 'e' || p.src[p.at] == 'E') {
		k := p.at + 1
		if k < len(p.src) && (p.src[k] == '+' || p.src[k] == '-') {
			k++
		}
		if k < len(p.src) && p.src[k] >= '0' && p.src[k] <= '9' {
			p.at = k
			for p.at < len(p.src) && p.src[p.at] >= '0' && p.src[p.at] <= '9' {
				p.at++
			}
		}
	}
	text := p.src[start:p.at]
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(v, 0) {
		p.at = start
		return nil, p.fail("%q is not a number", text)
	}
	return &node{op: "num", num: v, pos: start, span: [2]int{start, p.at}}, nil
}

func (p *parser) call(name string, pos int) (*node, error) {
	want, ok := arity(name)
	if !ok {
		p.at = pos
		return nil, p.fail("unknown function %q; the functions are %s", name, strings.Join(funcNames, ", "))
	}
	p.at++ // (
	n := &node{op: name, pos: pos}
	if p.peek() != ')' {
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			n.args = append(n.args, a)
			if p.peek() != ',' {
				break
			}
			p.at++
		}
	}
	if p.peek() != ')' {
		return nil, p.fail("missing ) to close %s( at column %d", name, p.base+pos+1)
	}
	p.at++
	n.span = [2]int{pos, p.at}
	if want >= 0 && len(n.args) != want || want < 0 && len(n.args) < 2 {
		p.at = pos
		if want < 0 {
			return nil, p.fail("%s takes two or more arguments, not %d", name, len(n.args))
		}
		return nil, p.fail("%s takes %d argument(s), not %d", name, want, len(n.args))
	}
	return n, nil
}

// apply computes op on constant arguments.
func apply(op string, a []float64) float64 {
	switch op {
	case "neg":
		return -a[0]
	case "+":
		return a[0] + a[1]
	case "-":
		return a[0] - a[1]
	case "*":
		return a[0] * a[1]
	case "/":
		return a[0] / a[1]
	case "^", "pow":
		return math.Pow(a[0], a[1])
	case "sin":
		return math.Sin(a[0])
	case "cos":
		return math.Cos(a[0])
	case "tan":
		return math.Tan(a[0])
	case "asin":
		return math.Asin(a[0])
	case "acos":
		return math.Acos(a[0])
	case "atan":
		return math.Atan(a[0])
	case "atan2":
		return math.Atan2(a[0], a[1])
	case "sqrt":
		return math.Sqrt(a[0])
	case "exp":
		return math.Exp(a[0])
	case "log":
		return math.Log(a[0])
	case "abs":
		return math.Abs(a[0])
	case "sign":
		switch {
		case a[0] > 0:
			return 1
		case a[0] < 0:
			return -1
		}
		return a[0]
	case "floor":
		return math.Floor(a[0])
	case "ceil":
		return math.Ceil(a[0])
	case "hypot":
		return math.Hypot(a[0], a[1])
	case "min":
		m := a[0]
		for _, x := range a[1:] {
			m = math.Min(m, x)
		}
		return m
	case "max":
		m := a[0]
		for _, x := range a[1:] {
			m = math.Max(m, x)
		}
		return m
	}
	panic("custom: no operation " + op)
}

// fold replaces constant subtrees by their value. A constant divisor of
// zero, or a constant part whose value is not a finite number (the log
// of 0, the square root of -1), is an error: it would be wrong at every
// step, whatever the state.
func fold(n *node, src string) (*node, error) {
	if n.op == "num" || n.op == "sym" || n.done {
		return n, nil
	}
	n.done = true
	constant := true
	for i, a := range n.args {
		f, err := fold(a, src)
		if err != nil {
			return nil, err
		}
		n.args[i] = f
		constant = constant && f.op == "num"
	}
	if n.op == "/" && n.args[1].op == "num" && n.args[1].num == 0 {
		return nil, &exprError{pos: n.pos, msg: fmt.Sprintf("division by zero: the divisor %s is 0 whatever the state", quoteSpan(src, n.args[1].span))}
	}
	if !constant {
		return n, nil
	}
	vals := make([]float64, len(n.args))
	for i, a := range n.args {
		vals[i] = a.num
	}
	v := apply(n.op, vals)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil, &exprError{pos: n.pos, msg: fmt.Sprintf("%s is %v whatever the state; check its arguments", n.op, v)}
	}
	return &node{op: "num", num: v, pos: n.pos, span: n.span}, nil
}

// quoteSpan quotes the text of a node; a definition's node quotes the
// definition's text, which is not in src: it is then left out.
func quoteSpan(src string, span [2]int) string {
	if span[1] <= span[0] || span[1] > len(src) {
		return "(a definition)"
	}
	s := strings.TrimSpace(src[span[0]:span[1]])
	if len(s) > 24 {
		s = s[:24] + "..."
	}
	return strconv.Quote(s)
}
