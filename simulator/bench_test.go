package simulator_test

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator"
)

// BenchmarkStep measures one tick of the scalability experiment (e-pucks
// running diffusion among walls). robot-steps/s and allocs per robot-step
// are reported next to ns/op.
func BenchmarkStep(b *testing.B) {
	for _, c := range []struct {
		file    string
		threads int
	}{
		{"scalability_1000_e1.argos", 0},
		{"scalability_10000_e1.argos", 0},
		{"scalability_10000_e1.argos", 2},
		{"scalability_10000_e4.argos", 2},
		{"kinematics:scalability_10000_e1.argos", 2},
		{"kinematics:scalability_10000_e1.argos", 0},
	} {
		b.Run(fmt.Sprintf("%s/threads=%d", c.file, c.threads), func(b *testing.B) {
			file, kinematic := strings.CutPrefix(c.file, "kinematics:")
			exp, err := config.Load(repoFile("experiments", "scalability", file))
			if err != nil {
				b.Fatal(err)
			}
			if kinematic {
				for _, n := range exp.PhysicsEngines {
					n.Name = "kinematics2d"
				}
			}
			exp.LoopFunctions = nil
			exp.Framework.Length = 0
			sim, err := simulator.New(exp, simulator.Options{Threads: intp(c.threads)})
			if err != nil {
				b.Fatal(err)
			}
			defer sim.Close()
			for i := 0; i < 20; i++ { // past the start-up transient
				if err := sim.Step(); err != nil {
					b.Fatal(err)
				}
			}
			// on one thread, the least CPU time of a tick too: what
			// other processes' load changes least
			serial := c.threads == 0
			if serial {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
			}
			least := time.Duration(math.MaxInt64)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0, ok := threadcpu.Now()
				if err := sim.Step(); err != nil {
					b.Fatal(err)
				}
				if t1, _ := threadcpu.Now(); ok && serial {
					least = min(least, t1-t0)
				}
			}
			b.StopTimer()
			n := float64(sim.NumRobots())
			if least < math.MaxInt64 {
				b.ReportMetric(float64(least.Nanoseconds())/n, "min-cpu-ns/robot-step")
			}
			b.ReportMetric(n*float64(b.N)/b.Elapsed().Seconds(), "robot-steps/s")
			b.ReportMetric(float64(testing.AllocsPerRun(1, func() { sim.Step() }))/n, "allocs/robot-step")
		})
	}
}

// A tick of e-pucks running diffusion under kinematics2d allocates
// nothing, whatever the thread count: sensors, controllers, the engine
// and the parallel phases reuse their memory.
func TestKinematicTickDoesNotAllocate(t *testing.T) {
	for _, threads := range []int{0, 2} {
		t.Run(fmt.Sprintf("threads=%d", threads), func(t *testing.T) {
			exp, err := config.Load(repoFile("experiments", "scalability", "scalability_1000_e1.argos"))
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range exp.PhysicsEngines {
				n.Name = "kinematics2d"
			}
			exp.LoopFunctions = nil
			exp.Framework.Length = 0
			sim, err := simulator.New(exp, simulator.Options{Threads: intp(threads)})
			if err != nil {
				t.Fatal(err)
			}
			defer sim.Close()
			for i := 0; i < 100; i++ { // scratch buffers reach their size
				if err := sim.Step(); err != nil {
					t.Fatal(err)
				}
			}
			if n := testing.AllocsPerRun(50, func() { sim.Step() }); n != 0 {
				t.Errorf("a tick of %d robots allocates %v times", sim.NumRobots(), n)
			}
		})
	}
}

// BenchmarkThreadMethod compares the ways of sharing a phase among
// threads (<system method>; "default" is no method: shares with stealing)
// on the scalability experiment, 2 threads.
func BenchmarkThreadMethod(b *testing.B) {
	for _, engine := range []string{"dynamics2d", "kinematics2d"} {
		for _, file := range []string{"scalability_10000_e1.argos", "scalability_10000_e4.argos"} {
			for _, method := range []string{"default", "balance_quantity", "balance_length"} {
				b.Run(fmt.Sprintf("%s/%s/%s", engine, file, method), func(b *testing.B) {
					exp, err := config.Load(repoFile("experiments", "scalability", file))
					if err != nil {
						b.Fatal(err)
					}
					for _, n := range exp.PhysicsEngines {
						n.Name = engine
					}
					exp.LoopFunctions = nil
					exp.Framework.Length = 0
					exp.Framework.ThreadMethod = strings.TrimPrefix(method, "default")
					sim, err := simulator.New(exp, simulator.Options{Threads: intp(2)})
					if err != nil {
						b.Fatal(err)
					}
					defer sim.Close()
					for i := 0; i < 20; i++ {
						if err := sim.Step(); err != nil {
							b.Fatal(err)
						}
					}
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if err := sim.Step(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(sim.NumRobots()*b.N)/b.Elapsed().Seconds(), "robot-steps/s")
				})
			}
		}
	}
}
