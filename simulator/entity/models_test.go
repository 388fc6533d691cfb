package entity_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
)

func TestFootBotProximityResponse(t *testing.T) {
	tests := []struct {
		d, want float64
	}{
		{0, 1},
		{0.005, 1},
		{0.009889555, 1},
		{0.009889556, 0.0100527 / (0.009889556 + 0.000163144)}, // continuous: 1.0000
		{0.01, 0.0100527 / 0.010163144},
		{0.02, 0.0100527 / 0.020163144},
		{0.05, 0.0100527 / 0.050163144},
		{0.1, 0.0100527 / 0.100163144},
		{1, 0.0100527 / 1.000163144},
	}
	for _, tt := range tests {
		got := entity.FootBotProximityResponse(tt.d)
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("FootBotProximityResponse(%g) = %v, want %v", tt.d, got, tt.want)
		}
		if got < 0 || got > 1 {
			t.Errorf("FootBotProximityResponse(%g) = %v, outside [0, 1]", tt.d, got)
		}
	}
	// The curve is 1 at the threshold (to 1e-4) and decreases beyond it.
	if v := entity.FootBotProximityResponse(0.009889556); math.Abs(v-1) > 1e-4 {
		t.Errorf("at the threshold: %v, want about 1", v)
	}
	prev := 1.0
	for d := 0.0; d <= 0.1; d += 0.0005 {
		v := entity.FootBotProximityResponse(d)
		if v > prev {
			t.Fatalf("not decreasing at d=%g: %v after %v", d, v, prev)
		}
		prev = v
	}
}

// f32 is x rounded to single precision, as ARGoS's float literals are.
func f32(x float64) float64 { return float64(float32(x)) }

// The e-puck's reading is ARGoS's polynomial with its single-precision
// coefficients (298.701f, ...): with double ones readings differ by up to
// 6e-8.
func TestEPuckProximityResponse(t *testing.T) {
	poly := func(d float64) float64 {
		return float64(f32(298.701)*(d*d)) - float64(f32(36.8961)*d) + f32(1.08212)
	}
	if got, double := entity.EPuckProximityResponse(0.03), 298.701*0.03*0.03-36.8961*0.03+1.08212; math.Abs(got-double) < 1e-8 {
		t.Errorf("EPuckProximityResponse(0.03) = %v, within 1e-8 of the double-precision polynomial %v: the float coefficients are not used", got, double)
	}
	tests := []struct {
		d, want float64
	}{
		{0, 1},     // 1.08212 clamped
		{0.002, 1}, // 1.0094 clamped
		{0.0025, poly(0.0025)},
		{0.01, poly(0.01)},
		{0.01, 0.7430290496826172},
		{0.03, poly(0.03)}, // 0.2443
		{0.045, poly(0.045)},
		{0.048, 0}, // the parabola is just below 0 here: clamped
		{0.05, 0},  // -0.0159 clamped
		{0.0500001, 0},
		{0.06, 0}, // the parabola is negative, but d > 0.05 anyway
		{0.08, 0}, // the parabola is positive again: cut off at 0.05
		{0.1, 0},
	}
	for _, tt := range tests {
		got := entity.EPuckProximityResponse(tt.d)
		if math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("EPuckProximityResponse(%g) = %v, want %v", tt.d, got, tt.want)
		}
	}
	for d := 0.0; d <= 0.12; d += 0.0001 {
		if v := entity.EPuckProximityResponse(d); v < 0 || v > 1 {
			t.Fatalf("EPuckProximityResponse(%g) = %v, outside [0, 1]", d, v)
		}
	}
}

func TestProximityAngles(t *testing.T) {
	deg := func(d float64) float64 { return d * math.Pi / 180 }
	var foot []float64
	for i := range 24 {
		a := 7.5 + 15*float64(i) // pi/24 + i*pi/12, in degrees
		if a > 180 {
			a -= 360
		}
		foot = append(foot, deg(a))
	}
	tests := []struct {
		m    *entity.RobotModel
		want []float64
	}{
		{entity.FootBot, foot},
		// ARGoS's irregular angles, as ARGoS 3's e-puck sweep reports them
		// (fidelity/sweeps): pi over single-precision divisors
		{entity.EPuck, []float64{0.29670136064861913, 0.8726888655975471, 1.5707963267948966, 2.6179937739617682,
			-2.6178106516716793, -1.5710319735581564, -0.8722439918522271, -0.2957777647223079}},
	}
	for _, tt := range tests {
		t.Run(tt.m.Type, func(t *testing.T) {
			got := tt.m.Proximity.Angles
			if len(got) != len(tt.want) {
				t.Fatalf("%d angles, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-15 {
					t.Errorf("angle %d = %v (%.4f deg), want %v", i, got[i], got[i]*180/math.Pi, tt.want[i])
				}
				if got[i] <= -math.Pi || got[i] > math.Pi {
					t.Errorf("angle %d = %v, outside (-pi, pi]", i, got[i])
				}
			}
		})
	}
	// Spot checks against ARGoS's formula: sensor i at pi/24 + i*pi/12.
	if a := entity.FootBot.Proximity.Angles[0]; a != math.Pi/24 {
		t.Errorf("foot-bot sensor 0 at %v, want pi/24", a)
	}
	if a := entity.FootBot.Proximity.Angles[12]; math.Abs(a-(math.Pi/24+math.Pi-2*math.Pi)) > 1e-15 {
		t.Errorf("foot-bot sensor 12 at %v, want 25pi/24 - 2pi", a)
	}
}

func TestModels(t *testing.T) {
	tests := []struct {
		m                            *entity.RobotModel
		typ, tag                     string
		radius, height, axle, wheelR float64
		sensors, leds                int
		response                     func(float64) float64
	}{
		{entity.FootBot, "foot-bot", ci.TagFootBotProximity, 0.085, 0.147, 0.14, 0.029, 24, 13, entity.FootBotProximityResponse},
		{entity.EPuck, "e-puck", ci.TagEPuckProximity, 0.035, 0.086, 0.053, 0.0205, 8, 8, entity.EPuckProximityResponse},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			m := tt.m
			if m.Type != tt.typ || m.Proximity.Tag != tt.tag {
				t.Errorf("Type, tag = %q, %q; want %q, %q", m.Type, m.Proximity.Tag, tt.typ, tt.tag)
			}
			near := func(name string, got, want float64) {
				if math.Abs(got-want) > 0.0005 {
					t.Errorf("%s = %v, want %v", name, got, want)
				}
			}
			near("Radius", m.Radius, tt.radius)
			near("Height", m.Height, tt.height)
			near("Axle", m.Axle, tt.axle)
			near("WheelRadius", m.WheelRadius, tt.wheelR)
			// ARGoS's single-precision constants
			if m.Proximity.Range != f32(0.1) || m.Proximity.Height != f32(0.06) || m.Radius != f32(map[string]float64{"foot-bot": 0.085036758, "e-puck": 0.035}[m.Type]) {
				t.Errorf("proximity range, height, body radius = %v, %v, %v; want 0.1, 0.06 and the radius in single precision", m.Proximity.Range, m.Proximity.Height, m.Radius)
			}
			if len(m.Proximity.Angles) != tt.sensors || m.LEDs != tt.leds {
				t.Errorf("%d sensors, %d LEDs; want %d, %d", len(m.Proximity.Angles), m.LEDs, tt.sensors, tt.leds)
			}
			for _, d := range []float64{0, 0.01, 0.03, 0.07} {
				if got, want := m.Proximity.Response(d), tt.response(d); got != want {
					t.Errorf("Response(%g) = %v, want %v", d, got, want)
				}
			}
		})
	}
}

// A ring's response reads +0, bit for bit, at every distance beyond its
// ZeroBeyond (the simulator's sensor then leaves farther bodies out):
// just beyond it, on a fine sweep to well past the range, at random and
// at infinity. The e-puck's must say so, within its range.
func TestZeroBeyond(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, m := range []*entity.RobotModel{entity.FootBot, entity.EPuck, entity.EyeBot} {
		ring := &m.Proximity
		if ring.ZeroBeyond <= 0 {
			if m == entity.EPuck {
				t.Errorf("the e-puck's ring has no ZeroBeyond, though its curve reads 0 beyond 5 cm")
			}
			continue
		}
		if ring.ZeroBeyond >= ring.Range {
			t.Errorf("%s: ZeroBeyond %v is not within the range %v", m.Type, ring.ZeroBeyond, ring.Range)
		}
		ds := []float64{math.Nextafter(ring.ZeroBeyond, 1), math.Inf(1), math.MaxFloat64}
		for d := ring.ZeroBeyond; d < 3*ring.Range; d += 1e-6 {
			ds = append(ds, math.Nextafter(d, 1))
		}
		for range 100000 {
			ds = append(ds, ring.ZeroBeyond+r.Float64()*ring.Range)
		}
		for _, d := range ds {
			if v := ring.Response(d); math.Float64bits(v) != 0 {
				t.Fatalf("%s: Response(%v) = %v beyond ZeroBeyond %v, not +0", m.Type, d, v, ring.ZeroBeyond)
			}
		}
	}
}
