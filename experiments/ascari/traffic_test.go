package ascari_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/argosgo/argos/controllers/ascari/traffic"
	"github.com/argosgo/argos/simulator"
)

// occupancy checks that no two agents are on one node: neither as the
// controllers see it (the nodes they hold) nor in the arena (within 0.3 m
// of a node's position); it describes the first breach it finds.
func occupancy(sim *simulator.Simulator, ctrl []*traffic.Controller) error {
	held := map[int16]int{}
	for k, c := range ctrl {
		node, next := c.Held()
		for _, n := range []int16{node, next} {
			if n < 0 {
				continue
			}
			if o, ok := held[n]; ok {
				return fmt.Errorf("tick %d: agents %d and %d both hold node %d", sim.Tick(), o, k, n)
			}
			held[n] = k
		}
	}
	on := map[[2]int]int{}
	for k := range ctrl {
		p := sim.Space().Bodies[sim.Robot(k).Body].Pos
		nx, ny := math.Round(p.X), math.Round(p.Y)
		if math.Hypot(p.X-nx, p.Y-ny) > 0.3 {
			continue
		}
		key := [2]int{int(nx), int(ny)}
		if o, ok := on[key]; ok {
			return fmt.Errorf("tick %d: agents %d and %d are both on the node at (%v, %v)", sim.Tick(), o, k, nx, ny)
		}
		on[key] = k
	}
	return nil
}

// controllers returns the traffic controllers of sim.
func controllers(t *testing.T, sim *simulator.Simulator) []*traffic.Controller {
	t.Helper()
	if sim.NumRobots() != 30 {
		t.Fatalf("%d agents, want 30", sim.NumRobots())
	}
	ctrl := make([]*traffic.Controller, sim.NumRobots())
	for k := range ctrl {
		ctrl[k] = sim.Controller(k).(*traffic.Controller)
	}
	return ctrl
}

// TestTrafficNeverSharesANode runs the traffic-control experiment for 20
// simulated seconds at 0 %, 10 % and 30 % loss and checks after every
// tick that no two agents hold or stand on one node, and that the agents
// do travel.
func TestTrafficNeverSharesANode(t *testing.T) {
	seconds := 20
	if testing.Short() {
		seconds = 5
	}
	for _, loss := range []string{"0", "0.1", "0.3"} {
		t.Run("loss="+loss, func(t *testing.T) {
			exp := load(t, "traffic.argos", `<loss probability="0.1" />`, fmt.Sprintf(`<loss probability="%s" />`, loss))
			sim := start(t, exp, 0)
			ctrl := controllers(t, sim)
			for i := 0; i < seconds*1000; i++ {
				step(t, sim)
				if err := occupancy(sim, ctrl); err != nil {
					t.Fatal(err)
				}
			}
			arcs := 0
			for _, c := range ctrl {
				arcs += c.Arcs()
			}
			t.Logf("loss %s: %d arcs driven in %d s by 30 agents", loss, arcs, seconds)
			if arcs < 30*(seconds-1)/8 {
				t.Errorf("only %d arcs driven in %d s: the agents hardly move", arcs, seconds)
			}
		})
	}
}

// TestTrafficWithoutLockingCollides: the same agents entering nodes
// without asking end up two on one node within a few seconds, so that the
// check above does see a breach when there is one.
func TestTrafficWithoutLockingCollides(t *testing.T) {
	exp := load(t, "traffic.argos", `tick="0.001" />`, `tick="0.001" locking="false" />`)
	sim := start(t, exp, 0)
	ctrl := controllers(t, sim)
	for i := 0; i < 10000; i++ {
		step(t, sim)
		if err := occupancy(sim, ctrl); err != nil {
			t.Logf("without locking: %v", err)
			return
		}
	}
	t.Fatal("agents that enter nodes without locking never shared one in 10 s")
}

// TestTrafficSameWhateverTheThreads: the traffic experiment (agents,
// channel with loss and delay, controllers that draw random numbers) ends
// in the same poses and the same locks with 0 and 2 threads.
func TestTrafficSameWhateverTheThreads(t *testing.T) {
	var ref []float64
	for _, threads := range []int{0, 2} {
		sim := start(t, load(t, "traffic.argos"), threads)
		ctrl := controllers(t, sim)
		for i := 0; i < 3000; i++ {
			step(t, sim)
		}
		var got []float64
		for k, c := range ctrl {
			b := sim.Space().Bodies[sim.Robot(k).Body]
			node, next := c.Held()
			got = append(got, b.Pos.X, b.Pos.Y, b.Yaw, float64(node), float64(next), float64(c.Claim()), float64(c.Arcs()))
		}
		if ref == nil {
			ref = got
			continue
		}
		for i := range got {
			if got[i] != ref[i] {
				t.Fatalf("threads %d: value %d of agent %d is %v, with 0 threads %v", threads, i%7, i/7, got[i], ref[i])
			}
		}
	}
}
