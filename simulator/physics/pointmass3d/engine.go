package pointmass3d

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

func init() {
	physics.Engines.MustRegister("pointmass3d",
		"3D point-mass engine for flying robots (the eye-bot): bodies follow the position or speed set-points of their "+
			"quadrotor actuators through ARGoS's PD controllers with gravity compensation and yaw control, hang at the "+
			"ceiling when attached, stay above the floor, inside the arena and out of static bodies. It takes every "+
			"eye-bot and no other body, whatever the engine order. Attributes: id (required), iterations (sub-steps per "+
			"tick, default 10), gravity (m/s^2, default -9.81), ceiling (height in m, default the top of the arena), "+
			"<boundaries> (optional region), <entity id=\"regexp\"/> (entities it owns wherever they are).",
		New)
}

// The eye-bot's flight model, from ARGoS 3 (doc.go).
const (
	inertia   = 0.01 // kg m^2 about Z (BODY_INERTIA)
	posKP     = 20.0 // POS_K_P
	posKD     = 10.0 // POS_K_D
	yawKP     = 0.5  // YAW_K_P
	yawKD     = 0.1  // YAW_K_D
	velKP     = 1.0  // VEL_K_P
	velKD     = 0.0  // VEL_K_D
	rotKP     = 0.5  // ROT_K_P
	rotKD     = 0.0  // ARGoS: 0.1, unstable at this sub-step (doc.go)
	maxForce  = 1000.0
	maxTorque = 1000.0

	defaultGravity    = -9.81
	defaultIterations = 10
	// attachGap is how close to the ceiling the top of a rising body
	// must come for the attachment to grip.
	attachGap = 1e-3
)

// flyingTypes are the entity types the engine models.
func flying(t string) bool { return t == "eye-bot" }

// Engine is a pointmass3d engine. Build it with New.
type Engine struct {
	id         string
	index      int
	region     *physics.Prism
	sp         *space.Space
	iterations int
	gravity    float64
	ceiling    float64
	lo, hi     ci.Vector2 // the arena's footprint

	objs   []object
	slot   map[int]int // body handle -> index in objs
	bodies []int
	chunk  int
}

// object is an owned body's state in the engine.
type object struct {
	body int
	fp   space.Footprint // shape of the body, for collisions
	mass float64
	h    float64 // height

	pos    ci.Vector3
	yaw    float64
	vel    ci.Vector3
	rot    float64    // rotational speed, rad/s
	force  ci.Vector3 // applied during the next sub-step
	torque float64
	linErr [3]float64 // last errors of the PD controllers
	rotErr float64
	mode   space.FlightMode
	// attaching: rising to the ceiling; attached: hanging there.
	attaching, attached bool

	// reported at Commit
	hvel   ci.Vector2
	angVel float64

	startPos ci.Vector3
	startYaw float64
}

// New builds an engine from its <pointmass3d> element.
func New(n *config.Node, env physics.Env) (physics.Engine, error) {
	h, err := physics.ParseHeader(n, defaultIterations, "gravity", "ceiling")
	if err != nil {
		return nil, err
	}
	id, it := h.ID, h.Iterations
	g, err := n.FloatOr("gravity", defaultGravity)
	if err != nil {
		return nil, err
	}
	top := env.Space.Center.Z + env.Space.Size.Z/2
	ceil, err := n.FloatOr("ceiling", top)
	if err != nil {
		return nil, err
	}
	if ceil <= 0 {
		return nil, n.Errorf("pointmass3d: ceiling=%g: give the height of the ceiling above the floor in metres", ceil)
	}
	e := NewEngine(id, env)
	e.iterations, e.gravity, e.ceiling = it, g, ceil
	e.region = h.Region
	return e, nil
}

// NewEngine returns an engine with ARGoS's defaults (10 iterations,
// gravity -9.81 m/s^2, the ceiling at the top of the arena) over the
// whole arena of env.Space.
func NewEngine(id string, env physics.Env) *Engine {
	lo, hi := env.Space.Bounds()
	return &Engine{
		id: id, index: env.Index, sp: env.Space,
		iterations: defaultIterations, gravity: defaultGravity,
		ceiling: env.Space.Center.Z + env.Space.Size.Z/2,
		lo:      lo, hi: hi,
		slot: map[int]int{}, chunk: 64,
	}
}

// ID implements physics.Engine.
func (e *Engine) ID() string { return e.id }

// Region implements physics.Engine.
func (e *Engine) Region() *physics.Prism { return e.region }

// Contains implements physics.Container: every point of the engine's
// region (the whole arena without <boundaries>), from the floor to the
// ceiling. Which bodies the engine takes is Models' business.
func (e *Engine) Contains(p ci.Vector3) bool { return e.region == nil || e.region.Contains(p) }

// Models implements physics.Modeler: the engine flies eye-bots.
func (e *Engine) Models(b *space.Body) bool { return flying(b.Type) }

// Accepts implements physics.Fallback: with no other engine to take
// them, the engine also drives foot-bots and e-pucks, kinematically on
// the floor (Hover mode: the drive their wheels set), as ARGoS's
// pointmass3d foot-bot and e-puck models do.
func (e *Engine) Accepts(b *space.Body) bool { return b.Type == "foot-bot" || b.Type == "e-puck" }

// Ceiling returns the height of the ceiling in metres.
func (e *Engine) Ceiling() float64 { return e.ceiling }

// Bodies implements physics.Engine.
func (e *Engine) Bodies() []int { return e.bodies }

// AddStatic implements physics.Engine. Static bodies are found through
// the space's index when a body comes near them.
func (e *Engine) AddStatic(int) error { return nil }

// Add implements physics.Engine. A body without a Flight gets one, in
// Hover mode; one it brings along (from another engine) is kept.
func (e *Engine) Add(i int) error {
	b := &e.sp.Bodies[i]
	if !b.Movable {
		return fmt.Errorf("pointmass3d: body %q is static; add it with AddStatic", b.ID)
	}
	if _, dup := e.slot[i]; dup {
		return fmt.Errorf("pointmass3d: engine %q already owns body %q", e.id, b.ID)
	}
	f := b.Flight()
	if f == nil {
		f = &space.Flight{}
		b.SetFlight(f)
	}
	mass := b.Mass
	if mass <= 0 {
		mass = 1
	}
	o := object{
		body: i, fp: b.Footprint(), mass: mass, h: b.Height,
		pos: ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}, yaw: b.Yaw,
		vel:  ci.Vector3{X: b.Vel.X, Y: b.Vel.Y, Z: f.VelZ},
		rot:  b.AngVel,
		mode: f.Mode, attached: f.Attached,
	}
	o.startPos, o.startYaw = o.pos, o.yaw
	b.Engine = int32(e.index)
	e.slot[i] = len(e.objs)
	e.objs = append(e.objs, o)
	e.bodies = append(e.bodies, i)
	return nil
}

// Remove implements physics.Engine. The body keeps its Flight.
func (e *Engine) Remove(i int) {
	k, ok := e.slot[i]
	if !ok {
		return
	}
	copy(e.objs[k:], e.objs[k+1:])
	e.objs = e.objs[:len(e.objs)-1]
	copy(e.bodies[k:], e.bodies[k+1:])
	e.bodies = e.bodies[:len(e.bodies)-1]
	delete(e.slot, i)
	for j := k; j < len(e.objs); j++ {
		e.slot[e.objs[j].body] = j
	}
}

// Step implements physics.Engine.
func (e *Engine) Step(dt float64, run physics.Runner) {
	n := len(e.objs)
	if n == 0 {
		return
	}
	sub := dt / float64(e.iterations)
	run.Run((n+e.chunk-1)/e.chunk, func(c int) {
		for k := c * e.chunk; k < min((c+1)*e.chunk, n); k++ {
			e.advance(&e.objs[k], dt, sub)
		}
	})
}

// advance moves one body through a tick of sub-steps.
func (e *Engine) advance(o *object, dt, sub float64) {
	b := &e.sp.Bodies[o.body]
	var cmd space.Flight
	if f := b.Flight(); f != nil {
		cmd = *f
	}
	prevPos, prevYaw := o.pos, o.yaw
	// Ceiling attachment overrides the set-points.
	switch {
	case cmd.Attach && o.attached:
		o.hvel, o.angVel = ci.Vector2{}, 0
		return
	case cmd.Attach && !o.attaching:
		o.attaching = true
		o.resetControl()
	case !cmd.Attach && (o.attaching || o.attached):
		o.attaching, o.attached = false, false
		o.resetControl()
		o.mode = cmd.Mode
	}
	if !o.attaching && cmd.Mode != o.mode {
		o.mode = cmd.Mode
		o.resetControl()
	}
	if !o.attaching && o.mode == space.Hover {
		d := e.sp.Drive[o.body]
		v, w := finite(d.V), finite(d.W)
		o.vel, o.rot, o.force, o.torque = ci.Vector3{}, 0, ci.Vector3{}, 0
		for s := 0; s < e.iterations; s++ {
			e.drive(o, v, w, sub)
		}
		o.hvel = ci.Vector2{X: o.pos.X - prevPos.X, Y: o.pos.Y - prevPos.Y}.Scale(1 / dt)
		o.angVel = ci.NormalizeAngle(o.yaw-prevYaw) / dt
		return
	}
	for s := 0; s < e.iterations && !o.attached; s++ {
		e.subStep(o, &cmd, sub)
	}
	if o.attached {
		o.hvel, o.angVel = ci.Vector2{}, 0
		return
	}
	o.hvel = ci.Vector2{X: o.vel.X, Y: o.vel.Y}
	o.angVel = o.rot
}

func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// resetControl forgets the PD controllers' memory and the pending
// force, as when ARGoS's model starts.
func (o *object) resetControl() {
	o.linErr, o.rotErr = [3]float64{}, 0
	o.force, o.torque = ci.Vector3{}, 0
}

// subStep is one sub-step of ARGoS's quad-rotor model (doc.go).
func (e *Engine) subStep(o *object, cmd *space.Flight, dt float64) {
	// 1. integrate
	to := o.pos.Add(scale3(o.vel, dt))
	yaw := ci.NormalizeAngle(o.yaw + o.rot*dt)
	// 2. limits and obstacles
	e.place(o, to, yaw)
	// 3. velocities
	o.vel = o.vel.Add(scale3(o.force, dt/o.mass))
	o.rot += dt / inertia * o.torque
	// 4. control for the next sub-step
	mg := o.mass * e.gravity
	var f ci.Vector3
	var tq float64
	switch {
	case o.attaching:
		target := ci.Vector3{X: o.pos.X, Y: o.pos.Y, Z: e.ceiling - o.h}
		f = e.positionForce(o, target, mg, dt)
		tq = 0
		o.rot = 0
	case o.mode == space.ToPosition:
		f = e.positionForce(o, cmd.Position, mg, dt)
		tq = clamp(maxTorque, pd(ci.NormalizeAngle(cmd.Yaw-o.yaw), yawKP, yawKD, &o.rotErr, dt))
	default: // AtSpeed
		d := cmd.Velocity.Sub(o.vel)
		f = ci.Vector3{
			X: clamp(maxForce, pd(d.X, velKP, velKD, &o.linErr[0], dt)),
			Y: clamp(maxForce, pd(d.Y, velKP, velKD, &o.linErr[1], dt)),
			Z: clamp(maxForce, pd(d.Z, velKP, velKD, &o.linErr[2], dt)-mg),
		}
		tq = clamp(maxTorque, pd(cmd.RotSpeed-o.rot, rotKP, rotKD, &o.rotErr, dt))
	}
	o.force = ci.Vector3{X: f.X, Y: f.Y, Z: f.Z + mg}
	o.torque = tq
	if o.attaching && o.pos.Z+o.h >= e.ceiling-attachGap {
		o.attaching, o.attached = false, true
		o.pos.Z = math.Max(0, e.ceiling-o.h)
		o.vel, o.rot = ci.Vector3{}, 0
		o.resetControl()
	}
}

// positionForce is the PD position control of ARGoS, gravity compensated.
func (e *Engine) positionForce(o *object, target ci.Vector3, mg, dt float64) ci.Vector3 {
	d := target.Sub(o.pos)
	return ci.Vector3{
		X: clamp(maxForce, pd(d.X, posKP, posKD, &o.linErr[0], dt)),
		Y: clamp(maxForce, pd(d.Y, posKP, posKD, &o.linErr[1], dt)),
		Z: clamp(maxForce, pd(d.Z, posKP, posKD, &o.linErr[2], dt)-mg),
	}
}

// pd is ARGoS's PDControl: the derivative term is the change of the
// error over the sub-step.
func pd(err, kp, kd float64, old *float64, dt float64) float64 {
	out := kp*err + kd*(err-*old)/dt
	*old = err
	return out
}

func clamp(m, v float64) float64 { return math.Max(-m, math.Min(m, v)) }

func scale3(v ci.Vector3, k float64) ci.Vector3 {
	return ci.Vector3{X: v.X * k, Y: v.Y * k, Z: v.Z * k}
}

// drive moves a Hover body kinematically along the arc of (v, w) for dt
// at constant height.
func (e *Engine) drive(o *object, v, w, dt float64) {
	if v == 0 && w == 0 {
		return
	}
	da := w * dt
	d := v * dt
	if math.Abs(da) > 1e-12 {
		d = 2 * v / w * math.Sin(da/2) // chord of the arc
	}
	mid := o.yaw + da/2
	to := ci.Vector3{X: o.pos.X + d*math.Cos(mid), Y: o.pos.Y + d*math.Sin(mid), Z: o.pos.Z}
	e.place(o, to, ci.NormalizeAngle(o.yaw+da))
}

// place moves the body toward (to, yaw) as far as the arena, the floor,
// the ceiling and static bodies let it: the whole move if it is free,
// else the largest subset of its axes that is (a slide along a wall). A
// blocked axis loses its velocity.
func (e *Engine) place(o *object, to ci.Vector3, yaw float64) {
	// arena, floor and ceiling
	lim := func(v, lo, hi float64, vel *float64) float64 {
		if hi < lo { // body wider than the arena: centre it
			*vel = 0
			return (lo + hi) / 2
		}
		switch {
		case v < lo:
			*vel = math.Max(*vel, 0)
			return lo
		case v > hi:
			*vel = math.Min(*vel, 0)
			return hi
		}
		return v
	}
	r := o.fp.Radius
	to.X = lim(to.X, e.lo.X+r, e.hi.X-r, &o.vel.X)
	to.Y = lim(to.Y, e.lo.Y+r, e.hi.Y-r, &o.vel.Y)
	to.Z = lim(to.Z, 0, math.Max(0, e.ceiling-o.h), &o.vel.Z) // a low ceiling: on the floor
	from, fromYaw := o.pos, o.yaw
	// static bodies: moves that do not deepen an overlap are free
	base := e.overlap(o, from, fromYaw)
	if e.overlap(o, to, yaw) <= base+1e-12 {
		o.pos, o.yaw = to, yaw
		return
	}
	// Try the moves along fewer axes, most axes first; the turn goes
	// with the horizontal move.
	best := -1
	for _, mask := range [...]int{0b011, 0b101, 0b110, 0b001, 0b010, 0b100} { // bit 0 x, 1 y, 2 z
		c := from
		cy := fromYaw
		if mask&1 != 0 {
			c.X = to.X
		}
		if mask&2 != 0 {
			c.Y = to.Y
		}
		if mask&4 != 0 {
			c.Z = to.Z
		}
		if mask&3 != 0 {
			cy = yaw
		}
		if e.overlap(o, c, cy) <= base+1e-12 {
			best = mask
			o.pos, o.yaw = c, cy
			break
		}
	}
	if best < 0 {
		best = 0
		if e.overlap(o, from, yaw) <= base+1e-12 {
			o.yaw = yaw // turning on the spot is free
		}
	}
	if best&1 == 0 {
		o.vel.X = 0
	}
	if best&2 == 0 {
		o.vel.Y = 0
	}
	if best&4 == 0 {
		o.vel.Z = 0
	}
}

// overlap returns how deep the body, at pos and yaw, sinks into the
// static bodies whose height range meets its own (0 when it is clear).
func (e *Engine) overlap(o *object, pos ci.Vector3, yaw float64) float64 {
	fp := o.fp
	fp.Pos = ci.Vector2{X: pos.X, Y: pos.Y}
	fp.Sin, fp.Cos = math.Sincos(yaw)
	m := ci.Vector2{X: fp.Radius, Y: fp.Radius}
	depth := 0.0
	top := pos.Z + o.h
	e.sp.NearStatic(fp.Pos.Sub(m), fp.Pos.Add(m), func(i int) bool {
		s := &e.sp.Bodies[i]
		if s.Z >= top || pos.Z >= s.Top() {
			return true
		}
		sf := s.Footprint()
		if g := space.FootprintGap(&fp, &sf); -g > depth {
			depth = -g
		}
		return true
	})
	return depth
}

// Commit implements physics.Engine.
func (e *Engine) Commit(run physics.Runner) {
	physics.ForChunks(run, len(e.objs), e.chunk, func(k int) {
		o := &e.objs[k]
		b := &e.sp.Bodies[o.body]
		b.Pos, b.Z = ci.Vector2{X: o.pos.X, Y: o.pos.Y}, o.pos.Z
		b.SetYaw(ci.NormalizeAngle(o.yaw))
		b.Vel, b.AngVel = o.hvel, o.angVel
		if f := b.Flight(); f != nil {
			f.Attached = o.attached
			f.VelZ = o.vel.Z
			if o.attached || o.mode == space.Hover {
				f.VelZ = 0
			}
		}
	})
}

// Reset implements physics.Engine: every body goes back to where it was
// added, at rest, detached, hovering (its Flight back to Hover, only
// Commander kept) until an actuator gives it a new command.
func (e *Engine) Reset() {
	for k := range e.objs {
		o := &e.objs[k]
		o.pos, o.yaw = o.startPos, o.startYaw
		o.vel, o.rot, o.hvel, o.angVel = ci.Vector3{}, 0, ci.Vector2{}, 0
		o.mode, o.attaching, o.attached = space.Hover, false, false
		o.resetControl()
		b := &e.sp.Bodies[o.body]
		b.Pos, b.Z = ci.Vector2{X: o.pos.X, Y: o.pos.Y}, o.pos.Z
		b.SetYaw(ci.NormalizeAngle(o.yaw))
		b.Vel, b.AngVel = ci.Vector2{}, 0
		if f := b.Flight(); f != nil {
			*f = space.Flight{Commander: f.Commander}
		}
	}
}

// Close implements physics.Engine.
func (e *Engine) Close() error {
	e.objs, e.bodies = nil, nil
	e.slot = map[int]int{}
	return nil
}
