package taskalloc_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/taskalloc"
)

// cpuTime is the process's user and system time: on a shared machine it
// says what a run costs better than the wall clock does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS is the process's peak resident memory in MiB (VmHWM).
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// run builds and runs one task-allocation world per iteration, for
// exactly rounds rounds, also after every demand is met (0: until every
// demand is met), and reports rounds, CPU seconds and nanoseconds per
// agent-round (the building of the world included).
func run(b *testing.B, g gridworld.Grid, agents, tasks int, demand int64, rounds, threads int) {
	b.ReportAllocs()
	c0 := cpuTime()
	done := 0
	seed := uint64(0)
	for b.Loop() {
		seed++
		p, err := taskalloc.NewWorld(gridworld.Config{Grid: g, Agents: agents, Radius: 2, Seed: seed, Threads: threads},
			taskalloc.RandomTasks(g, tasks, demand, seed))
		if err != nil {
			b.Fatal(err)
		}
		if rounds == 0 {
			if err := p.Run(context.Background(), 0); err != nil {
				b.Fatal(err)
			}
		}
		for p.Round() < rounds {
			if err := p.Step(); err != nil {
				b.Fatal(err)
			}
		}
		done += p.Round()
	}
	n := float64(b.N)
	b.ReportMetric(float64(done)/n, "rounds/op")
	b.ReportMetric((cpuTime()-c0).Seconds()/n, "cpu-s/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(done)/float64(agents), "ns/agent-round")
}

// ParSwarm's small case: a 50 x 50 torus, 100 agents, 16 tasks of total
// demand 80, until every demand is met (about 1,100 rounds on average)
// and for 100 rounds.
func BenchmarkSmall(b *testing.B) {
	g := gridworld.Grid2D(50, 50, true)
	b.Run("until_finished", func(b *testing.B) { run(b, g, 100, 16, 80, 0, 0) })
	b.Run("100_rounds", func(b *testing.B) { run(b, g, 100, 16, 80, 100, 0) })
}

// ParSwarm's large case: 10^7 agents on a 1000 x 1000 torus, 2 x 10^6
// tasks of total demand 7 x 10^6, 100 rounds on 2 threads (every demand
// is met after about 13 rounds; the agents left walk on), and until
// every demand is met. It takes about half a gigabyte: run it alone,
//
//	go test -run XXX -bench Large -benchtime 1x ./gridworld/taskalloc
func BenchmarkLarge(b *testing.B) {
	g := gridworld.Grid2D(1000, 1000, true)
	b.Run("100_rounds", func(b *testing.B) {
		run(b, g, 10_000_000, 2_000_000, 7_000_000, 100, 2)
		b.ReportMetric(peakRSS(), "peak-RSS-MiB")
	})
	b.Run("until_finished", func(b *testing.B) { run(b, g, 10_000_000, 2_000_000, 7_000_000, 0, 2) })
}

// Time grows linearly with the agents at a constant density (10 agents
// per vertex, a task per 5 agents, demand 0.7 per agent): compare
// ns/agent-round from 10^5 to 10^7 agents.
func BenchmarkScaling(b *testing.B) {
	for _, c := range []struct {
		agents int
		side   int
	}{{100_000, 100}, {1_000_000, 316}, {10_000_000, 1000}} {
		b.Run(fmt.Sprintf("agents=%d", c.agents), func(b *testing.B) {
			run(b, gridworld.Grid2D(c.side, c.side, true), c.agents, c.agents/5, int64(c.agents)*7/10, 100, 2)
		})
	}
}
