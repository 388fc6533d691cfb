package density_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/density"
)

// cpuTime is the process's user and system time: on a shared machine it
// says what a run costs better than the wall clock does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// run builds and runs a density-estimation world of T = 50 rounds per
// iteration (the building included) and reports CPU seconds and
// nanoseconds per agent-round.
func run(b *testing.B, g gridworld.Grid, agents, threads int) {
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		p, err := density.NewWorld(gridworld.Config{Grid: g, Agents: agents, Seed: 1, Threads: threads}, 50)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Run(context.Background(), 0); err != nil {
			b.Fatal(err)
		}
	}
	n := float64(b.N)
	b.ReportMetric((cpuTime()-c0).Seconds()/n, "cpu-s/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n/50/float64(agents), "ns/agent-round")
}

// ParSwarm's density estimation, T = 50, on 2 threads: 10^3 agents on a
// 100 x 100 torus, 10^6 agents at the same density 0.1 (4000 x 2500),
// 10^6 agents on ParSwarm's 1000 x 1000 torus (density 1), and 10^5
// agents on a 100 x 100 x 100 torus.
func BenchmarkDensity(b *testing.B) {
	b.Run("1e3_100x100", func(b *testing.B) { run(b, gridworld.Grid2D(100, 100, true), 1000, 2) })
	b.Run("1e6_4000x2500", func(b *testing.B) { run(b, gridworld.Grid2D(4000, 2500, true), 1_000_000, 2) })
	b.Run("1e6_1000x1000", func(b *testing.B) { run(b, gridworld.Grid2D(1000, 1000, true), 1_000_000, 2) })
	b.Run("1e5_3D", func(b *testing.B) { run(b, gridworld.Grid3D(100, 100, 100, true), 100_000, 2) })
}

// Time grows linearly with the agents at a constant density (0.1):
// compare ns/agent-round from 10^5 to 10^7 agents.
func BenchmarkScaling(b *testing.B) {
	for _, c := range []struct{ agents, x, y int }{{100_000, 1000, 1000}, {1_000_000, 4000, 2500}, {10_000_000, 10000, 10000}} {
		b.Run(fmt.Sprintf("agents=%d", c.agents), func(b *testing.B) {
			run(b, gridworld.Grid2D(c.x, c.y, true), c.agents, 2)
		})
	}
}
