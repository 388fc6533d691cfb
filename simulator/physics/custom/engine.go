package custom

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

func init() {
	physics.Engines.MustRegister("custom",
		"Agents whose dynamics the file writes (ASCARI's dynamic engine): <dynamics name states controls [method]> with one "+
			"<equation>x' = expression</equation> per state (and definitions name = expression), integrated with fourth-order "+
			"Runge-Kutta (method=\"rk4\", the default) or Euler (method=\"euler\") at the engine's step, the tick divided by "+
			"iterations. The states x, y, theta are the agent's pose; agents do not collide. Attributes: id (required), "+
			"iterations (sub-steps per tick, default 1), method; <boundaries>, <entity id>. It takes the <agent> entities whose "+
			"dynamics it defines.",
		New)
}

// Engine integrates the agents of the dynamics its element defines. Build
// it with New.
type Engine struct {
	id         string
	index      int
	region     *physics.Prism
	sp         *space.Space
	iterations int
	dyn        []*Dynamics
	agents     map[string]*config.Node // agent id -> its element in the arena
	batches    []*batch                // one per dynamics
	slot       []ref                   // body handle -> where its agent is
	bodies     []int
	time       float64 // since the start (t in the equations)
	tick       float64
	job        func(c int)
	chunks     []chunkRef // this step's jobs
	dt         float64
	// layout counts the changes of where agents are (Add, Remove) and
	// the Resets: the devices keep where their agent's registers are
	// until it changes
	layout uint64
	// acts are the control actuators made for the engine's agents, which
	// Step applies when the layout is not the one applied last
	acts    []*controlActuator
	applied uint64
}

// ref locates an agent: its batch and its place in it; batch -1 when the
// engine does not own the body.
type ref struct{ batch, k int32 }

type chunkRef struct{ batch, chunk int }

// lanes is the number of agents a chunk integrates together.
const lanes = 64

// batch holds the agents of one dynamics, in chunks of lanes agents whose
// registers are laid out register by register.
type batch struct {
	d    *Dynamics
	prog *program
	n    int
	body []int       // per agent
	init [][]float64 // per agent: its states at the start
	// vals holds the agents' states as the last Commit left them, agent
	// after agent (agent k's at vals[k*ns:]): the dynamics_state sensors
	// read them there, where they are next to each other
	vals   []float64
	chunks []*chunk
	// yaw is the instruction computing the sine and cosine of theta, or
	// nil: Commit shares its memo with the body's heading
	yaw *instr
}

type chunk struct {
	regs   []float64 // prog.nregs registers of lanes values
	s0, k  []float64 // RK4: the states at the start of the step, the four slopes
	prevXY []ci.Vector2
	// prevYaw is theta as last committed, NaN when the body's yaw is to
	// be set whatever theta is
	prevYaw []float64
}

// New builds an engine from its <custom> element.
func New(n *config.Node, env physics.Env) (physics.Engine, error) {
	if err := n.CheckAttrs("id", "iterations", "method"); err != nil {
		return nil, err
	}
	e := &Engine{index: env.Index, sp: env.Space, tick: env.TickLength, agents: map[string]*config.Node{}}
	var err error
	if e.id, err = n.String("id"); err != nil {
		return nil, err
	}
	if e.iterations, err = n.IntOr("iterations", 1); err != nil {
		return nil, err
	}
	if e.iterations < 1 {
		return nil, n.AttrErrorf("iterations", "custom: write a positive number of integration steps per tick")
	}
	method := RK4
	if m, ok := n.Attr("method"); ok {
		if method, err = parseMethod(n, m); err != nil {
			return nil, err
		}
	}
	for _, c := range n.Children {
		switch c.Name {
		case "dynamics":
			d, err := ParseDynamics(c, method)
			if err != nil {
				return nil, err
			}
			for _, o := range e.dyn {
				if o.Name == d.Name {
					return nil, c.Errorf("custom: dynamics %q is defined twice (also at line %d); give each a unique name", d.Name, o.node.Line)
				}
			}
			e.dyn = append(e.dyn, d)
			bt := &batch{d: d, prog: d.prog}
			if d.pose[2] >= 0 {
				bt.yaw = d.prog.sinCosOf(int32(d.pose[2]))
			}
			e.batches = append(e.batches, bt)
		case "boundaries":
			if e.region, err = physics.ParseBoundaries(c); err != nil {
				return nil, err
			}
		case "entity":
			if err := c.CheckAttrs("id"); err != nil {
				return nil, err
			}
		default:
			return nil, c.Errorf("custom: unknown element <%s> in <custom>; it holds <dynamics>, <boundaries> and <entity id>", c.Name)
		}
	}
	if len(e.dyn) == 0 {
		return nil, n.Errorf("custom: engine %q defines no <dynamics>; add one, as <dynamics name=\"unicycle\" states=\"x, y, theta\" controls=\"v, w\">", e.id)
	}
	e.findAgents(n)
	e.job = func(c int) {
		r := e.chunks[c]
		e.batches[r.batch].step(r.chunk, e.dt, e.iterations, e.time)
	}
	return e, nil
}

// findAgents maps the ids of the arena's <agent> elements (those of
// <distribute> included) to their elements.
func (e *Engine) findAgents(n *config.Node) {
	root := n
	for root.Parent() != nil {
		root = root.Parent()
	}
	arena := root.FirstChild("arena")
	if arena == nil {
		return
	}
	for _, c := range arena.Children {
		switch c.Name {
		case "agent":
			if id, ok := c.Attr("id"); ok {
				e.agents[id] = c
			}
		case "distribute":
			d, err := config.ParseDistribute(c)
			if err != nil || d.Template.Name != "agent" {
				continue
			}
			for k := 0; k < d.Quantity; k++ {
				e.agents[d.ID(k)] = d.Template
			}
			// the simulator asks with the template's id while it draws
			// the poses
			if id, ok := d.Template.Attr("id"); ok && e.agents[id] == nil {
				e.agents[id] = d.Template
			}
		}
	}
}

// ID implements physics.Engine.
func (e *Engine) ID() string { return e.id }

// Region implements physics.Engine.
func (e *Engine) Region() *physics.Prism { return e.region }

// Bodies implements physics.Engine.
func (e *Engine) Bodies() []int { return e.bodies }

// Dynamics returns the dynamics the engine defines.
func (e *Engine) Dynamics() []*Dynamics { return e.dyn }

// dynamicsOf returns the batch of the dynamics an agent's element names.
func (e *Engine) dynamicsOf(b *space.Body) (int, *config.Node) {
	if b.Type != AgentTag {
		return -1, nil
	}
	n := e.agents[b.ID]
	if n == nil {
		return -1, nil
	}
	name, _ := n.Attr("dynamics")
	for k, d := range e.dyn {
		if d.Name == name {
			return k, n
		}
	}
	return -1, n
}

// Models implements physics.Modeler: the engine takes the agents whose
// dynamics it defines, and nothing else.
func (e *Engine) Models(b *space.Body) bool {
	k, _ := e.dynamicsOf(b)
	return k >= 0
}

// AddStatic implements physics.Engine: agents go through everything.
func (e *Engine) AddStatic(int) error { return nil }

// Add implements physics.Engine.
func (e *Engine) Add(i int) error {
	b := &e.sp.Bodies[i]
	k, n := e.dynamicsOf(b)
	if k < 0 {
		if n != nil {
			name, _ := n.Attr("dynamics")
			return n.Errorf("custom: engine %q defines no dynamics %q (it defines %s); name one of them, or define it", e.id, name, e.names())
		}
		return fmt.Errorf("custom: engine %q moves only <agent> entities of the arena, not %s %q", e.id, b.Type, b.ID)
	}
	for len(e.slot) < len(e.sp.Bodies) {
		e.slot = append(e.slot, ref{batch: -1})
	}
	if e.slot[i].batch >= 0 {
		return fmt.Errorf("custom: engine %q already owns agent %q", e.id, b.ID)
	}
	bt := e.batches[k]
	d := bt.d
	init := make([]float64, len(d.States))
	if st := n.FirstChild("state"); st != nil {
		for _, a := range st.Attrs {
			j := slices.Index(d.States, a.Name)
			if j < 0 {
				return st.Errorf("custom: agent %q: %q is not a state of dynamics %q (its states are %s)", b.ID, a.Name, d.Name, strings.Join(d.States, ", "))
			}
			if j == d.pose[0] || j == d.pose[1] || j == d.pose[2] {
				return st.Errorf("custom: agent %q: state %s comes from <body>; set it there", b.ID, a.Name)
			}
			v, err := st.Float(a.Name)
			if err != nil {
				return err
			}
			init[j] = v
		}
	}
	if j := d.pose[0]; j >= 0 {
		init[j] = b.Pos.X
	}
	if j := d.pose[1]; j >= 0 {
		init[j] = b.Pos.Y
	}
	if j := d.pose[2]; j >= 0 {
		init[j] = b.Yaw
	}
	b.Engine = int32(e.index)
	e.layout++
	e.slot[i] = ref{batch: int32(k), k: int32(bt.n)}
	bt.add(i, init)
	e.bodies = append(e.bodies, i)
	return nil
}

func (e *Engine) names() string {
	var s []string
	for _, d := range e.dyn {
		s = append(s, d.Name)
	}
	return strings.Join(s, ", ")
}

// add appends an agent in its start state.
func (bt *batch) add(body int, init []float64) {
	k := bt.n
	if k%lanes == 0 {
		bt.chunks = append(bt.chunks, bt.newChunk())
	}
	bt.n++
	bt.body = append(bt.body, body)
	bt.init = append(bt.init, init)
	bt.vals = append(bt.vals, init...)
	bt.load(k, init)
}

func (bt *batch) newChunk() *chunk {
	ns := len(bt.d.States)
	c := &chunk{regs: make([]float64, bt.prog.nregs*lanes), s0: make([]float64, ns*lanes), k: make([]float64, 4*ns*lanes),
		prevXY: make([]ci.Vector2, lanes), prevYaw: make([]float64, lanes)}
	for _, cr := range bt.prog.consts {
		for l := 0; l < lanes; l++ {
			c.regs[int(cr.reg)*lanes+l] = cr.val
		}
	}
	return c
}

// load sets agent k's states to init and its controls to 0.
func (bt *batch) load(k int, init []float64) {
	c, l := bt.chunks[k/lanes], k%lanes
	for j, v := range init {
		c.regs[j*lanes+l] = v
	}
	for j := range bt.d.Controls {
		c.regs[(len(init)+j)*lanes+l] = 0
	}
	d := bt.d
	if d.pose[0] >= 0 && d.pose[1] >= 0 {
		c.prevXY[l] = ci.Vector2{X: init[d.pose[0]], Y: init[d.pose[1]]}
	}
	c.prevYaw[l] = math.NaN()
}

// Remove implements physics.Engine: the last agent of the batch takes
// the removed one's place.
func (e *Engine) Remove(i int) {
	if i >= len(e.slot) || e.slot[i].batch < 0 {
		return
	}
	r := e.slot[i]
	bt := e.batches[r.batch]
	e.layout++
	last := bt.n - 1
	if int(r.k) != last {
		bt.moveAgent(last, int(r.k))
		bt.body[r.k], bt.init[r.k] = bt.body[last], bt.init[last]
		ns := len(bt.d.States)
		copy(bt.vals[int(r.k)*ns:(int(r.k)+1)*ns], bt.vals[last*ns:])
		e.slot[bt.body[r.k]] = r
	}
	bt.body, bt.init = bt.body[:last], bt.init[:last]
	bt.vals = bt.vals[:last*len(bt.d.States)]
	bt.n = last
	if last%lanes == 0 {
		bt.chunks = bt.chunks[:len(bt.chunks)-1]
	}
	e.slot[i] = ref{batch: -1}
	k := slices.Index(e.bodies, i)
	e.bodies = slices.Delete(e.bodies, k, k+1)
}

// moveAgent copies agent from's registers to agent to's place.
func (bt *batch) moveAgent(from, to int) {
	cf, lf := bt.chunks[from/lanes], from%lanes
	ct, lt := bt.chunks[to/lanes], to%lanes
	for r := 0; r < bt.prog.nregs; r++ {
		ct.regs[r*lanes+lt] = cf.regs[r*lanes+lf]
	}
	ct.prevXY[lt] = cf.prevXY[lf]
	ct.prevYaw[lt] = cf.prevYaw[lf]
}

// Step implements physics.Engine: every chunk of agents integrates the
// tick in iterations steps.
func (e *Engine) Step(dt float64, run physics.Runner) {
	if e.applied != e.layout {
		e.applyActuators()
	}
	e.chunks = e.chunks[:0]
	for b, bt := range e.batches {
		for c := range bt.chunks {
			e.chunks = append(e.chunks, chunkRef{batch: b, chunk: c})
		}
	}
	e.dt = dt
	run.Run(len(e.chunks), e.job)
	e.time += dt
}

// applyActuators writes every actuator's commands where its agent's
// registers now are, once after agents came or went or the engine was
// reset: the simulator does not call the actuators' Apply at each tick
// (Tickless), and a Set writes into the registers only while the layout
// is the one it found.
func (e *Engine) applyActuators() {
	for _, c := range e.acts {
		c.Apply()
	}
	e.applied = e.layout
}

// step integrates the agents of chunk c for dt in iterations steps from
// time t0.
func (bt *batch) step(c int, dt float64, iterations int, t0 float64) {
	ch := bt.chunks[c]
	n := min(lanes, bt.n-c*lanes)
	d := bt.d
	ns := len(d.States)
	h := dt / float64(iterations)
	regs := ch.regs
	tIn := ns + len(d.Controls)
	tReg := regs[tIn*lanes : tIn*lanes+n]
	reads := bt.prog.reads
	state := func(j int) []float64 { return regs[j*lanes : j*lanes+n] }
	slope := func(j int) []float64 { o := bt.prog.out[j]; return regs[int(o)*lanes : int(o)*lanes+n] }
	for it := 0; it < iterations; it++ {
		t := t0 + float64(it)*h
		if d.Method == Euler {
			fill(tReg, t)
			bt.prog.run(regs, lanes, n)
			// every slope first: a slope may be a state's register
			for j := 0; j < ns; j++ {
				copy(ch.k[j*lanes:j*lanes+n], slope(j))
			}
			for j := 0; j < ns; j++ {
				s, k := state(j), ch.k[j*lanes:j*lanes+n]
				for l := range s {
					s[l] += h * k[l]
				}
			}
			continue
		}
		ran0 := false // the first stage's slopes are in place
		if !reads[tIn] {
			if bt.fewTurn(ch, n, h) {
				continue
			}
			ran0 = true // and the states are in s0
		} else {
			for j := 0; j < ns; j++ {
				copy(ch.s0[j*lanes:j*lanes+n], state(j))
			}
		}
		// the four stages: the slope at t, twice at t+h/2, at t+h. A
		// stage whose inputs are the last stage's, bit for bit, has its
		// slopes: agents standing still, a unicycle's middle stages
		// (theta' = w). Such a stage reads the last stage's slopes
		// where they are (from[stage]) rather than a copy of them.
		var from [4]int
		again := true // the stage's inputs differ from the last run's
		for stage := 0; stage < 4; stage++ {
			ts := t
			switch stage {
			case 1, 2:
				ts = t + h/2
			case 3:
				ts = t + h
			}
			from[stage] = stage
			if stage == 0 && ran0 {
				// fewTurn ran it
			} else if again {
				if reads[tIn] {
					fill(tReg, ts)
				}
				bt.prog.run(regs, lanes, n)
				for j := 0; j < ns; j++ {
					copy(ch.k[(stage*ns+j)*lanes:(stage*ns+j)*lanes+n], slope(j))
				}
			} else {
				from[stage] = from[stage-1]
			}
			if stage == 3 {
				break
			}
			f, next := h/2, t+h/2
			if stage == 2 {
				f, next = h, t+h
			}
			if stage == 1 && !again {
				// the states would be s0 + h/2 times the same slopes
				// as at stage 0: they are already, and so are the
				// inputs of stage 2 (t too: t+h/2 again)
				continue
			}
			var diff uint64
			for j := 0; j < ns; j++ {
				if !reads[j] {
					// a state no derivative depends on: only its value
					// at the end of the step matters
					continue
				}
				s := state(j)
				s0, k := ch.s0[j*lanes:j*lanes+len(s)], ch.k[(from[stage]*ns+j)*lanes:(from[stage]*ns+j)*lanes+len(s)]
				for l := range s {
					v := s0[l] + f*k[l]
					diff |= math.Float64bits(v) ^ math.Float64bits(s[l])
					s[l] = v
				}
			}
			again = diff != 0 || reads[tIn] && next != ts
		}
		same := from[1] == from[0] && from[2] == from[0] && from[3] == from[0]
		// h/6 once: the compiler does not hoist the division out of the
		// loops, where it cost one division per state and agent (the
		// same quotient, so the same sums)
		h6 := h / 6
		for j := 0; j < ns; j++ {
			s := state(j)
			s0 := ch.s0[j*lanes : j*lanes+len(s)]
			if same {
				// every stage had the first one's slopes: the same sum,
				// with one load of them
				k := ch.k[(from[0]*ns+j)*lanes : (from[0]*ns+j)*lanes+len(s)]
				for l := range s {
					kl := k[l]
					s[l] = s0[l] + h6*(kl+2*kl+2*kl+kl)
				}
				continue
			}
			k1 := ch.k[(from[0]*ns+j)*lanes : (from[0]*ns+j)*lanes+len(s)]
			k2 := ch.k[(from[1]*ns+j)*lanes : (from[1]*ns+j)*lanes+len(s)]
			k3 := ch.k[(from[2]*ns+j)*lanes : (from[2]*ns+j)*lanes+len(s)]
			k4 := ch.k[(from[3]*ns+j)*lanes : (from[3]*ns+j)*lanes+len(s)]
			for l := range s {
				s[l] = s0[l] + h6*(k1[l]+2*k2[l]+2*k3[l]+k4[l])
			}
		}
	}
}

// fewTurn runs the first RK4 stage over the chunk's n lanes (the time
// unread: the caller checked) and, when the later stages' inputs differ
// from the first's in a quarter of the lanes or fewer (agents turning,
// among agents driving straight or standing), finishes the step: every
// lane with the sum of the first stage's slopes taken four times, then
// the few lanes whose inputs change one by one (lane), rather than the
// program over every lane at each later stage. The same arithmetic lane
// by lane, so the same bits as the stages over all lanes (a stage whose
// inputs are a lane's last, bit for bit, gives its slopes again). It
// reports whether it finished; if not, the states are in s0 and the first
// stage's slopes in their place for the caller's stages.
//
// When no slope is a state's register (prog.apart) the states and slopes
// are read where they are, and only the few lanes that run the later
// stages keep theirs in s0 and k: no copy of every lane's.
func (bt *batch) fewTurn(ch *chunk, n int, h float64) bool {
	ns := len(bt.d.States)
	p := bt.prog
	reads, out, regs, apart := p.reads, p.out, ch.regs, p.apart
	if !apart {
		for j := 0; j < ns; j++ {
			copy(ch.s0[j*lanes:j*lanes+n], regs[j*lanes:j*lanes+n])
		}
	}
	p.run(regs, lanes, n)
	if !apart {
		for j := 0; j < ns; j++ {
			o := int(out[j]) * lanes
			copy(ch.k[j*lanes:j*lanes+n], regs[o:o+n])
		}
	}
	// the states at the start of the step and the first slopes, state
	// by state
	at := func(j int) (s0, k []float64) {
		if apart {
			o := int(out[j]) * lanes
			return regs[j*lanes : j*lanes+n], regs[o : o+n]
		}
		return ch.s0[j*lanes : j*lanes+n], ch.k[j*lanes : j*lanes+n]
	}
	// the lanes whose second stage's inputs are not the first's
	var moved uint64
	f := h / 2
	for j := 0; j < ns; j++ {
		if !reads[j] {
			continue
		}
		s0, k := at(j)
		for l := range s0 {
			if v := s0[l] + f*k[l]; math.Float64bits(v) != math.Float64bits(s0[l]) {
				moved |= 1 << l
			}
		}
	}
	if bits.OnesCount64(moved) > n/4 {
		if apart {
			for j := 0; j < ns; j++ {
				s0, k := at(j)
				copy(ch.s0[j*lanes:j*lanes+n], s0)
				copy(ch.k[j*lanes:j*lanes+n], k)
			}
		}
		return false
	}
	if apart {
		// the lanes that run the later stages, which overwrite their
		// registers
		for m := moved; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			for j := 0; j < ns; j++ {
				ch.s0[j*lanes+l], ch.k[j*lanes+l] = regs[j*lanes+l], regs[int(out[j])*lanes+l]
			}
		}
	}
	h6 := h / 6
	for j := 0; j < ns; j++ {
		s := regs[j*lanes : j*lanes+n]
		s0, k := at(j) // s0 is s when apart: each lane reads its state, then writes it
		for l := range s {
			kl := k[l]
			s[l] = s0[l] + h6*(kl+2*kl+2*kl+kl)
		}
	}
	for moved != 0 {
		l := bits.TrailingZeros64(moved)
		moved &= moved - 1
		bt.lane(ch, l, h, h6)
	}
	return true
}

// lane runs RK4's later stages for lane l alone, whose first stage's
// slopes are in place, as step does for every lane: the stage's inputs
// s0 + f*k, the program run when they differ from the last stage's (the
// second stage's always do), the sum of the four slopes.
func (bt *batch) lane(ch *chunk, l int, h, h6 float64) {
	if bt.prog.zeros != nil && bt.stillLane(ch, l, h, h6) {
		return
	}
	ns := len(bt.d.States)
	reads, out, r := bt.prog.reads, bt.prog.out, ch.regs
	for stage := 1; stage < 4; stage++ {
		f := h / 2
		if stage == 3 {
			f = h
		}
		changed := stage == 1
		for j := 0; j < ns; j++ {
			if !reads[j] {
				continue
			}
			v := ch.s0[j*lanes+l] + f*ch.k[((stage-1)*ns+j)*lanes+l]
			p := &r[j*lanes+l]
			changed = changed || math.Float64bits(v) != math.Float64bits(*p)
			*p = v
		}
		if changed {
			bt.prog.runLane(r, lanes, l)
			for j := 0; j < ns; j++ {
				ch.k[(stage*ns+j)*lanes+l] = r[int(out[j])*lanes+l]
			}
		} else {
			for j := 0; j < ns; j++ {
				ch.k[(stage*ns+j)*lanes+l] = ch.k[((stage-1)*ns+j)*lanes+l]
			}
		}
	}
	for j := 0; j < ns; j++ {
		k1, k2 := ch.k[j*lanes+l], ch.k[(ns+j)*lanes+l]
		k3, k4 := ch.k[(2*ns+j)*lanes+l], ch.k[(3*ns+j)*lanes+l]
		r[j*lanes+l] = ch.s0[j*lanes+l] + h6*(k1+2*k2+2*k3+k4)
	}
}

// stillLane is lane for a lane whose controls in the products of
// prog.zeros are zeros (a unicycle turning on the spot, v = 0), when the
// states those products are the derivatives of are finite and not zero,
// and the sines' arguments finite at every stage: each such slope is then
// a zero (the sine or cosine of a finite number is finite), the four
// stages' weighted sum a zero, and the state plus it the state itself,
// bit for bit, whatever the sines. Only the other states run the stages,
// through the instructions their derivatives need (prog.read): no sine
// for the products, whose registers, and the sines' memos, keep the first
// stage's values. It reports false, having changed nothing lane reads,
// when the lane is not such a lane.
func (bt *batch) stillLane(ch *chunk, l int, h, h6 float64) bool {
	ns := len(bt.d.States)
	p := bt.prog
	reads, out, r := p.reads, p.out, ch.regs
	for _, z := range p.zeros {
		if math.Float64bits(r[int(z.ctl)*lanes+l])<<1 != 0 {
			return false // not a zero
		}
		if s := ch.s0[int(z.j)*lanes+l]; s == 0 || !finite(s) {
			return false // a zero's sign would count, or no zero is added
		}
		a := r[int(z.arg)*lanes+l] // a control
		if int(z.arg) < ns {
			a = ch.s0[int(z.arg)*lanes+l] // a state, at the first stage
		}
		if !finite(a) {
			return false
		}
	}
	for stage := 1; stage < 4; stage++ {
		f := h / 2
		if stage == 3 {
			f = h
		}
		changed, fin := stage == 1, true
		for j := 0; j < ns; j++ {
			if !reads[j] {
				continue
			}
			v := ch.s0[j*lanes+l] + f*ch.k[((stage-1)*ns+j)*lanes+l]
			q := &r[j*lanes+l]
			changed = changed || math.Float64bits(v) != math.Float64bits(*q)
			fin = fin && finite(v)
			*q = v
		}
		if !fin {
			// an argument of the sines may be infinite or NaN (the read
			// states hold those that are states; the controls were
			// checked): lane starts again from s0 and the first slopes
			return false
		}
		if changed {
			runLane(p.read, r, lanes, l)
		}
		for j := 0; j < ns; j++ {
			if !reads[j] {
				continue
			}
			if changed {
				ch.k[(stage*ns+j)*lanes+l] = r[int(out[j])*lanes+l]
			} else {
				ch.k[(stage*ns+j)*lanes+l] = ch.k[((stage-1)*ns+j)*lanes+l]
			}
		}
	}
	for j := 0; j < ns; j++ {
		if !reads[j] {
			r[j*lanes+l] = ch.s0[j*lanes+l]
			continue
		}
		k1, k2 := ch.k[j*lanes+l], ch.k[(ns+j)*lanes+l]
		k3, k4 := ch.k[(2*ns+j)*lanes+l], ch.k[(3*ns+j)*lanes+l]
		r[j*lanes+l] = ch.s0[j*lanes+l] + h6*(k1+2*k2+2*k3+k4)
	}
	return true
}

// finite reports whether v is neither infinite nor NaN.
func finite(v float64) bool { return math.Abs(v) <= math.MaxFloat64 }

func fill(s []float64, v float64) {
	for i := range s {
		s[i] = v
	}
}

// Commit implements physics.Engine: the agents' x, y and theta become
// their bodies' pose, and their states what the sensors read.
func (e *Engine) Commit(run physics.Runner) {
	perTick := 1 / e.tick
	for _, bt := range e.batches {
		d := bt.d
		ns := len(d.States)
		pose := d.pose[0] >= 0 || d.pose[1] >= 0 || d.pose[2] >= 0
		for ck, c := range bt.chunks {
			base := ck * lanes
			n := min(lanes, bt.n-base)
			vals := bt.vals[base*ns : (base+n)*ns]
			// register by register, as the registers are laid out
			for j := 0; j < ns; j++ {
				for l, v := range c.regs[j*lanes : j*lanes+n] {
					vals[l*ns+j] = v
				}
			}
			if !pose {
				continue
			}
			for l, i := range bt.body[base : base+n] {
				st := vals[l*ns : l*ns+ns]
				b := &e.sp.Bodies[i]
				if j := d.pose[0]; j >= 0 {
					b.Pos.X = st[j]
				}
				if j := d.pose[1]; j >= 0 {
					b.Pos.Y = st[j]
				}
				if j := d.pose[2]; j >= 0 {
					if yaw := st[j]; yaw != c.prevYaw[l] {
						// an agent that does not turn costs no sine
						c.prevYaw[l] = yaw
						bt.setYaw(b, c, l, yaw)
					}
				}
				if e.tick > 0 {
					b.Vel = b.Pos.Sub(c.prevXY[l]).Scale(perTick)
				}
				c.prevXY[l] = b.Pos
			}
		}
	}
}

// setYaw gives body b agent l's heading theta = yaw, as
// b.SetYaw(ci.NormalizeAngle(yaw)) does. A heading in (-pi, pi] is its own
// normal form (math.Mod returns it unchanged); its sine and cosine are
// then those the next step's program computes first, so they are
// computed once, through the program's memo.
func (bt *batch) setYaw(b *space.Body, c *chunk, l int, yaw float64) {
	if !(-math.Pi < yaw && yaw <= math.Pi) {
		b.SetYaw(normalizeAngle(yaw))
		return
	}
	b.Yaw = yaw
	in := bt.yaw
	if in == nil {
		b.Sin, b.Cos = math.Sincos(yaw)
		return
	}
	m, sin, cos := &c.regs[int(in.m)*lanes+l], &c.regs[int(in.dst)*lanes+l], &c.regs[int(in.b)*lanes+l]
	if math.Float64bits(*m) != math.Float64bits(yaw) {
		*m = yaw
		*sin, *cos = math.Sincos(yaw)
	}
	b.Sin, b.Cos = *sin, *cos
}

// normalizeAngle is ci.NormalizeAngle, bit for bit, without math.Mod
// for angles within a million turns (an agent's theta is not wrapped:
// one that turns keeps growing it). The remainder r = |a| - n*2pi of
// math.Mod is exact, and representable; with the right n, one fused
// multiply-add, which rounds once, gives it exactly. n is |a|/2pi
// truncated, which may be one off: r then falls outside [0, 2pi) and n is
// corrected. The sign is a's (math.Mod(-a, b) is -math.Mod(a, b)), and a
// zero remainder has it too.
func normalizeAngle(a float64) float64 {
	const twoPi = 2 * math.Pi
	switch abs := math.Abs(a); {
	case abs < twoPi:
	case abs < 1e6*twoPi:
		n := math.Trunc(abs / twoPi)
		r := math.FMA(-n, twoPi, abs)
		if r < 0 {
			r = math.FMA(-(n - 1), twoPi, abs)
		} else if r >= twoPi {
			r = math.FMA(-(n + 1), twoPi, abs)
		}
		a = math.Copysign(r, a)
	default:
		return ci.NormalizeAngle(a)
	}
	if a <= -math.Pi {
		a += twoPi
	} else if a > math.Pi {
		a -= twoPi
	}
	return a
}

// Reset implements physics.Engine: every agent back to its start state,
// its controls at 0. The devices find their agents again, as after a
// change of the layout: the actuators write their commands anew.
func (e *Engine) Reset() {
	e.time = 0
	e.layout++
	for _, bt := range e.batches {
		for k, i := range bt.body {
			bt.load(k, bt.init[k])
			ns := len(bt.d.States)
			copy(bt.vals[k*ns:(k+1)*ns], bt.init[k])
			b := &e.sp.Bodies[i]
			d := bt.d
			if j := d.pose[0]; j >= 0 {
				b.Pos.X = bt.init[k][j]
			}
			if j := d.pose[1]; j >= 0 {
				b.Pos.Y = bt.init[k][j]
			}
			if j := d.pose[2]; j >= 0 {
				b.SetYaw(ci.NormalizeAngle(bt.init[k][j]))
			}
			b.Vel = ci.Vector2{}
		}
	}
}

// Close implements physics.Engine.
func (e *Engine) Close() error { return nil }

// Contains implements physics.Container: the region, or everywhere.
func (e *Engine) Contains(p ci.Vector3) bool { return e.region == nil || e.region.Contains(p) }

// agentOf returns the batch and place of body i, or nil.
func (e *Engine) agentOf(i int) (*batch, int) {
	if i >= len(e.slot) || e.slot[i].batch < 0 {
		return nil, -1
	}
	r := e.slot[i]
	return e.batches[r.batch], int(r.k)
}

// State copies the states of body i's agent into out (len of the
// dynamics' states) and reports whether the engine owns it.
func (e *Engine) State(i int, out []float64) bool { return e.laneOf(i).state(out) }

// SetControls sets the controls of body i's agent.
func (e *Engine) SetControls(i int, v []float64) { e.laneOf(i).setControls(v) }

// lane is where an agent's registers are: register r of the agent is
// regs[r*lanes]; regs is nil when the engine does not own the body.
// It holds while the engine's layout is the one given.
type lane struct {
	regs   []float64
	ns     int // the number of states: the controls follow them
	layout uint64
}

// laneOf returns where body i's agent's registers are now.
func (e *Engine) laneOf(i int) lane {
	bt, k := e.agentOf(i)
	if bt == nil {
		return lane{layout: e.layout}
	}
	return lane{regs: bt.chunks[k/lanes].regs[k%lanes:], ns: len(bt.d.States), layout: e.layout}
}

// state copies the agent's states into out and reports whether there is
// an agent.
func (l lane) state(out []float64) bool {
	if l.regs == nil {
		return false
	}
	for j := range out {
		out[j] = l.regs[j*lanes]
	}
	return true
}

// setControls sets the agent's controls (NaN as 0).
func (l lane) setControls(v []float64) {
	if l.regs == nil {
		return
	}
	for j, x := range v {
		if math.IsNaN(x) {
			x = 0
		}
		l.regs[(l.ns+j)*lanes] = x
	}
}

// valuesOf returns where Commit leaves the states of body i's agent, or
// nil when the engine does not own the body. It holds while the layout
// does.
func (e *Engine) valuesOf(i int) []float64 {
	bt, k := e.agentOf(i)
	if bt == nil {
		return nil
	}
	ns := len(bt.d.States)
	return bt.vals[k*ns : (k+1)*ns : (k+1)*ns]
}

// setControl sets control j of the agent (NaN as 0).
func (l lane) setControl(j int, x float64) {
	if l.regs == nil {
		return
	}
	if math.IsNaN(x) {
		x = 0
	}
	l.regs[(l.ns+j)*lanes] = x
}

// DynamicsOf returns the dynamics of body i's agent, or nil.
func (e *Engine) DynamicsOf(i int) *Dynamics {
	bt, _ := e.agentOf(i)
	if bt == nil {
		return nil
	}
	return bt.d
}

// UsesMobileIndex tells the simulator that the engine never queries the
// space's index of mobile bodies (agents go through one another).
func (e *Engine) UsesMobileIndex() bool { return false }
