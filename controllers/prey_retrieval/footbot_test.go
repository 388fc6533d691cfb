package preyretrieval_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	preyretrieval "github.com/argosgo/argos/controllers/prey_retrieval"
)

// footRig is a foot-bot on fake devices.
type footRig struct {
	t       *testing.T
	wheels  *citest.Wheels
	leds    *citest.LEDs
	gripper *citest.Gripper
	prox    *citest.Proximity
	ground  *citest.Ground
	cam     *citest.BlobCamera
	robot   *citest.Robot
	c       *preyretrieval.FootBot
}

func newFootRig(t *testing.T, params ...string) *footRig {
	t.Helper()
	g := &footRig{t: t, wheels: &citest.Wheels{}, leds: citest.NewLEDs(13), gripper: &citest.Gripper{},
		prox: citest.NewFootBotProximity(), ground: citest.NewFootBotMotorGround(), cam: &citest.BlobCamera{}}
	g.robot = citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, g.wheels).
		AddActuator(ci.TagLEDs, g.leds).
		AddActuator(ci.TagFootBotGripper, g.gripper).
		AddSensor(ci.TagFootBotProximity, g.prox).
		AddSensor(ci.TagFootBotMotorGround, g.ground).
		AddSensor(ci.TagOmnidirectionalCamera, g.cam)
	g.c = preyretrieval.NewFootBot()
	if err := g.c.Init(g.robot, ci.NewParams(params...)); err != nil {
		t.Fatal(err)
	}
	g.steps(1) // the camera is on from the second step
	return g
}

func (g *footRig) steps(n int) {
	for i := 0; i < n; i++ {
		g.c.ControlStep()
	}
}

func (g *footRig) want(phase string) {
	g.t.Helper()
	if got := g.c.Phase(); got != phase {
		g.t.Fatalf("phase %q, want %q", got, phase)
	}
}

// turning reports the sign of the turn: +1 left, -1 right, 0 straight.
func (g *footRig) turning() float64 {
	d := g.wheels.Right - g.wheels.Left
	if math.Abs(d) < 1e-9 {
		return 0
	}
	return math.Copysign(1, d)
}

var red, blue = ci.Red, ci.Blue

// The foot-bot's life: wander, go to the spot, grip the prey under it,
// carry it (LEDs blue) toward the spot, release it in the nest, back off.
func TestFootBotRetrieves(t *testing.T) {
	g := newFootRig(t)
	g.steps(1)
	if !g.cam.Enabled || g.leds.Colors[0] != ci.Black || g.gripper.Locked {
		t.Fatalf("wandering: camera %v, LEDs %v, gripper locked %v; want camera on, LEDs off, gripper open", g.cam.Enabled, g.leds.Colors[0], g.gripper.Locked)
	}
	g.want(preyretrieval.Wander)

	// A spot 1 m away to the left: go to it.
	g.cam.Set(ci.Blob{Color: red, Distance: 1, Angle: 1})
	g.steps(1)
	g.want(preyretrieval.GoToSpot)
	if g.turning() != 1 {
		t.Errorf("spot on the left: wheels %v %v, want a left turn", g.wheels.Left, g.wheels.Right)
	}
	// Close ahead: grip. Slightly to the right: turn right on the spot.
	g.cam.Set(ci.Blob{Color: red, Distance: 0.25, Angle: -0.3})
	g.steps(1)
	g.want(preyretrieval.Grip)
	if g.turning() != -1 || g.wheels.Left+g.wheels.Right != 0 {
		t.Errorf("gripping, spot on the right: wheels %v %v, want a turn on the spot to the right", g.wheels.Left, g.wheels.Right)
	}
	// Facing it: creep forward; no lock until the prey touches.
	g.cam.Set(ci.Blob{Color: red, Distance: 0.2, Angle: 0})
	g.steps(3)
	if g.wheels.Left <= 0 || g.wheels.Left > 5 || g.wheels.Left != g.wheels.Right || g.gripper.Locks != 0 {
		t.Fatalf("facing the spot: wheels %v %v, %d locks; want a slow straight creep, no lock", g.wheels.Left, g.wheels.Right, g.gripper.Locks)
	}
	// Touching: the front sensors fire and the spot is on the prey.
	g.prox.Set(0, 0.9)
	g.prox.Set(23, 0.9)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.145, Angle: 0.02})
	g.gripper.InReach = true
	g.steps(1)
	if g.gripper.Locks == 0 || !g.gripper.Gripping() {
		t.Fatalf("touching the prey under the spot: %d locks, gripping %v", g.gripper.Locks, g.gripper.Gripping())
	}
	g.steps(1)
	g.want(preyretrieval.Carry)
	if g.leds.Colors[0] != blue || g.leds.Colors[12] != blue {
		t.Errorf("carrying with LEDs %v, want blue", g.leds.Colors)
	}
	// The eye-bot still marks the prey for a few steps.
	g.steps(5)
	g.want(preyretrieval.Carry)

	// The eye-bot moves the spot ahead, to the left: follow it.
	g.prox.SetAll()
	g.cam.Set(ci.Blob{Color: red, Distance: 0.45, Angle: 0.5})
	g.steps(5)
	g.want(preyretrieval.Carry)
	if g.turning() != 1 || g.wheels.Left+g.wheels.Right <= 0 {
		t.Errorf("carrying toward a spot on the left: wheels %v %v", g.wheels.Left, g.wheels.Right)
	}
	// No spot: wait, still gripping.
	g.cam.Set()
	g.steps(30)
	g.want(preyretrieval.Carry)
	if g.wheels.Left != 0 || g.wheels.Right != 0 || !g.gripper.Locked {
		t.Errorf("carrying without a spot: wheels %v %v, locked %v; want to wait, gripping", g.wheels.Left, g.wheels.Right, g.gripper.Locked)
	}

	// The nest: green's grey level under most sensors for 15 steps.
	g.cam.Set(ci.Blob{Color: red, Distance: 0.45, Angle: 0})
	g.ground.SetAll(entityGray(ci.Green))
	g.ground.Set(0, 1) // one sensor still outside
	g.steps(14)
	g.want(preyretrieval.Carry)
	g.steps(1)
	g.want(preyretrieval.Release)
	if g.gripper.Locked || g.gripper.Gripping() || g.leds.Colors[0] != ci.Black {
		t.Errorf("released: locked %v, gripping %v, LEDs %v", g.gripper.Locked, g.gripper.Gripping(), g.leds.Colors[0])
	}
	g.steps(1)
	g.want(preyretrieval.BackOff)
	if g.wheels.Left >= 0 || g.wheels.Right >= 0 {
		t.Errorf("backing off with wheels %v %v", g.wheels.Left, g.wheels.Right)
	}
	g.steps(30)
	g.want(preyretrieval.Wander)
	// For a while it ignores spots (the prey it just left).
	g.steps(100)
	g.want(preyretrieval.Wander)
}

// entityGray is the grey level ground sensors read on a colour.
func entityGray(c ci.Color) float64 {
	return (0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)) / 255
}

// Others keep away from a carrier and leave its spot alone.
func TestFootBotAvoidsCarrier(t *testing.T) {
	g := newFootRig(t)
	g.cam.Set(ci.Blob{Color: blue, Distance: 0.4, Angle: 0.2})
	g.steps(2)
	g.want(preyretrieval.Wander)
	if g.turning() != -1 {
		t.Errorf("blue LEDs ahead on the left: wheels %v %v, want a turn to the right", g.wheels.Left, g.wheels.Right)
	}
	// A spot next to a carrier: taken, not for this robot.
	g.cam.Set(ci.Blob{Color: red, Distance: 0.8, Angle: 0}, ci.Blob{Color: blue, Distance: 0.9, Angle: 0.3})
	g.steps(20)
	g.want(preyretrieval.Wander)
	// Going to a spot when a carrier shows up at it: give up.
	g = newFootRig(t)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.8, Angle: 0})
	g.steps(1)
	g.want(preyretrieval.GoToSpot)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.8, Angle: 0}, ci.Blob{Color: blue, Distance: 0.5, Angle: 0})
	g.steps(1)
	g.want(preyretrieval.Wander)
}

// Wandering turns away from obstacles; a spot lost while going to it
// sends the robot back to wandering.
func TestFootBotWanders(t *testing.T) {
	g := newFootRig(t)
	g.steps(1)
	if g.wheels.Left <= 0 && g.wheels.Right <= 0 {
		t.Errorf("free: wheels %v %v, want to move", g.wheels.Left, g.wheels.Right)
	}
	g.prox.Set(2, 0.8) // front-left
	g.steps(1)
	if g.turning() != -1 {
		t.Errorf("obstacle front-left: wheels %v %v, want a right turn", g.wheels.Left, g.wheels.Right)
	}
	g.prox.SetAll()
	g.cam.Set(ci.Blob{Color: red, Distance: 0.7, Angle: 0})
	g.steps(1)
	g.want(preyretrieval.GoToSpot)
	g.cam.Set()
	g.steps(19)
	g.want(preyretrieval.GoToSpot)
	g.steps(1)
	g.want(preyretrieval.Wander)
	// It does not go back to the spot at once.
	g.cam.Set(ci.Blob{Color: red, Distance: 0.7, Angle: 0})
	g.steps(10)
	g.want(preyretrieval.Wander)
	g.steps(50)
	g.want(preyretrieval.GoToSpot)
}

// Toward the spot, what touches the front farther than the spot is
// another robot: the gripper stays open; a grip that fails backs off.
func TestFootBotGripsOnlyUnderTheSpot(t *testing.T) {
	g := newFootRig(t)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.29, Angle: 0})
	g.steps(2) // to the spot, then grip
	g.want(preyretrieval.Grip)
	g.prox.Set(0, 1)
	g.prox.Set(23, 1)
	g.gripper.InReach = true
	g.cam.Set(ci.Blob{Color: red, Distance: 0.35, Angle: 0})
	g.steps(20)
	if g.gripper.Locks != 0 || g.gripper.Gripping() {
		t.Fatalf("a robot in front, the spot 0.35 m away: %d locks", g.gripper.Locks)
	}
	g.steps(60)
	g.want(preyretrieval.BackOff)
}

// Right after gripping, the spot must be on what is held; otherwise the
// robot gripped something else and lets it go.
func TestFootBotWrongGrip(t *testing.T) {
	g := newFootRig(t)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.18, Angle: 0})
	g.steps(2)
	g.want(preyretrieval.Grip)
	g.prox.Set(0, 1)
	g.gripper.InReach = true
	g.steps(2)
	g.want(preyretrieval.Carry)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.6, Angle: 2})
	g.steps(1)
	g.want(preyretrieval.Release)
}

// Two carriers at one prey: one lets go (at random, with its own stream).
func TestFootBotConflict(t *testing.T) {
	g := newFootRig(t, "conflict_release", "1")
	g.cam.Set(ci.Blob{Color: red, Distance: 0.18, Angle: 0})
	g.steps(2)
	g.want(preyretrieval.Grip)
	g.prox.Set(0, 1)
	g.gripper.InReach = true
	g.steps(2)
	g.want(preyretrieval.Carry)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.18, Angle: 0}, ci.Blob{Color: blue, Distance: 0.3, Angle: 1})
	g.steps(1)
	g.want(preyretrieval.Release)

	g = newFootRig(t, "conflict_release", "0")
	g.cam.Set(ci.Blob{Color: red, Distance: 0.18, Angle: 0})
	g.steps(2)
	g.prox.Set(0, 1)
	g.gripper.InReach = true
	g.steps(2)
	g.cam.Set(ci.Blob{Color: red, Distance: 0.18, Angle: 0}, ci.Blob{Color: blue, Distance: 0.3, Angle: 1})
	g.steps(50)
	g.want(preyretrieval.Carry)
}

func TestFootBotInitErrors(t *testing.T) {
	devices := []struct {
		tag      string
		actuator bool
		dev      any
	}{
		{ci.TagDifferentialSteering, true, &citest.Wheels{}},
		{ci.TagLEDs, true, citest.NewLEDs(13)},
		{ci.TagFootBotGripper, true, &citest.Gripper{}},
		{ci.TagFootBotProximity, false, citest.NewFootBotProximity()},
		{ci.TagFootBotMotorGround, false, citest.NewFootBotMotorGround()},
		{ci.TagOmnidirectionalCamera, false, &citest.BlobCamera{}},
	}
	for skip := range devices {
		r := citest.NewRobot("fb", 1)
		for i, d := range devices {
			switch {
			case i == skip:
			case d.actuator:
				r.AddActuator(d.tag, d.dev)
			default:
				r.AddSensor(d.tag, d.dev)
			}
		}
		err := preyretrieval.NewFootBot().Init(r, ci.Params{})
		if err == nil || !strings.Contains(err.Error(), devices[skip].tag) {
			t.Errorf("without %s: %v; want an error naming it", devices[skip].tag, err)
		}
		if skip > 0 && !errors.Is(err, ci.ErrNotDeclared) {
			t.Errorf("without %s: %v does not wrap ci.ErrNotDeclared", devices[skip].tag, err)
		}
	}
	for _, kv := range [][]string{
		{"speed", "fast"}, {"carry_speed", "-1"}, {"nest_gray", "0.5"}, {"nest_gray", "a,b"}, {"laser", "shiny"}, {"conflict_release", "2"},
	} {
		r := citest.NewRobot("fb", 1)
		for _, d := range devices {
			if d.actuator {
				r.AddActuator(d.tag, d.dev)
			} else {
				r.AddSensor(d.tag, d.dev)
			}
		}
		err := preyretrieval.NewFootBot().Init(r, ci.NewParams(kv...))
		if err == nil || !strings.Contains(err.Error(), kv[0]) || !strings.Contains(err.Error(), "prey_retrieval_footbot") {
			t.Errorf("%s=%q: %v; want an error naming the controller and the parameter", kv[0], kv[1], err)
		}
	}
}

func TestFootBotLifeCycle(t *testing.T) {
	cam := &citest.BlobCamera{}
	cam.Set(ci.Blob{Color: red, Distance: 0.15}, ci.Blob{Color: blue, Distance: 0.3, Angle: 2})
	prox := citest.NewFootBotProximity()
	prox.SetAll(1, 1, 1)
	r := citest.NewRobot("fb", 1).
		AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
		AddActuator(ci.TagLEDs, citest.NewLEDs(13)).
		AddActuator(ci.TagFootBotGripper, &citest.Gripper{InReach: true}).
		AddSensor(ci.TagFootBotProximity, prox).
		AddSensor(ci.TagFootBotMotorGround, citest.NewFootBotMotorGround()).
		AddSensor(ci.TagOmnidirectionalCamera, cam)
	citest.TestController(t, func() ci.Controller { return preyretrieval.NewFootBot() }, r, ci.Params{}, 100)
}
