package eyebothover_test

import (
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	eyebothover "github.com/argosgo/argos/controllers/eyebot_hover"
)

// flight is a fake quad-rotor: each set-point is reached at the next
// step, as if the flight took one tick.
type flight struct {
	pos    *citest.Positioning
	target ci.Vector3
	sets   int
}

func (f *flight) SetAbsolutePosition(p ci.Vector3) { f.target, f.sets = p, f.sets+1 }
func (f *flight) SetRelativePosition(d ci.Vector3) { panic("not used") }
func (f *flight) SetAbsoluteYaw(float64)           { panic("not used") }
func (f *flight) SetRelativeYaw(float64)           { panic("not used") }

// arrive moves the robot to its set-point.
func (f *flight) arrive() {
	f.pos.Set(ci.PositioningReading{Position: f.target, Orientation: ci.IdentityQuaternion})
}

type laser struct {
	on    bool
	color ci.Color
}

func (l *laser) On(c ci.Color) { l.on, l.color = true, c }
func (l *laser) Off()          { l.on = false }
func (l *laser) IsOn() bool    { return l.on }

type camera struct {
	enabled bool
	blobs   []ci.Blob
}

func (c *camera) Enable()          { c.enabled = true }
func (c *camera) Disable()         { c.enabled = false }
func (c *camera) Blobs() []ci.Blob { return c.blobs }

type rig struct {
	robot *citest.Robot
	fly   *flight
	laser *laser
	cam   *camera
	leds  *citest.LEDs
}

func newRig(x, y float64) *rig {
	pos := citest.NewPositioning(x, y, 0)
	r := &rig{fly: &flight{pos: pos}, laser: &laser{}, cam: &camera{}, leds: citest.NewLEDs(33)}
	r.robot = citest.NewRobot("eb0", 1).
		AddActuator(ci.TagQuadrotorPosition, r.fly).
		AddActuator(ci.TagLaserPointer, r.laser).
		AddActuator(ci.TagLEDs, r.leds).
		AddSensor(ci.TagPositioning, pos).
		AddSensor(ci.TagPerspectiveCamera, r.cam)
	return r
}

func TestFlightPlan(t *testing.T) {
	for _, loop := range []bool{true, false} {
		r := newRig(0.5, -0.5)
		c := eyebothover.New()
		params := ci.NewParams("altitude", "2", "waypoints", "1,1; -1,1", "hold", "3", "laser", "green", "loop", map[bool]string{true: "true", false: "false"}[loop])
		if err := c.Init(r.robot, params); err != nil {
			t.Fatal(err)
		}
		if !r.cam.enabled {
			t.Fatalf("the camera is not enabled")
		}
		type want struct {
			state  eyebothover.State
			target ci.Vector3
			laser  bool
		}
		steps := []want{
			{eyebothover.TakingOff, ci.Vector3{X: 0.5, Y: -0.5, Z: 2}, false}, // straight up
			{eyebothover.Flying, ci.Vector3{X: 1, Y: 1, Z: 2}, false},
			{eyebothover.Hovering, ci.Vector3{X: 1, Y: 1, Z: 2}, true},
			{eyebothover.Hovering, ci.Vector3{X: 1, Y: 1, Z: 2}, true},
			{eyebothover.Hovering, ci.Vector3{X: 1, Y: 1, Z: 2}, true},
			{eyebothover.Flying, ci.Vector3{X: -1, Y: 1, Z: 2}, false},
			{eyebothover.Hovering, ci.Vector3{X: -1, Y: 1, Z: 2}, true},
			{eyebothover.Hovering, ci.Vector3{X: -1, Y: 1, Z: 2}, true},
			{eyebothover.Hovering, ci.Vector3{X: -1, Y: 1, Z: 2}, true},
		}
		if loop {
			steps = append(steps,
				want{eyebothover.Flying, ci.Vector3{X: 1, Y: 1, Z: 2}, false},
				want{eyebothover.Hovering, ci.Vector3{X: 1, Y: 1, Z: 2}, true})
		} else {
			steps = append(steps,
				want{eyebothover.Landing, ci.Vector3{X: -1, Y: 1, Z: 0}, false},
				want{eyebothover.Landed, ci.Vector3{X: -1, Y: 1, Z: 0}, false})
		}
		for k, w := range steps {
			c.ControlStep()
			if c.State() != w.state || r.fly.target != w.target || r.laser.on != w.laser {
				t.Fatalf("loop=%v step %d: state %v, set-point %v, laser %v; want %v, %v, %v",
					loop, k, c.State(), r.fly.target, r.laser.on, w.state, w.target, w.laser)
			}
			if r.laser.on && r.laser.color != ci.Green {
				t.Fatalf("laser colour %v, want green", r.laser.color)
			}
			r.fly.arrive()
		}
		if c.Visits() < 2 {
			t.Errorf("loop=%v: %d visits", loop, c.Visits())
		}
	}
}

func TestBlobsLightTheLEDs(t *testing.T) {
	r := newRig(0, 0)
	c := eyebothover.New()
	if err := c.Init(r.robot, ci.NewParams()); err != nil {
		t.Fatal(err)
	}
	c.ControlStep()
	if c.BlobsSeen() != 0 || r.leds.Colors[0] != ci.Black {
		t.Fatalf("no blobs: %d seen, LED %v", c.BlobsSeen(), r.leds.Colors[0])
	}
	r.cam.blobs = []ci.Blob{{Color: ci.Red}, {Color: ci.Green}}
	c.ControlStep()
	if c.BlobsSeen() != 2 || r.leds.Colors[32] != ci.Blue {
		t.Fatalf("two blobs: %d seen, LED %v", c.BlobsSeen(), r.leds.Colors[32])
	}
}

func TestDefaultsHoverOverTakeOff(t *testing.T) {
	r := newRig(-0.3, 0.7)
	c := eyebothover.New()
	if err := c.Init(r.robot, ci.NewParams("hold", "1")); err != nil {
		t.Fatal(err)
	}
	for range 6 {
		c.ControlStep()
		if w := (ci.Vector3{X: -0.3, Y: 0.7, Z: 1.5}); r.fly.target != w {
			t.Fatalf("set-point %v, want %v (over the take-off point at 1.5 m)", r.fly.target, w)
		}
		r.fly.arrive()
	}
	if c.Visits() < 2 || !r.laser.on && c.State() == eyebothover.Hovering {
		t.Errorf("visits %d, state %v, laser %v", c.Visits(), c.State(), r.laser.on)
	}
}

func TestInitErrors(t *testing.T) {
	for _, tc := range []struct {
		params []string
		want   string
	}{
		{[]string{"waypoints", "1,2; 3"}, "waypoints"},
		{[]string{"altitude", "-1"}, "altitude"},
		{[]string{"hold", "-2"}, "hold"},
		{[]string{"tolerance", "0"}, "tolerance"},
		{[]string{"laser", "ultraviolet"}, "laser"},
		{[]string{"loop", "maybe"}, "loop"},
	} {
		err := eyebothover.New().Init(newRig(0, 0).robot, ci.NewParams(tc.params...))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one about %s", tc.params, err, tc.want)
		}
	}
	// only the flight devices are required
	bare := citest.NewRobot("eb", 1).
		AddActuator(ci.TagQuadrotorPosition, &flight{pos: citest.NewPositioning(0, 0, 0)}).
		AddSensor(ci.TagPositioning, citest.NewPositioning(0, 0, 0))
	if err := eyebothover.New().Init(bare, ci.NewParams()); err != nil {
		t.Errorf("without laser, LEDs and camera: %v", err)
	}
	if err := eyebothover.New().Init(citest.NewRobot("eb", 1), ci.NewParams()); err == nil ||
		!strings.Contains(err.Error(), ci.TagQuadrotorPosition) {
		t.Errorf("without quadrotor_position: error %v", err)
	}
}

func TestLifeCycle(t *testing.T) {
	r := newRig(0, 0)
	citest.TestController(t, func() ci.Controller { return eyebothover.New() }, r.robot,
		ci.NewParams("waypoints", "0,0; 1,0", "hold", "2"), 20)
}
