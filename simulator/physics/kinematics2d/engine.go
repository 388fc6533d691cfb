package kinematics2d

import (
	"fmt"
	"math"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/internal/hugepage"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

func init() {
	physics.Engines.MustRegister("kinematics2d",
		"First-order 2D kinematics: bodies move at the velocity they ask for and stop at obstacles, without forces, mass "+
			"or friction; the fastest engine. Attributes: id (required), iterations (sub-steps per tick, default 1), "+
			"perpendicular (x|y|z, default z) and distance (default 0) place its plane on the floor, a wall or the "+
			"ceiling; <boundaries> (optional region), <entity id=\"regexp\"/> (entities it owns wherever they are).",
		New)
}

// Engine is a kinematics2d engine. Build it with New.
type Engine struct {
	id         string
	index      int
	region     *physics.Prism
	sp         *space.Space
	iterations int
	axis       int // 0: x, 1: y, 2: z
	distance   float64

	objs     []object
	start    []startPose // per object
	slot     []int32     // body handle -> object index, -1 when not owned
	static   []bool      // body handle -> a static body this engine shares
	bodies   []int
	grid     space.PointGrid
	useSpace bool    // this step reads the space's index instead of grid
	maxReach float64 // the longest proposed move of this sub-step
	chunk    int
	maxR     float64   // largest radius of the owned bodies
	reachOf  []float64 // per chunk: the longest proposed move
	gone     [][]int32 // per chunk: proposals withdrawn in the last round
	// sparse, per chunk: the last first round checked in full at most
	// half of the chunk's objects (see checkFirst)
	sparse []bool
	// keep, per chunk: the proposals the last round kept that a
	// withdrawal may still make collide, each with the moving neighbours
	// whose start pose it touches (those whose withdrawal may make it
	// collide, see conflicts): k, their number, then the neighbours
	keep [][]int32
	// recheck (tests only, with recheckAll) lists the objects a round
	// after the first checks in full, in chunks; nil in the first round,
	// which checks every object.
	recheck    []int32
	recheckBuf []int32 // recheck's memory, kept from step to step
	round      int     // the round the check job runs, 0 the first
	// still, per object: it did not move in the last sub-step and
	// proposes the same move (same target velocities, so the same bits)
	// from the same pose in this one. When k and the object that made
	// k's proposal collide in the first round of the last sub-step
	// (object.blocker) are both still, they collide again: k is withdrawn
	// without looking for its neighbours. A robot stuck against another,
	// as many are in a long run of a crowded swarm, costs little then.
	// (Apart from the objects, in a byte each: a blocker is anywhere.)
	still []bool
	// same: the still flags and blockers may be trusted in this
	// sub-step: the last sub-step had the same length,
	// and no Add, Remove or Reset came since. known: blockers were
	// recorded by a sub-step since the last Add, Remove or Reset; lastSub
	// is that sub-step's length.
	same, known bool
	lastSub     float64
	// quiet: Commit may leave alone the bodies of the objects that are
	// still and did not move: they hold what it would write, as the last
	// Commit wrote it (one sub-step per tick, and that Commit came after
	// the last Step; no Add, Remove or Reset since). committed: Commit
	// came after the last Step.
	quiet, committed bool
	// recheckAll (tests only) makes every round recheck every moving
	// object and forgets the blockers, as a plain Jacobi iteration would
	recheckAll bool
	jobs       jobs
	// parameters of the sub-step the jobs run
	dt, sub     float64
	first, last bool
	// accepting: the last sub-step's proposals are still to be accepted;
	// Commit does it in its pass over the objects (one pass less per
	// tick), and anything else that reads them does it first (settle)
	accepting bool
	// run: the objects are the bodies base, base+1, ... in that order
	// (one engine owning every mobile body, as a swarm has it), so that
	// near finds a body's object index without reading slot
	run  bool
	base int32
}

// object is an owned body's state in the engine's plane: what every
// sub-step reads and writes, in 128 bytes, two cache lines. The pose it
// was added with, which only Reset reads, is kept apart (start); the
// velocities it ends a step with are written to its body as they are
// found (accept, Commit).
type object struct {
	body   int32
	shape  space.Shape
	moving bool
	// exact: cos and sin are math.Sincos(a) bit for bit (always, except
	// for a body added with a heading whose cosine and sine were found
	// otherwise, until its first turn), so that a straight move reuses
	// them instead of calling Sincos of the same angle
	exact    bool
	blocker  int32 // the object that withdrew its last proposal in a first round, or -1
	radius   float64
	p        ci.Vector2 // plane coordinates
	a        float64
	cos, sin float64 // of a
	// proposed pose of this sub-step, when moving; otherwise the last
	// one made (the pose is p)
	cand   ci.Vector2
	candA  float64
	cc, cs float64 // cosine and sine of candA
	// tv and tw: the target velocities of its last proposal; tw is also
	// the body's angular velocity after the step, moving or withdrawn
	// (Commit writes it; nothing changes it before)
	tv, tw float64
	_      [8]byte // (128 bytes)
}

// pose returns where o is at the end of the sub-step as the round knows
// it: its proposal when it moves, its pose when not.
func (o *object) pose() ci.Vector2 {
	if o.moving {
		return o.cand
	}
	return o.p
}

// footprint returns object o's footprint at p, turned by (cos, sin). A
// box's half sizes are its body's (they do not change), out of the
// objects, which are mostly discs.
func (e *Engine) footprint(o *object, p ci.Vector2, cos, sin float64) space.Footprint {
	f := space.Footprint{Shape: o.shape, Radius: o.radius, Pos: p, Cos: cos, Sin: sin}
	if o.shape != space.Disc {
		f.Half = e.sp.Bodies[o.body].Half
	}
	return f
}

// startPose is the pose an object was added with, for Reset; and, with
// several sub-steps per tick, its position at the start of the tick, for
// its velocity (with one, the start of the sub-step is the object's
// position until accept).
type startPose struct {
	p     ci.Vector2
	a     float64
	prevP ci.Vector2
}

// New builds an engine from its <kinematics2d> element.
func New(n *config.Node, env physics.Env) (physics.Engine, error) {
	h, err := physics.ParseHeader(n, 1, "perpendicular", "distance")
	if err != nil {
		return nil, err
	}
	id, it := h.ID, h.Iterations
	e := &Engine{id: id, index: env.Index, sp: env.Space, iterations: it, chunk: 512}
	switch ax := n.StringOr("perpendicular", "z"); ax {
	case "x":
		e.axis = 0
	case "y":
		e.axis = 1
	case "z":
		e.axis = 2
	default:
		return nil, n.Errorf("kinematics2d: perpendicular=%q: use x, y or z (the axis the plane is perpendicular to)", ax)
	}
	if e.distance, err = n.FloatOr("distance", 0); err != nil {
		return nil, err
	}
	e.region = h.Region
	return e, nil
}

// ID implements physics.Engine.
func (e *Engine) ID() string { return e.id }

// Region implements physics.Engine.
func (e *Engine) Region() *physics.Prism { return e.region }

// Bodies implements physics.Engine.
func (e *Engine) Bodies() []int { return e.bodies }

// Plane reports the axis (0 x, 1 y, 2 z) the plane is perpendicular to
// and its distance from the origin.
func (e *Engine) Plane() (axis int, distance float64) { return e.axis, e.distance }

// Contains implements physics.Container: a point belongs to the engine
// when it lies in its plane (and region).
func (e *Engine) Contains(p ci.Vector3) bool {
	c := [3]float64{p.X, p.Y, p.Z}[e.axis]
	return math.Abs(c-e.distance) < 1e-6 && (e.region == nil || e.region.Contains(p))
}

// toPlane and fromPlane map arena coordinates of a body to the plane.
func (e *Engine) toPlane(b *space.Body) ci.Vector2 {
	switch e.axis {
	case 0:
		return ci.Vector2{X: b.Pos.Y, Y: b.Z}
	case 1:
		return ci.Vector2{X: b.Z, Y: b.Pos.X}
	}
	return b.Pos
}

func (e *Engine) fromPlane(b *space.Body, p ci.Vector2) {
	switch e.axis {
	case 0:
		b.Pos, b.Z = ci.Vector2{X: e.distance, Y: p.X}, p.Y
	case 1:
		b.Pos, b.Z = ci.Vector2{X: p.Y, Y: e.distance}, p.X
	default:
		b.Pos, b.Z = p, e.distance
	}
}

// AddStatic implements physics.Engine. The engine finds static obstacles
// through the space's index and records only which ones it shares: in a
// horizontal plane, those spanning the plane's height block bodies;
// other planes ignore them.
func (e *Engine) AddStatic(i int) error {
	for len(e.static) <= i {
		e.static = append(e.static, false)
	}
	e.static[i] = true
	return nil
}

// Grow makes room for n more bodies, so that adding many bodies does not
// copy the ones added before.
func (e *Engine) Grow(n int) {
	e.objs = hugepage.Grow(e.objs, n)
	e.start = hugepage.Grow(e.start, n)
	e.bodies = hugepage.Grow(e.bodies, n)
}

// Add implements physics.Engine.
func (e *Engine) Add(i int) error {
	e.settle(physics.Serial{})
	// (Remove and Reset too: objects move, blockers with them)
	e.known, e.quiet = false, false
	b := &e.sp.Bodies[i]
	if !b.Movable {
		return fmt.Errorf("kinematics2d: body %q is static; add it with AddStatic", b.ID)
	}
	if len(e.slot) < len(e.sp.Bodies) {
		old := len(e.slot)
		e.slot = hugepage.Grow(e.slot, cap(e.sp.Bodies)-old)[:len(e.sp.Bodies)]
		for k := old; k < len(e.slot); k++ {
			e.slot[k] = -1
		}
	}
	if e.slot[i] >= 0 {
		return fmt.Errorf("kinematics2d: engine %q already owns body %q", e.id, b.ID)
	}
	p := e.toPlane(b)
	// (tw: the body's angular velocity until the engine's first step, as
	// Commit writes it; the still flags compare it with a target only
	// after a step, known)
	o := object{body: int32(i), blocker: -1, shape: b.Shape, radius: b.Radius, p: p, a: b.Yaw, cos: b.Cos, sin: b.Sin,
		tw: b.AngVel}
	sn, cs := math.Sincos(b.Yaw)
	o.exact = sameBits(sn, b.Sin) && sameBits(cs, b.Cos)
	b.Engine = int32(e.index)
	e.maxR = max(e.maxR, b.Radius)
	if len(e.objs) == 0 {
		e.run, e.base = true, int32(i)
	}
	e.run = e.run && i == int(e.base)+len(e.objs)
	e.slot[i] = int32(len(e.objs))
	e.objs = append(e.objs, o)
	e.start = append(e.start, startPose{p: p, a: b.Yaw, prevP: p})
	e.bodies = append(e.bodies, i)
	return nil
}

// Remove implements physics.Engine. The last body takes the removed
// one's place, so removal costs O(1) (migration removes bodies every tick).
func (e *Engine) Remove(i int) {
	e.settle(physics.Serial{})
	if i >= len(e.slot) || e.slot[i] < 0 {
		return
	}
	e.known, e.quiet = false, false
	k, last := int(e.slot[i]), len(e.objs)-1
	e.run = e.run && k == last // the last one: the others stay a run
	e.objs[k], e.bodies[k], e.start[k] = e.objs[last], e.bodies[last], e.start[last]
	e.slot[e.objs[k].body] = int32(k)
	e.objs, e.bodies, e.start = e.objs[:last], e.bodies[:last], e.start[:last]
	e.slot[i] = -1
}

// Step implements physics.Engine.
func (e *Engine) Step(dt float64, run physics.Runner) {
	e.settle(run)
	n := len(e.objs)
	if n == 0 {
		return
	}
	if e.jobs.propose == nil {
		e.makeJobs()
	}
	e.dt, e.sub = dt, dt/float64(e.iterations)
	e.quiet, e.committed = e.committed && e.iterations == 1, false
	if len(e.still) < n {
		e.still = make([]bool, cap(e.objs))
	}
	chunks := (n + e.chunk - 1) / e.chunk
	if len(e.reachOf) < chunks {
		e.reachOf = make([]float64, chunks)
		e.gone = make([][]int32, chunks)
		e.keep = make([][]int32, chunks)
		e.sparse = make([]bool, chunks)
	}
	for s := 0; s < e.iterations; s++ {
		// 1. every body proposes its move from the same state
		e.first, e.last = s == 0, s == e.iterations-1
		e.same = e.known && sameBits(e.sub, e.lastSub) && !e.recheckAll
		run.Run(chunks, e.jobs.propose)
		maxReach := 0.0
		for _, m := range e.reachOf[:chunks] {
			maxReach = max(maxReach, m)
		}
		// 2. withdraw colliding proposals until none changes. Withdrawals
		// only shrink the set of moving bodies, so this ends (in two or
		// three rounds early in a diffusion run, about five once its
		// robots crowd into clusters). After the first round, only the
		// proposals that touch a moving neighbour's start pose can change
		// their minds, when that neighbour is withdrawn (keep).
		e.useSpace = e.axis == 2 && e.iterations == 1
		if !e.useSpace {
			e.grid.Build(n, e.jobs.planePos, max(2*e.maxR+2*maxReach+1e-3, 0.25))
		}
		e.maxReach = maxReach
		e.recheck = nil
		tasks := chunks
		for e.round = 0; ; e.round++ {
			run.Run(tasks, e.jobs.check)
			if !slices.ContainsFunc(e.gone[:tasks], func(g []int32) bool { return len(g) > 0 }) {
				break
			}
			// Jacobi: withdrawals take effect together, after the round
			run.Run(tasks, e.jobs.withdraw)
			// the next round checks the kept proposals that a withdrawal
			// may have made collide, chunk by chunk as the first (each
			// chunk's list is short, most empty)
			if !e.recheckAll {
				continue
			}
			next := e.recheckBuf[:0]
			for k := range e.objs {
				if e.objs[k].moving {
					next = append(next, int32(k))
				}
			}
			e.recheck, e.recheckBuf = next, next
			tasks = (len(next) + e.chunk - 1) / e.chunk
		}
		e.known, e.lastSub = true, e.sub
		// 3. accept what is left: the last sub-step's in Commit, which
		// goes over the objects anyway
		if e.last {
			e.accepting = true
		} else {
			run.Run(chunks, e.jobs.accept)
		}
	}
}

// settle accepts the proposals Step left to Commit, for the callers that
// read or change the objects before Commit does.
func (e *Engine) settle(run physics.Runner) {
	if e.accepting {
		e.accepting = false
		run.Run((len(e.objs)+e.chunk-1)/e.chunk, e.jobs.accept)
	}
}

// jobs are the parallel passes of Step over chunks of objects, made once
// so that a step allocates nothing; they read the sub-step's parameters
// from the engine.
type jobs struct {
	propose, check, withdraw, accept, commit func(chunk int)
	planePos                                 func(k int) ci.Vector2
}

// span returns the objects of chunk c.
func (e *Engine) span(c int) []object {
	return e.objs[c*e.chunk : min((c+1)*e.chunk, len(e.objs))]
}

func (e *Engine) makeJobs() {
	e.jobs.propose = func(c int) {
		m := 0.0
		objs := e.span(c)
		still := e.still[c*e.chunk:]
		if e.first && e.iterations > 1 {
			start := e.start[c*e.chunk:]
			for k := range objs {
				start[k].prevP = objs[k].p
			}
		}
		for k := range objs {
			m = max(m, e.propose(&objs[k], &still[k], e.sub))
		}
		e.reachOf[c] = m
	}
	e.jobs.check = func(c int) {
		// conflicts reads the other objects' poses, proposals and moving
		// and still flags, which only propose and withdraw write; a
		// check writes its own object's blocker only, which no other
		// check reads: the round is Jacobi
		pad := e.maxR + e.maxReach
		gone, keep := e.gone[c][:0], e.keep[c][:0]
		switch {
		case e.round == 0:
			gone, keep = e.checkFirst(c, pad, gone, keep)
		case e.recheck == nil:
			// A kept proposal checked in full again would meet the same
			// neighbours in the same states, save those withdrawn since:
			// a withdrawal changes nothing else. So the proposal is
			// checked against the neighbours it touches that the last
			// round withdrew, each once, the only ones that may make it
			// collide now; the others stay listed, in place (the list
			// only shrinks).
			list := e.keep[c]
			keep = list[:0]
			for i := 0; i < len(list); {
				k, n := list[i], int(list[i+1])
				touched := list[i+2 : i+2+n]
				i += 2 + n
				o := &e.objs[k]
				var cand, old space.Footprint
				made, collides := false, false
				m := len(keep)
				keep = append(keep, k, 0)
				for _, j := range touched {
					q := &e.objs[j]
					if q.moving {
						keep = append(keep, j)
						continue
					}
					if !made {
						cand, old, made = e.footprint(o, o.cand, o.cc, o.cs), e.footprint(o, o.p, o.cos, o.sin), true
					}
					if e.collides(o, q, &cand, &old) {
						collides = true
						break
					}
				}
				switch {
				case collides:
					gone, keep = append(gone, k), keep[:m]
				case len(keep) == m+2:
					keep = keep[:m] // no moving neighbour left to withdraw
				default:
					keep[m+1] = int32(len(keep) - m - 2)
				}
			}
		default:
			// (tests: every object listed is moving)
			for _, k := range e.recheck[c*e.chunk : min((c+1)*e.chunk, len(e.recheck))] {
				if blocker, _ := e.conflicts(int(k), pad, nil); blocker != free {
					gone = append(gone, k)
				}
			}
		}
		e.gone[c], e.keep[c] = gone, keep
	}
	e.jobs.withdraw = func(c int) {
		for _, k := range e.gone[c] {
			// (the proposal stays, for propose to find it again)
			e.objs[k].moving = false
		}
	}
	e.jobs.accept = func(c int) {
		objs := e.span(c)
		for k := range objs {
			e.accept(&objs[k], c*e.chunk+k)
		}
	}
	e.jobs.planePos = func(k int) ci.Vector2 { return e.objs[k].p }
	e.jobs.commit = func(c int) {
		objs := e.span(c)
		accepting := e.accepting
		var still []bool
		if e.quiet {
			still = e.still[c*e.chunk:]
		}
		for k := range objs {
			o := &objs[k]
			if still != nil && still[k] && !o.moving {
				// the same pose, heading and velocities as the
				// last Commit wrote: the object did not move in this
				// step nor in the last one (so its velocity is zero
				// again), and its target angular velocity is the same
				continue
			}
			if accepting {
				e.accept(o, c*e.chunk+k)
			}
			b := &e.sp.Bodies[o.body]
			e.fromPlane(b, o.p)
			// the cosine and sine of the step's heading are known already
			b.Yaw, b.Cos, b.Sin = normalizeAngle(o.a), o.cos, o.sin
			b.AngVel = o.tw
		}
	}
}

// accept makes o's proposal its pose (o is object k): a withdrawn
// object (not moving) keeps its pose, and its proposal for propose. At
// the last sub-step it also writes the body's velocity, the move of the
// tick over the tick's length, which nothing else reads of the object
// (Commit, the usual caller, writes the rest of the body at once).
func (e *Engine) accept(o *object, k int) {
	prev := o.p
	if o.moving {
		o.p, o.a, o.cos, o.sin = o.cand, o.candA, o.cc, o.cs
		// an accepted move's cosine and sine came from Sincos of its
		// heading (or were exact before a straight move)
		o.exact = true
	}
	if e.last {
		// the move of the tick over the tick's length
		if e.iterations > 1 {
			prev = e.start[k].prevP
		}
		e.sp.Bodies[o.body].Vel = o.p.Sub(prev).Scale(1 / e.dt)
	}
}

// checkFirst runs the first round of checks of chunk c: the proposals
// of its moving objects, each in full save those withdrawn without a look
// (needsCheck). It returns gone and keep (see Engine) with the chunk's
// withdrawn and kept proposals appended.
//
// Late in a crowded run most robots are jammed, and the proposals left
// to check in full are a scattered few: each would wait for the memory of
// its body's clearance, the first thing its check reads. When the last
// first round found the chunk so (sparse), a scan runs clearAhead
// proposals to check ahead of the checks and asks for their clearances.
// (In a chunk most of whose proposals are checked, as in the first
// minutes, the clearances are read in order, as the processor foresees:
// the scan would only cost. Run in every chunk, with the neighbour lists
// asked for too, it made a million e-pucks' first minute 4 % dearer.)
func (e *Engine) checkFirst(c int, pad float64, gone, keep []int32) ([]int32, []int32) {
	lo, hi := c*e.chunk, min((c+1)*e.chunk, len(e.objs))
	ask := e.useSpace && e.sparse[c]
	// a: the next object the scan looks at; ahead: the proposals to
	// check it found beyond the one checked
	a, ahead, checked := lo, 0, 0
	for k := lo; k < hi; k++ {
		o := &e.objs[k]
		if !o.moving {
			continue
		}
		if !e.needsCheck(k) {
			gone = append(gone, int32(k))
			continue
		}
		checked++
		if ask {
			a, ahead = e.scanAhead(k, a, ahead, hi)
		}
		n := len(keep)
		keep = append(keep, int32(k), 0)
		blocker, touched := e.conflicts(k, pad, keep)
		o.blocker = max(blocker, -1) // (a static body is not kept)
		switch {
		case blocker != free:
			gone, keep = append(gone, int32(k)), keep[:n]
		case len(touched) == n+2:
			keep = keep[:n] // it touches no moving neighbour
		default:
			keep = touched
			keep[n+1] = int32(len(keep) - n - 2)
		}
	}
	e.sparse[c] = 2*checked <= hi-lo
	return gone, keep
}

// scanAhead moves checkFirst's scan on as the check of proposal k
// begins: from object a, with ahead proposals to check found beyond the
// last one checked, on to clearAhead proposals to check beyond k or hi,
// asking for their clearances. It returns where the scan stopped and
// what it found beyond k. (Apart, so that the loop of a dense chunk,
// which does not scan, stays as tight as it was.)
//
//go:noinline
func (e *Engine) scanAhead(k, a, ahead, hi int) (int, int) {
	if k < a {
		ahead-- // the scan found k (every object it passed lies beyond an earlier proposal)
	}
	for ; a < hi && ahead < clearAhead; a++ {
		if a > k && e.objs[a].moving && e.needsCheck(a) {
			ahead++
			e.sp.PrefetchClearance(int(e.objs[a].body))
		}
	}
	return a, ahead
}

// needsCheck reports whether the first round checks moving object k's
// proposal in full: k and the object its proposal collided with in the
// last first round are not both still. If they are, the same two
// proposals from the same poses collide as they did (the blocker is found
// by any query around k's proposal): k is withdrawn without a look.
func (e *Engine) needsCheck(k int) bool {
	b := e.objs[k].blocker
	return !(e.still[k] && b >= 0 && e.still[b])
}

// clearAhead is how many proposals to check ahead of the one it checks
// the first round of a sparse chunk asks for the clearance of (see
// checkFirst). Asking also for the neighbour lists, four proposals ahead,
// measured no better.
const clearAhead = 8

// nearBuf is how many neighbours near finds without allocating.
const nearBuf = 32

// near appends to buf the objects that may come within r of q, a point
// near object k: their footprint at the start of the step, grown by the
// longest move of the step, meets the disc (k itself may be among them).
// A floor engine stepping once per tick reads the space's own index,
// which holds exactly those positions in a packed form (and k's
// neighbour list); other engines index their bodies in their plane
// themselves.
func (e *Engine) near(k int, q ci.Vector2, r float64, buf []int32) []int32 {
	if !e.useSpace {
		m := ci.Vector2{X: r + e.maxR + e.maxReach, Y: r + e.maxR + e.maxReach}
		return e.grid.AppendNear(q.Sub(m), q.Add(m), buf)
	}
	o := &e.objs[k]
	found := e.sp.NearMobileDiscOf(int(o.body), o.p, q, r+e.maxReach, buf)
	n := 0
	if e.run {
		for _, i := range found {
			if j := i - e.base; uint32(j) < uint32(len(e.objs)) {
				found[n] = j
				n++
			}
		}
		return found[:n]
	}
	for _, i := range found {
		if int(i) < len(e.slot) && e.slot[i] >= 0 {
			found[n] = e.slot[i]
			n++
		}
	}
	return found[:n]
}

// propose integrates the body's velocity along the arc for dt and
// returns the length of the move.
func (e *Engine) propose(o *object, still *bool, dt float64) float64 {
	dr := &e.sp.Drive[o.body]
	v, w := dr.V, dr.W
	// o.moving is still the last sub-step's: whether o moved in it
	*still = e.same && !o.moving && sameBits(v, o.tv) && sameBits(w, o.tw)
	o.tv, o.tw = v, w
	reach := math.Abs(v) * dt
	o.moving = v != 0 || w != 0
	if !o.moving || *still {
		// no proposal (conflicts and accept read the pose of an object
		// that does not move), or the one of the last sub-step, which
		// o did not move in: made from the same pose, velocities and
		// length, it is the same, bit for bit (withdraw left it)
		return reach
	}
	da := w * dt
	d := v * dt
	if math.Abs(da) > 1e-12 {
		// exact arc: chord length 2R sin(da/2) along the mid heading
		d = 2 * v / w * math.Sin(da/2)
	}
	mid := o.a + da/2
	o.candA = o.a + da
	if o.exact && sameBits(mid, o.a) && sameBits(o.candA, o.a) {
		// a straight move (no turn: da is zero): the heading's cosine
		// and sine are those Sincos would give again
		o.cand = ci.Vector2{X: o.p.X + d*o.cos, Y: o.p.Y + d*o.sin}
		o.cc, o.cs = o.cos, o.sin
		return reach
	}
	// (math.Sincos gives math.Sin and math.Cos bit for bit)
	sm, cm := math.Sincos(mid)
	o.cand = ci.Vector2{X: o.p.X + d*cm, Y: o.p.Y + d*sm}
	o.cs, o.cc = math.Sincos(o.candA)
	return reach
}

// sameBits reports whether a and b are the same float64, bit for bit
// (-0 and +0 differ, a NaN equals itself).
func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// free and static are what conflicts returns for a proposal that collides
// with nothing, and for one that collides with a static body only.
const (
	free   = -1
	static = -2
)

// conflicts reports whether object k's proposal makes it overlap another
// proposal (or a static body) more than it did before the move: it
// returns the object it found so (or static, or free for none). When it
// finds none, it also appends to touched the moving neighbours whose
// start pose the proposal touches: only the withdrawal of one of them
// (a withdrawn proposal is the start pose) can make a later round
// withdraw this proposal.
func (e *Engine) conflicts(k int, pad float64, touched []int32) (blocker int32, _ []int32) {
	o := &e.objs[k]
	// the footprints before and after the move, made when a body comes
	// near (most proposals meet nothing)
	var cand, old space.Footprint
	made := false
	lo := ci.Vector2{X: o.cand.X - pad - o.radius, Y: o.cand.Y - pad - o.radius}
	hi := ci.Vector2{X: o.cand.X + pad + o.radius, Y: o.cand.Y + pad + o.radius}
	// A body farther from every other than two moves can bring it closer
	// meets none of them: only static bodies are left to check.
	isolated := false
	if e.useSpace {
		gap, ok := e.sp.Clearance(int(o.body), o.p)
		isolated = ok && gap > 2*e.maxReach
	}
	if !isolated {
		var buf [nearBuf]int32
		for _, j := range e.near(k, o.cand, o.radius, buf[:0]) {
			if int(j) == k {
				continue
			}
			q := &e.objs[j]
			r := q.radius + o.radius
			// a later round's check of the proposal against q's start
			// pose (the same test as below, after q's withdrawal) may
			// find a contact
			if q.moving {
				if d := q.p.Sub(o.cand); !(d.X*d.X+d.Y*d.Y > r*r) {
					touched = append(touched, j)
				}
			}
			// discs around both footprints that do not meet: no contact
			d := q.pose().Sub(o.cand)
			if d.X*d.X+d.Y*d.Y > r*r {
				continue
			}
			if !made {
				cand, old, made = e.footprint(o, o.cand, o.cc, o.cs), e.footprint(o, o.p, o.cos, o.sin), true
			}
			if e.collides(o, q, &cand, &old) {
				return j, touched
			}
		}
	}
	if e.axis != 2 {
		return free, touched
	}
	var buf [nearBuf]int32
	for _, i := range e.sp.AppendStatic(lo, hi, buf[:0]) {
		b := &e.sp.Bodies[i]
		if int(i) >= len(e.static) || !e.static[i] || b.Z > e.distance || b.Top() < e.distance {
			continue
		}
		if !made {
			cand, old, made = e.footprint(o, o.cand, o.cc, o.cs), e.footprint(o, o.p, o.cos, o.sin), true
		}
		s := b.Footprint()
		if g := space.FootprintGap(&cand, &s); g < 0 && g < space.FootprintGap(&old, &s) {
			return static, touched
		}
	}
	return free, touched
}

// collides reports whether o's proposal, whose footprint is cand (old
// before the move), overlaps q's (q's pose, when q does not move) more
// than o's start overlaps q's start.
func (e *Engine) collides(o, q *object, cand, old *space.Footprint) bool {
	other := e.footprint(q, q.cand, q.cc, q.cs)
	if !q.moving {
		other = e.footprint(q, q.p, q.cos, q.sin)
	}
	if g := space.FootprintGap(cand, &other); g < 0 {
		before := e.footprint(q, q.p, q.cos, q.sin)
		return g < space.FootprintGap(old, &before)
	}
	return false
}

// Commit implements physics.Engine.
func (e *Engine) Commit(run physics.Runner) {
	if e.jobs.commit == nil {
		e.makeJobs()
	}
	run.Run((len(e.objs)+e.chunk-1)/e.chunk, e.jobs.commit)
	e.accepting, e.quiet, e.committed = false, false, true
}

// Reset implements physics.Engine.
func (e *Engine) Reset() {
	e.settle(physics.Serial{})
	e.known, e.quiet = false, false
	for k := range e.objs {
		o := &e.objs[k]
		o.p, o.a, o.tw = e.start[k].p, e.start[k].a, 0
		o.sin, o.cos = math.Sincos(o.a)
		o.exact = true
		b := &e.sp.Bodies[o.body]
		e.fromPlane(b, o.p)
		b.SetYaw(o.a)
		b.Vel, b.AngVel = ci.Vector2{}, 0
	}
}

// Close implements physics.Engine.
func (e *Engine) Close() error {
	e.accepting = false
	e.objs, e.bodies, e.start = nil, nil, nil
	return nil
}

// normalizeAngle is ci.NormalizeAngle, bit for bit, without its math.Mod
// for the angles already in (-pi, pi] (Mod returns those unchanged), and
// with modTwoPi's for the others: the heading of a robot that turned
// leaves (-pi, pi] soon and for good (the engine adds up its turns), so
// Commit takes the remainder of most of a late swarm's headings, every
// tick.
func normalizeAngle(a float64) float64 {
	if a > -math.Pi && a <= math.Pi {
		return a
	}
	a = modTwoPi(a)
	if a <= -math.Pi {
		a += 2 * math.Pi
	} else if a > math.Pi {
		a -= 2 * math.Pi
	}
	return a
}

// modTwoPi is math.Mod(a, 2*math.Pi), bit for bit, in a few
// instructions for the angles below 2^30 radians instead of Mod's loop
// (a subtraction in the second turn, where most headings of a swarm
// are). The remainder a - n 2pi (n the quotient, truncated) is a float64,
// exactly, so math.FMA, which rounds once, gives it exactly; the quotient
// of the division, rounded, is n or, when the exact quotient lies within
// an ulp of an integer, one more or one less: the remainder's range tells
// which.
func modTwoPi(a float64) float64 {
	const twoPi = 2 * math.Pi
	x := math.Abs(a)
	if !(x < 1<<30) {
		return math.Mod(a, twoPi) // NaN, infinities, and far too many turns
	}
	var r float64
	switch {
	case x < twoPi:
		return a // (Mod's answer, in the first turn)
	case x < 2*twoPi:
		r = x - twoPi // exact: x is within twice 2pi (Sterbenz)
	default:
		n := float64(int64(x / twoPi))
		r = math.FMA(-n, twoPi, x)
		if r < 0 {
			r = math.FMA(-(n - 1), twoPi, x)
		} else if r >= twoPi {
			r = math.FMA(-(n + 1), twoPi, x)
		}
	}
	if math.Signbit(a) {
		return -r // (-0 for a whole number of turns, as Mod)
	}
	return r
}
