package custom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// The memo of sines and cosines gives what the functions give: lanes
// whose argument changed (to -0 from +0 included, whose sine differs in
// sign) are computed again, the others kept, over several runs.
func TestTrigMemoMatchesTheTrees(t *testing.T) {
	d, err := dynamics(t, `<dynamics name="d" states="x, y, theta" controls="v, w">
		<equation>x' = v*cos(theta)</equation>
		<equation>y' = sin(2*theta) + w</equation>
		<equation>theta' = cos(x + y)</equation>
	</dynamics>`)
	if err != nil {
		t.Fatal(err)
	}
	p := d.prog
	const n = 5
	regs := make([]float64, p.nregs*n)
	for _, c := range p.consts {
		for l := 0; l < n; l++ {
			regs[int(c.reg)*n+l] = c.val
		}
	}
	runs := [][n][3]float64{ // x, y, theta per lane
		{{0, 0, 0}, {1, 2, 3}, {0, 0, math.Copysign(0, -1)}, {-1, 0.5, 0.25}, {2, 2, 2}},
		{{0, 0, math.Copysign(0, -1)}, {1, 2, 3}, {0, 0, 0}, {-1, 0.5, 0.3}, {2, 2, 2}},
		{{0, 0, math.Copysign(0, -1)}, {1, 2, 3.5}, {0, 0, 0}, {-1, 0.5, 0.3}, {0, 0, 0}},
	}
	for r, run := range runs {
		in := make([][]float64, n)
		for l := 0; l < n; l++ {
			in[l] = []float64{run[l][0], run[l][1], run[l][2], 0.5, -0.25, 0}
			for k, v := range in[l] {
				regs[k*n+l] = v
			}
		}
		p.run(regs, n, n)
		for j, e := range d.eqs {
			for l := 0; l < n; l++ {
				got, want := regs[int(p.out[j])*n+l], eval(e, in[l])
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("run %d, derivative of %s, lane %d: program %v, tree %v", r, d.States[j], l, got, want)
				}
			}
		}
	}
}

// Commit gives a body the heading of its agent with the sine and cosine
// SetYaw(NormalizeAngle(theta)) gives, bit for bit, whether theta is
// already in (-pi, pi] (shared with the program's memo) or not.
func TestCommitHeadingAsSetYaw(t *testing.T) {
	d, err := dynamics(t, `<dynamics name="u" states="x, y, theta" controls="v, w">
		<equation>x' = v*cos(theta)</equation>
		<equation>y' = v*sin(theta)</equation>
		<equation>theta' = w</equation>
	</dynamics>`)
	if err != nil {
		t.Fatal(err)
	}
	bt := &batch{d: d, prog: d.prog, yaw: d.prog.sinCosOf(int32(d.pose[2]))}
	if bt.yaw == nil {
		t.Fatal("no sincos of theta")
	}
	c := bt.newChunk()
	for _, yaw := range []float64{0, math.Copysign(0, -1), 1, 1, -2, math.Pi, -math.Pi, 4, -7.5, 100, 0.5} {
		var got, want space.Body
		bt.setYaw(&got, c, 0, yaw)
		want.SetYaw(ci.NormalizeAngle(yaw))
		if math.Float64bits(got.Yaw) != math.Float64bits(want.Yaw) || math.Float64bits(got.Sin) != math.Float64bits(want.Sin) ||
			math.Float64bits(got.Cos) != math.Float64bits(want.Cos) {
			t.Errorf("theta %v: yaw, sin, cos %v %v %v, SetYaw gives %v %v %v", yaw, got.Yaw, got.Sin, got.Cos, want.Yaw, want.Sin, want.Cos)
		}
	}
}

// normalizeAngle is ci.NormalizeAngle bit for bit: at the edges of its
// fast cases, on random angles of a few turns and of up to millions, and
// at and next to whole numbers of turns.
func TestNormalizeAngleAsCi(t *testing.T) {
	var as []float64
	for _, e := range []float64{0, math.Pi, 2 * math.Pi, 3 * math.Pi, 4 * math.Pi, 5 * math.Pi, 1, 7} {
		for _, a := range []float64{e, math.Nextafter(e, 0), math.Nextafter(e, 100)} {
			as = append(as, a, -a)
		}
	}
	as = append(as, math.NaN(), math.Inf(1), math.Inf(-1), 1e300)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		as = append(as, (rng.Float64()*2-1)*30)
	}
	// many turns, up to the fast case's limit and past it, and whole
	// multiples of 2pi, where the remainder is 0 or n is one off
	for range 300000 {
		as = append(as, (rng.Float64()*2-1)*math.Exp2(rng.Float64()*25))
	}
	for n := range 2000 {
		for _, k := range []float64{float64(n), float64(n) * 997, 1e6 - float64(n)} {
			e := k * 2 * math.Pi
			for _, a := range []float64{e, math.Nextafter(e, 0), math.Nextafter(e, math.Inf(1))} {
				as = append(as, a, -a)
			}
		}
	}
	for _, a := range as {
		got, want := normalizeAngle(a), ci.NormalizeAngle(a)
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("normalizeAngle(%v) = %v, ci.NormalizeAngle gives %v", a, got, want)
		}
	}
}

// runLane gives, agent by agent, what run gives over all agents, bit for
// bit, for every instruction (those it computes itself and those it
// leaves to exec), over values that include zeros of both signs,
// infinities and NaN, and over runs that change some lanes' inputs
// (the memo of sines and cosines).
func TestRunLaneAsRun(t *testing.T) {
	d, err := dynamics(t, `<dynamics name="d" states="x, y, theta" controls="v, w">
		<equation>x' = v*cos(theta) - (-y) + x/w + pow(abs(x), 0.5) + tan(x) + asin(min(1, max(-1, y))) + acos(0.5) + atan(x)</equation>
		<equation>y' = v*sin(theta) + atan2(y, x) + sqrt(abs(y)) + exp(-abs(x)) + log(abs(y) + 1) + sign(x) + floor(y) + ceil(x)</equation>
		<equation>theta' = hypot(x, y) + sin(2*x) + cos(3*y) + w</equation>
	</dynamics>`)
	if err != nil {
		t.Fatal(err)
	}
	p := d.prog
	const n = 9
	fresh := func() []float64 {
		regs := make([]float64, p.nregs*n)
		for _, c := range p.consts {
			for l := 0; l < n; l++ {
				regs[int(c.reg)*n+l] = c.val
			}
		}
		return regs
	}
	all, one := fresh(), fresh()
	rng := rand.New(rand.NewPCG(5, 6))
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1}
	for run := 0; run < 20; run++ {
		for l := 0; l < n; l++ {
			if run > 0 && rng.IntN(2) == 0 {
				continue // this lane's inputs stay: the memo holds
			}
			for k := 0; k < 6; k++ {
				v := (rng.Float64()*2 - 1) * 4
				if l < len(special) && k == run%6 {
					v = special[l]
				}
				all[k*n+l], one[k*n+l] = v, v
			}
		}
		p.run(all, n, n)
		for l := 0; l < n; l++ {
			p.runLane(one, n, l)
		}
		for r := 0; r < p.nregs; r++ {
			for l := 0; l < n; l++ {
				a, b := all[r*n+l], one[r*n+l]
				if math.Float64bits(a) != math.Float64bits(b) && !(math.IsNaN(a) && math.IsNaN(b)) {
					t.Fatalf("run %d, register %d, lane %d: run %v, runLane %v", run, r, l, a, b)
				}
			}
		}
	}
}
