package preyretrieval

import (
	"math"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
)

// FootBotLabel is the label of the foot-bots' controller in .argos files.
const FootBotLabel = "prey_retrieval_footbot_controller"

// The states of the foot-bot's machine.
const (
	Wander   = "wander"
	GoToSpot = "go_to_spot"
	Grip     = "grip"
	Carry    = "carry"
	Release  = "release"
	BackOff  = "back_off"
)

func init() {
	ci.Controllers.MustRegister(FootBotLabel,
		"Prey retrieval, the foot-bots (behaviortk FSM, see controllers/prey_retrieval): wander until the eye-bot's laser spot "+
			"is seen, drive to it, grip the prey under it, light the LEDs blue and carry it toward the spot until the ground "+
			"sensors see the nest, then release it and back away; keep away from blue LEDs (carriers). Params: speed (cm/s, "+
			"default 10), approach_speed (default 8), carry_speed (default 6), laser (colour of the spot, default red), carrier "+
			"(default blue), nest_gray (\"low,high\": grey levels of the nest, default \"0.5,0.7\", green's is 0.59), "+
			"avoid_distance (m, keep this far from carriers, default 0.6), threshold (obstacle avoidance, default 0.15), "+
			"conflict_release (probability per step of letting go when another carrier holds the same prey, default 0.05). "+
			"Devices: differential_steering, leds, footbot_gripper, footbot_proximity, footbot_motor_ground, "+
			"colored_blob_omnidirectional_camera.",
		func() ci.Controller { return NewFootBot() })
}

// FootBot is a foot-bot's controller: a behaviortk.Controller whose root
// is the machine of states above.
type FootBot struct {
	*behaviortk.Controller
	b *footBrain
}

var _ ci.Controller = (*FootBot)(nil)

// NewFootBot returns the controller, ready for Init.
func NewFootBot() *FootBot {
	f := &FootBot{b: &footBrain{}}
	f.Controller = behaviortk.NewController(f.b.build)
	return f
}

// Phase returns the machine's current state (Wander, GoToSpot, ...).
func (f *FootBot) Phase() string { return f.b.fsm.Current() }

// footBrain is the foot-bot's root behaviour.
type footBrain struct {
	robot ci.Robot
	fsm   *behaviortk.FSM
	root  behaviortk.Sequence
	walk  *behaviortk.RandomWalk

	// params
	speed, approach, carrySpeed float64
	laser, carrier              ci.Color
	nestLo, nestHi              float64
	avoidDist, threshold        float64
	conflictP                   float64

	// memory
	spot          ci.Blob // nearest laser spot
	spotSeen      bool
	spotMissing   int
	other         ci.Blob // nearest carrier
	otherSeen     bool
	carrierAtSpot bool
	front         float64 // highest front proximity reading
	inNest        int     // consecutive steps in the nest
	inState       int     // steps since the last transition
	cooldown      int     // steps during which spots are ignored
}

// Thresholds of the foot-bot's judgement.
const (
	gripRange     = 0.3  // m: a spot this close ahead is on the prey to grip
	carrierAtSpot = 0.5  // m: blue LEDs this close to the spot: taken
	conflictReach = 0.45 // m: another carrier this close holds the same prey
	gripTouch     = 0.3  // front proximity at which the gripper closes
	gripSpot      = 0.2  // m: ... when the spot is this close (on the prey touching the front)
	checkSteps    = 4    // steps after gripping during which the spot must be on what is held
	gripTimeout   = 80   // steps to grip before giving up
	spotTimeout   = 20   // steps without the spot before giving up
	nestSteps     = 15   // steps in the nest before releasing
	backSteps     = 30   // steps of reversing
	afterCarry    = 300  // steps of ignoring spots after carrying
	afterAbort    = 50   // steps of ignoring spots after giving up
)

func (f *footBrain) build(r ci.Robot, b *behaviortk.Binding, p ci.Params) (behaviortk.Behavior, error) {
	const name = "prey_retrieval_footbot"
	for _, d := range []struct{ group, xml string }{
		{"wheels", "<differential_steering implementation=\"default\"/> under <actuators>"},
		{"leds", "<leds implementation=\"default\" medium=\"leds\"/> under <actuators>"},
		{"gripper", "<footbot_gripper implementation=\"default\"/> under <actuators>"},
		{"proximity", "<footbot_proximity implementation=\"default\"/> under <sensors>"},
		{"ground", "<footbot_motor_ground implementation=\"rot_z_only\"/> under <sensors>"},
		{"camera", "<colored_blob_omnidirectional_camera implementation=\"rot_z_only\" medium=\"leds\"/> under <sensors>"},
	} {
		if err := require(name, r, b, d.group, d.xml); err != nil {
			return nil, err
		}
	}
	rd := &params{p: p, name: name}
	nest := rd.floats("nest_gray", []float64{0.5, 0.7})
	*f = footBrain{
		robot:      r,
		speed:      rd.float("speed", 10, 0.1, 100),
		approach:   rd.float("approach_speed", 8, 0.1, 100),
		carrySpeed: rd.float("carry_speed", 6, 0.1, 100),
		laser:      rd.color("laser", DefaultLaser),
		carrier:    rd.color("carrier", DefaultCarrier),
		nestLo:     nest[0],
		nestHi:     nest[1],
		avoidDist:  rd.float("avoid_distance", 0.6, 0, 5),
		threshold:  rd.float("threshold", 0.15, 0, 10),
		conflictP:  rd.float("conflict_release", 0.05, 0, 1),
	}
	if rd.err != nil {
		return nil, rd.err
	}
	f.walk = &behaviortk.RandomWalk{Speed: f.speed, TurnProb: 0.01, MaxTurnSteps: 20, Rand: r.Rand()}
	avoid := behaviortk.AvoidObstacles{Speed: f.speed, Threshold: f.threshold}

	f.fsm = behaviortk.NewFSM(Wander).
		State(Wander, behaviortk.Sequence{behaviortk.Func(f.quiet), f.walk, avoid, behaviortk.Func(f.keepAway)}).
		State(GoToSpot, behaviortk.Func(f.goToSpot)).
		State(Grip, behaviortk.Func(f.grip)).
		State(Carry, behaviortk.Func(f.carry)).
		State(Release, behaviortk.Func(f.release)).
		State(BackOff, behaviortk.Func(f.backOff)).
		Transition(Wander, "spot_seen", GoToSpot).
		Transition(GoToSpot, "taken", Wander).
		Transition(GoToSpot, "spot_lost", Wander).
		Transition(GoToSpot, "at_prey", Grip).
		Transition(Grip, "gripped", Carry).
		Transition(Grip, "taken", BackOff).
		Transition(Grip, "spot_lost", BackOff).
		Transition(Grip, "grip_failed", BackOff).
		Transition(Carry, "dropped", BackOff).
		Transition(Carry, "wrong_grip", Release).
		Transition(Carry, "in_nest", Release).
		Transition(Carry, "conflict", Release).
		Transition(Release, "released", BackOff).
		Transition(BackOff, "backed", Wander).
		When("gripped", func(s *behaviortk.State) bool { return s.Gripping }).
		When("dropped", func(s *behaviortk.State) bool { return !s.Gripping && f.inState > 2 }).
		When("spot_seen", func(*behaviortk.State) bool { return f.spotSeen && !f.carrierAtSpot && f.cooldown == 0 }).
		When("taken", func(*behaviortk.State) bool { return f.carrierAtSpot }).
		When("spot_lost", func(*behaviortk.State) bool { return f.spotMissing >= spotTimeout }).
		When("at_prey", func(*behaviortk.State) bool {
			return f.spotSeen && f.spot.Distance < gripRange && math.Abs(f.spot.Angle) < math.Pi/4
		}).
		When("grip_failed", func(*behaviortk.State) bool { return f.inState >= gripTimeout }).
		When("wrong_grip", func(*behaviortk.State) bool {
			return f.inState < checkSteps && f.spotSeen && (f.spot.Distance > gripSpot+0.05 || math.Abs(f.spot.Angle) > 0.6)
		}).
		When("in_nest", func(*behaviortk.State) bool { return f.inNest >= nestSteps }).
		When("conflict", func(*behaviortk.State) bool {
			return f.otherSeen && f.other.Distance < conflictReach && f.walk.Rand.Float64() < f.conflictP
		}).
		When("released", func(*behaviortk.State) bool { return true }).
		When("backed", func(*behaviortk.State) bool { return f.inState >= backSteps }).
		OnChange(func(from, to, _ string) {
			f.inState = 0
			switch {
			case from == Carry || from == Grip:
				f.cooldown = max(f.cooldown, afterCarry)
			case to == Wander:
				f.cooldown = max(f.cooldown, afterAbort)
			}
		})
	f.root = behaviortk.Sequence{behaviortk.Func(f.perceive), f.fsm}
	return f, nil
}

// Step implements behaviortk.Behavior.
func (f *footBrain) Step(s *behaviortk.State) { f.root.Step(s) }

// Validate lets the Controller check the machine at Init.
func (f *footBrain) Validate() error { return f.fsm.Validate() }

// Reset forgets everything; the random walk takes the robot's stream
// anew (the simulator restarts it with the experiment).
func (f *footBrain) Reset() {
	f.fsm.Reset()
	f.walk.Reset()
	f.walk.Rand = f.robot.Rand()
	f.spotSeen, f.otherSeen, f.carrierAtSpot = false, false, false
	f.spotMissing, f.inNest, f.inState, f.cooldown = 0, 0, 0, 0
}

// perceive reads what the behaviours need: the spot, the nearest
// carrier, the front proximity, the nest under the robot.
func (f *footBrain) perceive(s *behaviortk.State) {
	f.inState++
	if f.cooldown > 0 {
		f.cooldown--
	}
	s.Out.Camera, s.Out.CameraSet = true, true
	f.spot, f.spotSeen = behaviortk.NearestBlob(s, f.laser)
	count(&f.spotMissing, !f.spotSeen)
	f.other, f.otherSeen = behaviortk.NearestBlob(s, f.carrier)
	f.carrierAtSpot = false
	if f.spotSeen {
		sp := ci.FromPolar(f.spot.Distance, f.spot.Angle)
		for _, b := range s.Blobs {
			if same(b.Color, f.carrier) && ci.FromPolar(b.Distance, b.Angle).Sub(sp).Length() < carrierAtSpot {
				f.carrierAtSpot = true
				break
			}
		}
	}
	f.front = 0
	for _, r := range s.Proximity {
		if math.Abs(ci.NormalizeAngle(r.Angle)) < math.Pi/6 {
			f.front = math.Max(f.front, r.Value)
		}
	}
	count(&f.inNest, behaviortk.InNest(s, f.nestLo, f.nestHi))
}

// quiet turns the LEDs off and keeps the gripper open.
func (f *footBrain) quiet(s *behaviortk.State) {
	s.SetLEDs(ci.Black)
	s.Out.Grip = behaviortk.GripUnlock
}

// keepAway steers away from a carrier closer than avoid_distance.
func (f *footBrain) keepAway(s *behaviortk.State) {
	if f.otherSeen && f.other.Distance < f.avoidDist {
		behaviortk.Steer(s, f.other.Angle+math.Pi, f.speed)
	}
}

// goToSpot drives to the spot, avoiding obstacles until close to it.
func (f *footBrain) goToSpot(s *behaviortk.State) {
	f.quiet(s)
	if !f.spotSeen {
		s.SetWheels(f.approach/2, f.approach/2)
		return
	}
	behaviortk.Steer(s, f.spot.Angle, f.approach*math.Min(1, 0.3+f.spot.Distance))
	if f.spot.Distance > 2*gripRange {
		behaviortk.AvoidObstacles{Speed: f.approach, Threshold: f.threshold}.Step(s)
	}
	f.keepAway(s)
}

// grip faces the spot on the prey, creeps forward and closes the
// gripper once the prey touches the front.
func (f *footBrain) grip(s *behaviortk.State) {
	s.SetLEDs(ci.Black)
	const creep = 3.0 // cm/s
	if f.spotSeen {
		a := f.spot.Angle
		switch {
		case math.Abs(a) > 0.12:
			w := math.Copysign(2, a)
			s.SetWheels(-w, w)
		default:
			s.SetWheels(creep*(1-2*a), creep*(1+2*a))
		}
	}
	// Close only on the prey: touching the front, under the spot. What
	// touches a robot that is farther from the spot is another robot.
	if f.front >= gripTouch && f.spotSeen && f.spot.Distance < gripSpot && math.Abs(f.spot.Angle) < 0.35 {
		s.Out.Grip = behaviortk.GripLock
	}
}

// carry lights the LEDs blue and drives toward the spot; without a spot
// it waits.
func (f *footBrain) carry(s *behaviortk.State) {
	s.SetLEDs(f.carrier)
	s.Out.Grip = behaviortk.GripLock
	if !f.spotSeen {
		s.SetWheels(0, 0)
		return
	}
	behaviortk.Steer(s, f.spot.Angle, f.carrySpeed)
}

func (f *footBrain) release(s *behaviortk.State) {
	s.SetLEDs(ci.Black)
	s.Out.Grip = behaviortk.GripUnlock
	s.SetWheels(0, 0)
}

func (f *footBrain) backOff(s *behaviortk.State) {
	f.quiet(s)
	s.SetWheels(-f.speed/2, -f.speed/2)
}
