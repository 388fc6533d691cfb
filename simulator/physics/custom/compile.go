package custom

import (
	"fmt"
	"math"
)

// A program computes the derivatives of a dynamics from its states,
// controls and the time, for many agents at once: each instruction runs
// over every agent of a batch before the next (the registers are held
// register by register), so that the cost of interpreting an instruction
// is shared by the batch and evaluation allocates nothing.
//
// Registers: the states, the controls, t, the constants, then one per
// value the equations compute. The expressions' trees are merged into a
// graph in which equal subexpressions are computed once, and a sine and a
// cosine of the same value are computed together.
type program struct {
	code   []instr
	nregs  int
	consts []constReg
	out    []int32 // the register of each state's derivative
	// reads tells, by input register (states, controls, t), whether
	// the derivatives depend on it: an instruction reads it or it is a
	// derivative itself
	reads []bool
	// apart: no derivative is a state's register (x' = y is), so that
	// RK4 may write the states while it reads the slopes in place
	apart bool
	// zeros, when not nil, says that the derivative of every state no
	// derivative reads is a control times a sine or cosine of an input
	// (a unicycle's x' = v*cos(theta)), one entry per such state; read
	// holds the instructions the other states' derivatives need, in
	// order. An agent whose controls in those products are zero (one
	// turning on the spot) keeps those states as they are through an
	// RK4 step, whatever the sines: see batch.stillLane.
	zeros []zeroSlope
	read  []instr
}

// zeroSlope is the derivative of state j, ctl times a sine or cosine of
// input register arg.
type zeroSlope struct {
	j, ctl, arg int32
}

type constReg struct {
	reg int32
	val float64
}

type opcode uint8

const (
	opCopy opcode = iota
	opNeg
	opAdd
	opSub
	opMul
	opDiv
	opPow
	opSinCos // dst: the sine, b: the cosine
	opSin
	opCos
	opTan
	opAsin
	opAcos
	opAtan
	opAtan2
	opSqrt
	opExp
	opLog
	opAbs
	opSign
	opFloor
	opCeil
	opMin
	opMax
	opHypot
)

// opcodeOf returns the instruction of an operation of the trees.
func opcodeOf(op string) opcode {
	switch op {
	case "neg":
		return opNeg
	case "+":
		return opAdd
	case "-":
		return opSub
	case "*":
		return opMul
	case "/":
		return opDiv
	case "^", "pow":
		return opPow
	case "sin":
		return opSin
	case "cos":
		return opCos
	case "tan":
		return opTan
	case "asin":
		return opAsin
	case "acos":
		return opAcos
	case "atan":
		return opAtan
	case "atan2":
		return opAtan2
	case "sqrt":
		return opSqrt
	case "exp":
		return opExp
	case "log":
		return opLog
	case "abs":
		return opAbs
	case "sign":
		return opSign
	case "floor":
		return opFloor
	case "ceil":
		return opCeil
	case "min":
		return opMin
	case "max":
		return opMax
	case "hypot":
		return opHypot
	}
	panic("custom: no instruction for " + op)
}

type instr struct {
	op        opcode
	dst, a, b int32
	// m is the memo register of a sine or cosine: the argument its
	// results were computed from, so that an agent whose argument did
	// not change (one standing still, the equal middle stages of RK4)
	// costs a comparison
	m int32
}

// compiler turns trees into a program.
type compiler struct {
	p      *program
	keys   map[*node]string // a node's structure: its operation and the ids of its arguments
	ids    map[string]int   // a structure's id
	values map[string]int32 // a value's key -> its register
	trig   map[string]bool  // the keys of the arguments whose sine and cosine both occur
}

// compile makes the program of the derivatives eqs (one per state, in
// order) over inputs registers (states, controls and t).
func compile(eqs []*node, inputs int) *program {
	c := &compiler{p: &program{nregs: inputs}, keys: map[*node]string{}, ids: map[string]int{}, values: map[string]int32{}, trig: map[string]bool{}}
	for i := 0; i < inputs; i++ {
		c.values[fmt.Sprintf("s%d", i)] = int32(i)
	}
	sin, cos := map[string]bool{}, map[string]bool{}
	seen := map[*node]bool{}
	var scan func(n *node)
	scan = func(n *node) {
		if seen[n] {
			return // a definition used again
		}
		seen[n] = true
		switch n.op {
		case "sin":
			sin[c.key(n.args[0])] = true
		case "cos":
			cos[c.key(n.args[0])] = true
		}
		for _, a := range n.args {
			scan(a)
		}
	}
	for _, e := range eqs {
		scan(e)
	}
	for k := range sin {
		c.trig[k] = cos[k]
	}
	for _, e := range eqs {
		c.p.out = append(c.p.out, c.value(e))
	}
	c.p.memoize()
	c.p.findReads(inputs)
	c.p.findZeros(len(eqs), inputs)
	c.p.apart = true
	for _, r := range c.p.out {
		if int(r) < len(eqs) {
			c.p.apart = false // the states are the first inputs
		}
	}
	return c.p
}

// findReads fills p.reads for the first inputs registers.
func (p *program) findReads(inputs int) {
	p.reads = make([]bool, inputs)
	read := func(r int32) {
		if int(r) < inputs {
			p.reads[r] = true
		}
	}
	for _, in := range p.code {
		read(in.a)
		switch in.op {
		case opAdd, opSub, opMul, opDiv, opPow, opAtan2, opMin, opMax, opHypot:
			read(in.b)
		}
	}
	for _, r := range p.out {
		read(r)
	}
}

// findZeros fills p.zeros and p.read when every state no derivative
// reads (of the first ns inputs; the controls follow them, then t) has a
// derivative ctl*trig(arg) or trig(arg)*ctl, ctl a control and arg a
// state or control: a product of a zero and a finite number (the sine
// or cosine of a finite number) is a zero.
func (p *program) findZeros(ns, inputs int) {
	p.zeros, p.read = nil, nil
	made := map[int32]*instr{} // a register -> the instruction that writes it
	for k := range p.code {
		in := &p.code[k]
		made[in.dst] = in
		if in.op == opSinCos {
			made[in.b] = in
		}
	}
	ctl := func(r int32) bool { return int(r) >= ns && int(r) < inputs-1 }
	trig := func(r int32) (int32, bool) {
		in := made[r]
		if in == nil {
			return 0, false
		}
		switch in.op {
		case opSinCos, opSin, opCos:
			return in.a, int(in.a) < inputs-1 // a state or a control, not t
		}
		return 0, false
	}
	var zeros []zeroSlope
	for j := 0; j < ns; j++ {
		if p.reads[j] {
			continue
		}
		in := made[p.out[j]]
		if in == nil || in.op != opMul {
			return
		}
		c, t := in.a, in.b
		if !ctl(c) {
			c, t = t, c
		}
		arg, ok := trig(t)
		if !ctl(c) || !ok {
			return
		}
		zeros = append(zeros, zeroSlope{j: int32(j), ctl: c, arg: arg})
	}
	if len(zeros) == 0 {
		return
	}
	// the instructions the read states' derivatives need: backwards from
	// their registers
	need := make([]bool, p.nregs)
	for j := 0; j < ns; j++ {
		if p.reads[j] {
			need[p.out[j]] = true
		}
	}
	keep := make([]bool, len(p.code))
	for k := len(p.code) - 1; k >= 0; k-- {
		in := &p.code[k]
		if !need[in.dst] && !(in.op == opSinCos && need[in.b]) {
			continue
		}
		keep[k] = true
		need[in.a] = true
		switch in.op {
		case opAdd, opSub, opMul, opDiv, opPow, opAtan2, opMin, opMax, opHypot:
			need[in.b] = true
		}
	}
	read := []instr{}
	for k, in := range p.code {
		if keep[k] {
			read = append(read, in)
		}
	}
	p.zeros, p.read = zeros, read
}

// memoize gives every sine and cosine a memo register. The registers
// start consistent (the argument 0 with its results sin 0 = 0 and cos 0 =
// 1) and an instruction writes its memo and results together, so the
// results always hold the function of the memo; an argument is compared
// bit for bit (-0 and +0 differ), so that a memo hit gives exactly what
// the function would.
func (p *program) memoize() {
	for k := range p.code {
		in := &p.code[k]
		switch in.op {
		case opSinCos, opSin, opCos:
		default:
			continue
		}
		in.m = int32(p.nregs)
		p.nregs++
		p.consts = append(p.consts, constReg{reg: in.m, val: 0})
		switch in.op {
		case opSinCos:
			p.consts = append(p.consts, constReg{reg: in.dst, val: 0}, constReg{reg: in.b, val: 1})
		case opSin:
			p.consts = append(p.consts, constReg{reg: in.dst, val: 0})
		case opCos:
			p.consts = append(p.consts, constReg{reg: in.dst, val: 1})
		}
	}
}

// sinCosOf returns the instruction that computes the sine and cosine of
// register r together, or nil.
func (p *program) sinCosOf(r int32) *instr {
	for k := range p.code {
		if in := &p.code[k]; in.op == opSinCos && in.a == r {
			return in
		}
	}
	return nil
}

// key names a value by its structure, so that equal subexpressions share
// a register: the operation and the ids of its arguments' structures
// (short, however deep the expression).
func (c *compiler) key(n *node) string {
	if k, ok := c.keys[n]; ok {
		return k
	}
	var k string
	switch n.op {
	case "num":
		k = fmt.Sprintf("n%x", math.Float64bits(n.num))
	case "sym":
		k = fmt.Sprintf("s%d", n.sym)
	default:
		k = n.op + "("
		for i, a := range n.args {
			if i > 0 {
				k += ","
			}
			k += c.id(c.key(a))
		}
		k += ")"
	}
	c.keys[n] = k
	return k
}

// id returns the short id of a key.
func (c *compiler) id(key string) string {
	id, ok := c.ids[key]
	if !ok {
		id = len(c.ids)
		c.ids[key] = id
	}
	return fmt.Sprint(id)
}

// value returns the register that holds n, emitting its code once.
func (c *compiler) value(n *node) int32 {
	k := c.key(n)
	if r, ok := c.values[k]; ok {
		return r
	}
	reg := func() int32 {
		r := int32(c.p.nregs)
		c.p.nregs++
		return r
	}
	var r int32
	switch n.op {
	case "num":
		r = reg()
		c.p.consts = append(c.p.consts, constReg{reg: r, val: n.num})
	case "sin", "cos":
		ak := c.key(n.args[0])
		a := c.value(n.args[0])
		if c.trig[ak] {
			s, co := reg(), reg()
			c.p.code = append(c.p.code, instr{op: opSinCos, dst: s, a: a, b: co})
			c.values["sin("+c.id(ak)+")"] = s
			c.values["cos("+c.id(ak)+")"] = co
			return c.values[k]
		}
		r = reg()
		c.p.code = append(c.p.code, instr{op: opcodeOf(n.op), dst: r, a: a})
	case "min", "max":
		// a chain of binary minima or maxima
		acc := c.value(n.args[0])
		for _, a := range n.args[1:] {
			b := c.value(a)
			r = reg()
			c.p.code = append(c.p.code, instr{op: opcodeOf(n.op), dst: r, a: acc, b: b})
			acc = r
		}
		r = acc
	default:
		in := instr{op: opcodeOf(n.op)}
		in.a = c.value(n.args[0])
		if len(n.args) > 1 {
			in.b = c.value(n.args[1])
		}
		r = reg()
		in.dst = r
		c.p.code = append(c.p.code, in)
	}
	c.values[k] = r
	return r
}

// run runs the program over the first n agents of regs, which holds the
// registers one after the other, stride values each.
func (p *program) run(regs []float64, stride, n int) {
	for i := range p.code {
		exec(&p.code[i], regs, stride, n)
	}
}

// runLane runs the program for agent l of regs alone: the cheap
// instructions on the values themselves, without making the slices of
// registers exec makes (a stage of RK4 that runs for a few agents, see
// batch.lane), the others through exec over that one agent. The same
// operations, so the same bits as run.
func (p *program) runLane(regs []float64, stride, l int) { runLane(p.code, regs, stride, l) }

// runLane runs code for agent l of regs: see program.runLane.
func runLane(code []instr, regs []float64, stride, l int) {
	for i := range code {
		in := &code[i]
		d, a := &regs[int(in.dst)*stride+l], regs[int(in.a)*stride+l]
		switch in.op {
		case opCopy:
			*d = a
		case opNeg:
			*d = -a
		case opAdd:
			*d = a + regs[int(in.b)*stride+l]
		case opSub:
			*d = a - regs[int(in.b)*stride+l]
		case opMul:
			*d = a * regs[int(in.b)*stride+l]
		case opDiv:
			*d = a / regs[int(in.b)*stride+l]
		case opSinCos:
			if m := &regs[int(in.m)*stride+l]; math.Float64bits(a) != math.Float64bits(*m) {
				*m = a
				*d, regs[int(in.b)*stride+l] = math.Sincos(a)
			}
		default:
			exec(in, regs[l:], stride, 1)
		}
	}
}

// exec runs instruction in over the first n agents of regs.
func exec(in *instr, regs []float64, stride, n int) {
	reg := func(r int32) []float64 { return regs[int(r)*stride : int(r)*stride+n] }
	d, a := reg(in.dst), reg(in.a)
	switch in.op {
	case opCopy:
		copy(d, a)
	case opNeg:
		for k := range d {
			d[k] = -a[k]
		}
	case opAdd:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = a[k] + b[k]
		}
	case opSub:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = a[k] - b[k]
		}
	case opMul:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = a[k] * b[k]
		}
	case opDiv:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = a[k] / b[k]
		}
	case opPow:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = math.Pow(a[k], b[k])
		}
	case opSinCos:
		co, m := reg(in.b)[:len(d)], reg(in.m)[:len(d)]
		for k := range d {
			if x := a[k]; math.Float64bits(x) != math.Float64bits(m[k]) {
				m[k] = x
				d[k], co[k] = math.Sincos(x)
			}
		}
	case opSin:
		m := reg(in.m)[:len(d)]
		for k := range d {
			if x := a[k]; math.Float64bits(x) != math.Float64bits(m[k]) {
				m[k] = x
				d[k] = math.Sin(x)
			}
		}
	case opCos:
		m := reg(in.m)[:len(d)]
		for k := range d {
			if x := a[k]; math.Float64bits(x) != math.Float64bits(m[k]) {
				m[k] = x
				d[k] = math.Cos(x)
			}
		}
	case opTan:
		for k := range d {
			d[k] = math.Tan(a[k])
		}
	case opAsin:
		for k := range d {
			d[k] = math.Asin(a[k])
		}
	case opAcos:
		for k := range d {
			d[k] = math.Acos(a[k])
		}
	case opAtan:
		for k := range d {
			d[k] = math.Atan(a[k])
		}
	case opAtan2:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = math.Atan2(a[k], b[k])
		}
	case opSqrt:
		for k := range d {
			d[k] = math.Sqrt(a[k])
		}
	case opExp:
		for k := range d {
			d[k] = math.Exp(a[k])
		}
	case opLog:
		for k := range d {
			d[k] = math.Log(a[k])
		}
	case opAbs:
		for k := range d {
			d[k] = math.Abs(a[k])
		}
	case opSign:
		for k := range d {
			switch {
			case a[k] > 0:
				d[k] = 1
			case a[k] < 0:
				d[k] = -1
			default:
				d[k] = a[k]
			}
		}
	case opFloor:
		for k := range d {
			d[k] = math.Floor(a[k])
		}
	case opCeil:
		for k := range d {
			d[k] = math.Ceil(a[k])
		}
	case opMin:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = math.Min(a[k], b[k])
		}
	case opMax:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = math.Max(a[k], b[k])
		}
	case opHypot:
		b := reg(in.b)[:len(d)]
		for k := range d {
			d[k] = math.Hypot(a[k], b[k])
		}
	}
}

// eval computes one value of a folded tree for one agent, from the
// inputs: the reference the tests hold the programs to.
func eval(n *node, in []float64) float64 {
	switch n.op {
	case "num":
		return n.num
	case "sym":
		return in[n.sym]
	}
	args := make([]float64, len(n.args))
	for i, a := range n.args {
		args[i] = eval(a, in)
	}
	return apply(n.op, args)
}
