package kinematics2d_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

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

func crowdedStep(b *testing.B, warm int) {
	const n, side = 100000, 63.0
	sp := space.New(ci.Vector3{Z: 2}, ci.Vector3{X: side + 1, Y: side + 1, Z: 4})
	p := space.NewPlacement(sp)
	r := rand.New(rand.NewPCG(5, 6))
	for range n {
		for {
			body := disc((r.Float64()-0.5)*side, (r.Float64()-0.5)*side, r.Float64()*2*math.Pi)
			body.TargetV = 0.05
			if r.IntN(2) == 0 {
				body.TargetW = 0.5
			}
			if p.Fits(&body) {
				p.Insert(sp.Add(body))
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
	run := physics.Serial{}
	for range warm { // into contact
		tick(sp, e, run)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	least := time.Duration(math.MaxInt64)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t0, ok := threadcpu.Now()
		e.Step(0.1, run)
		e.Commit(run)
		if t1, _ := threadcpu.Now(); ok {
			least = min(least, t1-t0)
		}
		b.StopTimer()
		sp.Reindex()
		b.StartTimer()
	}
	if least < math.MaxInt64 {
		b.ReportMetric(float64(least.Nanoseconds())/n, "min-cpu-ns/body")
	}
	before := make([]ci.Vector2, n)
	for i := range before {
		before[i] = sp.Bodies[i].Pos
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
