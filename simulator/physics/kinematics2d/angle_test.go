package kinematics2d

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
)

// sameAngle fails t unless normalizeAngle and modTwoPi give a's
// ci.NormalizeAngle and math.Mod(a, 2*math.Pi), bit for bit.
func sameAngle(t *testing.T, a float64) {
	t.Helper()
	if got, want := modTwoPi(a), math.Mod(a, 2*math.Pi); !sameBits(got, want) {
		t.Fatalf("modTwoPi(%v (%#x)) = %v (%#x), want %v (%#x)", a, math.Float64bits(a), got, math.Float64bits(got),
			want, math.Float64bits(want))
	}
	if got, want := normalizeAngle(a), ci.NormalizeAngle(a); !sameBits(got, want) {
		t.Fatalf("normalizeAngle(%v (%#x)) = %v (%#x), want %v (%#x)", a, math.Float64bits(a), got, math.Float64bits(got),
			want, math.Float64bits(want))
	}
}

// normalizeAngle's remainder is math.Mod's, bit for bit: for headings
// at random, for those within a few ulps of a whole number of turns (and
// of half turns), where the rounded quotient is off by one, for whole
// numbers of turns (the remainder's sign), and for those beyond its
// range.
func TestNormalizeAngleIsCIs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		sameAngle(t, (r.Float64()-0.5)*math.Ldexp(1, r.IntN(40)))
	}
	for k := -20000; k <= 20000; k++ {
		for _, turn := range []float64{2 * math.Pi, math.Pi} {
			a := float64(k) * turn
			for i, up, down := 0, a, a; i < 4; i++ {
				sameAngle(t, up)
				sameAngle(t, down)
				up, down = math.Nextafter(up, math.Inf(1)), math.Nextafter(down, math.Inf(-1))
			}
		}
	}
	for _, a := range []float64{0, math.Copysign(0, -1), 2 * math.Pi, -2 * math.Pi, 1 << 30, -(1 << 30),
		math.Nextafter(1<<30, 0), 1e300, -1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1),
		math.Inf(-1), math.NaN()} {
		sameAngle(t, a)
	}
}

// FuzzNormalizeAngle checks normalizeAngle and modTwoPi against
// ci.NormalizeAngle and math.Mod, bit for bit, on any float64.
func FuzzNormalizeAngle(f *testing.F) {
	f.Add(7.0)
	f.Add(-2 * math.Pi)
	f.Fuzz(func(t *testing.T, a float64) { sameAngle(t, a) })
}
