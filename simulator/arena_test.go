package simulator_test

import (
	"fmt"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// arenaSim builds experiments/NAME.argos in a square arena of the given
// side (the walls and robots stay where the file puts them), without its
// visualizations and without an end.
func arenaSim(tb testing.TB, name string, side float64, threads int) *simulator.Simulator {
	tb.Helper()
	exp, err := config.Load(repoFile("experiments", name))
	if err != nil {
		tb.Fatal(err)
	}
	exp.ArenaSize = ci.Vector3{X: side, Y: side, Z: exp.ArenaSize.Z}
	exp.Visualizations = nil
	exp.Framework.Length = 0
	sim, err := simulator.New(exp, simulator.Options{Threads: intp(threads)})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { sim.Close() })
	return sim
}

// BenchmarkArenaSize is one tick of diffusion_1 (one foot-bot in a 2 m
// walled square) in arenas of 3 m, 100 m and 10 km: the cost of a tick
// follows the bodies, not the arena's area.
func BenchmarkArenaSize(b *testing.B) {
	for _, side := range []float64{3, 100, 10000} {
		b.Run(fmt.Sprintf("%gm", side), func(b *testing.B) {
			sim := arenaSim(b, "diffusion_1.argos", side, 0)
			b.ReportAllocs()
			for b.Loop() {
				if err := sim.Step(); err != nil {
					b.Fatal(err)
				}
			}
			// simulated seconds per second of wall time
			b.ReportMetric(sim.TickLength()*float64(b.N)/b.Elapsed().Seconds(), "x-real-time")
		})
	}
}

// The arena's size changes no result: ten foot-bots diffusing in their
// walled square end where they end in the file's 5 m arena when the arena
// is 10 km wide, bit for bit, with no extra thread or two.
func TestArenaSizeChangesNoResult(t *testing.T) {
	poses := func(side float64, threads int) []ci.Vector3 {
		sim := arenaSim(t, "diffusion_10.argos", side, threads)
		for range 300 {
			if err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		out := make([]ci.Vector3, sim.NumRobots())
		for i := range out {
			b := sim.Robot(i).B()
			out[i] = ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Yaw}
		}
		return out
	}
	want := poses(5, 0)
	for _, c := range []struct {
		side    float64
		threads int
	}{{5, 2}, {10000, 0}, {10000, 2}} {
		got := poses(c.side, c.threads)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("arena %g m, threads %d: robot %d ends at %v, at %v in the 5 m arena with no extra thread", c.side, c.threads, i, got[i], want[i])
			}
		}
	}
}
