// Package walk is a random walk on a grid world, free or exclusive: with
// exclusive="true" a vertex holds at most one agent, and agents agree on
// who moves through messages. It shows how a program forbids sharing a
// vertex with ParSwarm's model: every agent posts the direction it would
// like to move in and a random ticket; an agent moves only when its
// target is empty and its ticket beats those of the other agents aiming
// at the same vertex, all of which are within its local mapping of
// radius 2.
//
// It registers as the grid program "random_walk":
//
//	<agents program="random_walk" quantity="500" radius="2">
//	  <params exclusive="true"/>
//	</agents>
package walk

import (
	"github.com/argosgo/argos/gridworld"
)

// Agent is an agent's state: how many times it moved.
type Agent struct{ Moves int32 }

// Message is what an agent posts: where it would like to go, and its
// ticket for the vertex there.
type Message struct {
	Dir    gridworld.Dir
	Ticket uint32
	ID     int32
}

// World is the random-walk world.
type World = gridworld.World[Agent, struct{}, Message]

type view = gridworld.View[struct{}, Message]
type transition = gridworld.Transition[Agent, struct{}]

// Free is the random walk without exclusion.
type Free struct{ g gridworld.Grid }

// Transition steps to a random neighbour.
func (f *Free) Transition(a *Agent, v *view, r *gridworld.Rand) transition {
	return transition{State: Agent{a.Moves + 1}, Move: r.Dir(f.g)}
}

// Exclusive is the random walk with at most one agent per vertex.
type Exclusive struct{ g gridworld.Grid }

// Message picks a direction and a ticket.
func (e *Exclusive) Message(a *Agent, v *view, r *gridworld.Rand) Message {
	return Message{Dir: r.Dir(e.g), Ticket: uint32(r.Uint64()), ID: v.ID()}
}

// beats reports whether m wins the target over n.
func beats(m, n Message) bool {
	return m.Ticket < n.Ticket || m.Ticket == n.Ticket && m.ID < n.ID
}

// Transition moves to the chosen neighbour when it is empty and no other
// agent aiming at it has a better ticket.
func (e *Exclusive) Transition(a *Agent, v *view, r *gridworld.Rand) transition {
	stay := transition{State: *a}
	mine := v.Messages()
	if len(mine) != 1 || !v.CanMove(mine[0].Dir) {
		return stay
	}
	m := mine[0]
	dx, dy, dz := m.Dir.Delta()
	target := gridworld.Offset{DX: dx, DY: dy, DZ: dz}
	if v.CountAt(target) > 0 {
		return stay
	}
	// the other agents next to the target, and whether they aim at it
	for d := gridworld.Dir(1); int(d) <= e.g.Moves(); d++ {
		ex, ey, ez := d.Delta()
		o := gridworld.Offset{DX: dx + ex, DY: dy + ey, DZ: dz + ez}
		if o == (gridworld.Offset{}) {
			continue
		}
		for _, n := range v.MessagesAt(o) {
			nx, ny, nz := n.Dir.Delta()
			if (gridworld.Offset{DX: o.DX + nx, DY: o.DY + ny, DZ: o.DZ + nz}) == target && beats(n, m) {
				return stay
			}
		}
	}
	return transition{State: Agent{a.Moves + 1}, Move: m.Dir}
}

// New is the program's gridworld.Factory.
func New(s *gridworld.Setup) (gridworld.Instance, error) {
	excl, err := s.Params.BoolOr("exclusive", false)
	if err != nil {
		return nil, err
	}
	var w *World
	switch {
	case !excl:
		w, err = gridworld.Build[Agent, struct{}, Message](s, 0, &Free{g: s.Grid})
	case s.Radius < 2:
		return nil, s.Errorf(`random_walk with exclusive="true" needs radius="2" or more: an agent must see the messages of every agent that may aim at its target`)
	default:
		w, err = gridworld.Build[Agent, struct{}, Message](s, 1, &Exclusive{g: s.Grid})
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// NewWorld builds a random-walk world from code.
func NewWorld(cfg gridworld.Config, exclusive bool) (*World, error) {
	if exclusive {
		cfg.Capacity = 1
		return gridworld.New[Agent, struct{}, Message](cfg, &Exclusive{g: cfg.Grid})
	}
	return gridworld.New[Agent, struct{}, Message](cfg, &Free{g: cfg.Grid})
}

func init() {
	gridworld.Programs.MustRegister("random_walk",
		"A random walk on the grid. <params exclusive=\"true\"/> allows one agent per vertex: agents post where they aim with a random ticket "+
			"and move only onto an empty vertex no better ticket aims at (needs radius=\"2\"); a bounded grid then holds at most one agent per vertex.",
		New)
}
