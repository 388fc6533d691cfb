package ascari_test

import "testing"

// TestResetRepeatsTheRun: after Reset, the traffic experiment (agents
// with dynamics, a lossy delayed channel, controllers with random
// streams) runs again exactly as the first time.
func TestResetRepeatsTheRun(t *testing.T) {
	sim := start(t, load(t, "traffic.argos"), 0)
	run := func() []float64 {
		for i := 0; i < 2500; i++ {
			step(t, sim)
		}
		var got []float64
		for k, c := range controllers(t, sim) {
			b := sim.Space().Bodies[sim.Robot(k).Body]
			node, next := c.Held()
			got = append(got, b.Pos.X, b.Pos.Y, b.Yaw, float64(node), float64(next), float64(c.Arcs()))
		}
		return got
	}
	first := run()
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	second := run()
	for i := range first {
		if first[i] != second[i] {
			t.Fatalf("after Reset, value %d of agent %d is %v; the first run had %v", i%6, i/6, second[i], first[i])
		}
	}
}
