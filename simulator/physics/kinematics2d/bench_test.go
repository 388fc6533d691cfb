package kinematics2d_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// BenchmarkCrowdedStep is a step and commit of 100,000 e-pucks at four
// times the density of the scalability benchmark (10 % of the floor
// covered), placed and so stored at random: what the ticks of a long run
// look like to the engine, with many bodies in contact and each body's
// neighbours anywhere in memory. Every body drives forward, half of them
// turning (the reindexing between ticks is not timed). It reports the
// least CPU time of a tick on its thread (min-cpu-ns/body), which other
// processes' load changes least.
func BenchmarkCrowdedStep(b *testing.B) { crowdedStep(b, 20) }

// BenchmarkStuckStep is BenchmarkCrowdedStep after 200 ticks, when most
// bodies are stuck against others (their proposals withdrawn tick after
// tick, nothing around them changing), as in the late ticks of a long
// run; it also reports the fraction of the bodies that did not move in
// the last tick (stuck/body).
func BenchmarkStuckStep(b *testing.B) { crowdedStep(b, 200) }

// BenchmarkLateCrowdStep is a step and commit of 100,000 e-pucks late
// in a run of the diffusion controller at the density of
// BenchmarkCrowdedStep: each drives straight while it senses nothing
// within 10 cm ahead and otherwise turns away on one wheel (an arc about
// the other, as the controller does), so that after 300 ticks most are in
// clusters, stuck against a neighbour or turning while they touch one.
// The targets are set between ticks (not timed), from the bodies' start
// of tick. It reports the least CPU time of a tick on its thread
// (min-cpu-ns/body), the fraction of the bodies that did not move in the
// last tick (stuck/body) and of those that turn (turning/body).
func BenchmarkLateCrowdStep(b *testing.B) {
	const n, side, warm = 100000, 63.0, 300
	sp, e := randomCrowd(b, n, side, rand.New(rand.NewPCG(7, 8)), nil)
	run := physics.Serial{}
	var buf []int32
	turning := 0
	control := func() {
		turning = 0
		for i := range sp.Bodies {
			body := &sp.Bodies[i]
			// the mean direction of the bodies within 10 cm of the
			// e-puck's side, in its frame; e-puck wheels at 5 cm/s, axle
			// 5.3 cm
			var sum ci.Vector2
			buf = sp.NearMobileDiscOf(i, body.Pos, body.Pos, body.Radius+0.1, buf[:0])
			for _, j := range buf {
				d := sp.Bodies[j].Pos.Sub(body.Pos)
				f := ci.Vector2{X: d.X*body.Cos + d.Y*body.Sin, Y: d.Y*body.Cos - d.X*body.Sin}
				if f.X > 0 {
					sum = sum.Add(f.Scale(1 / f.Length()))
				}
			}
			d := &sp.Drive[i]
			switch a := math.Atan2(sum.Y, sum.X); {
			case sum == ci.Vector2{}:
				d.V, d.W = 0.05, 0
			case a > 0: // on the left: turn right
				d.V, d.W = 0.025, -0.05/0.053
				turning++
			default:
				d.V, d.W = 0.025, 0.05/0.053
				turning++
			}
		}
	}
	for range warm { // into clusters
		control()
		tick(sp, e, run)
	}
	stepTimed(b, sp, e, control)
	b.ReportMetric(float64(turning)/n, "turning/body")
}

func crowdedStep(b *testing.B, warm int) {
	const n, side = 100000, 63.0
	sp, e := randomCrowd(b, n, side, rand.New(rand.NewPCG(5, 6)), func(d *space.Drive, r *rand.Rand) {
		d.V = 0.05
		if r.IntN(2) == 0 {
			d.W = 0.5
		}
	})
	run := physics.Serial{}
	for range warm { // into contact
		tick(sp, e, run)
	}
	stepTimed(b, sp, e, nil)
}

// stepTimed times the engine's Step and Commit over the benchmark's loop
// (control, when not nil, sets the targets before each, untimed; the
// index is rebuilt after each, untimed) and reports the least CPU time of
// one per body (min-cpu-ns/body); then it steps once more and reports
// the fraction of the bodies that did not move (stuck/body).
func stepTimed(b *testing.B, sp *space.Space, e physics.Engine, control func()) {
	run := physics.Serial{}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var least threadcpu.Least
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if control != nil {
			b.StopTimer()
			control()
			b.StartTimer()
		}
		least.Start()
		e.Step(0.1, run)
		e.Commit(run)
		least.Stop()
		b.StopTimer()
		sp.Reindex()
		b.StartTimer()
	}
	n := float64(len(sp.Bodies))
	if ns, ok := least.Per(n); ok {
		b.ReportMetric(ns, "min-cpu-ns/body")
	}
	before := make([]ci.Vector2, len(sp.Bodies))
	for i := range before {
		before[i] = sp.Bodies[i].Pos
	}
	if control != nil {
		control()
	}
	tick(sp, e, run)
	stuck := 0
	for i := range before {
		if sp.Bodies[i].Pos == before[i] {
			stuck++
		}
	}
	b.ReportMetric(float64(stuck)/n, "stuck/body")
}

// randomCrowd places n e-puck discs at random headings, at random places
// of a side-wide square, none overlapping another (set, when not nil,
// sets each one's drive first, from r), and returns the space, indexed,
// and an engine that moves them all.
func randomCrowd(b *testing.B, n int, side float64, r *rand.Rand, set func(*space.Drive, *rand.Rand)) (*space.Space, physics.Engine) {
	sp := space.New(ci.Vector3{Z: 2}, ci.Vector3{X: side + 1, Y: side + 1, Z: 4})
	p := space.NewPlacement(sp)
	for range n {
		for {
			body := disc((r.Float64()-0.5)*side, (r.Float64()-0.5)*side, r.Float64()*2*math.Pi)
			var d space.Drive
			if set != nil {
				set(&d, r)
			}
			if p.Fits(&body) {
				i := sp.Add(body)
				p.Insert(i)
				sp.Drive[i] = d
				break
			}
		}
	}
	sp.Reindex()
	e := newEngine(b, sp, "")
	for i := range sp.Bodies {
		if err := e.Add(i); err != nil {
			b.Fatal(err)
		}
	}
	return sp, e
}
