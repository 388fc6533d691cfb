package gridworld_test

import (
	"fmt"
	"testing"

	"github.com/argosgo/argos/gridworld"
)

// mappingCheck compares, for every agent, every way of reading the local
// mapping with At and VertexAt, offset by offset: Mapping, States,
// VertexOf, LocalStates, CountOf and MessagesOf, called in an order that
// changes from agent to agent (the view computes what they share once
// per agent, whichever comes first). Vertex states are the vertices'
// numbers, messages the agents' vertices.
type mappingCheck struct {
	g       gridworld.Grid
	checked int
	bad     []string
}

func (c *mappingCheck) Message(a *struct{}, v *gridworld.View[int32, int32], r *gridworld.Rand) int32 {
	return v.Here()
}

func (c *mappingCheck) Transition(a *struct{}, v *gridworld.View[int32, int32], r *gridworld.Rand) gridworld.Transition[struct{}, int32] {
	offs := v.Offsets()
	want := make([]int32, len(offs)) // -1 off the grid
	for i, o := range offs {
		u, ok := v.At(o)
		if !ok {
			u = -1
		}
		if s := v.VertexAt(o); ok != (s != nil) || ok && *s != u {
			c.fail(v, "VertexAt(%v) = %v for vertex %d", o, s, u)
		}
		want[i] = u
	}
	checks := []func(){
		func() {
			for i, u := range v.Mapping() {
				if u != want[i] {
					c.fail(v, "Mapping()[%d] = %d, want %d", i, u, want[i])
				}
			}
		},
		func() {
			for i, s := range v.States() {
				if w := max(0, want[i]); s != w {
					c.fail(v, "States()[%d] = %d, want %d", i, s, w)
				}
			}
		},
		func() {
			for i := range offs {
				if s := v.VertexOf(i); (s != nil) != (want[i] >= 0) || s != nil && *s != want[i] {
					c.fail(v, "VertexOf(%d) = %v, want vertex %d", i, s, want[i])
				}
			}
		},
		func() {
			ls := v.LocalStates()
			if ls.Len() != len(offs) {
				c.fail(v, "LocalStates().Len() = %d for %d offsets", ls.Len(), len(offs))
			}
			for i := range offs {
				if s := ls.At(i); (s != nil) != (want[i] >= 0) || s != nil && *s != want[i] {
					c.fail(v, "LocalStates().At(%d) = %v, want vertex %d", i, s, want[i])
				}
			}
		},
		func() {
			for i, o := range offs {
				if n, m := v.CountOf(i), v.CountAt(o); n != m {
					c.fail(v, "CountOf(%d) = %d, CountAt(%v) = %d", i, n, o, m)
				}
				ms := v.MessagesOf(i)
				if len(ms) != v.CountAt(o) {
					c.fail(v, "MessagesOf(%d) holds %d messages for %d agents", i, len(ms), v.CountAt(o))
				}
				for _, m := range ms {
					if m != want[i] {
						c.fail(v, "MessagesOf(%d) holds a message from vertex %d, want %d", i, m, want[i])
					}
				}
			}
		},
	}
	first := int(v.ID()) % len(checks)
	for j := range checks {
		checks[(first+j)%len(checks)]()
	}
	c.checked++
	return gridworld.Transition[struct{}, int32]{Move: r.Dir(c.g)}
}

func (c *mappingCheck) fail(v *gridworld.View[int32, int32], format string, args ...any) {
	if len(c.bad) < 10 {
		x, y, z := v.Coords()
		c.bad = append(c.bad, fmt.Sprintf("agent %d at (%d,%d,%d): ", v.ID(), x, y, z)+fmt.Sprintf(format, args...))
	}
}

// Every way of reading the local mapping shows the same vertices, inside
// the grid and across its border, on tori and bounded grids.
func TestLocalMappingReadsAgree(t *testing.T) {
	for _, c := range []struct {
		g      gridworld.Grid
		radius int
	}{
		{gridworld.Grid2D(9, 7, true), 2},
		{gridworld.Grid2D(9, 7, false), 2},
		{gridworld.Grid2D(5, 5, true), 2},
		{gridworld.Grid2D(30, 11, false), 3},
		{gridworld.Grid3D(7, 6, 5, true), 2},
		{gridworld.Grid3D(7, 6, 5, false), 1},
		{gridworld.Grid3D(4, 4, 4, true), 0},
		{gridworld.Grid2D(64, 64, true), 5}, // sparse: several vertices per bucket
	} {
		t.Run(fmt.Sprintf("%s radius %d", c.g, c.radius), func(t *testing.T) {
			p := &mappingCheck{g: c.g}
			agents := c.g.Vertices()
			if agents > 200 {
				agents = 200
			}
			w, err := gridworld.New[struct{}, int32, int32](gridworld.Config{Grid: c.g, Agents: agents, Radius: c.radius, Seed: 3}, p)
			must(t, err)
			for v := range w.Vertices() {
				w.Vertices()[v] = int32(v)
			}
			for range 5 {
				must(t, w.Step())
			}
			if p.checked != 5*agents {
				t.Errorf("%d views checked, want %d", p.checked, 5*agents)
			}
			for _, b := range p.bad {
				t.Error(b)
			}
		})
	}
}
