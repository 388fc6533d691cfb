package flocking_test

import (
	"errors"
	"github.com/argosgo/argos/behaviortk"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/flocking"
)

type bot struct {
	robot  *citest.Robot
	wheels *citest.Wheels
	leds   *citest.LEDs
	light  *citest.Light
	camera *citest.BlobCamera
}

func newBot() *bot {
	b := &bot{wheels: &citest.Wheels{}, leds: citest.NewLEDs(13), light: citest.NewFootBotLight(), camera: &citest.BlobCamera{}}
	b.robot = citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, b.wheels).
		AddActuator(ci.TagLEDs, b.leds).
		AddSensor(ci.TagFootBotLight, b.light).
		AddSensor(ci.TagOmnidirectionalCamera, b.camera)
	return b
}

func setup(t testing.TB, params ci.Params) (*flocking.Controller, *bot) {
	t.Helper()
	b := newBot()
	c := flocking.New()
	if err := c.Init(b.robot, params); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return c, b
}

// blob is a beacon of the given colour at distance cm and angle degrees.
func blob(col ci.Color, cm, deg float64) ci.Blob {
	return ci.Blob{Color: col, Distance: cm / 100, Angle: ci.Radians(deg)}
}

func near(a, b ci.Vector2) bool { return a.Sub(b).Length() < 1e-9 }

func TestInit(t *testing.T) {
	c, b := setup(t, ci.Params{})
	if !b.camera.Enabled {
		t.Error("camera not enabled")
	}
	for i, col := range b.leds.Colors {
		if want := map[bool]ci.Color{true: ci.Red, false: ci.Black}[i == flocking.BeaconLED]; col != want {
			t.Errorf("LED %d is %v, want %v", i, col, want)
		}
	}
	if c.Params() != flocking.DefaultParams() {
		t.Errorf("params %+v", c.Params())
	}
	if b.wheels.Calls != 0 {
		t.Error("Init moved the wheels")
	}
}

func TestLennardJones(t *testing.T) {
	p := flocking.DefaultParams()
	if v := p.LennardJones(75); v != 0 {
		t.Errorf("LJ(target) = %v, want 0", v)
	}
	// d = 50: x = 2.25, -1000/50*(5.0625-2.25) = -56.25.
	if v := p.LennardJones(50); math.Abs(v+56.25) > 1e-9 {
		t.Errorf("LJ(50) = %v, want -56.25 (repulsion)", v)
	}
	// d = 100: x = 0.5625, -10*(0.31640625-0.5625) = 2.4609375.
	if v := p.LennardJones(100); math.Abs(v-2.4609375) > 1e-9 {
		t.Errorf("LJ(100) = %v, want 2.4609375 (attraction)", v)
	}
}

func TestVectorToLight(t *testing.T) {
	c, b := setup(t, ci.Params{})
	if v := c.VectorToLight(); v != (ci.Vector2{}) {
		t.Errorf("no light: %v", v)
	}
	b.light.SetToward(ci.Radians(60), 0.3)
	if v := c.VectorToLight(); math.Abs(v.Length()-2.5) > 1e-9 || math.Abs(ci.Degrees(v.Angle())-60) > 1e-6 {
		t.Errorf("light at 60 degrees: %v (length %v, angle %v), want 2.5 long at 60 degrees", v, v.Length(), ci.Degrees(v.Angle()))
	}
}

func TestFlockingVector(t *testing.T) {
	for _, tc := range []struct {
		name  string
		blobs []ci.Blob
		want  ci.Vector2
	}{
		{"nothing seen", nil, ci.Vector2{}},
		{"yellow light only", []ci.Blob{blob(ci.Yellow, 50, 0)}, ci.Vector2{}},
		{"red too far", []ci.Blob{blob(ci.Red, 135, 0)}, ci.Vector2{}},
		{"red at the target distance", []ci.Blob{blob(ci.Red, 75, 30)}, ci.Vector2{}},
		{"red far-ish ahead: pulled forward", []ci.Blob{blob(ci.Red, 100, 0)}, ci.Vector2{X: 2.4609375}},
		{"red close on the left: pushed right, clamped to max speed", []ci.Blob{blob(ci.Red, 50, 90)}, ci.Vector2{Y: -10}},
		{"two blobs: averaged", []ci.Blob{blob(ci.Red, 100, 0), blob(ci.Red, 100, 180), blob(ci.Green, 10, 0)}, ci.Vector2{}},
		{"two pulls at right angles", []ci.Blob{blob(ci.Red, 100, 0), blob(ci.Red, 100, 90)}, ci.Vector2{X: 2.4609375 / 2, Y: 2.4609375 / 2}},
		{"zero distance ignored", []ci.Blob{blob(ci.Red, 0, 0)}, ci.Vector2{}},
	} {
		c, b := setup(t, ci.Params{})
		b.camera.Set(tc.blobs...)
		if got := c.FlockingVector(); !near(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestControlStep(t *testing.T) {
	// Alone with the light ahead: straight at a quarter of the top speed.
	c, b := setup(t, ci.Params{})
	b.light.SetToward(0, 1)
	c.ControlStep()
	if b.wheels.Left != 2.5 || b.wheels.Right != 2.5 {
		t.Errorf("light ahead: wheels (%v, %v), want (2.5, 2.5)", b.wheels.Left, b.wheels.Right)
	}
	// A neighbour too close ahead: backs off on the spot (hard turn).
	b.camera.Set(blob(ci.Red, 40, 0))
	c.ControlStep()
	if b.wheels.Left != -b.wheels.Right || math.Abs(b.wheels.Left) != 10 {
		t.Errorf("neighbour too close ahead: wheels (%v, %v), want a hard turn", b.wheels.Left, b.wheels.Right)
	}
	// A neighbour a bit far on the left (pulls by 1.98 at 100 degrees)
	// and the light at 70 degrees: the sum points 80 degrees left, a soft
	// left turn.
	c.Reset()
	b.light.SetToward(ci.Radians(70), 1)
	b.camera.Set(blob(ci.Red, 120, 100))
	c.ControlStep()
	if !(b.wheels.Right > b.wheels.Left && b.wheels.Left > 0) {
		t.Errorf("neighbour far on the left: wheels (%v, %v), want a soft left turn", b.wheels.Left, b.wheels.Right)
	}
	// Nothing at all: stands still.
	b.camera.Set()
	b.light.SetAll()
	c.ControlStep()
	if b.wheels.Left != 0 || b.wheels.Right != 0 {
		t.Errorf("nothing seen: wheels (%v, %v), want still", b.wheels.Left, b.wheels.Right)
	}
}

func TestParams(t *testing.T) {
	w := ci.NewParams("hard_turn_angle_threshold", "80", "soft_turn_angle_threshold", "60", "no_turn_angle_threshold", "5", "max_speed", "20")
	w.Name = "wheel_turning"
	f := ci.NewParams("target_distance", "50", "gain", "10", "exponent", "3")
	f.Name = "flocking"
	p := ci.NewParams()
	p.Children = []ci.Params{w, f}
	got, err := flocking.ParseParams(p)
	want := flocking.Params{
		Turning:        behaviortk.WheelTurning{HardTurnAngle: ci.Radians(80), SoftTurnAngle: ci.Radians(60), NoTurnAngle: ci.Radians(5), MaxSpeed: 20},
		TargetDistance: 50, Gain: 10, Exponent: 3,
	}
	if err != nil || got != want {
		t.Errorf("ParseParams: %+v, %v; want %+v", got, err, want)
	}
	for _, tc := range []struct{ child, attr, value, fragment string }{
		{"flocking", "target_distance", "0", "above 0"},
		{"flocking", "exponent", "-1", "above 0"},
		{"flocking", "gain", "x", "not a number"},
		{"flocking", "gain", "-1", "0 or more"},
		{"wheel_turning", "max_speed", "Inf", "out of range"},
		{"wheel_turning", "no_turn_angle_threshold", "190", "[0, 180]"},
		{"wheel_turning", "hard_turn_angle_threshold", "0", "above 0 degrees"},
	} {
		c := ci.NewParams(tc.attr, tc.value)
		c.Name, c.Where = tc.child, "flocking.argos:20"
		p := ci.NewParams()
		p.Children = []ci.Params{c}
		err := flocking.New().Init(newBot().robot, p)
		if err == nil {
			t.Errorf("%s=%q: Init succeeded", tc.attr, tc.value)
			continue
		}
		for _, f := range []string{"flocking: ", "flocking.argos:20", tc.attr, tc.fragment} {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%s=%q: error %q does not mention %q", tc.attr, tc.value, err, f)
			}
		}
	}
}

func TestInitDeviceErrors(t *testing.T) {
	full := newBot()
	for _, missing := range []string{ci.TagDifferentialSteering, ci.TagLEDs, ci.TagFootBotLight, ci.TagOmnidirectionalCamera} {
		r := citest.NewRobot("fb2", 1)
		for _, a := range []string{ci.TagDifferentialSteering, ci.TagLEDs} {
			if a != missing {
				d, _ := full.robot.Actuator(a)
				r.AddActuator(a, d)
			}
		}
		for _, s := range []string{ci.TagFootBotLight, ci.TagOmnidirectionalCamera} {
			if s != missing {
				d, _ := full.robot.Sensor(s)
				r.AddSensor(s, d)
			}
		}
		err := flocking.New().Init(r, ci.Params{})
		if !errors.Is(err, ci.ErrNotDeclared) || !strings.HasPrefix(err.Error(), "flocking: ") || !strings.Contains(err.Error(), "<"+missing) {
			t.Errorf("without %s: %v", missing, err)
		}
	}
}

func TestRegistered(t *testing.T) {
	f, err := ci.Controllers.Lookup("footbot_flocking_controller")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f().(*flocking.Controller); !ok {
		t.Errorf("makes a %T", f())
	}
}

func TestConformance(t *testing.T) {
	b := newBot()
	b.light.SetToward(2, 0.4)
	b.camera.Set(blob(ci.Red, 60, 10), blob(ci.Red, 110, -100), blob(ci.Yellow, 300, 2))
	citest.TestController(t, func() ci.Controller { return flocking.New() }, b.robot, ci.Params{}, 20)
	if b.wheels.Calls != 40 {
		t.Errorf("wheels set %d times in 40 steps", b.wheels.Calls)
	}
}

func TestControlStepDoesNotAllocate(t *testing.T) {
	c, b := setup(t, ci.Params{})
	b.light.SetToward(2, 0.4)
	b.camera.Set(blob(ci.Red, 60, 10), blob(ci.Red, 110, -100))
	if n := testing.AllocsPerRun(100, c.ControlStep); n != 0 {
		t.Errorf("ControlStep allocates %v times", n)
	}
}

func BenchmarkControlStep(b *testing.B) {
	c, bt := setup(b, ci.Params{})
	bt.light.SetToward(2, 0.4)
	bt.camera.Set(blob(ci.Red, 60, 10), blob(ci.Red, 110, -100), blob(ci.Red, 80, 45))
	b.ReportAllocs()
	for b.Loop() {
		c.ControlStep()
	}
}
