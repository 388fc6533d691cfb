package diffusion_test

import (
	"errors"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/diffusion"
)

// setup returns an initialised controller on a robot with wheels and the
// proximity ring under tag.
func setup(t testing.TB, tag string, prox *citest.Proximity, params ci.Params) (*diffusion.Controller, *citest.Wheels) {
	t.Helper()
	w := &citest.Wheels{}
	r := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, w).
		AddSensor(tag, prox)
	c := diffusion.New()
	if err := c.Init(r, params); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return c, w
}

func TestControlStep(t *testing.T) {
	const v = diffusion.DefaultVelocity
	straight, right, left := [2]float64{v, v}, [2]float64{v, 0}, [2]float64{0, v}
	deg := ci.Radians
	for _, tc := range []struct {
		name   string
		tag    string
		prox   func() *citest.Proximity
		params ci.Params
		want   [2]float64
	}{
		{
			name: "nothing sensed: straight",
			tag:  ci.TagFootBotProximity,
			prox: citest.NewFootBotProximity,
			want: straight,
		},
		{
			name: "obstacle front-left: turn right",
			tag:  ci.TagFootBotProximity,
			prox: func() *citest.Proximity {
				p := citest.NewFootBotProximity()
				p.SetAll(0.4, 0.9, 0.9, 0.4) // 7.5 to 52.5 degrees
				return p
			},
			want: right,
		},
		{
			name: "obstacle front-right: turn left",
			tag:  ci.TagFootBotProximity,
			prox: func() *citest.Proximity {
				p := citest.NewFootBotProximity()
				p.Set(20, 0.4) // -52.5 degrees
				p.Set(21, 0.9)
				p.Set(22, 0.9)
				p.Set(23, 0.4) // -7.5 degrees
				return p
			},
			want: left,
		},
		{
			name: "faint obstacle outside the cone on the left: turn right",
			tag:  ci.TagFootBotProximity,
			prox: func() *citest.Proximity {
				p := citest.NewFootBotProximity()
				p.Set(2, 0.05) // 37.5 degrees, mean length 0.002
				return p
			},
			want: right,
		},
		{
			name: "faint obstacle outside the cone on the right: turn left",
			tag:  ci.TagFootBotProximity,
			prox: func() *citest.Proximity {
				p := citest.NewFootBotProximity()
				p.Set(21, 0.05)
				return p
			},
			want: left,
		},
		{
			name: "small symmetric readings in front: straight",
			tag:  ci.TagFootBotProximity,
			prox: func() *citest.Proximity {
				p := citest.NewFootBotProximity()
				p.Set(0, 0.5) // mean length 2*0.5*cos(7.5°)/24 = 0.041
				p.Set(23, 0.5)
				return p
			},
			want: straight,
		},
		{
			name: "e-puck small symmetric readings: straight",
			tag:  ci.TagEPuckProximity,
			prox: func() *citest.Proximity {
				p := citest.NewEPuckProximity()
				p.Set(0, 0.3) // mean length 2*0.3*cos(17°)/8 = 0.072
				p.Set(7, 0.3)
				return p
			},
			want: straight,
		},
		{
			name: "e-puck obstacle front-left: turn right",
			tag:  ci.TagEPuckProximity,
			prox: func() *citest.Proximity {
				p := citest.NewEPuckProximity()
				p.SetAll(0.8, 0.5)
				return p
			},
			want: right,
		},
		{
			name: "e-puck obstacle front-right: turn left",
			tag:  ci.TagEPuckProximity,
			prox: func() *citest.Proximity {
				p := citest.NewEPuckProximity()
				p.Set(6, 0.5)
				p.Set(7, 0.8)
				return p
			},
			want: left,
		},
		{
			name: "obstacle behind-left: turn right, as ARGoS does",
			tag:  ci.TagEPuckProximity,
			prox: func() *citest.Proximity {
				p := citest.NewEPuckProximity()
				p.Set(3, 1) // 150 degrees
				return p
			},
			want: right,
		},
		{
			name: "obstacle dead ahead, closer than delta: turn left (angle 0 is not > 0)",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(-7.5), deg(7.5))
				p.SetAll(1, 1)
				return p
			},
			want: left,
		},
		{
			name: "inside the cone but beyond delta, on the left: turn right",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(5))
				p.Set(0, 0.5)
				return p
			},
			want: right,
		},
		{
			name: "inside the cone but beyond delta, on the right: turn left",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(-5))
				p.Set(0, 0.5)
				return p
			},
			want: left,
		},
		{
			name: "just inside alpha on the left, faint: straight",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(7.4))
				p.Set(0, 0.05)
				return p
			},
			want: straight,
		},
		{
			name: "just inside alpha on the right, faint: straight",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(-7.4))
				p.Set(0, 0.05)
				return p
			},
			want: straight,
		},
		{
			name: "just outside alpha on the left, faint: turn right",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(7.6))
				p.Set(0, 0.05)
				return p
			},
			want: right,
		},
		{
			name: "just outside alpha on the right, faint: turn left",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(-7.6))
				p.Set(0, 0.05)
				return p
			},
			want: left,
		},
		{
			name: "readings are averaged over the ring: straight",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(0, deg(90), deg(180), deg(-90))
				p.Set(0, 0.3) // mean 0.075 < delta
				return p
			},
			want: straight,
		},
		{
			name: "the same reading on a one-sensor ring: turn left",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(0)
				p.Set(0, 0.3) // mean 0.3 >= delta
				return p
			},
			want: left,
		},
		{
			name: "length exactly delta is not free: turn left",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity {
				p := citest.NewProximity(0)
				p.Set(0, 0.1)
				return p
			},
			want: left,
		},
		{
			name: "empty ring: nothing sensed, straight",
			tag:  ci.TagProximity,
			prox: func() *citest.Proximity { return citest.NewProximity() },
			want: straight,
		},
		{
			name:   "alpha widens the cone",
			tag:    ci.TagProximity,
			params: ci.NewParams("alpha", "45"),
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(30))
				p.Set(0, 0.05)
				return p
			},
			want: straight,
		},
		{
			name:   "the cone includes its upper bound",
			tag:    ci.TagProximity,
			params: ci.NewParams("alpha", "180"), // exactly pi radians
			prox: func() *citest.Proximity {
				p := citest.NewProximity(math.Pi) // mean angle exactly pi
				p.Set(0, 0.05)
				return p
			},
			want: straight,
		},
		{
			name:   "the cone includes its lower bound",
			tag:    ci.TagProximity,
			params: ci.NewParams("alpha", "180"),
			prox: func() *citest.Proximity {
				p := citest.NewProximity(-math.Pi) // mean angle exactly -pi
				p.Set(0, 0.05)
				return p
			},
			want: straight,
		},
		{
			name:   "alpha 0 leaves only dead ahead",
			tag:    ci.TagProximity,
			params: ci.NewParams("alpha", "0"),
			prox: func() *citest.Proximity {
				p := citest.NewProximity(deg(1))
				p.Set(0, 0.01)
				return p
			},
			want: right,
		},
		{
			name:   "delta raises the free level",
			tag:    ci.TagProximity,
			params: ci.NewParams("delta", "0.6"),
			prox: func() *citest.Proximity {
				p := citest.NewProximity(0)
				p.Set(0, 0.5)
				return p
			},
			want: straight,
		},
		{
			// the zero sum's length is 0, which is not below a delta of 0
			name:   "nothing sensed, delta 0: turn left",
			tag:    ci.TagFootBotProximity,
			params: ci.NewParams("delta", "0"),
			prox:   citest.NewFootBotProximity,
			want:   left,
		},
		{
			// the zero sum's angle is 0, inside a cone of width 0
			name:   "nothing sensed, alpha 0: straight",
			tag:    ci.TagFootBotProximity,
			params: ci.NewParams("alpha", "0"),
			prox:   citest.NewFootBotProximity,
			want:   straight,
		},
		{
			name:   "velocity sets the wheel speed",
			tag:    ci.TagFootBotProximity,
			params: ci.NewParams("velocity", "12.5"),
			prox:   citest.NewFootBotProximity,
			want:   [2]float64{12.5, 12.5},
		},
		{
			name:   "velocity on a turn",
			tag:    ci.TagFootBotProximity,
			params: ci.NewParams("velocity", "12.5"),
			prox: func() *citest.Proximity {
				p := citest.NewFootBotProximity()
				p.Set(3, 1)
				return p
			},
			want: [2]float64{12.5, 0},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, w := setup(t, tc.tag, tc.prox(), tc.params)
			if w.Calls != 0 {
				t.Errorf("Init set the wheels %d times", w.Calls)
			}
			c.ControlStep()
			if got := [2]float64{w.Left, w.Right}; got != tc.want || w.Calls != 1 {
				t.Errorf("wheels (%v, %v) after %d calls, want %v after 1", w.Left, w.Right, w.Calls, tc.want)
			}
		})
	}
}

func TestControlStepFollowsReadings(t *testing.T) {
	p := citest.NewFootBotProximity()
	c, w := setup(t, ci.TagFootBotProximity, p, ci.Params{})
	for i, tc := range []struct {
		values []float64
		want   [2]float64
	}{
		{nil, [2]float64{5, 5}},
		{[]float64{0, 1}, [2]float64{5, 0}},
		{nil, [2]float64{5, 5}},
		{[]float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, [2]float64{0, 5}},
	} {
		p.SetAll(tc.values...)
		c.ControlStep()
		if got := [2]float64{w.Left, w.Right}; got != tc.want || w.Calls != i+1 {
			t.Errorf("tick %d: wheels %v after %d calls, want %v", i, got, w.Calls, tc.want)
		}
	}
}

func TestInitPicksFirstDeclaredProximity(t *testing.T) {
	obstacleLeft := func(n int) *citest.Proximity {
		angles := make([]float64, n)
		for i := range angles {
			angles[i] = ci.Radians(45)
		}
		p := citest.NewProximity(angles...)
		for i := range n {
			p.Set(i, 1)
		}
		return p
	}
	for _, tc := range []struct {
		name    string
		sensors map[string]*citest.Proximity
	}{
		{"foot-bot before e-puck", map[string]*citest.Proximity{
			ci.TagFootBotProximity: obstacleLeft(1), ci.TagEPuckProximity: citest.NewEPuckProximity(),
		}},
		{"foot-bot before generic", map[string]*citest.Proximity{
			ci.TagFootBotProximity: obstacleLeft(1), ci.TagProximity: citest.NewEPuckProximity(),
		}},
		{"e-puck before generic", map[string]*citest.Proximity{
			ci.TagEPuckProximity: obstacleLeft(2), ci.TagProximity: citest.NewFootBotProximity(),
		}},
		{"generic alone", map[string]*citest.Proximity{
			ci.TagProximity: obstacleLeft(3),
		}},
	} {
		w := &citest.Wheels{}
		r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w)
		for tag, p := range tc.sensors {
			r.AddSensor(tag, p)
		}
		c := diffusion.New()
		if err := c.Init(r, ci.Params{}); err != nil {
			t.Fatalf("%s: Init: %v", tc.name, err)
		}
		c.ControlStep()
		if w.Left != 5 || w.Right != 0 {
			t.Errorf("%s: wheels (%v, %v), want (5, 0) from the preferred sensor", tc.name, w.Left, w.Right)
		}
	}
}

type notProximity struct{}

func TestInitDeviceErrors(t *testing.T) {
	for _, tc := range []struct {
		name      string
		robot     *citest.Robot
		wrapped   error
		fragments []string
	}{
		{
			name:    "no proximity sensor",
			robot:   citest.NewRobot("fb9", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}),
			wrapped: ci.ErrNotDeclared,
			fragments: []string{`robot "fb9"`, "no proximity sensor", "<footbot_proximity", "<epuck_proximity",
				"<proximity", "under <sensors>"},
		},
		{
			name: "proximity on the wrong side",
			robot: citest.NewRobot("fb9", 1).
				AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
				AddActuator(ci.TagFootBotProximity, citest.NewFootBotProximity()),
			wrapped:   ci.ErrNotDeclared,
			fragments: []string{"<footbot_proximity", "under <sensors>"},
		},
		{
			name: "no wheels",
			robot: citest.NewRobot("fb9", 1).
				AddSensor(ci.TagFootBotProximity, citest.NewFootBotProximity()),
			wrapped:   ci.ErrNotDeclared,
			fragments: []string{"differential_steering", "under <actuators>"},
		},
		{
			name: "proximity of another type",
			robot: citest.NewRobot("fb9", 1).
				AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
				AddSensor(ci.TagEPuckProximity, notProximity{}),
			wrapped:   ci.ErrWrongType,
			fragments: []string{`sensor "epuck_proximity"`, "ci.Proximity"},
		},
		{
			name: "wheels of another type",
			robot: citest.NewRobot("fb9", 1).
				AddActuator(ci.TagDifferentialSteering, citest.NewLEDs(1)).
				AddSensor(ci.TagFootBotProximity, citest.NewFootBotProximity()),
			wrapped:   ci.ErrWrongType,
			fragments: []string{`actuator "differential_steering"`, "ci.DifferentialSteeringActuator"},
		},
	} {
		err := diffusion.New().Init(tc.robot, ci.Params{})
		if err == nil {
			t.Errorf("%s: Init succeeded", tc.name)
			continue
		}
		if !errors.Is(err, tc.wrapped) {
			t.Errorf("%s: error %q does not wrap %v", tc.name, err, tc.wrapped)
		}
		if !strings.HasPrefix(err.Error(), "diffusion: ") {
			t.Errorf("%s: error %q does not start with the package name", tc.name, err)
		}
		for _, f := range tc.fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%s: error %q does not mention %q", tc.name, err, f)
			}
		}
	}
}

func TestInitParamErrors(t *testing.T) {
	for _, tc := range []struct {
		attr, value string
		fragments   []string
	}{
		{"alpha", "x", []string{`alpha="x"`, "not a number"}},
		{"alpha", "7,5", []string{`alpha="7,5"`, "not a number"}},
		{"alpha", "-1", []string{"alpha=-1", "negative", "degrees"}},
		{"alpha", "NaN", []string{`alpha="NaN"`, "not a finite number", "7.5"}},
		{"delta", "", []string{`delta=""`, "not a number"}},
		{"delta", "-0.1", []string{"delta=-0.1", "negative"}},
		{"delta", "+Inf", []string{`delta="+Inf"`, "not a finite number"}},
		{"velocity", "fast", []string{`velocity="fast"`, "not a number"}},
		{"velocity", "inf", []string{`velocity="inf"`, "not a finite number"}},
	} {
		p := ci.NewParams(tc.attr, tc.value)
		p.Where = "diffusion.argos:42"
		r := citest.NewRobot("fb0", 1).
			AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
			AddSensor(ci.TagFootBotProximity, citest.NewFootBotProximity())
		err := diffusion.New().Init(r, p)
		if err == nil {
			t.Errorf("%s=%q: Init succeeded", tc.attr, tc.value)
			continue
		}
		fragments := append(tc.fragments, "diffusion.argos:42", "<params>")
		if !strings.HasPrefix(err.Error(), "diffusion: ") {
			t.Errorf("%s=%q: error %q does not start with the package name", tc.attr, tc.value, err)
		}
		for _, f := range fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%s=%q: error %q does not mention %q", tc.attr, tc.value, err, f)
			}
		}
	}
}

func TestInitAcceptsParams(t *testing.T) {
	for _, p := range []ci.Params{
		{},
		ci.NewParams("alpha", "7.5", "delta", "0.1", "velocity", "5"),
		ci.NewParams("alpha", " 10 ", "delta", "0", "velocity", "-3"),
	} {
		r := citest.NewRobot("fb0", 1).
			AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
			AddSensor(ci.TagFootBotProximity, citest.NewFootBotProximity())
		if err := diffusion.New().Init(r, p); err != nil {
			t.Errorf("Init(%v): %v", p.Attrs, err)
		}
	}
}

func TestResetDestroy(t *testing.T) {
	p := citest.NewFootBotProximity()
	c, w := setup(t, ci.TagFootBotProximity, p, ci.NewParams("velocity", "8"))
	p.Set(2, 1)
	c.ControlStep()
	c.Reset()
	if w.Calls != 1 {
		t.Errorf("Reset moved the wheels (%d calls)", w.Calls)
	}
	// Same readings, same choice: Reset forgot neither the devices nor the
	// params.
	c.ControlStep()
	if w.Left != 8 || w.Right != 0 || w.Calls != 2 {
		t.Errorf("after Reset: wheels (%v, %v) after %d calls, want (8, 0) after 2", w.Left, w.Right, w.Calls)
	}
	p.SetAll()
	c.ControlStep()
	if w.Left != 8 || w.Right != 8 {
		t.Errorf("after Reset, nothing sensed: wheels (%v, %v), want (8, 8)", w.Left, w.Right)
	}
	if err := c.Destroy(); err != nil {
		t.Errorf("Destroy: %v", err)
	}
	if w.Calls != 3 {
		t.Errorf("Destroy moved the wheels (%d calls)", w.Calls)
	}
}

func TestRegistered(t *testing.T) {
	for _, label := range []string{diffusion.FootBotLabel, diffusion.EPuckLabel} {
		f, err := ci.Controllers.Lookup(label)
		if err != nil {
			t.Errorf("%s: %v", label, err)
			continue
		}
		a, b := f(), f()
		if _, ok := a.(*diffusion.Controller); !ok {
			t.Errorf("%s makes a %T, want *diffusion.Controller", label, a)
		}
		if a == b {
			t.Errorf("%s returns the same controller twice", label)
		}
	}
	if diffusion.FootBotLabel != "footbot_diffusion_controller" || diffusion.EPuckLabel != "epuck_diffusion_controller" {
		t.Errorf("labels %q, %q", diffusion.FootBotLabel, diffusion.EPuckLabel)
	}
	found := 0
	for _, e := range ci.Controllers.Entries() {
		if e.Name != diffusion.FootBotLabel && e.Name != diffusion.EPuckLabel {
			continue
		}
		found++
		for _, f := range []string{"alpha", "delta", "velocity", "differential_steering", "footbot_proximity", "epuck_proximity"} {
			if !strings.Contains(e.Description, f) {
				t.Errorf("%s description does not mention %s: %q", e.Name, f, e.Description)
			}
		}
	}
	if found != 2 {
		t.Errorf("%d diffusion entries, want 2", found)
	}
}

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		tag  string
		prox *citest.Proximity
	}{
		{"foot-bot", ci.TagFootBotProximity, citest.NewFootBotProximity()},
		{"e-puck", ci.TagEPuckProximity, citest.NewEPuckProximity()},
		{"empty ring", ci.TagProximity, citest.NewProximity()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.prox.Len() {
				tc.prox.Set(i, float64(i%3)/2)
			}
			w := &citest.Wheels{}
			r := citest.NewRobot("r0", 3).
				AddActuator(ci.TagDifferentialSteering, w).
				AddSensor(tc.tag, tc.prox)
			citest.TestController(t, func() ci.Controller { return diffusion.New() }, r, ci.NewParams("velocity", "4"), 10)
			if w.Calls != 20 {
				t.Errorf("wheels set %d times over 20 steps", w.Calls)
			}
		})
	}
}

func TestControlStepDoesNotAllocate(t *testing.T) {
	// not even the first step, when every sensor sees something for the
	// first time (AllocsPerRun below warms up first). The count is the
	// process's, so a goroutine of the runtime or of an earlier test may
	// add to it: the fewest over a few fresh controllers is the step's
	var c *diffusion.Controller
	fewest := uint64(math.MaxUint64)
	for range 5 {
		p := citest.NewFootBotProximity()
		c, _ = setup(t, ci.TagFootBotProximity, p, ci.Params{})
		p.SetAll(0.1, 0.5, 0.9)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		c.ControlStep()
		runtime.ReadMemStats(&after)
		if fewest = min(fewest, after.Mallocs-before.Mallocs); fewest == 0 {
			break
		}
	}
	if fewest != 0 {
		t.Errorf("the first ControlStep allocates %d times", fewest)
	}
	if n := testing.AllocsPerRun(100, c.ControlStep); n != 0 {
		t.Errorf("ControlStep allocates %v times per call", n)
	}
}

func BenchmarkControlStep(b *testing.B) {
	p := citest.NewFootBotProximity()
	c, _ := setup(b, ci.TagFootBotProximity, p, ci.Params{})
	for i := range p.Len() {
		p.Set(i, float64(i%4)/4)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.ControlStep()
	}
}

// sharedRing is a proximity sensor that offers its ring's directions, as
// the simulator's do.
type sharedRing struct {
	*citest.Proximity
	angles []float64
	dirs   []ci.Vector2
}

func (s sharedRing) Directions() ([]float64, []ci.Vector2) { return s.angles, s.dirs }

func TestUsesSharedDirectionsWithoutWritingThem(t *testing.T) {
	// The shared direction of the sensor at 45° deliberately points to
	// -45°: a controller that uses it turns left, one that computes its
	// own turns right.
	p := sharedRing{citest.NewProximity(ci.Radians(45)), []float64{ci.Radians(45)}, []ci.Vector2{ci.FromPolar(1, ci.Radians(-45))}}
	want := sharedRing{nil, slices.Clone(p.angles), slices.Clone(p.dirs)}
	w := &citest.Wheels{}
	r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(ci.TagEPuckProximity, p)
	c := diffusion.New()
	if err := c.Init(r, ci.Params{}); err != nil {
		t.Fatal(err)
	}
	p.Set(0, 1)
	c.ControlStep()
	if w.Left != 0 || w.Right != 5 {
		t.Errorf("wheels (%v, %v), want (0, 5) from the shared direction", w.Left, w.Right)
	}
	// an angle that is not the shared one: the controller computes its
	// direction in a cache of its own and leaves the shared ones alone
	p.Readings()[0].Angle = ci.Radians(90)
	c.ControlStep()
	if w.Left != 5 || w.Right != 0 {
		t.Errorf("wheels (%v, %v) after the angle changed, want (5, 0)", w.Left, w.Right)
	}
	if !slices.Equal(p.angles, want.angles) || !slices.Equal(p.dirs, want.dirs) {
		t.Errorf("shared directions changed to %v %v, want %v %v", p.angles, p.dirs, want.angles, want.dirs)
	}
}

// zeroRing is a sharedRing that says whether its readings are all zero,
// as the simulator's sensors do.
type zeroRing struct {
	sharedRing
	zero *bool
}

func (z zeroRing) AllZero() bool { return *z.zero }

// A sensor that says its readings are all zero is believed: the
// controller reads no reading and goes straight. (Here the sensor lies,
// with an obstacle on the left, so that the test sees which was used.)
func TestAllZeroSkipsTheReadings(t *testing.T) {
	zero := true
	p := zeroRing{ring45(), &zero}
	w := &citest.Wheels{}
	r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(ci.TagEPuckProximity, p)
	c := diffusion.New()
	if err := c.Init(r, ci.Params{}); err != nil {
		t.Fatal(err)
	}
	p.Set(0, 1)
	c.ControlStep()
	if w.Left != 5 || w.Right != 5 {
		t.Errorf("all zero: wheels (%v, %v), want (5, 5)", w.Left, w.Right)
	}
	zero = false
	c.ControlStep()
	if w.Left != 5 || w.Right != 0 {
		t.Errorf("not all zero, obstacle on the left: wheels (%v, %v), want (5, 0)", w.Left, w.Right)
	}
}

// steadyRing is a zeroRing that also says whether its readings are
// those of its update before, as the simulator's sensors do.
type steadyRing struct {
	zeroRing
	unchanged *bool
}

func (s steadyRing) Unchanged() bool { return *s.unchanged }

// ring45 is a one-sensor ring at 45 degrees (to the left) that offers
// its direction.
func ring45() sharedRing {
	return sharedRing{citest.NewProximity(ci.Radians(45)), []float64{ci.Radians(45)}, []ci.Vector2{ci.FromPolar(1, ci.Radians(45))}}
}

// A sensor that says its readings did not change is believed once the
// controller has made a turn: it keeps that turn without reading them,
// and sets the wheels to it again. Before its first turn, and after
// Reset, it reads them. (Here the sensor lies, so that the test sees
// which was used.)
func TestUnchangedKeepsTheLastTurn(t *testing.T) {
	zero, unchanged := false, true
	p := steadyRing{zeroRing{ring45(), &zero}, &unchanged}
	w := &citest.Wheels{}
	r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(ci.TagEPuckProximity, p)
	c := diffusion.New()
	if err := c.Init(r, ci.Params{}); err != nil {
		t.Fatal(err)
	}
	check := func(step string, left, right float64, calls int) {
		t.Helper()
		if w.Left != left || w.Right != right || w.Calls != calls {
			t.Errorf("%s: wheels (%v, %v) after %d calls, want (%v, %v) after %d", step, w.Left, w.Right, w.Calls, left, right, calls)
		}
	}
	p.Set(0, 1) // obstacle on the left
	c.ControlStep()
	check("first step, said unchanged", 5, 0, 1)
	p.Set(0, 0)
	c.ControlStep()
	check("readings gone, said unchanged", 5, 0, 2)
	unchanged = false
	c.ControlStep()
	check("readings gone, said changed", 5, 5, 3)
	p.Set(0, 1)
	unchanged = true
	c.ControlStep()
	check("obstacle back, said unchanged", 5, 5, 4)
	c.Reset()
	c.ControlStep()
	check("after Reset, said unchanged", 5, 0, 5)
}

// A sensor with only one of AllZero and Unchanged is believed on that
// one; the other is taken as not known.
func TestPartialRings(t *testing.T) {
	yes := true
	for _, tc := range []struct {
		name string
		prox ci.Proximity
		// the wheels after a step with an obstacle on the left, then one
		// with the obstacle gone
		first, second [2]float64
	}{
		{"AllZero only, always true", zeroRing{ring45(), &yes}, [2]float64{5, 5}, [2]float64{5, 5}},
		{"Unchanged only, always true", onlyUnchanged{ring45(), &yes}, [2]float64{5, 0}, [2]float64{5, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &citest.Wheels{}
			r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(ci.TagEPuckProximity, tc.prox)
			c := diffusion.New()
			if err := c.Init(r, ci.Params{}); err != nil {
				t.Fatal(err)
			}
			tc.prox.Readings()[0].Value = 1
			c.ControlStep()
			if got := [2]float64{w.Left, w.Right}; got != tc.first {
				t.Errorf("obstacle on the left: wheels %v, want %v", got, tc.first)
			}
			tc.prox.Readings()[0].Value = 0
			c.ControlStep()
			if got := [2]float64{w.Left, w.Right}; got != tc.second {
				t.Errorf("obstacle gone: wheels %v, want %v", got, tc.second)
			}
		})
	}
}

// onlyUnchanged is a sharedRing with Unchanged and without AllZero.
type onlyUnchanged struct {
	sharedRing
	unchanged *bool
}

func (o onlyUnchanged) Unchanged() bool { return *o.unchanged }

// lateReadings are e-puck rings (sensors at 17, 50, 90, 150, -150, -90,
// -50 and -17 degrees) as robots stuck in a cluster read them, late in a
// run: a neighbour touching in front, on a side or behind, two at once,
// and faint ones just in reach, ahead or on a side.
var lateReadings = map[string][8]float64{
	"front-left":  {1, 0.6, 0, 0, 0, 0, 0, 0.3},
	"right":       {0, 0, 0, 0, 0, 0.9, 0.5, 0.1},
	"behind":      {0, 0, 0, 0.8, 0.7, 0, 0, 0},
	"two":         {0.9, 0.2, 0, 0, 0, 0, 0.3, 0.95},
	"faint-left":  {0, 0.1, 0.05, 0, 0, 0, 0, 0},
	"faint-ahead": {0.05, 0, 0, 0, 0, 0, 0, 0.04},
}

// BenchmarkControlStepLate runs ControlStep on e-pucks whose ring offers
// its directions and says its readings are not all zero, as the
// simulator's does, on each of lateReadings and on all of them in turn.
func BenchmarkControlStepLate(b *testing.B) {
	names := slices.Sorted(maps.Keys(lateReadings))
	controller := func(values [8]float64) *diffusion.Controller {
		p := citest.NewEPuckProximity()
		angles := make([]float64, p.Len())
		dirs := make([]ci.Vector2, p.Len())
		for i, r := range p.Readings() {
			angles[i], dirs[i] = r.Angle, ci.FromPolar(1, r.Angle)
		}
		p.SetAll(values[:]...)
		zero := false
		ring := zeroRing{sharedRing{p, angles, dirs}, &zero}
		r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).AddSensor(ci.TagEPuckProximity, ring)
		c := diffusion.New()
		if err := c.Init(r, ci.Params{}); err != nil {
			b.Fatal(err)
		}
		return c
	}
	var all []*diffusion.Controller
	for _, name := range names {
		c := controller(lateReadings[name])
		all = append(all, c)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				c.ControlStep()
			}
		})
	}
	b.Run("mix", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			all[i%len(all)].ControlStep()
		}
	})
}
