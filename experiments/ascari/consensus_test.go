package ascari_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/controllers/ascari/consensus"
	"github.com/argosgo/argos/controllers/ascari/rendezvous"
)

// TestConsensusReachesTheAverage: over the lossy, delayed, range-limited
// channel of consensus.argos every estimate is within 1e-6 of the
// average of the initial values after four simulated minutes (the values
// spread over tens of units); the same without loss, and with 30 % loss.
func TestConsensusReachesTheAverage(t *testing.T) {
	for _, loss := range []string{"0", "0.1", "0.3"} {
		t.Run("loss="+loss, func(t *testing.T) {
			sim := start(t, load(t, "consensus.argos", `<loss probability="0.1" />`, `<loss probability="`+loss+`" />`), 0)
			ctrl := make([]*consensus.Controller, sim.NumRobots())
			avg, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
			for k := range ctrl {
				ctrl[k] = sim.Controller(k).(*consensus.Controller)
				v := ctrl[k].Initial()
				avg += v / float64(len(ctrl))
				lo, hi = min(lo, v), max(hi, v)
			}
			if len(ctrl) != 20 || hi-lo < 30 {
				t.Fatalf("%d agents with values in [%v, %v]: the experiment changed", len(ctrl), lo, hi)
			}
			for i := 0; i < 2400; i++ {
				step(t, sim)
			}
			worst := 0.0
			for k, c := range ctrl {
				worst = max(worst, math.Abs(c.Estimate()-avg))
				if n := c.Neighbours(); n < 2 || n > 8 {
					t.Errorf("agent %d has %d neighbours; the range of 1.5 m gives 2 to 8", k, n)
				}
			}
			t.Logf("loss %s: average %.6f, worst estimate off by %.3g after 240 s", loss, avg, worst)
			if worst > 1e-6 {
				t.Errorf("an estimate is %v away from the average %v", worst, avg)
			}
		})
	}
}

// TestRendezvous: the twelve agents of rendezvous.argos, spread over a
// 3 m square at the start, end within 0.15 m of each other.
func TestRendezvous(t *testing.T) {
	sim := start(t, load(t, "rendezvous.argos"), 0)
	spread := func() float64 {
		d := 0.0
		for i := 0; i < sim.NumRobots(); i++ {
			for j := 0; j < i; j++ {
				a, b := sim.Space().Bodies[sim.Robot(i).Body].Pos, sim.Space().Bodies[sim.Robot(j).Body].Pos
				d = max(d, math.Hypot(a.X-b.X, a.Y-b.Y))
			}
		}
		return d
	}
	before := spread()
	for i := 0; i < 6000; i++ {
		step(t, sim)
	}
	after := spread()
	t.Logf("largest distance between two agents: %.3f m at the start, %.3f m after 60 s", before, after)
	if before < 1.5 || after > 0.15 {
		t.Errorf("largest distance %.3f m at the start, %.3f m at the end; want more than 1.5, then at most 0.15", before, after)
	}
	for k := 0; k < sim.NumRobots(); k++ {
		if n := sim.Controller(k).(*rendezvous.Controller).Known(); n < 11 {
			t.Errorf("agent %d heard only %d others", k, n)
		}
	}
}
