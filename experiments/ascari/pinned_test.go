package ascari_test

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"testing"
)

// pinnedTraffic is the hash of the traffic experiment's state (every
// agent's pose, held nodes, claim and arcs driven) after 6000 ticks with
// the file as it is, computed before the controller, the channel and the
// custom engine were made faster. Speed work must leave it unchanged, bit
// for bit; a change of the protocol or of the models changes it on
// purpose, and the new value is what the failure prints.
const pinnedTraffic uint64 = 0xa398c45e11595207

// TestTrafficPinned runs traffic.argos for 6 simulated seconds (past the
// warm-up, agents turning, driving and waiting for grants, messages lost
// and delayed) and compares the hash of the final state with the pinned
// one.
func TestTrafficPinned(t *testing.T) {
	sim := start(t, load(t, "traffic.argos"), 0)
	ctrl := controllers(t, sim)
	for i := 0; i < 6000; i++ {
		step(t, sim)
	}
	h := fnv.New64a()
	var buf [8]byte
	put := func(v float64) {
		binary.LittleEndian.PutUint64(buf[:], math.Float64bits(v))
		h.Write(buf[:])
	}
	for k, c := range ctrl {
		b := sim.Space().Bodies[sim.Robot(k).Body]
		node, next := c.Held()
		put(b.Pos.X)
		put(b.Pos.Y)
		put(b.Yaw)
		put(float64(node))
		put(float64(next))
		put(float64(c.Claim()))
		put(float64(c.Arcs()))
	}
	if got := h.Sum64(); got != pinnedTraffic {
		t.Fatalf("final state hash %#x, pinned %#x: the run no longer gives the same trajectories", got, pinnedTraffic)
	}
}
