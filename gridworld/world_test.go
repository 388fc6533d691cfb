package gridworld_test

import (
	"context"
	"errors"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/density"
	"github.com/argosgo/argos/gridworld/taskalloc"
	"github.com/argosgo/argos/gridworld/walk"
)

// fingerprint hashes what a world is: every agent's vertex and state by
// id, and every vertex's state.
func fingerprint[A, V, M any](w *gridworld.World[A, V, M], agent func(A) uint64, vertex func(V) uint64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x uint64) {
		for i := range b {
			b[i] = byte(x >> (8 * i))
		}
		h.Write(b[:])
	}
	for _, p := range w.Positions(nil) {
		put(uint64(p))
	}
	for _, a := range w.States(nil) {
		put(agent(a))
	}
	if vertex != nil {
		for _, v := range w.Vertices() {
			put(vertex(v))
		}
	}
	put(uint64(w.Round()))
	return h.Sum64()
}

// tagged is a program that exercises every user function: agents post
// their id, count the messages and agents in their local mapping, and
// propose to move; vertices accept at most two moves a round and count
// what they accepted.
type tagged struct{ g gridworld.Grid }

type tagAgent struct {
	Seen, Rejected, Moves int32
	Last                  int32
}

type tagVertex struct{ Accepted int32 }

func (t *tagged) Message(a *tagAgent, v *gridworld.View[tagVertex, int32], r *gridworld.Rand) int32 {
	return v.ID()*7 + int32(r.IntN(5))
}

func (t *tagged) Transition(a *tagAgent, v *gridworld.View[tagVertex, int32], r *gridworld.Rand) gridworld.Transition[tagAgent, tagVertex] {
	n := *a
	for _, o := range v.Offsets() {
		for _, m := range v.MessagesAt(o) {
			n.Seen += m % 97
		}
		n.Seen += int32(v.CountAt(o))
		if x := v.VertexAt(o); x != nil {
			n.Seen += x.Accepted % 13
		}
	}
	n.Moves++
	return gridworld.Transition[tagAgent, tagVertex]{State: n, Vertex: tagVertex{v.Vertex().Accepted + 1}, Move: r.Dir(t.g)}
}

func (t *tagged) UpdateLocation(v *tagVertex, ts []gridworld.Proposal[tagAgent, tagVertex], r *gridworld.Rand) {
	limit := 1 + r.IntN(2)
	for i := range ts {
		if i < limit {
			ts[i].Accept = true
			*v = ts[i].Vertex
		}
	}
}

func (t *tagged) UpdateAgent(a *tagAgent, p *gridworld.Proposal[tagAgent, tagVertex]) {
	if p.Accept {
		*a = p.State
		a.Last = p.Agent
		return
	}
	a.Rejected++
}

func (t *tagged) InitAgent(id, at int32, r *gridworld.Rand) tagAgent {
	return tagAgent{Last: int32(r.IntN(1000))}
}

func tagHash(a tagAgent) uint64 {
	return uint64(a.Seen) ^ uint64(a.Rejected)<<20 ^ uint64(a.Moves)<<40 ^ uint64(a.Last)<<50
}

// Same seed, same world, whatever the number of threads: every program,
// split among up to 4 goroutines, on dense and sparse grids (one bucket
// per vertex, and several vertices per bucket).
func TestThreadsGiveSameResults(t *testing.T) {
	const rounds = 8
	cases := []struct {
		name string
		run  func(threads int) uint64
	}{
		{"tagged 2D dense", func(th int) uint64 {
			g := gridworld.Grid2D(30, 25, true)
			w, err := gridworld.New[tagAgent, tagVertex, int32](gridworld.Config{Grid: g, Agents: 1500, Radius: 2, Seed: 3, Threads: th, MinChunk: 16}, &tagged{g})
			must(t, err)
			must(t, w.Run(context.Background(), rounds))
			return fingerprint(w, tagHash, func(v tagVertex) uint64 { return uint64(v.Accepted) })
		}},
		{"tagged 3D sparse bounded", func(th int) uint64 {
			g := gridworld.Grid3D(20, 20, 20, false)
			w, err := gridworld.New[tagAgent, tagVertex, int32](gridworld.Config{Grid: g, Agents: 2000, Radius: 1, Seed: 4, Threads: th, MinChunk: 16}, &tagged{g})
			must(t, err)
			must(t, w.Run(context.Background(), rounds))
			return fingerprint(w, tagHash, func(v tagVertex) uint64 { return uint64(v.Accepted) })
		}},
		{"density sparse", func(th int) uint64 {
			p, err := density.NewWorld(gridworld.Config{Grid: gridworld.Grid2D(200, 150, true), Agents: 3000, Seed: 5, Threads: th, MinChunk: 16}, rounds)
			must(t, err)
			must(t, p.Run(context.Background(), 0))
			return fingerprint(p.World, func(a density.Agent) uint64 { return uint64(a.Met) }, nil)
		}},
		{"task allocation", func(th int) uint64 {
			g := gridworld.Grid2D(40, 40, true)
			p, err := taskalloc.NewWorld(gridworld.Config{Grid: g, Agents: 3000, Radius: 2, Seed: 6, Threads: th, MinChunk: 16}, taskalloc.RandomTasks(g, 300, 2000, 6))
			must(t, err)
			must(t, p.Run(context.Background(), rounds))
			return fingerprint(p.World, func(a taskalloc.Agent) uint64 { return uint64(a.Phase) }, func(v taskalloc.Vertex) uint64 { return uint64(v.Demand) })
		}},
		{"exclusive walk", func(th int) uint64 {
			w, err := walk.NewWorld(gridworld.Config{Grid: gridworld.Grid2D(60, 60, false), Agents: 2000, Radius: 2, Seed: 7, Threads: th, MinChunk: 16}, true)
			must(t, err)
			must(t, w.Run(context.Background(), rounds))
			return fingerprint(w, func(a walk.Agent) uint64 { return uint64(a.Moves) }, nil)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.run(0)
			for _, th := range []int{1, 2, 4} {
				if got := c.run(th); got != want {
					t.Errorf("threads=%d: fingerprint %x, threads=0 gave %x", th, got, want)
				}
			}
		})
	}
}

// A different seed gives a different world (the fingerprint sees the
// randomness at all).
func TestSeedMatters(t *testing.T) {
	run := func(seed uint64) uint64 {
		p, err := density.NewWorld(gridworld.Config{Grid: gridworld.Grid2D(50, 50, true), Agents: 500, Seed: seed}, 5)
		must(t, err)
		must(t, p.Run(context.Background(), 0))
		return fingerprint(p.World, func(a density.Agent) uint64 { return uint64(a.Met) }, nil)
	}
	if run(1) == run(2) {
		t.Error("seeds 1 and 2 gave the same world")
	}
	if run(3) != run(3) {
		t.Error("seed 3 gave two different worlds")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// gate is a program whose locations accept only the transitions of
// agents with an even id; every agent proposes to move east, to count
// one more step and to set its vertex to its id.
type gate struct{}

type gateAgent struct{ Steps int32 }

func (gate) Transition(a *gateAgent, v *gridworld.View[int32, struct{}], r *gridworld.Rand) gridworld.Transition[gateAgent, int32] {
	return gridworld.Transition[gateAgent, int32]{State: gateAgent{a.Steps + 1}, Vertex: v.ID(), Move: gridworld.East}
}

func (gate) UpdateLocation(v *int32, ts []gridworld.Proposal[gateAgent, int32], r *gridworld.Rand) {
	for i := range ts {
		if ts[i].Agent%2 == 0 {
			ts[i].Accept = true
			*v = ts[i].Vertex
		}
	}
}

func TestRejectedTransitionIsNotApplied(t *testing.T) {
	g := gridworld.Grid2D(10, 10, true)
	start := []int32{g.Vertex(1, 1, 0), g.Vertex(2, 2, 0), g.Vertex(3, 3, 0), g.Vertex(3, 3, 0)}
	w, err := gridworld.New[gateAgent, int32, struct{}](gridworld.Config{Grid: g, Agents: 4, Positions: start}, gate{})
	must(t, err)
	for i := range w.Vertices() {
		w.Vertices()[i] = -1
	}
	for round := 1; round <= 3; round++ {
		must(t, w.Step())
		pos, st := w.Positions(nil), w.States(nil)
		for id := range 4 {
			x0, y0, _ := g.Coords(start[id])
			x, y, _ := g.Coords(pos[id])
			if id%2 == 0 {
				if st[id].Steps != int32(round) || x != (x0+round)%10 || y != y0 {
					t.Errorf("round %d: accepted agent %d: steps %d at (%d,%d), want %d at (%d,%d)", round, id, st[id].Steps, x, y, round, (x0+round)%10, y0)
				}
			} else if st[id].Steps != 0 || pos[id] != start[id] {
				t.Errorf("round %d: rejected agent %d changed: steps %d, vertex %d (was %d)", round, id, st[id].Steps, pos[id], start[id])
			}
		}
	}
	// the vertices took the suggestions they accepted, and only those
	vs := w.Vertices()
	if got := vs[g.Vertex(1, 1, 0)]; got != 0 {
		t.Errorf("vertex (1,1) = %d, want 0 (agent 0's suggestion)", got)
	}
	if got := vs[g.Vertex(2, 2, 0)]; got != -1 {
		t.Errorf("vertex (2,2) = %d, want -1: agent 1's transition was rejected", got)
	}
	if got := vs[g.Vertex(3, 3, 0)]; got != 2 {
		t.Errorf("vertex (3,3) = %d, want 2: agent 2 accepted, agent 3 rejected", got)
	}
}

// mover moves every agent along its own direction (by id) every round.
type mover struct{ dirs []gridworld.Dir }

func (m mover) Transition(a *struct{}, v *gridworld.View[struct{}, struct{}], r *gridworld.Rand) gridworld.Transition[struct{}, struct{}] {
	return gridworld.Transition[struct{}, struct{}]{Move: m.dirs[v.ID()]}
}

func TestTorusWrapsAround(t *testing.T) {
	for _, g := range []gridworld.Grid{gridworld.Grid2D(5, 4, true), gridworld.Grid3D(5, 4, 3, true)} {
		t.Run(g.String(), func(t *testing.T) {
			type step struct {
				from [3]int
				d    gridworld.Dir
				to   [3]int
			}
			mx, my, mz := g.Size[0]-1, g.Size[1]-1, g.Size[2]-1
			steps := []step{
				{[3]int{mx, 1, 0}, gridworld.East, [3]int{0, 1, 0}},
				{[3]int{0, 2, 0}, gridworld.West, [3]int{mx, 2, 0}},
				{[3]int{3, my, 0}, gridworld.North, [3]int{3, 0, 0}},
				{[3]int{2, 0, 0}, gridworld.South, [3]int{2, my, 0}},
				{[3]int{1, 1, 0}, gridworld.East, [3]int{2, 1, 0}},
			}
			if g.Dims == 3 {
				steps = append(steps,
					step{[3]int{1, 2, mz}, gridworld.Up, [3]int{1, 2, 0}},
					step{[3]int{4, 3, 0}, gridworld.Down, [3]int{4, 3, mz}},
					step{[3]int{mx, my, mz}, gridworld.North, [3]int{mx, 0, mz}})
			}
			var start []int32
			var dirs []gridworld.Dir
			for _, s := range steps {
				start = append(start, g.Vertex(s.from[0], s.from[1], s.from[2]))
				dirs = append(dirs, s.d)
			}
			w, err := gridworld.New[struct{}, struct{}, struct{}](gridworld.Config{Grid: g, Agents: len(steps), Positions: start}, mover{dirs})
			must(t, err)
			must(t, w.Step())
			for i, p := range w.Positions(nil) {
				x, y, z := g.Coords(p)
				if [3]int{x, y, z} != steps[i].to {
					t.Errorf("%v from %v: at %v, want %v", steps[i].d, steps[i].from, [3]int{x, y, z}, steps[i].to)
				}
			}
		})
	}
}

func TestBoundedGridKeepsAgentsAtTheBorder(t *testing.T) {
	g := gridworld.Grid3D(4, 4, 4, false)
	start := []int32{g.Vertex(3, 0, 0), g.Vertex(0, 0, 0), g.Vertex(0, 3, 0), g.Vertex(0, 0, 0), g.Vertex(0, 0, 3), g.Vertex(0, 0, 0)}
	dirs := []gridworld.Dir{gridworld.East, gridworld.West, gridworld.North, gridworld.South, gridworld.Up, gridworld.Down}
	w, err := gridworld.New[struct{}, struct{}, struct{}](gridworld.Config{Grid: g, Agents: 6, Positions: start}, mover{dirs})
	must(t, err)
	must(t, w.Step())
	for i, p := range w.Positions(nil) {
		if p != start[i] {
			t.Errorf("%v off the border: moved from %d to %d", dirs[i], start[i], p)
		}
	}
	if _, ok := gridworld.Grid2D(3, 3, true).Move(4, gridworld.Up); ok {
		t.Error("a 2D grid has no Up")
	}
}

// probe records, for agent 0, what its local mapping shows.
type probe struct {
	seen map[gridworld.Offset]int32 // offset: vertex state
	msgs map[gridworld.Offset]int
}

func (p *probe) Message(a *struct{}, v *gridworld.View[int32, int32], r *gridworld.Rand) int32 {
	return v.ID()
}

func (p *probe) Transition(a *struct{}, v *gridworld.View[int32, int32], r *gridworld.Rand) gridworld.Transition[struct{}, int32] {
	if v.ID() == 0 {
		r := v.Radius()
		for dz := -r - 1; dz <= r+1; dz++ {
			for dy := -r - 1; dy <= r+1; dy++ {
				for dx := -r - 1; dx <= r+1; dx++ {
					o := gridworld.Offset{DX: dx, DY: dy, DZ: dz}
					if s := v.VertexAt(o); s != nil {
						p.seen[o] = *s
					}
					if m := v.MessagesAt(o); len(m) > 0 {
						p.msgs[o] = len(m)
					}
				}
			}
		}
	}
	return gridworld.Transition[struct{}, int32]{}
}

func TestLocalMappingRadius(t *testing.T) {
	for _, c := range []struct {
		g      gridworld.Grid
		radius int
		at     [3]int
		want   int // vertices in the local mapping
	}{
		{gridworld.Grid2D(9, 9, true), 2, [3]int{0, 0, 0}, 13}, // 2r^2+2r+1, wrapping around the corner
		{gridworld.Grid2D(9, 9, false), 2, [3]int{0, 0, 0}, 6}, // the quarter on the grid
		{gridworld.Grid2D(20, 20, true), 3, [3]int{10, 10, 0}, 25},
		{gridworld.Grid3D(7, 7, 7, true), 2, [3]int{6, 6, 6}, 25}, // (2r+1)(2r^2+2r+3)/3
		{gridworld.Grid3D(7, 7, 7, true), 0, [3]int{3, 3, 3}, 1},
	} {
		t.Run(c.g.String(), func(t *testing.T) {
			g := c.g
			me := g.Vertex(c.at[0], c.at[1], c.at[2])
			// every other vertex holds one agent; vertex states are their indices
			start := []int32{me}
			for v := int32(0); v < int32(g.Vertices()); v++ {
				if v != me {
					start = append(start, v)
				}
			}
			p := &probe{seen: map[gridworld.Offset]int32{}, msgs: map[gridworld.Offset]int{}}
			w, err := gridworld.New[struct{}, int32, int32](gridworld.Config{Grid: g, Agents: len(start), Radius: c.radius, Positions: start}, p)
			must(t, err)
			for v := range w.Vertices() {
				w.Vertices()[v] = int32(v)
			}
			must(t, w.Step())
			if len(p.seen) != c.want {
				t.Errorf("the local mapping holds %d vertices, want %d", len(p.seen), c.want)
			}
			for o, s := range p.seen {
				if o.Distance() > c.radius {
					t.Errorf("offset %v, %d edges away, is in a mapping of radius %d", o, o.Distance(), c.radius)
				}
				x, y, z := c.at[0]+o.DX, c.at[1]+o.DY, c.at[2]+o.DZ
				if g.Torus {
					x, y, z = (x+g.Size[0])%g.Size[0], (y+g.Size[1])%g.Size[1], (z+g.Size[2])%g.Size[2]
				}
				if want := g.Vertex(x, y, z); s != want {
					t.Errorf("offset %v shows vertex %d, want %d", o, s, want)
				}
				if p.msgs[o] != 1 {
					t.Errorf("offset %v: %d messages, want the one of its agent", o, p.msgs[o])
				}
			}
			if len(p.msgs) != c.want {
				t.Errorf("messages from %d vertices, want %d", len(p.msgs), c.want)
			}
		})
	}
}

// counter checks, for every agent, that Count and CountAt agree with
// the true occupancy, on grids where a bucket holds many vertices.
type counter struct {
	occ       []int32
	g         gridworld.Grid
	bad, seen int
}

func (c *counter) Transition(a *struct{}, v *gridworld.View[struct{}, struct{}], r *gridworld.Rand) gridworld.Transition[struct{}, struct{}] {
	c.seen++
	if int32(v.Count()) != c.occ[v.Here()] {
		c.bad++
	}
	for _, o := range v.Offsets() {
		u, _ := v.At(o)
		if int32(v.CountAt(o)) != c.occ[u] {
			c.bad++
		}
	}
	return gridworld.Transition[struct{}, struct{}]{Move: r.Dir(c.g)}
}

func TestCountsOnSparseGrids(t *testing.T) {
	for _, agents := range []int{5, 300, 4000} {
		g := gridworld.Grid2D(97, 61, true)
		c := &counter{g: g}
		w, err := gridworld.New[struct{}, struct{}, struct{}](gridworld.Config{Grid: g, Agents: agents, Radius: 1, Seed: 9}, c)
		must(t, err)
		for range 5 {
			c.occ, c.seen = w.Occupancy(nil), 0
			must(t, w.Step())
		}
		if c.bad > 0 {
			t.Errorf("%d agents: %d wrong counts", agents, c.bad)
		}
		if c.seen != agents {
			t.Errorf("%d agents: %d transitions in the last round", agents, c.seen)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	g := gridworld.Grid2D(10, 10, false)
	for _, c := range []struct {
		cfg   gridworld.Config
		field string
	}{
		{gridworld.Config{Grid: gridworld.Grid2D(0, 10, true), Agents: 1}, "size"},
		{gridworld.Config{Grid: gridworld.Grid3D(10, 10, 0, true), Agents: 1}, "size"},
		{gridworld.Config{Grid: g, Agents: 0}, "quantity"},
		{gridworld.Config{Grid: g, Agents: 1, Radius: 5}, "radius"},
		{gridworld.Config{Grid: g, Agents: 101, Capacity: 1}, "quantity"},
		{gridworld.Config{Grid: g, Agents: 2, Positions: []int32{0, 100}}, "positions"},
	} {
		_, err := gridworld.New[struct{}, struct{}, struct{}](c.cfg, mover{})
		var ce *gridworld.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("%+v: error %v, want one about %s", c.cfg, err, c.field)
		}
	}
	// a full bounded grid is fine
	if _, err := gridworld.New[struct{}, struct{}, struct{}](gridworld.Config{Grid: g, Agents: 100, Capacity: 1}, mover{}); err != nil {
		t.Errorf("100 agents on 100 vertices of capacity 1: %v", err)
	}
}

func TestCapacityPlacement(t *testing.T) {
	g := gridworld.Grid2D(10, 10, false)
	w, err := gridworld.New[struct{}, struct{}, struct{}](gridworld.Config{Grid: g, Agents: 150, Capacity: 2, Seed: 3}, mover{})
	must(t, err)
	for v, n := range w.Occupancy(nil) {
		if n > 2 {
			t.Fatalf("vertex %d holds %d agents, capacity 2", v, n)
		}
	}
}

type panicky struct{}

func (panicky) Transition(a *struct{}, v *gridworld.View[struct{}, struct{}], r *gridworld.Rand) gridworld.Transition[struct{}, struct{}] {
	if v.ID() == 17 {
		panic("boom")
	}
	return gridworld.Transition[struct{}, struct{}]{}
}

func TestPanicNamesTheAgent(t *testing.T) {
	for _, th := range []int{1, 2} {
		w, err := gridworld.New[struct{}, struct{}, struct{}](gridworld.Config{Grid: gridworld.Grid2D(100, 100, true), Agents: 900, Threads: th, MinChunk: 16}, panicky{})
		must(t, err)
		err = w.Step()
		if err == nil || !strings.Contains(err.Error(), "agent 17 ") || !strings.Contains(err.Error(), "boom") {
			t.Errorf("threads=%d: error %v, want one naming agent 17 and the panic", th, err)
		}
	}
}

func TestRand(t *testing.T) {
	r := gridworld.NewRand(1, 2)
	counts := make([]int, 6)
	for range 60000 {
		v := r.IntN(6)
		if v < 0 || v >= 6 {
			t.Fatalf("IntN(6) = %d", v)
		}
		counts[v]++
		if f := r.Float64(); f < 0 || f >= 1 {
			t.Fatalf("Float64 = %g", f)
		}
	}
	for i, c := range counts {
		if c < 9500 || c > 10500 {
			t.Errorf("IntN(6) gave %d %d times in 60000", i, c)
		}
	}
	if gridworld.NewRand(1, 2).Uint64() == gridworld.NewRand(1, 3).Uint64() {
		t.Error("streams 2 and 3 start alike")
	}
}

func TestGridDistance(t *testing.T) {
	g := gridworld.Grid2D(10, 10, true)
	if d := g.Distance(g.Vertex(0, 0, 0), g.Vertex(9, 9, 0)); d != 2 {
		t.Errorf("torus distance (0,0)-(9,9) = %d, want 2", d)
	}
	g.Torus = false
	if d := g.Distance(g.Vertex(0, 0, 0), g.Vertex(9, 9, 0)); d != 18 {
		t.Errorf("bounded distance (0,0)-(9,9) = %d, want 18", d)
	}
}
