package walk_test

import (
	"testing"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/walk"
)

// The exclusive walk never puts two agents on a vertex, also on a
// crowded grid, and its agents do move.
func TestExclusiveWalkNeverShares(t *testing.T) {
	for _, g := range []gridworld.Grid{gridworld.Grid2D(20, 15, false), gridworld.Grid2D(9, 9, true), gridworld.Grid3D(6, 6, 6, true)} {
		for _, agents := range []int{g.Vertices() / 4, g.Vertices() * 3 / 4} {
			w, err := walk.NewWorld(gridworld.Config{Grid: g, Agents: agents, Radius: 2, Seed: 4, Threads: 2, MinChunk: 16}, true)
			if err != nil {
				t.Fatal(err)
			}
			for range 60 {
				if err := w.Step(); err != nil {
					t.Fatal(err)
				}
				for v, n := range w.Occupancy(nil) {
					if n > 1 {
						t.Fatalf("%v, %d agents, round %d: vertex %d holds %d agents", g, agents, w.Round(), v, n)
					}
				}
			}
			var moves int32
			for _, a := range w.States(nil) {
				moves += a.Moves
			}
			if moves == 0 {
				t.Errorf("%v, %d agents: nobody moved in 60 rounds", g, agents)
			}
		}
	}
}

// Without exclusion agents share vertices and move every round.
func TestFreeWalk(t *testing.T) {
	g := gridworld.Grid2D(10, 10, true)
	w, err := walk.NewWorld(gridworld.Config{Grid: g, Agents: 300, Seed: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if err := w.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for id, a := range w.States(nil) {
		if a.Moves != 10 {
			t.Fatalf("agent %d moved %d times in 10 rounds", id, a.Moves)
		}
	}
}
