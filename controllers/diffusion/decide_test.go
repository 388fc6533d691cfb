package diffusion

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
)

// reference is ControlStep's decision from the angle and length of
// mean, as it was made before decide.
func reference(alpha, delta float64, mean ci.Vector2) turn {
	angle, length := mean.Angle(), mean.Length()
	switch {
	case angle >= -alpha && angle <= alpha && length < delta:
		return straight
	case angle > 0:
		return right
	default:
		return left
	}
}

// checkDecide fails when decide does not say what reference says, and
// reports whether it decided without the angle (a turn, not straight,
// for a plain mean).
func checkDecide(t *testing.T, c *Controller, mean ci.Vector2) (signs bool) {
	t.Helper()
	if got, want := c.decide(mean), reference(c.alpha, c.delta, mean); got != want {
		t.Errorf("alpha %v delta %v mean (%v, %v) [%#x, %#x]: decide says %d, the angle and length say %d",
			c.alpha, c.delta, mean.X, mean.Y, math.Float64bits(mean.X), math.Float64bits(mean.Y), got, want)
	}
	return plain(mean.X) && plain(mean.Y) && (mean.X < 0 && c.alpha < math.Pi/2 || mean.X > 0 && mean.Length() >= c.delta ||
		mean.X > 0 && math.Abs(mean.Y) > mean.X && c.alpha < math.Pi/4)
}

// controllers returns controllers with cones from none to wider than
// pi/2 and deltas from zero to above any mean of readings in [0, 1].
func controllers() []*Controller {
	var cs []*Controller
	for _, alpha := range []float64{0, ci.Radians(DefaultAlpha), math.Nextafter(math.Pi/4, 0), math.Pi / 4, math.Nextafter(math.Pi/4, 1), 0.79, math.Nextafter(0.66, 0), 0.66, math.Nextafter(0.66, 1), 1, math.Nextafter(math.Pi/2, 0), math.Pi / 2, 2, math.Pi, 4} {
		for _, delta := range []float64{0, 0x1p-600, DefaultDelta, 0.5, 1, 2} {
			cs = append(cs, &Controller{alpha: alpha, delta: delta})
		}
	}
	return cs
}

// TestDecideSpecialValues tries decide on every pair of special coordinates:
// zeros, the bounds of plain and their neighbours, the deltas and their
// neighbours, infinities and NaN.
func TestDecideSpecialValues(t *testing.T) {
	var vs []float64
	for _, v := range []float64{
		0, 0x1p-500, 0x1p500, 0x1p-600, 0x1p600, DefaultDelta, 0.5, 1, 2, 1e-3,
		math.SmallestNonzeroFloat64, math.MaxFloat64, math.Inf(1), math.NaN(),
	} {
		vs = append(vs, v, -v, math.Nextafter(v, 0), -math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)), -math.Nextafter(v, math.Inf(1)))
	}
	known := 0
	for _, c := range controllers() {
		for _, x := range vs {
			for _, y := range vs {
				if checkDecide(t, c, ci.Vector2{X: x, Y: y}) {
					known++
				}
			}
		}
	}
	if known == 0 {
		t.Error("decide never went by the signs")
	}
}

// TestDecideRandom tries decide on random bit patterns, on random vectors
// of every scale, and on means as e-puck rings give them, near the
// cone's edges and delta.
func TestDecideRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cs := controllers()
	known, n := 0, 0
	try := func(mean ci.Vector2) {
		n++
		if checkDecide(t, cs[r.IntN(len(cs))], mean) {
			known++
		}
	}
	for range 200000 {
		try(ci.Vector2{X: math.Float64frombits(r.Uint64()), Y: math.Float64frombits(r.Uint64())})
		try(ci.Vector2{X: math.Ldexp(r.NormFloat64(), r.IntN(2200)-1100), Y: math.Ldexp(r.NormFloat64(), r.IntN(2200)-1100)})
		try(ci.FromPolar(r.Float64()*0.3, (2*r.Float64()-1)*math.Pi))
		// on the cone's edge and delta's circle, give or take a few ulps
		c := cs[r.IntN(len(cs))]
		m := ci.FromPolar(c.delta*(1+float64(r.IntN(9)-4)*0x1p-52), c.alpha*(1+float64(r.IntN(9)-4)*0x1p-52))
		if r.IntN(2) == 0 {
			m.Y = -m.Y
		}
		n++
		if checkDecide(t, c, m) {
			known++
		}
	}
	if known < n/10 {
		t.Errorf("decide went by the signs %d times out of %d", known, n)
	}
}

// TestControlStepAgreesWithReference runs controllers on random e-puck
// and foot-bot readings and checks their wheel speeds against the
// decision from the angle and length of the mean.
func TestControlStepAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, ring := range []func() *citest.Proximity{citest.NewEPuckProximity, citest.NewFootBotProximity} {
		for _, params := range []ci.Params{{}, ci.NewParams("alpha", "100", "delta", "0.02")} {
			p := ring()
			w := &citest.Wheels{}
			rb := citest.NewRobot("r0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(ci.TagProximity, p)
			c := New()
			if err := c.Init(rb, params); err != nil {
				t.Fatal(err)
			}
			for range 20000 {
				var mean ci.Vector2
				for i, rd := range p.Readings() {
					v := 0.0
					if r.IntN(3) == 0 {
						v = r.Float64() * r.Float64()
					}
					p.Set(i, v)
					mean = mean.Add(ci.FromPolar(1, rd.Angle).Scale(v))
				}
				mean = mean.Scale(1 / float64(p.Len()))
				want := [2]float64{c.velocity, c.velocity}
				switch reference(c.alpha, c.delta, mean) {
				case right:
					want = [2]float64{c.velocity, 0}
				case left:
					want = [2]float64{0, c.velocity}
				}
				c.ControlStep()
				if got := [2]float64{w.Left, w.Right}; got != want {
					t.Fatalf("readings %v: wheels %v, want %v", p.Readings(), got, want)
				}
			}
		}
	}
}
