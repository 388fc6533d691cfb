package entity

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mathClamp01 is what Clamp01 replaced.
func mathClamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// checkClamp01 fails unless Clamp01(v) has the bits of mathClamp01(v).
func checkClamp01(t *testing.T, v float64) {
	t.Helper()
	if got, want := Clamp01(v), mathClamp01(v); math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("Clamp01(%v [%#016x]) = %v [%#016x], want %v [%#016x]",
			v, math.Float64bits(v), got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

func TestClamp01SpecialValues(t *testing.T) {
	nan := math.NaN()
	for _, v := range []float64{
		0, math.Copysign(0, -1), 1, -1, 0.5, -0.5,
		math.Nextafter(1, 2), math.Nextafter(1, 0), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1),
		nan, -nan, math.Float64frombits(0x7ff0000000000002), math.Float64frombits(0xfff8000000000000),
		math.Float64frombits(0x7ff4000000000000), // a signalling NaN
	} {
		checkClamp01(t, v)
	}
}

// TestClamp01Random compares the two on random bit patterns (every sign,
// exponent and payload) and on random numbers around [0, 1].
func TestClamp01Random(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		checkClamp01(t, math.Float64frombits(r.Uint64()))
		checkClamp01(t, 3*r.Float64()-1)
	}
}

func FuzzClamp01(f *testing.F) {
	for _, v := range []float64{0, 1, -1, 0.25, 2, math.Inf(1), math.NaN()} {
		f.Add(math.Float64bits(v))
	}
	f.Add(uint64(1 << 63)) // -0
	f.Fuzz(func(t *testing.T, bits uint64) { checkClamp01(t, math.Float64frombits(bits)) })
}

// clampSink keeps the benchmarks' results alive.
var clampSink float64

// clampInputs are responses as an e-puck's rays give them: mostly in
// (0, 1), some above 1 (an obstacle closer than 2 mm) and some below 0.
func clampInputs() []float64 {
	r := rand.New(rand.NewPCG(3, 4))
	in := make([]float64, 1024)
	for i := range in {
		in[i] = 1.3*r.Float64() - 0.1
	}
	return in
}

func BenchmarkClamp01(b *testing.B) {
	in := clampInputs()
	b.Run("math", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += mathClamp01(in[i&1023])
		}
		clampSink = s
	})
	b.Run("branches", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += Clamp01(in[i&1023])
		}
		clampSink = s
	})
}

func BenchmarkEPuckProximityResponse(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	in := make([]float64, 1024)
	for i := range in {
		in[i] = 0.05 * r.Float64()
	}
	s := 0.0
	for i := 0; b.Loop(); i++ {
		s += EPuckProximityResponse(in[i&1023])
	}
	clampSink = s
}
