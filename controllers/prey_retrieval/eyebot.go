package preyretrieval

import (
	"math"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
)

// EyeBotLabel is the label of the eye-bot's controller in .argos files.
const EyeBotLabel = "prey_retrieval_eyebot_controller"

// The states of the eye-bot's machine.
const (
	TakeOff  = "take_off"
	Search   = "search"
	Approach = "approach"
	Mark     = "mark"
	FindNest = "find_nest"
	Guide    = "guide"
	Done     = "done"
)

func init() {
	ci.Controllers.MustRegister(EyeBotLabel,
		"Prey retrieval, the eye-bot (behaviortk FSM, see controllers/prey_retrieval): picks one prey colour at random, "+
			"sweeps the arena with its laser off, hovers over the prey with its laser on until a foot-bot grips it (blue LEDs), "+
			"then guides the carrier to the nest (seen as a light) with its laser spot. Params: preys (colours, \";\"-separated, "+
			"default \"yellow;cyan\"), nest (colour of the nest's light, default green), carrier (default blue), laser (default "+
			"red), altitude (m, default 1.5), speed (m/s, default 0.4), guide_speed (m/s, default 0.15), lead (m ahead of the "+
			"carrier, default 0.45), area (\"xmin,ymin,xmax,ymax\" of the sweep, default \"-1.6,-1.6,1.6,1.6\"), lane (m "+
			"between sweep lanes, default 1.6), nest_radius (m, default 0.5), tick (s per control step, default 0.1). Devices: "+
			"quadrotor_position, laser_pointer, positioning, colored_blob_perspective_camera; leds optional (shown in the chosen "+
			"prey's colour).",
		func() ci.Controller { return NewEyeBot() })
}

// EyeBot is the eye-bot's controller: a behaviortk.Controller whose root
// is the machine of states above.
type EyeBot struct {
	*behaviortk.Controller
	b *eyeBrain
}

var _ ci.Controller = (*EyeBot)(nil)

// NewEyeBot returns the controller, ready for Init.
func NewEyeBot() *EyeBot {
	e := &EyeBot{b: &eyeBrain{}}
	e.Controller = behaviortk.NewController(e.b.build)
	return e
}

// Phase returns the machine's current state (TakeOff, Search, ...).
func (e *EyeBot) Phase() string { return e.b.fsm.Current() }

// Target returns the colour of the prey the eye-bot chose.
func (e *EyeBot) Target() ci.Color { return e.b.target }

// Nest returns where the eye-bot saw the nest's light and whether it did.
func (e *EyeBot) Nest() (ci.Vector2, bool) { return e.b.nest, e.b.nestKnown }

// eyeBrain is the eye-bot's root behaviour: it perceives (locates the
// blobs its camera sees), runs the machine, then flies and points.
type eyeBrain struct {
	robot ci.Robot
	fsm   *behaviortk.FSM
	root  behaviortk.Sequence
	leds  bool

	// params
	preys                     []ci.Color
	nestColor, carrier, laser ci.Color
	altitude, speed, guide    float64
	lead, nestRadius, tick    float64
	area                      []float64
	lane                      float64

	// memory
	target      ci.Color
	started     bool
	home        ci.Vector3
	yaw0        float64
	sp, goal    ci.Vector3 // set-point and where it moves to
	fast        bool       // the set-point moves at speed (else guide)
	laserOn     bool
	route       []ci.Vector2
	wp          int
	pos         ci.Vector3
	yaw         float64
	nest        ci.Vector2
	nestKnown   bool
	prey        ci.Vector2
	preyKnown   bool
	preySeen    bool
	preyMissing int
	carrierAt   ci.Vector2 // centroid of the carrier's LEDs
	carrierSeen bool
	withCarrier int // consecutive steps with blue LEDs at the prey
	noCarrier   int // consecutive steps without
}

// Distances of the eye-bot's judgement, in metres.
const (
	overTolerance = 0.02 // over the prey: hovering this close to it
	carrierReach  = 0.35 // blue LEDs this close to the prey are its carrier
	gripReach     = 0.22 // the carrier's centre this close to the prey grips it
	nestMargin    = 0.1  // the prey is home this far inside the nest's edge
	gripSteps     = 5    // blue at the prey this many steps: it is gripped
	lostSteps     = 30   // the prey unseen this many steps over its place: lost
	deliverSteps  = 10   // no carrier this many steps with the prey home: done
	carrierGone   = 50   // no carrier this many steps, prey not home: mark again
)

func (e *eyeBrain) build(r ci.Robot, b *behaviortk.Binding, p ci.Params) (behaviortk.Behavior, error) {
	const name = "prey_retrieval_eyebot"
	for _, d := range []struct{ group, xml string }{
		{"quadrotor_position", "<quadrotor_position implementation=\"default\"/> under <actuators>"},
		{"laser_pointer", "<laser_pointer implementation=\"default\"/> under <actuators>"},
		{"positioning", "<positioning implementation=\"default\"/> under <sensors>"},
		{"camera", "<colored_blob_perspective_camera implementation=\"default\" medium=\"leds\"/> under <sensors>"},
	} {
		if err := require(name, r, b, d.group, d.xml); err != nil {
			return nil, err
		}
	}
	rd := &params{p: p, name: name}
	*e = eyeBrain{
		robot:      r,
		leds:       b.Has("leds"),
		preys:      rd.colors("preys", DefaultPreys()),
		nestColor:  rd.color("nest", DefaultNest),
		carrier:    rd.color("carrier", DefaultCarrier),
		laser:      rd.color("laser", DefaultLaser),
		altitude:   rd.float("altitude", 1.5, 0.3, 10),
		speed:      rd.float("speed", 0.4, 0.01, 5),
		guide:      rd.float("guide_speed", 0.15, 0.01, 5),
		lead:       rd.float("lead", 0.45, 0.1, 2),
		nestRadius: rd.float("nest_radius", 0.5, 0.05, 10),
		tick:       rd.float("tick", 0.1, 1e-3, 10),
		area:       rd.floats("area", []float64{-1.6, -1.6, 1.6, 1.6}),
		lane:       rd.float("lane", 1.6, 0.05, 100),
	}
	if rd.err != nil {
		return nil, rd.err
	}
	e.pick()

	when := func(f func() bool) func(*behaviortk.State) bool { return func(*behaviortk.State) bool { return f() } }
	e.fsm = behaviortk.NewFSM(TakeOff).
		State(TakeOff, behaviortk.Func(e.takeOff)).
		State(Search, behaviortk.Func(e.sweep)).
		State(Approach, behaviortk.Func(func(*behaviortk.State) { e.hover(false) })).
		State(Mark, behaviortk.Func(func(*behaviortk.State) { e.hover(true) })).
		State(FindNest, behaviortk.Func(e.sweep)).
		State(Guide, behaviortk.Func(e.guideCarrier)).
		State(Done, behaviortk.Func(e.rest)).
		Transition(TakeOff, "airborne", Search).
		Transition(Search, "prey_seen", Approach).
		Transition(Approach, "over_prey", Mark).
		Transition(Approach, "prey_lost", Search).
		Transition(Mark, "gripped", FindNest).
		Transition(Mark, "prey_lost", Search).
		Transition(FindNest, "nest_known", Guide).
		Transition(Guide, "delivered", Done).
		Transition(Guide, "carrier_lost", Mark).
		When("airborne", when(func() bool { return e.pos.Z >= e.altitude-0.05 })).
		When("prey_seen", when(func() bool { return e.preySeen })).
		When("over_prey", when(func() bool {
			return e.preySeen && e.pos.XY().Sub(e.prey).Length() < overTolerance && math.Abs(e.pos.Z-e.altitude) < 0.05
		})).
		When("prey_lost", when(func() bool { return e.preyMissing >= lostSteps && e.pos.XY().Sub(e.prey).Length() < 0.2 })).
		When("gripped", when(func() bool { return e.withCarrier >= gripSteps })).
		When("nest_known", when(func() bool { return e.nestKnown })).
		When("delivered", when(func() bool {
			return e.preySeen && e.nestKnown && e.prey.Sub(e.nest).Length() < e.nestRadius-nestMargin && e.noCarrier >= deliverSteps
		})).
		When("carrier_lost", when(func() bool { return e.preySeen && e.noCarrier >= carrierGone }))
	e.root = behaviortk.Sequence{behaviortk.Func(e.perceive), e.fsm, behaviortk.Func(e.act)}
	return e, nil
}

// pick chooses the prey with the robot's own random stream.
func (e *eyeBrain) pick() { e.target = e.preys[e.robot.Rand().IntN(len(e.preys))] }

// Step implements behaviortk.Behavior.
func (e *eyeBrain) Step(s *behaviortk.State) { e.root.Step(s) }

// Validate lets the Controller check the machine at Init.
func (e *eyeBrain) Validate() error { return e.fsm.Validate() }

// Reset forgets everything and picks again (the same prey, as the
// robot's stream restarts with the experiment).
func (e *eyeBrain) Reset() {
	e.fsm.Reset()
	e.started, e.nestKnown, e.preyKnown, e.preySeen, e.carrierSeen, e.laserOn = false, false, false, false, false, false
	e.preyMissing, e.withCarrier, e.noCarrier, e.wp = 0, 0, 0, 0
	e.route = nil
	e.pick()
}

// perceive reads the pose and locates the blobs in the arena.
func (e *eyeBrain) perceive(s *behaviortk.State) {
	e.pos = s.Position.Position
	e.yaw = s.Position.Orientation.Yaw()
	if !e.started {
		e.started = true
		e.home, e.yaw0, e.sp, e.goal = e.pos, e.yaw, e.pos, e.pos
		e.route = lawnMower(e.area, e.lane, e.home.XY())
	}
	at := func(b ci.Blob) ci.Vector2 { return e.pos.XY().Add(ci.FromPolar(b.Distance, e.yaw+b.Angle)) }
	e.preySeen = false
	var blue ci.Vector2
	nBlue := 0
	for _, b := range s.Blobs {
		switch {
		case same(b.Color, e.target):
			p := at(b)
			if !e.preySeen || p.Sub(e.prey).Length() < 0.05 {
				e.prey, e.preySeen, e.preyKnown = p, true, true
			}
		case same(b.Color, e.nestColor):
			e.nest, e.nestKnown = at(b), true
		}
	}
	if e.preySeen {
		e.preyMissing = 0
	} else {
		e.preyMissing++
	}
	// The carrier: blue LEDs at the prey (or where the carrier was last
	// seen when the prey is hidden).
	ref, reach := e.prey, carrierReach
	if !e.preySeen && e.carrierSeen {
		ref, reach = e.carrierAt, 0.2
	}
	for _, b := range s.Blobs {
		if same(b.Color, e.carrier) {
			if p := at(b); e.preyKnown && p.Sub(ref).Length() < reach {
				blue = blue.Add(p)
				nBlue++
			}
		}
	}
	e.carrierSeen = nBlue > 0
	if e.carrierSeen {
		e.carrierAt = blue.Scale(1 / float64(nBlue))
	}
	count(&e.withCarrier, e.carrierSeen && e.preySeen && e.carrierAt.Sub(e.prey).Length() < gripReach)
	count(&e.noCarrier, !e.carrierSeen)
}

func (e *eyeBrain) takeOff(*behaviortk.State) {
	e.goal, e.fast, e.laserOn = ci.Vector3{X: e.home.X, Y: e.home.Y, Z: e.altitude}, true, false
}

// sweep flies the lawn-mower route with the laser off; at its end the
// route is flown back.
func (e *eyeBrain) sweep(*behaviortk.State) {
	e.fast, e.laserOn = true, false
	w := e.route[e.wp]
	e.goal = ci.Vector3{X: w.X, Y: w.Y, Z: e.altitude}
	if e.sp.Sub(e.goal).Length() < 1e-6 {
		if e.wp++; e.wp == len(e.route) {
			for i, j := 0, len(e.route)-1; i < j; i, j = i+1, j-1 {
				e.route[i], e.route[j] = e.route[j], e.route[i]
			}
			e.wp = 1 % len(e.route)
		}
	}
}

// hover flies over the prey's last known place, the laser on or off.
func (e *eyeBrain) hover(laser bool) {
	e.goal, e.fast = ci.Vector3{X: e.prey.X, Y: e.prey.Y, Z: e.altitude}, true
	e.laserOn = laser && e.pos.XY().Sub(e.prey).Length() < 0.1
}

// guideCarrier hovers lead metres ahead of the carrier, toward the nest,
// with the laser on; without the carrier in sight it flies back to the
// prey with the laser off (a spot on the way would call other foot-bots).
func (e *eyeBrain) guideCarrier(*behaviortk.State) {
	e.laserOn = e.carrierSeen
	if !e.carrierSeen {
		e.goal, e.fast = ci.Vector3{X: e.prey.X, Y: e.prey.Y, Z: e.altitude}, true
		return
	}
	e.fast = false
	d := e.nest.Sub(e.carrierAt)
	if l := d.Length(); l > 0.05 {
		g := e.carrierAt.Add(d.Scale(e.lead / l))
		e.goal = ci.Vector3{X: g.X, Y: g.Y, Z: e.altitude}
	}
}

func (e *eyeBrain) rest(*behaviortk.State) { e.goal, e.laserOn = e.sp, false }

// act moves the set-point toward the goal at a bounded speed and sets
// the outputs.
func (e *eyeBrain) act(s *behaviortk.State) {
	v := e.guide
	if e.fast {
		v = e.speed
	}
	d := e.goal.Sub(e.sp)
	if l, max := d.Length(), v*e.tick; l > max {
		k := max / l
		d = ci.Vector3{X: d.X * k, Y: d.Y * k, Z: d.Z * k}
	}
	e.sp = e.sp.Add(d)
	s.Out.Target, s.Out.TargetYaw, s.Out.TargetSet = e.sp, e.yaw0, true
	s.Out.Camera, s.Out.CameraSet = true, true
	s.Out.Laser, s.Out.LaserColor, s.Out.LaserSet = e.laserOn, e.laser, true
	if e.leds {
		s.SetLEDs(e.target)
	}
}

// lawnMower returns the way-points of a boustrophedon over area
// (xmin, ymin, xmax, ymax): lanes along X, lane metres apart, starting
// at the corner nearest from.
func lawnMower(area []float64, lane float64, from ci.Vector2) []ci.Vector2 {
	x0, y0, x1, y1 := math.Min(area[0], area[2]), math.Min(area[1], area[3]), math.Max(area[0], area[2]), math.Max(area[1], area[3])
	var ys []float64
	for y := y0; y < y1-1e-9; y += lane {
		ys = append(ys, y)
	}
	ys = append(ys, y1)
	if math.Abs(from.Y-y1) < math.Abs(from.Y-y0) {
		for i, j := 0, len(ys)-1; i < j; i, j = i+1, j-1 {
			ys[i], ys[j] = ys[j], ys[i]
		}
	}
	xa, xb := x0, x1
	if math.Abs(from.X-x1) < math.Abs(from.X-x0) {
		xa, xb = x1, x0
	}
	route := make([]ci.Vector2, 0, 2*len(ys))
	for i, y := range ys {
		if i%2 == 0 {
			route = append(route, ci.Vector2{X: xa, Y: y}, ci.Vector2{X: xb, Y: y})
		} else {
			route = append(route, ci.Vector2{X: xb, Y: y}, ci.Vector2{X: xa, Y: y})
		}
	}
	return route
}
