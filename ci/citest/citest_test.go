package citest

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

func TestRobotDevices(t *testing.T) {
	w := &Wheels{}
	p := NewFootBotProximity()
	l := NewLEDs(12)
	r := NewRobot("fb3", 7).
		AddActuator(ci.TagDifferentialSteering, w).
		AddSensor(ci.TagDifferentialSteering, w).
		AddSensor(ci.TagFootBotProximity, p).
		AddActuator(ci.TagLEDs, l)
	if r.ID() != "fb3" {
		t.Errorf("ID = %q", r.ID())
	}
	for _, tc := range []struct {
		kind, tag string
		get       func(string) (any, bool)
		want      any
	}{
		{"actuator", ci.TagDifferentialSteering, r.Actuator, w},
		{"sensor", ci.TagDifferentialSteering, r.Sensor, w},
		{"sensor", ci.TagFootBotProximity, r.Sensor, p},
		{"actuator", ci.TagLEDs, r.Actuator, l},
		{"sensor", ci.TagLEDs, r.Sensor, nil},
		{"actuator", ci.TagFootBotProximity, r.Actuator, nil},
		{"sensor", ci.TagEPuckProximity, r.Sensor, nil},
	} {
		got, ok := tc.get(tc.tag)
		if ok != (tc.want != nil) || got != tc.want {
			t.Errorf("%s %q = %v, %v; want %v", tc.kind, tc.tag, got, ok, tc.want)
		}
	}
	// The typed getters of ci work on it.
	if _, err := ci.GetSensor[ci.Proximity](r, ci.TagFootBotProximity); err != nil {
		t.Error(err)
	}
	if _, err := ci.GetSensor[ci.Proximity](r, ci.TagEPuckProximity); !errors.Is(err, ci.ErrNotDeclared) {
		t.Errorf("undeclared sensor: error %v, want ci.ErrNotDeclared", err)
	}
	if _, err := ci.GetActuator[ci.LEDs](r, ci.TagDifferentialSteering); !errors.Is(err, ci.ErrWrongType) {
		t.Errorf("wrong type: error %v, want ci.ErrWrongType", err)
	}
}

func TestRobotAddPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		add  func()
		want string
	}{
		{"duplicate sensor", func() {
			NewRobot("a", 1).AddSensor("x", &Positioning{}).AddSensor("x", &Positioning{})
		}, `sensor "x" added twice`},
		{"duplicate actuator", func() {
			NewRobot("a", 1).AddActuator("x", &Wheels{}).AddActuator("x", &Wheels{})
		}, `actuator "x" added twice`},
		{"nil sensor", func() { NewRobot("a", 1).AddSensor("x", nil) }, "nil"},
		{"nil actuator", func() { NewRobot("a", 1).AddActuator("y", nil) }, "nil"},
	} {
		func() {
			defer func() {
				p := recover()
				if p == nil {
					t.Errorf("%s: no panic", tc.name)
				} else if !strings.Contains(fmt.Sprint(p), tc.want) {
					t.Errorf("%s: panic %q does not mention %q", tc.name, p, tc.want)
				}
			}()
			tc.add()
		}()
	}
	// The same tag may be both a sensor and an actuator.
	NewRobot("a", 1).AddSensor("x", &Wheels{}).AddActuator("x", &Wheels{})
}

func TestRobotRand(t *testing.T) {
	draw := func(r *Robot) [4]uint64 {
		var out [4]uint64
		for i := range out {
			out[i] = r.Rand().Uint64()
		}
		return out
	}
	a, b := draw(NewRobot("fb0", 42)), draw(NewRobot("fb0", 42))
	if a != b {
		t.Errorf("same id and seed give %v and %v", a, b)
	}
	if c := draw(NewRobot("fb1", 42)); c == a {
		t.Errorf("another id gives the same stream %v", c)
	}
	if c := draw(NewRobot("fb0", 43)); c == a {
		t.Errorf("another seed gives the same stream %v", c)
	}
	r := NewRobot("fb0", 42)
	if r.Rand() != r.Rand() {
		t.Error("Rand returns a new stream at every call; want one stream per robot")
	}
}

func TestWheels(t *testing.T) {
	var w Wheels
	var a ci.DifferentialSteeringActuator = &w
	for i, v := range [][2]float64{{1, 2}, {-3, 4.5}, {0, 0}} {
		a.SetLinearVelocity(v[0], v[1])
		if w.Left != v[0] || w.Right != v[1] || w.Calls != i+1 {
			t.Errorf("after SetLinearVelocity(%v, %v): Left %v Right %v Calls %d", v[0], v[1], w.Left, w.Right, w.Calls)
		}
	}
	var s ci.DifferentialSteeringSensor = &w
	if got := s.Reading(); got != (ci.DifferentialSteeringReading{}) {
		t.Errorf("first Reading = %+v, want zero", got)
	}
	want := ci.DifferentialSteeringReading{VelocityLeft: 1, VelocityRight: 2, CoveredDistanceLeft: 0.1, CoveredDistanceRight: 0.2, WheelAxisLength: 14}
	w.SetReading(want)
	if got := s.Reading(); got != want {
		t.Errorf("Reading = %+v, want %+v", got, want)
	}
}

func TestProximityRings(t *testing.T) {
	deg := func(d float64) float64 { return d * math.Pi / 180 }
	for _, tc := range []struct {
		name string
		p    *Proximity
		want []float64
	}{
		{"foot-bot", NewFootBotProximity(), []float64{
			deg(7.5), deg(22.5), deg(37.5), deg(52.5), deg(67.5), deg(82.5),
			deg(97.5), deg(112.5), deg(127.5), deg(142.5), deg(157.5), deg(172.5),
			deg(-172.5), deg(-157.5), deg(-142.5), deg(-127.5), deg(-112.5), deg(-97.5),
			deg(-82.5), deg(-67.5), deg(-52.5), deg(-37.5), deg(-22.5), deg(-7.5),
		}},
		{"e-puck", NewEPuckProximity(), []float64{
			deg(17), deg(50), deg(90), deg(150), deg(-150), deg(-90), deg(-50), deg(-17),
		}},
		{"custom", NewProximity(0, 1, -1), []float64{0, 1, -1}},
		{"empty", NewProximity(), []float64{}},
	} {
		rd := tc.p.Readings()
		if len(rd) != len(tc.want) || tc.p.Len() != len(tc.want) {
			t.Errorf("%s: %d readings, Len %d, want %d", tc.name, len(rd), tc.p.Len(), len(tc.want))
			continue
		}
		for i, r := range rd {
			if math.Abs(r.Angle-tc.want[i]) > 1e-12 {
				t.Errorf("%s: sensor %d at %v rad (%v deg), want %v deg", tc.name, i, r.Angle, r.Angle*180/math.Pi, tc.want[i]*180/math.Pi)
			}
			if r.Angle <= -math.Pi || r.Angle > math.Pi {
				t.Errorf("%s: sensor %d angle %v outside (-pi, pi]", tc.name, i, r.Angle)
			}
			if r.Value != 0 {
				t.Errorf("%s: sensor %d starts at %v, want 0", tc.name, i, r.Value)
			}
		}
	}
}

func values(p *Proximity) []float64 {
	var v []float64
	for _, r := range p.Readings() {
		v = append(v, r.Value)
	}
	return v
}

func TestProximitySet(t *testing.T) {
	p := NewEPuckProximity()
	var s ci.Proximity = p
	angles := make([]float64, p.Len())
	for i, r := range s.Readings() {
		angles[i] = r.Angle
	}
	for _, tc := range []struct {
		name string
		do   func()
		want []float64
	}{
		{"Set", func() { p.Set(0, 0.5); p.Set(7, 1) }, []float64{0.5, 0, 0, 0, 0, 0, 0, 1}},
		{"Set again", func() { p.Set(7, 0.25) }, []float64{0.5, 0, 0, 0, 0, 0, 0, 0.25}},
		{"SetAll all", func() { p.SetAll(1, 2, 3, 4, 5, 6, 7, 8) }, []float64{1, 2, 3, 4, 5, 6, 7, 8}},
		{"SetAll fewer", func() { p.SetAll(0.1, 0.2) }, []float64{0.1, 0.2, 0, 0, 0, 0, 0, 0}},
		{"SetAll none", func() { p.SetAll() }, []float64{0, 0, 0, 0, 0, 0, 0, 0}},
	} {
		tc.do()
		got := values(p)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: values %v, want %v", tc.name, got, tc.want)
		}
		for i, r := range s.Readings() {
			if r.Angle != angles[i] {
				t.Errorf("%s: sensor %d moved from %v to %v", tc.name, i, angles[i], r.Angle)
			}
		}
	}
}

func TestProximityPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(p *Proximity)
		want string
	}{
		{"Set past the end", func(p *Proximity) { p.Set(8, 1) }, "Set(8)"},
		{"Set negative", func(p *Proximity) { p.Set(-1, 1) }, "Set(-1)"},
		{"SetAll too many", func(p *Proximity) { p.SetAll(1, 2, 3, 4, 5, 6, 7, 8, 9) }, "9 values for 8 sensors"},
	} {
		func() {
			defer func() {
				p := recover()
				if p == nil {
					t.Errorf("%s: no panic", tc.name)
				} else if !strings.Contains(fmt.Sprint(p), tc.want) {
					t.Errorf("%s: panic %q does not mention %q", tc.name, p, tc.want)
				}
			}()
			tc.do(NewEPuckProximity())
		}()
	}
}

func TestPositioning(t *testing.T) {
	var zero Positioning
	if got := zero.Reading(); got != (ci.PositioningReading{}) {
		t.Errorf("zero Positioning reads %+v", got)
	}
	p := NewPositioning(0.5, -1, math.Pi/2)
	var s ci.Positioning = p
	got := s.Reading()
	if got.Position != (ci.Vector3{X: 0.5, Y: -1}) || math.Abs(got.Orientation.Yaw()-math.Pi/2) > 1e-12 {
		t.Errorf("NewPositioning(0.5, -1, pi/2) reads %+v (yaw %v)", got, got.Orientation.Yaw())
	}
	p.SetPose(1, 2, -3)
	if got := s.Reading(); got.Position != (ci.Vector3{X: 1, Y: 2}) || math.Abs(got.Orientation.Yaw()+3) > 1e-12 {
		t.Errorf("after SetPose(1, 2, -3) reads %+v (yaw %v)", got, got.Orientation.Yaw())
	}
	want := ci.PositioningReading{Position: ci.Vector3{X: 1, Y: 2, Z: 3}, Orientation: ci.QuaternionFromEulerZYX(0.1, 0.2, 0.3)}
	p.Set(want)
	if got := s.Reading(); got != want {
		t.Errorf("after Set reads %+v, want %+v", got, want)
	}
}

func TestLEDs(t *testing.T) {
	l := NewLEDs(3)
	var a ci.LEDs = l
	if a.Len() != 3 || len(l.Colors) != 3 {
		t.Fatalf("Len = %d, Colors %v; want 3", a.Len(), l.Colors)
	}
	for _, tc := range []struct {
		name  string
		do    func()
		want  []ci.Color
		calls int
	}{
		{"initial", func() {}, []ci.Color{ci.Black, ci.Black, ci.Black}, 0},
		{"single", func() { a.SetSingleColor(1, ci.Red) }, []ci.Color{ci.Black, ci.Red, ci.Black}, 1},
		{"out of range", func() { a.SetSingleColor(3, ci.Blue); a.SetSingleColor(-1, ci.Blue) }, []ci.Color{ci.Black, ci.Red, ci.Black}, 3},
		{"all", func() { a.SetAllColors(ci.Green) }, []ci.Color{ci.Green, ci.Green, ci.Green}, 4},
		{"single after all", func() { a.SetSingleColor(2, ci.Yellow) }, []ci.Color{ci.Green, ci.Green, ci.Yellow}, 5},
	} {
		tc.do()
		if fmt.Sprint(l.Colors) != fmt.Sprint(tc.want) || l.Calls != tc.calls {
			t.Errorf("%s: Colors %v Calls %d, want %v %d", tc.name, l.Colors, l.Calls, tc.want, tc.calls)
		}
	}
	if NewLEDs(0).Len() != 0 {
		t.Error("NewLEDs(0) is not empty")
	}
}

// Two counters on a perfect network hear each other's counts, one step
// late, and never themselves.
func TestCounter(t *testing.T) {
	var net Network
	a, b := NewRobot("a", 1), NewRobot("b", 1)
	net.Attach(a)
	net.Attach(b)
	ca, cb := &Counter{}, &Counter{}
	if err := ca.Init(a, ci.Params{}); err != nil {
		t.Fatal(err)
	}
	if err := cb.Init(b, ci.Params{}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		ca.ControlStep()
		cb.ControlStep()
		net.Deliver()
	}
	if n, ok := ca.Heard("b"); !ok || n != 4 {
		t.Errorf("a heard %d from b (%v), want 4 (the fifth is delivered after a's last step)", n, ok)
	}
	if _, self := cb.Heard("b"); self {
		t.Error("b heard itself")
	}
	if got := cb.HeardAll(); len(got) != 1 || got["a"] != 4 {
		t.Errorf("b heard %v", got)
	}
}
