package density_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/density"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func run(b *testing.B, g gridworld.Grid, n, threads int) {
	c0 := cpu()
	for b.Loop() {
		p, err := density.NewWorld(gridworld.Config{Grid: g, Agents: n, Seed: 1, Threads: threads}, 50)
		if err != nil {
			b.Fatal(err)
		}
		if err := p.Run(context.Background(), 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpu()-c0).Seconds()/float64(b.N), "cpu-s/op")
}

func BenchmarkDensity1e3(b *testing.B)   { run(b, gridworld.Grid2D(100, 100, true), 1000, 2) }
func BenchmarkDensity1e6(b *testing.B)   { run(b, gridworld.Grid2D(4000, 2500, true), 1000000, 2) }
func BenchmarkDensity1e6T1(b *testing.B) { run(b, gridworld.Grid2D(4000, 2500, true), 1000000, 1) }
func BenchmarkDensity1e6d1(b *testing.B) { run(b, gridworld.Grid2D(1000, 1000, true), 1000000, 2) }
