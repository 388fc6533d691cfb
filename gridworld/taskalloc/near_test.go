package taskalloc

import (
	"testing"

	"github.com/argosgo/argos/gridworld"
)

// nearBrute counts, for every vertex, the vertices with residual demand
// in its local mapping, by distance.
func nearBrute(g gridworld.Grid, radius int, vs []Vertex) []int32 {
	out := make([]int32, len(vs))
	for a := range vs {
		for b := range vs {
			if vs[b].Demand > 0 && g.Distance(int32(a), int32(b)) <= radius {
				out[a]++
			}
		}
	}
	return out
}

// The map of residual demand nearby stays what it says after every
// round, on tori and bounded grids, in 2D and 3D, and a world that
// skips the scan with it makes the same moves as one that always scans.
func TestNearMatchesDemand(t *testing.T) {
	for _, c := range []struct {
		g      gridworld.Grid
		radius int
	}{
		{gridworld.Grid2D(12, 9, true), 2},
		{gridworld.Grid2D(12, 9, false), 2},
		{gridworld.Grid2D(7, 7, true), 3},
		{gridworld.Grid3D(6, 5, 7, true), 1},
		{gridworld.Grid3D(6, 5, 7, false), 2},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			cfg := gridworld.Config{Grid: c.g, Agents: 40, Radius: c.radius, Seed: seed}
			tasks := RandomTasks(c.g, 6, 30, seed)
			fast, err := NewWorld(cfg, tasks)
			if err != nil {
				t.Fatal(err)
			}
			slow, err := NewWorld(cfg, tasks)
			if err != nil {
				t.Fatal(err)
			}
			slow.rules.near = nil // scans every time
			for fast.Round() < 400 && !fast.Finished() {
				want := nearBrute(c.g, c.radius, fast.Vertices())
				for u, n := range fast.rules.near {
					if n != want[u] {
						t.Fatalf("%s radius %d seed %d round %d: vertex %d has %d vertices with demand nearby, not %d", c.g, c.radius, seed, fast.Round(), u, n, want[u])
					}
				}
				if err := fast.Step(); err != nil {
					t.Fatal(err)
				}
				if err := slow.Step(); err != nil {
					t.Fatal(err)
				}
				fp, sp := fast.Positions(nil), slow.Positions(nil)
				fs, ss := fast.States(nil), slow.States(nil)
				for i := range fp {
					if fp[i] != sp[i] || fs[i] != ss[i] {
						t.Fatalf("%s seed %d round %d: agent %d differs with the map of demand nearby", c.g, seed, fast.Round(), i)
					}
				}
			}
			if !fast.Finished() || !slow.Finished() {
				t.Fatalf("%s seed %d: not finished after %d rounds", c.g, seed, fast.Round())
			}
		}
	}
}
