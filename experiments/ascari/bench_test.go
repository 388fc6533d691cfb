package ascari_test

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator"
)

// idle holds its agent still: the baseline of the simulator's own cost.
type idle struct{}

func (idle) Init(_ ci.Robot, p ci.Params) error { p.FreeForm(); return nil }
func (idle) ControlStep()                       {}
func (idle) Reset()                             {}
func (idle) Destroy() error                     { return nil }

func init() {
	ci.Controllers.MustRegister("ascari_test_idle", "does nothing", func() ci.Controller { return idle{} })
}

// BenchmarkTrafficControl: ticks of traffic.argos (30 unicycle agents,
// 1 ms step, 10 % loss, one thread) from the third simulated second on,
// with RK4 (the file's method) and with Euler. Besides the wall time it
// reports the median CPU time of the simulating thread per tick, over
// blocks of 100 ticks (a median resists the other processes of a shared
// machine), as times real time: the target is at least 500
// (ASCARI: 50); and the tenth percentile of the blocks. The baseline, in the
// same run: the same agents and channel with a controller that does
// nothing.
func BenchmarkTrafficControl(b *testing.B) {
	idle := []string{"<ascari_traffic_controller id=", "<ascari_test_idle id=", "</ascari_traffic_controller>", "</ascari_test_idle>"}
	euler := []string{`<custom id="agents" method="rk4">`, `<custom id="agents" method="euler">`}
	for _, bc := range []struct {
		name    string
		replace []string
	}{
		{"traffic/rk4", nil},
		{"traffic/euler", euler},
		{"baseline-idle/rk4", idle},
		{"baseline-idle/euler", append(idle, euler...)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sim := start(b, load(b, "traffic.argos", bc.replace...), 0)
			for i := 0; i < 2000; i++ {
				step(b, sim)
			}
			measure(b, sim)
		})
	}
}

// measure steps sim b.N times and reports the median CPU time per tick
// over blocks of 100 ticks (the clock is read once per block: reading it
// costs a system call) as times real time.
func measure(b *testing.B, sim *simulator.Simulator) {
	b.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const block = 100
	b.ReportAllocs()
	cpu := make([]time.Duration, 0, b.N/block+1)
	b.ResetTimer()
	for i := 0; i < b.N; i += block {
		t0 := threadCPU()
		n := min(block, b.N-i)
		for k := 0; k < n; k++ {
			if err := sim.Step(); err != nil {
				b.Fatal(err)
			}
		}
		cpu = append(cpu, (threadCPU()-t0)/time.Duration(n))
	}
	b.StopTimer()
	slices.Sort(cpu)
	med := cpu[len(cpu)/2]
	b.ReportMetric(float64(med.Nanoseconds()), "cpu-ns/tick")
	// the fastest tenth of the blocks: what the code costs when the
	// machine's other processes leave the core and its caches alone, to
	// compare builds on a loaded machine
	b.ReportMetric(float64(cpu[len(cpu)/10].Nanoseconds()), "p10-cpu-ns/tick")
	b.ReportMetric(sim.TickLength()/med.Seconds(), "x-realtime")
}

// threadCPU returns the CPU time of the calling OS thread (0 where the
// system does not tell it); the benchmark locks its goroutine to it.
func threadCPU() time.Duration {
	t, _ := threadcpu.Now()
	return t
}
