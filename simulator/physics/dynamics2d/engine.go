package dynamics2d

import (
	"fmt"
	"math"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
	"github.com/jakecoffman/cp/v2"
)

func init() {
	physics.Engines.MustRegister("dynamics2d",
		"2D dynamics on cp (Chipmunk): wheeled robots dragged toward their wheel velocities with bounded force and torque, "+
			"pushable boxes and cylinders with floor friction, walls. Attributes: id (required), iterations (default 10), "+
			"spatial_index (bbtree|hash, with active_cell_size and active_cells), <boundaries> (optional region), <entity id=\"regexp\"/> (entities it owns wherever they are).",
		New)
}

// Contact friction coefficients of the shapes, ARGoS's: robots and
// movable objects grip (0.7); walls and other static shapes have little
// friction (0.1), so that a robot pressed against a wall slides along it.
// cp multiplies the coefficients of the two shapes of a contact: 0.49
// between two robots, 0.07 between a robot and a wall.
const (
	mobileFriction = 0.7
	staticFriction = 0.1
)

// Engine is a dynamics2d engine. Build it with New.
type Engine struct {
	id         string
	index      int
	region     *physics.Prism
	sp         *space.Space
	iterations int
	tick       float64

	cps *cp.Space
	// drives solves the drive of every body in cps (drive.go).
	drives driveSet
	// objs are the owned bodies in the order they were added; Remove
	// leaves a nil hole (holes counts them), which compact closes while
	// keeping that order, so that removing costs O(1) however many bodies
	// the engine owns (migration removes bodies every tick).
	objs  []*object
	holes int
	slot  []int32 // body handle -> position in objs, -1 when not owned
	// slab is where new objects are made, a chunk at a time, so that
	// objects added together lie together in memory; free are the objects
	// of removed bodies, made again first.
	slab []object
	free []*object
	// parts are the cp bodies and shapes not lent, by geometry; partSlab
	// is where new ones are made (parts.go)
	parts    map[partKey][]*cpPart
	partSlab []cpPart

	bodies  []int
	statics []int
	prevSub float64 // the last sub-step cp took, 0 before the first
	chunk   int
	cpList  []*object
	// per chunk of objs: the longest reach, the bodies to move in or out
	// of cp (in order), those stepped in cp and those stepped free
	chunkReach []float64
	trans      [][]*object
	cpOf       [][]*object
	freeOf     [][]*object

	// forceCP hands every body to cp, never to the free integrator. Tests
	// set it (export_test.go) to compare both paths.
	forceCP bool
	// contacts is cp's handler for every pair of shapes: midContacts, and
	// meetVertically once heights is set.
	contacts *cp.CollisionHandler
	// heights: a body off the floor was added, and cp checks the height
	// ranges of touching bodies (see meetVertically).
	heights bool
	// grips are the joints of grippers, by gripper body (grip.go).
	grips map[int]*grip

	// jobs are Step's and Commit's parallel passes, made once so that a
	// step allocates nothing of its own; they read the step's parameters
	// below.
	jobs struct {
		reach, crowded, move, commit func(chunk int)
	}
	dt, maxReach, sub, coef float64
}

type object struct {
	// The fields every tick's passes over all the bodies read (reach,
	// crowded, stepFree, commit) come first, then the drive, so that a
	// free body's step reads one run of memory.
	body int

	// pose and velocity; authoritative while the body is free
	p cp.Vector
	a float64
	v cp.Vector
	w float64

	reach  float64 // how far it may travel in this step (Step)
	spin   float64 // extra reach of a box's corners when it turns
	joints int32   // grips holding or held by the body: it stays in cp
	cpIdx  int32   // where cpb is in the cp space's list of bodies (cpbody.go)
	inCP   bool
	wantCP bool

	drive drive
	cpA   float64 // the angle of the cp body when the body last left cp (parts.go)

	// the cp body and shape lent while the body is in cp (parts.go), nil
	// while it is free
	part   *cpPart
	cpb    *cp.Body
	shape  *cp.Shape
	startP cp.Vector
	startA float64
}

// New builds an engine from its <dynamics2d> element.
func New(n *config.Node, env physics.Env) (physics.Engine, error) {
	h, err := physics.ParseHeader(n, 10, "spatial_index", "static_cell_size", "active_cell_size",
		"static_cells", "active_cells", "elevation")
	if err != nil {
		return nil, err
	}
	id, it := h.ID, h.Iterations
	e := &Engine{
		id: id, index: env.Index, sp: env.Space, iterations: it, tick: env.TickLength,
		chunk: 256,
	}
	e.cps = newCPSpace()
	e.cps.Iterations = uint(it)
	e.contacts = e.cps.NewCollisionHandler(0, 0)
	e.contacts.PreSolveFunc = midContacts
	// The drives' constraint comes first, before any grip's (drive.go).
	// Its two bodies are placeholders: static, in no space, touching
	// nothing.
	e.drives.e = e
	e.cps.AddConstraint(cp.NewConstraint(&e.drives, newCPStaticBody(), newCPStaticBody()))
	switch idx := n.StringOr("spatial_index", "bbtree"); idx {
	case "bbtree":
	case "hash":
		cell, err := n.FloatOr("active_cell_size", 2*0.085036758)
		if err != nil {
			return nil, err
		}
		cells, err := n.IntOr("active_cells", 1000)
		if err != nil {
			return nil, err
		}
		if cell <= 0 || cells <= 0 {
			return nil, n.Errorf("dynamics2d: active_cell_size and active_cells must be positive")
		}
		e.cps.UseSpatialHash(cell, cells)
	default:
		return nil, n.Errorf("dynamics2d: spatial_index=%q: use \"bbtree\" or \"hash\"", idx)
	}
	e.region = h.Region
	return e, nil
}

// ID implements physics.Engine.
func (e *Engine) ID() string { return e.id }

// Region implements physics.Engine.
func (e *Engine) Region() *physics.Prism { return e.region }

// Bodies implements physics.Engine.
func (e *Engine) Bodies() []int {
	e.compact()
	return e.bodies
}

// AddStatic implements physics.Engine.
func (e *Engine) AddStatic(i int) error {
	b := &e.sp.Bodies[i]
	ground := e.cps.StaticBody
	var sh *cp.Shape
	switch b.Shape {
	case space.Disc:
		sh = cp.NewCircle(ground, b.Radius, cp.Vector{X: b.Pos.X, Y: b.Pos.Y})
	case space.Box:
		verts := boxVerts(b.Half)
		sh = cp.NewPolyShape(ground, 4, verts[:], cp.NewTransformRigid(cp.Vector{X: b.Pos.X, Y: b.Pos.Y}, b.Yaw), 0)
	default:
		return fmt.Errorf("dynamics2d: body %q has an unknown shape", b.ID)
	}
	sh.SetElasticity(0)
	sh.SetFriction(staticFriction)
	sh.UserData = i
	e.checkHeights(b)
	e.cps.AddShape(sh)
	e.statics = append(e.statics, i)
	return nil
}

// checkHeights installs meetVertically once a body that is off the floor
// joins the engine. Bodies standing on the floor all meet vertically, and
// a call for every new contact is then not needed.
func (e *Engine) checkHeights(b *space.Body) {
	if b.Z != 0 && !e.heights {
		e.heights = true
		e.contacts.BeginFunc = e.meetVertically
	}
}

// meetVertically is cp's begin callback for every pair of shapes: two
// bodies touch only when their height ranges meet, as space.Crowded (which
// hands bodies to cp) decides; otherwise a body would pass under a raised
// obstacle while free and be stopped by it while cp steps it. cp ignores
// a refused pair until the shapes separate; heights never change here.
func (e *Engine) meetVertically(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
	sa, sb := arb.Shapes()
	a, b := &e.sp.Bodies[sa.UserData.(int)], &e.sp.Bodies[sb.UserData.(int)]
	return !(a.Z > b.Top() || b.Z > a.Top())
}

// midContacts is cp's pre-solve callback for every contact: it puts both
// points of each contact in the middle of the overlap, where ARGoS's
// Chipmunk (6.0) places its single contact point. cp (a port of Chipmunk
// 7) puts them on each shape's surface instead, so that friction acts a
// little farther from the centres: two e-pucks turning against each other
// then slide 0.3 mm/s differently than in ARGoS, enough to make a crowd
// diverge within seconds. Chipmunk 6 takes a polygon's vertex as the point
// of a polygon-polygon contact; the middle is within half the overlap of it.
//
// With both points equal, cp sees no penetration depth (it measures it
// between the points), so contacts never push overlapping bodies apart.
// Neither do ARGoS's: Chipmunk leaves overlaps below the collision slop
// (0.1 m) alone, and bodies never overlap that much.
func midContacts(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
	set := arb.ContactPointSet()
	for i := 0; i < set.Count; i++ {
		p := &set.Points[i]
		mid := p.PointA.Add(p.PointB).Mult(0.5)
		p.PointA, p.PointB = mid, mid
	}
	arb.SetContactPointSet(&set)
	return true
}

func boxVerts(h ci.Vector2) [4]cp.Vector {
	return [4]cp.Vector{{X: -h.X, Y: -h.Y}, {X: h.X, Y: -h.Y}, {X: h.X, Y: h.Y}, {X: -h.X, Y: h.Y}}
}

// Add implements physics.Engine. It creates the cp body, shape and drive
// constraint; call it on the coordinating goroutine only (cp numbers its
// bodies with a package-level counter).
func (e *Engine) Add(i int) error {
	if _, ok := e.objOf(i); ok {
		return fmt.Errorf("dynamics2d: engine %q already owns body %q", e.id, e.sp.Bodies[i].ID)
	}
	b := &e.sp.Bodies[i]
	if !b.Movable {
		return fmt.Errorf("dynamics2d: body %q is static; add it with AddStatic", b.ID)
	}
	if b.Mass <= 0 {
		return fmt.Errorf("dynamics2d: body %q has mass %g; give it a positive mass", b.ID, b.Mass)
	}
	o := e.newObject()
	o.body = i
	var moment float64
	switch b.Shape {
	case space.Disc:
		// ARGoS passes the diameter where cp wants the outer radius:
		// the moment of a uniform disc of twice the radius, 2 m r²,
		// four times this disc's.
		moment = cp.MomentForCircle(b.Mass, 0, 2*b.Radius, cp.Vector{})
	case space.Box:
		moment = cp.MomentForBox(b.Mass, 2*b.Half.X, 2*b.Half.Y)
		o.spin = b.Radius - math.Min(b.Half.X, b.Half.Y)
	}
	mass := b.Mass
	if m, i := secondBody(b, moment); m > 0 {
		mass, moment = mass+m, moment+i
	}
	o.cpIdx = -1
	e.checkHeights(b)
	o.drive = drive{
		maxF: b.MaxForce, maxT: b.MaxTorque,
		mass: mass, inert: moment, mInv: 1 / mass, iInv: 1 / moment,
	}
	o.p = cp.Vector{X: b.Pos.X, Y: b.Pos.Y}
	o.a = b.Yaw
	o.v = cp.Vector{X: b.Vel.X, Y: b.Vel.Y}
	o.w = b.AngVel
	o.startP, o.startA = o.p, o.a
	b.Engine = int32(e.index)
	for len(e.slot) < len(e.sp.Bodies) {
		e.slot = append(e.slot, -1)
	}
	e.slot[i] = int32(len(e.objs))
	e.objs = append(e.objs, o)
	e.bodies = append(e.bodies, i)
	return nil
}

// Grow makes room for n more bodies, so that adding many bodies does not
// copy the ones added before.
func (e *Engine) Grow(n int) {
	e.objs = slices.Grow(e.objs, n)
	e.bodies = slices.Grow(e.bodies, n)
}

// newObject returns a zero object, from those of removed bodies or from
// the slab.
func (e *Engine) newObject() *object {
	if k := len(e.free) - 1; k >= 0 {
		o := e.free[k]
		e.free = e.free[:k]
		return o
	}
	if len(e.slab) == 0 {
		e.slab = make([]object, min(max(len(e.objs), 16), 1024))
	}
	o := &e.slab[0]
	e.slab = e.slab[1:]
	return o
}

// objOf returns the position in objs of the object of body i.
func (e *Engine) objOf(i int) (int, bool) {
	if i < 0 || i >= len(e.slot) || e.slot[i] < 0 {
		return 0, false
	}
	return int(e.slot[i]), true
}

// compact closes the holes Remove left in objs and bodies, keeping the
// order of the others.
func (e *Engine) compact() {
	if e.holes == 0 {
		return
	}
	n := 0
	for _, o := range e.objs {
		if o != nil {
			e.objs[n], e.bodies[n] = o, o.body
			e.slot[o.body] = int32(n)
			n++
		}
	}
	clear(e.objs[n:])
	e.objs, e.bodies = e.objs[:n], e.bodies[:n]
	e.holes = 0
}

// secondBody returns the mass and moment of inertia of the second body
// that ARGoS's dynamics2d model of b's robot type joins to the first one,
// or zeros. The foot-bot's gripper and turret are such a body: a
// twentieth of the robot's mass, held at the robot's centre by a pivot
// joint of unbounded force, and the moment of the robot's own body (ARGoS
// computes it with the robot's mass), turned with it by a gear joint of
// the drive's torque. The engine folds it into the robot's body: the
// drive then accelerates 1.68 kg, and a foot-bot starting at 10 cm/s
// covers 8.893 mm in its first tick of motion, as in ARGoS.
func secondBody(b *space.Body, moment float64) (mass, inertia float64) {
	if b.Type == "foot-bot" {
		return b.Mass / 20, moment
	}
	return 0, 0
}

// Remove implements physics.Engine.
func (e *Engine) Remove(i int) {
	k, ok := e.objOf(i)
	if !ok {
		return
	}
	e.releaseBody(i)
	o := e.objs[k]
	if o.inCP {
		e.leaveCP(o)
	}
	e.objs[k] = nil
	e.slot[i] = -1
	e.holes++
	*o = object{}
	e.free = append(e.free, o)
}

func (e *Engine) enterCP(o *object) {
	p := e.takePart(o)
	b := &p.body
	o.part, o.cpb, o.shape, o.drive.body = p, b, p.shape, b
	b.UserData, p.shape.UserData = o, o.body
	// The part's body takes the state the object's own body would have
	// (parts.go): its mass and moment, no velocity, and the angle it had
	// when it left cp.
	b.SetMass(o.drive.mass)
	b.SetMoment(o.drive.inert)
	b.SetVelocityVector(cp.Vector{})
	b.SetAngularVelocity(0)
	b.SetAngle(o.cpA)
	// A contact may have left a bias velocity (penetration recovery) on
	// the cp body when it last stepped; cp would apply it at the next
	// position update, moving the body from its free pose. A position
	// update of zero length clears it.
	cp.BodyUpdatePosition(o.cpb, 0)
	o.cpb.SetPosition(o.p)
	o.cpb.SetAngle(o.a)
	o.cpb.SetVelocityVector(o.v)
	o.cpb.SetAngularVelocity(o.w)
	e.addCPBody(o)
	e.cps.AddShape(o.shape)
	o.inCP = true
}

func (e *Engine) leaveCP(o *object) {
	o.p, o.a = o.cpb.Position(), o.cpb.Angle()
	o.v, o.w = o.cpb.Velocity(), o.cpb.AngularVelocity()
	o.cpA = o.a
	e.cps.RemoveShape(o.shape)
	e.removeCPBody(o)
	e.givePart(o.part)
	o.part, o.cpb, o.shape, o.drive.body = nil, nil, nil, nil
	o.inCP = false
}

// Step implements physics.Engine.
func (e *Engine) Step(dt float64, run physics.Runner) {
	e.compact()
	n := len(e.objs)
	chunks := (n + e.chunk - 1) / e.chunk
	if e.jobs.crowded == nil {
		e.makeJobs()
	}
	if len(e.trans) < chunks {
		e.chunkReach = make([]float64, chunks)
		e.trans = make([][]*object, chunks)
		e.cpOf = make([][]*object, chunks)
		e.freeOf = make([][]*object, chunks)
	}
	// 1. Which bodies may touch something during this tick? A body can
	// travel at most max(|v|, |target|)*dt (the drive never speeds it up
	// beyond the larger of the two); two bodies can only meet if their gap
	// is below the sum of their reaches.
	e.dt = dt
	run.Run(chunks, e.jobs.reach)
	maxReach := 0.0
	for _, r := range e.chunkReach[:chunks] {
		maxReach = max(maxReach, r)
	}
	e.maxReach = maxReach
	run.Run(chunks, e.jobs.crowded)
	// 2. Move bodies in and out of the cp space, in a fixed order.
	e.cpList = e.cpList[:0]
	for c := range chunks {
		for _, o := range e.trans[c] {
			if o.wantCP {
				e.enterCP(o)
			} else {
				e.leaveCP(o)
			}
		}
		e.cpList = append(e.cpList, e.cpOf[c]...)
	}
	// 3. Step cp and the free bodies at the same time.
	sub := dt / float64(e.iterations)
	if sub == 0 {
		return // cp skips steps of zero length
	}
	// cp scales the warm start of a step by dt/(previous dt), and does not
	// warm-start its very first step; the free bodies' first sub-step
	// follows it (the others have the same length).
	coef := 0.0
	if e.prevSub != 0 {
		coef = sub / e.prevSub
	}
	e.prevSub = sub
	e.sub, e.coef = sub, coef
	run.Run(1+chunks, e.jobs.move)
}

// makeJobs makes Step's and Commit's passes.
func (e *Engine) makeJobs() {
	e.jobs.reach = func(c int) {
		m := 0.0
		for _, o := range e.objs[c*e.chunk : min((c+1)*e.chunk, len(e.objs))] {
			o.reach = e.reach(o, e.dt)
			m = max(m, o.reach)
		}
		e.chunkReach[c] = m
	}
	e.jobs.crowded = func(c int) {
		trans, inCP, free := e.trans[c][:0], e.cpOf[c][:0], e.freeOf[c][:0]
		for _, o := range e.objs[c*e.chunk : min((c+1)*e.chunk, len(e.objs))] {
			o.wantCP = e.forceCP || o.joints > 0 || e.sp.Crowded(o.body, o.reach+e.maxReach)
			if o.wantCP != o.inCP {
				trans = append(trans, o)
			}
			if o.wantCP {
				inCP = append(inCP, o)
			} else {
				free = append(free, o)
			}
		}
		e.trans[c], e.cpOf[c], e.freeOf[c] = trans, inCP, free
	}
	// job 0 steps cp; the others, the free bodies of a chunk at the same
	// time
	e.jobs.move = func(c int) {
		if c == 0 {
			e.stepCP(e.sub)
			return
		}
		for _, o := range e.freeOf[c-1] {
			e.stepFree(o, e.sub, e.coef)
		}
	}
	e.jobs.commit = func(c int) {
		for _, o := range e.objs[c*e.chunk : min((c+1)*e.chunk, len(e.objs))] {
			b := &e.sp.Bodies[o.body]
			b.Pos = ci.Vector2{X: o.p.X, Y: o.p.Y}
			b.SetYaw(normalizeAngle(o.a))
			b.Vel = ci.Vector2{X: o.v.X, Y: o.v.Y}
			b.AngVel = o.w
		}
	}
}

// normalizeAngle is ci.NormalizeAngle, bit for bit, without its math.Mod
// for the angles already in (-pi, pi] (Mod returns those unchanged).
func normalizeAngle(a float64) float64 {
	if a > -math.Pi && a <= math.Pi {
		return a
	}
	return ci.NormalizeAngle(a)
}

func (e *Engine) reach(o *object, dt float64) float64 {
	speed := max(o.v.Length(), math.Abs(e.sp.Drive[o.body].V))
	return speed*dt*1.5 + 0.002 + o.spin
}

func (e *Engine) stepCP(sub float64) {
	for _, o := range e.cpList {
		e.setTarget(o, o.cpb.Angle())
	}
	for s := 0; s < e.iterations; s++ {
		e.cps.Step(sub)
	}
	for _, o := range e.cpList {
		o.p, o.a = o.cpb.Position(), o.cpb.Angle()
		o.v, o.w = o.cpb.Velocity(), o.cpb.AngularVelocity()
	}
}

// setTarget points the drive's target velocity along the body's heading
// at the start of the tick. As in ARGoS, the target keeps that direction
// through the tick's sub-steps while the body turns: on an arc the body
// moves along the chord's start direction, not along the arc.
func (e *Engine) setTarget(o *object, angle float64) {
	d := e.sp.Drive[o.body]
	s, c := math.Sincos(angle)
	o.drive.tv = cp.Vector{X: c * d.V, Y: s * d.V}
	o.drive.tw = d.W
}

// stepFree advances a body that touches nothing through the same sub-steps
// cp would run: integrate the position with the current velocity, then
// solve the drive constraint (warm start plus `iterations` iterations).
//
// A sub-step maps the velocities and the drive's accumulated impulses
// (with the tick's target, limits and a warm-start coefficient of 1) to
// new ones, and nothing else. When it maps them to themselves, bit for
// bit, every later sub-step of the tick would too: those only move the
// body on, which is done without solving again. A body cruising at its
// target velocity gets there within a few sub-steps.
func (e *Engine) stepFree(o *object, sub, coef float64) {
	d := &o.drive
	e.setTarget(o, o.a)
	steady := false
	for s := 0; s < e.iterations; s++ {
		o.p = o.p.Add(o.v.Mult(sub))
		o.a += o.w * sub
		if steady {
			continue
		}
		v0, w0, j0, jw0 := o.v, o.w, d.jAcc, d.jAccW
		d.preStep(sub)
		v, w := d.cached(o.v, o.w, coef)
		for k := 0; k < e.iterations; k++ {
			j, jw := d.jAcc, d.jAccW
			nv, nw := d.impulse(v, w)
			if nv == v && nw == w && d.jAcc == j && d.jAccW == jw {
				// A fixed point: every further iteration would compute
				// exactly this again, so stopping changes nothing.
				break
			}
			v, w = nv, nw
		}
		o.v, o.w = v, w
		steady = coef == 1 && sameVec(v, v0) && same(w, w0) && sameVec(d.jAcc, j0) && same(d.jAccW, jw0)
		coef = 1
	}
}

// same and sameVec compare bit for bit (== would take -0 for +0).
func same(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func sameVec(a, b cp.Vector) bool { return same(a.X, b.X) && same(a.Y, b.Y) }

// Commit implements physics.Engine.
func (e *Engine) Commit(run physics.Runner) {
	if e.jobs.commit == nil {
		e.makeJobs()
	}
	e.compact()
	run.Run((len(e.objs)+e.chunk-1)/e.chunk, e.jobs.commit)
}

// Reset implements physics.Engine.
func (e *Engine) Reset() {
	e.releaseAll()
	e.compact()
	for _, o := range e.objs {
		if o.inCP {
			e.leaveCP(o)
		}
		o.p, o.a, o.v, o.w = o.startP, o.startA, cp.Vector{}, 0
		o.drive.jAcc, o.drive.jAccW = cp.Vector{}, 0
		b := &e.sp.Bodies[o.body]
		b.Pos = ci.Vector2{X: o.p.X, Y: o.p.Y}
		b.SetYaw(o.a)
		b.Vel, b.AngVel = ci.Vector2{}, 0
	}
	e.prevSub = 0
}

// Close implements physics.Engine.
func (e *Engine) Close() error {
	e.releaseAll()
	e.compact()
	for _, o := range e.objs {
		if o.inCP {
			e.leaveCP(o)
		}
	}
	e.objs, e.bodies, e.slab, e.free = nil, nil, nil, nil
	e.parts, e.partSlab = nil, nil
	e.slot = e.slot[:0]
	return nil
}

// InCP reports how many owned bodies the last Step handed to cp (the rest
// were free). For tests and profiling.
func (e *Engine) InCP() int { return len(e.cpList) }
