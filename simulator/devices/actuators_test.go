package devices_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type wheelsActuator interface {
	devices.Actuator
	ci.DifferentialSteeringActuator
}

func wheels(t testing.TB, r *entity.Robot, xml string) wheelsActuator {
	t.Helper()
	v, err := build(t, r, "actuators", xml)
	if err != nil {
		t.Fatalf("building %s: %v", xml, err)
	}
	w, ok := v.(wheelsActuator)
	if !ok {
		t.Fatalf("%s built a %T, not an Actuator and ci.DifferentialSteeringActuator", xml, v)
	}
	return w
}

func TestDifferentialSteering(t *testing.T) {
	tests := []struct {
		m           *entity.RobotModel
		left, right float64 // cm/s
	}{
		{entity.EPuck, 10, 10},
		{entity.EPuck, -5, 5},
		{entity.EPuck, 2, 8},
		{entity.FootBot, 10, 0},
		{entity.FootBot, 0, 0},
		{entity.FootBot, -30, -10},
	}
	for _, tt := range tests {
		s := newArena(2)
		r := addRobot(s, tt.m, "r", 0, 0, 0, 1)
		w := wheels(t, r, `<differential_steering implementation="default" />`)
		w.SetLinearVelocity(tt.left, tt.right)
		// exact wheels (no noise) apply the speeds as they are set,
		// exactly as Apply does (which the act phase then skips)
		if tk, ok := w.(interface{ Tickless() bool }); !ok || !tk.Tickless() {
			t.Errorf("%s: exact wheels are not tickless", tt.m.Type)
		}
		at := *r.Drive()
		w.Apply()
		if d := r.Drive(); *d != at {
			t.Errorf("%s (%g, %g): Apply changed the drive set at once from %v, %v to %v, %v", tt.m.Type, tt.left, tt.right, at.V, at.W, d.V, d.W)
		}
		l, rr := tt.left/100, tt.right/100
		b := r.Drive()
		if math.Abs(r.Wheels[0]-l) > 1e-15 || math.Abs(r.Wheels[1]-rr) > 1e-15 {
			t.Errorf("%s (%g, %g): Wheels = %v m/s, want [%g %g]", tt.m.Type, tt.left, tt.right, r.Wheels, l, rr)
		}
		if v, om := (l+rr)/2, (rr-l)/tt.m.Axle; math.Abs(b.V-v) > 1e-15 || math.Abs(b.W-om) > 1e-12 {
			t.Errorf("%s (%g, %g): drive %v, %v; want %v, %v", tt.m.Type, tt.left, tt.right, b.V, b.W, v, om)
		}
		// The values stay until the controller changes them.
		before := *b
		w.Apply()
		if *b != before {
			t.Errorf("a second Apply changed the drive to %v, %v", b.V, b.W)
		}
	}
}

// Noisy wheels draw their noise when the act phase applies them, not
// when the controller sets them: the body keeps its drive until Apply.
func TestNoisyWheelsWaitForApply(t *testing.T) {
	s := newArena(2)
	r := addRobot(s, entity.EPuck, "r", 0, 0, 0, 1)
	w := wheels(t, r, `<differential_steering implementation="default" noise_std_dev="0.5" />`)
	if tk, ok := w.(interface{ Tickless() bool }); ok && tk.Tickless() {
		t.Errorf("noisy wheels are tickless: the act phase would skip their noise")
	}
	w.SetLinearVelocity(5, 5)
	if d := r.Drive(); d.V != 0 || d.W != 0 || r.Wheels != [2]float64{} {
		t.Errorf("the body changed before Apply")
	}
	w.Apply()
	if d := r.Drive(); d.V == 0 {
		t.Errorf("Apply left the drive at zero")
	}
	// Reset stops exact wheels at once too
	e := wheels(t, r, `<differential_steering implementation="default" />`)
	e.SetLinearVelocity(5, 5)
	e.(interface{ Reset() }).Reset()
	if d := r.Drive(); d.V != 0 || d.W != 0 || r.Wheels != [2]float64{} {
		t.Errorf("exact wheels after Reset: drive %v, %v and wheels %v, want zeros", d.V, d.W, r.Wheels)
	}
}

func TestDifferentialSteeringNoise(t *testing.T) {
	tests := []struct {
		name      string
		xml       string
		v         float64 // cm/s, both wheels
		mean, std float64 // of the applied speed, cm/s
	}{
		{"noise_std_dev", `<differential_steering noise_std_dev="1" />`, 10, 10, 1},
		{"noise factor", `<differential_steering noise_factor_avg="0.9" noise_factor_stddev="0.1" />`, 10, 9, 1},
		{"both", `<differential_steering noise_std_dev="0.5" noise_factor_avg="1" noise_factor_stddev="0.05" />`, -20, -20, math.Sqrt(0.25 + 1)},
		{"biased factor, no spread", `<differential_steering noise_factor_avg="1.1" />`, 10, 11, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newArena(2)
			a := addRobot(s, entity.EPuck, "a", 0, 0, 0, 7)
			b := addRobot(s, entity.EPuck, "b", 0.5, 0, 0, 7)
			wa, wb := wheels(t, a, tt.xml), wheels(t, b, tt.xml)
			const n = 4000
			var sum, sq float64
			for k := range n {
				// Stopped wheels stay exactly stopped, whatever the noise.
				wa.SetLinearVelocity(0, 0)
				wa.Apply()
				if a.Wheels != [2]float64{} || a.Drive().V != 0 || a.Drive().W != 0 {
					t.Fatalf("stopped wheels moved: %v", a.Wheels)
				}
				wa.SetLinearVelocity(tt.v, 0)
				wa.Apply()
				if a.Wheels[1] != 0 {
					t.Fatalf("the stopped right wheel moved: %v", a.Wheels[1])
				}
				wa.SetLinearVelocity(tt.v, tt.v)
				wa.Apply()
				wb.SetLinearVelocity(0, 0)
				wb.Apply()
				wb.SetLinearVelocity(tt.v, 0)
				wb.Apply()
				wb.SetLinearVelocity(tt.v, tt.v)
				wb.Apply()
				if a.Wheels != b.Wheels {
					t.Fatalf("step %d: same seed, different wheels: %v vs %v", k, a.Wheels, b.Wheels)
				}
				for _, x := range a.Wheels {
					d := x*100 - tt.mean
					if math.Abs(d) > 6*tt.std+1e-9 {
						t.Fatalf("wheel speed %v cm/s, want %v +- 6 x %v", x*100, tt.mean, tt.std)
					}
					sum += d
					sq += d * d
				}
			}
			bias := sum / (2 * n)
			mean, std := tt.mean+bias, math.Sqrt(math.Max(0, sq/(2*n)-bias*bias))
			if math.Abs(bias) > 0.05*math.Max(tt.std, 0.1) || math.Abs(std-tt.std) > 0.1*tt.std+1e-9 {
				t.Errorf("applied speed mean %v, std dev %v; want %v, %v", mean, std, tt.mean, tt.std)
			}
		})
	}
}

func TestDifferentialSteeringErrors(t *testing.T) {
	tests := []struct {
		name, xml string
		words     []string
	}{
		{"negative noise", `<differential_steering noise_std_dev="-1" />`, []string{"noise_std_dev", "negative"}},
		{"negative factor spread", `<differential_steering noise_factor_stddev="-0.1" />`, []string{"noise_factor_stddev", "negative"}},
		{"non-numeric", `<differential_steering noise_factor_avg="one" />`, []string{`noise_factor_avg="one"`, "not a number"}},
		{"unknown attribute", `<differential_steering max_speed="10" />`, []string{`unknown attribute "max_speed"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newArena(1)
			r := addRobot(s, entity.EPuck, "r", 0, 0, 0, 1)
			if _, err := build(t, r, "actuators", tt.xml); err == nil {
				t.Fatal("no error")
			} else {
				checkError(t, err, tt.words)
			}
		})
	}
}

func TestEncoders(t *testing.T) {
	tests := []struct {
		m           *entity.RobotModel
		tick        float64
		left, right float64 // cm/s
		axle        float64 // cm
	}{
		{entity.EPuck, 0.1, 10, -5, 5.3},
		{entity.FootBot, 0.1, 3, 7, 14},
		{entity.FootBot, 0.02, -12.5, 0, 14},
	}
	for _, tt := range tests {
		s := newArena(2)
		r := addRobot(s, tt.m, "r", 0, 0, 0, 1)
		r.TickLength = tt.tick
		enc := sensor[ci.DifferentialSteeringReading](t, r, `<differential_steering implementation="default" />`)
		w := wheels(t, r, `<differential_steering />`)
		if _, ok := enc.(ci.DifferentialSteeringSensor); !ok {
			t.Fatalf("%T is not a ci.DifferentialSteeringSensor", enc)
		}
		w.SetLinearVelocity(tt.left, tt.right)
		w.Apply()
		enc.Update()
		got := enc.Reading()
		want := ci.DifferentialSteeringReading{
			VelocityLeft: tt.left, VelocityRight: tt.right,
			CoveredDistanceLeft: tt.left * tt.tick, CoveredDistanceRight: tt.right * tt.tick,
			WheelAxisLength: tt.axle,
		}
		for _, f := range []struct {
			name      string
			got, want float64
		}{
			{"VelocityLeft", got.VelocityLeft, want.VelocityLeft},
			{"VelocityRight", got.VelocityRight, want.VelocityRight},
			{"CoveredDistanceLeft", got.CoveredDistanceLeft, want.CoveredDistanceLeft},
			{"CoveredDistanceRight", got.CoveredDistanceRight, want.CoveredDistanceRight},
			{"WheelAxisLength", got.WheelAxisLength, want.WheelAxisLength},
		} {
			if math.Abs(f.got-f.want) > 1e-12 {
				t.Errorf("%s (%g, %g) cm/s, tick %g s: %s = %v, want %v", tt.m.Type, tt.left, tt.right, tt.tick, f.name, f.got, f.want)
			}
		}
	}
	s := newArena(1)
	r := addRobot(s, entity.EPuck, "r", 0, 0, 0, 1)
	if _, err := build(t, r, "sensors", `<differential_steering noise_std_dev="1" />`); err == nil {
		t.Error("the encoders accepted an attribute they do not have")
	} else {
		checkError(t, err, []string{`unknown attribute "noise_std_dev"`})
	}
}

func TestPositioning(t *testing.T) {
	tests := []struct {
		x, y, yawDeg float64
	}{
		{0, 0, 0},
		{1, -2, 135},
		{-0.5, 0.25, -90},
		{3, 3, 180},
	}
	for _, tt := range tests {
		s := newArena(10)
		r := addRobot(s, entity.FootBot, "fb", 0, 0, 0, 1)
		p := sensor[ci.PositioningReading](t, r, `<positioning implementation="default" />`)
		if _, ok := p.(ci.Positioning); !ok {
			t.Fatalf("%T is not a ci.Positioning", p)
		}
		// The physics moves the body; the sensor reads it at Update.
		b := r.B()
		b.Pos = ci.Vector2{X: tt.x, Y: tt.y}
		b.SetYaw(ci.Radians(tt.yawDeg))
		p.Update()
		got := p.Reading()
		if got.Position != (ci.Vector3{X: tt.x, Y: tt.y}) {
			t.Errorf("Position = %v, want (%g, %g, 0)", got.Position, tt.x, tt.y)
		}
		half := ci.Radians(tt.yawDeg) / 2
		want := ci.Quaternion{W: math.Cos(half), Z: math.Sin(half)}
		q := got.Orientation
		if math.Abs(q.W-want.W) > 1e-12 || math.Abs(q.Z-want.Z) > 1e-12 || q.X != 0 || q.Y != 0 {
			t.Errorf("yaw %g deg: Orientation = %+v, want %+v", tt.yawDeg, q, want)
		}
		if d := ci.NormalizeAngle(q.Yaw() - ci.Radians(tt.yawDeg)); math.Abs(d) > 1e-9 {
			t.Errorf("yaw %g deg: Orientation.Yaw() = %v", tt.yawDeg, q.Yaw())
		}
	}
	s := newArena(1)
	r := addRobot(s, entity.EPuck, "r", 0, 0, 0, 1)
	if _, err := build(t, r, "sensors", `<positioning noise="0.1" />`); err == nil {
		t.Error("positioning accepted an unknown attribute")
	} else {
		checkError(t, err, []string{`unknown attribute "noise"`})
	}
}

type ledsActuator interface {
	devices.Actuator
	ci.LEDs
}

func TestLEDs(t *testing.T) {
	for _, tt := range []struct {
		m *entity.RobotModel
		n int
	}{{entity.FootBot, 13}, {entity.EPuck, 8}} {
		t.Run(tt.m.Type, func(t *testing.T) {
			s := newArena(1)
			r := addRobot(s, tt.m, "r", 0, 0, 0, 1)
			v, err := build(t, r, "actuators", `<leds implementation="default" medium="leds" />`)
			if err != nil {
				t.Fatal(err)
			}
			l, ok := v.(ledsActuator)
			if !ok {
				t.Fatalf("built a %T, not an Actuator and ci.LEDs", v)
			}
			if l.Len() != tt.n || len(r.LEDs) != tt.n {
				t.Fatalf("Len() = %d, len(Robot.LEDs) = %d; want %d", l.Len(), len(r.LEDs), tt.n)
			}
			for i, c := range r.LEDs {
				if c != ci.Black {
					t.Errorf("LED %d starts %v, want black", i, c)
				}
			}
			l.SetSingleColor(0, ci.Red)
			l.SetSingleColor(tt.n-1, ci.Blue)
			l.SetSingleColor(-1, ci.Green) // ignored
			l.SetSingleColor(tt.n, ci.Green)
			l.SetSingleColor(1000, ci.Green)
			if r.LEDs[0] != ci.Black {
				t.Error("the robot's LEDs changed before Apply")
			}
			l.Apply()
			for i, c := range r.LEDs {
				want := ci.Black
				switch i {
				case 0:
					want = ci.Red
				case tt.n - 1:
					want = ci.Blue
				}
				if c != want {
					t.Errorf("after Apply, LED %d = %v, want %v", i, c, want)
				}
			}
			l.SetAllColors(ci.Yellow)
			l.Apply()
			for i, c := range r.LEDs {
				if c != ci.Yellow {
					t.Errorf("after SetAllColors, LED %d = %v", i, c)
				}
			}
			if _, err := build(t, r, "actuators", `<leds count="3" />`); err == nil {
				t.Error("leds accepted an unknown attribute")
			} else {
				checkError(t, err, []string{`unknown attribute "count"`})
			}
		})
	}
}

// Exact wheels apply the speeds as they are set, and bit for bit as Apply
// does (noisy's path without noise): a later Apply changes no bit of the
// wheels or the drive, for any speed, zeros of either sign, infinities
// and NaN included.
func TestExactWheelsSetAsApply(t *testing.T) {
	s := newArena(2)
	r := addRobot(s, entity.EPuck, "r", 0, 0, 0, 1)
	w := wheels(t, r, `<differential_steering implementation="default" />`)
	rng := rand.New(rand.NewPCG(11, 12))
	special := []float64{0, math.Copysign(0, -1), 5, -5, 1e-310, -1e-310, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	bits := func() [4]uint64 {
		d := r.Drive()
		return [4]uint64{math.Float64bits(r.Wheels[0]), math.Float64bits(r.Wheels[1]), math.Float64bits(d.V), math.Float64bits(d.W)}
	}
	check := func(left, right float64) {
		w.SetLinearVelocity(left, right)
		set := bits()
		w.Apply()
		if applied := bits(); applied != set {
			t.Errorf("SetLinearVelocity(%v, %v) set wheels and drive %#x, Apply %#x", left, right, set, applied)
		}
	}
	for _, l := range special {
		for _, rr := range special {
			check(l, rr)
		}
	}
	for range 10000 {
		check(math.Float64frombits(rng.Uint64()), 10*rng.NormFloat64())
	}
}

// BenchmarkExactWheels sets the wheels of e-pucks as the diffusion
// controller does, through the interface, cycling over 1024 robots.
func BenchmarkExactWheels(b *testing.B) {
	s := newArena(20)
	var ws []ci.DifferentialSteeringActuator
	for i := range 1024 {
		r := addRobot(s, entity.EPuck, fmt.Sprint("r", i), float64(i%32)*0.5-8, float64(i/32)*0.5-8, 0, uint64(i))
		ws = append(ws, wheels(b, r, `<differential_steering implementation="default" />`))
	}
	speeds := [3][2]float64{{5, 5}, {5, 0}, {0, 5}}
	for i := 0; b.Loop(); i++ {
		v := speeds[i%3]
		ws[i&1023].SetLinearVelocity(v[0], v[1])
	}
}
