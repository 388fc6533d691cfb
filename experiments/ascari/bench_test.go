package ascari_test

import (
	"testing"

	"github.com/argosgo/argos/ci"
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
// RK4, 1 ms step, 10 % loss) on one thread, from the third simulated
// second on, reported as times real time (the target: at least
// 500; ASCARI: 50). The baseline, in the same run: the same agents and
// channel with a controller that does nothing.
func BenchmarkTrafficControl(b *testing.B) {
	for _, bc := range []struct {
		name    string
		replace []string
	}{
		{"traffic", nil},
		{"baseline-idle", []string{"<ascari_traffic_controller id=", "<ascari_test_idle id=",
			"</ascari_traffic_controller>", "</ascari_test_idle>"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sim := start(b, load(b, "traffic.argos", bc.replace...), 0)
			for i := 0; i < 2000; i++ {
				step(b, sim)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := sim.Step(); err != nil {
					b.Fatal(err)
				}
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(sim.TickLength()/sec, "x-realtime")
		})
	}
}
