package gridworld_test

import (
	"sync/atomic"
	"testing"

	"github.com/argosgo/argos/gridworld"
)

// sleepy: agents with an odd id sleep; the others move East. Locations
// count the proposals they see and the agents on them; UpdateAgent counts
// its calls.
type sleepy struct {
	g                     gridworld.Grid
	transitions, updates  atomic.Int64
	seenAsleep, badCounts atomic.Int64
}

type sleepyAgent struct {
	ID    int32
	Steps int32
}

func (s *sleepy) Asleep(a *sleepyAgent) bool { return a.ID%2 == 1 }

func (s *sleepy) InitAgent(id, at int32, r *gridworld.Rand) sleepyAgent { return sleepyAgent{ID: id} }

func (s *sleepy) Transition(a *sleepyAgent, v *gridworld.View[int32, struct{}], r *gridworld.Rand) gridworld.Transition[sleepyAgent, int32] {
	s.transitions.Add(1)
	if a.ID%2 == 1 {
		s.seenAsleep.Add(1)
	}
	if v.Count() != 2 { // every vertex holds a sleeper and a walker at the start of every round
		s.badCounts.Add(1)
	}
	return gridworld.Transition[sleepyAgent, int32]{State: sleepyAgent{ID: a.ID, Steps: a.Steps + 1}, Vertex: 1, Move: gridworld.East}
}

func (s *sleepy) UpdateLocation(v *int32, ts []gridworld.Proposal[sleepyAgent, int32], r *gridworld.Rand) {
	for i := range ts {
		if ts[i].Agent%2 == 1 {
			s.seenAsleep.Add(1)
		}
		ts[i].Accept = true
		*v += ts[i].Vertex
	}
}

func (s *sleepy) UpdateAgent(a *sleepyAgent, p *gridworld.Proposal[sleepyAgent, int32]) {
	s.updates.Add(1)
	if p.Accept {
		*a = p.State
	}
}

// A sleeping agent proposes nothing: it keeps its state and its vertex,
// its location does not see it, UpdateAgent is not called for it; it
// still counts on its vertex.
func TestSleepingAgentsProposeNothing(t *testing.T) {
	g := gridworld.Grid2D(6, 1, true)
	// agents 2i (awake) and 2i+1 (asleep) start on vertex i; the walkers
	// all move East every round, so every vertex always holds one walker
	// and one sleeper
	start := make([]int32, 12)
	for i := range start {
		start[i] = int32(i / 2)
	}
	for _, threads := range []int{0, 2} {
		s := &sleepy{g: g}
		w, err := gridworld.New[sleepyAgent, int32, struct{}](gridworld.Config{Grid: g, Agents: 12, Radius: 0, Threads: threads, MinChunk: 3, Positions: start}, s)
		must(t, err)
		for range 4 {
			must(t, w.Step())
		}
		if n := s.seenAsleep.Load(); n != 0 {
			t.Errorf("threads %d: sleeping agents were seen %d times by Transition or UpdateLocation", threads, n)
		}
		if n, u := s.transitions.Load(), s.updates.Load(); n != 4*6 || u != 4*6 {
			t.Errorf("threads %d: %d transitions and %d agent updates in 4 rounds, want %d (the 6 agents awake)", threads, n, u, 4*6)
		}
		if n := s.badCounts.Load(); n != 0 {
			t.Errorf("threads %d: %d views did not count the sleeper on their vertex", threads, n)
		}
		pos, st := w.Positions(nil), w.States(nil)
		for i := range st {
			wantPos, wantSteps := int32(i/2), int32(0)
			if i%2 == 0 {
				wantPos, wantSteps = int32((i/2+4)%6), 4
			}
			if pos[i] != wantPos || st[i].Steps != wantSteps {
				t.Errorf("threads %d: agent %d at %d after %d steps, want at %d after %d", threads, i, pos[i], st[i].Steps, wantPos, wantSteps)
			}
		}
		for v, x := range w.Vertices() {
			if x != 4 { // one walker accepted on every vertex in each of the 4 rounds
				t.Errorf("threads %d: vertex %d state %d, want 4", threads, v, x)
			}
		}
	}
}

// sleepyFree is sleepy without a Locator: every transition is applied as
// it is made.
type sleepyFree struct{ transitions atomic.Int64 }

func (s *sleepyFree) Asleep(a *sleepyAgent) bool { return a.ID%2 == 1 }

func (s *sleepyFree) InitAgent(id, at int32, r *gridworld.Rand) sleepyAgent {
	return sleepyAgent{ID: id}
}

func (s *sleepyFree) Transition(a *sleepyAgent, v *gridworld.View[int32, struct{}], r *gridworld.Rand) gridworld.Transition[sleepyAgent, int32] {
	s.transitions.Add(1)
	return gridworld.Transition[sleepyAgent, int32]{State: sleepyAgent{ID: a.ID, Steps: a.Steps + 1}, Move: gridworld.East}
}

// Without a Locator too, sleeping agents keep their state and vertex.
func TestSleepingAgentsWithoutLocator(t *testing.T) {
	g := gridworld.Grid2D(7, 1, true)
	for _, threads := range []int{0, 2} {
		s := &sleepyFree{}
		start := []int32{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}
		w, err := gridworld.New[sleepyAgent, int32, struct{}](gridworld.Config{Grid: g, Agents: len(start), Threads: threads, MinChunk: 3, Positions: start}, s)
		must(t, err)
		for range 3 {
			must(t, w.Step())
		}
		if n := s.transitions.Load(); n != 3*5 {
			t.Errorf("threads %d: %d transitions in 3 rounds, want 15 (the 5 agents awake)", threads, n)
		}
		pos, st := w.Positions(nil), w.States(nil)
		for i := range st {
			wantPos, wantSteps := start[i], int32(0)
			if i%2 == 0 {
				wantPos, wantSteps = (start[i]+3)%7, 3
			}
			if pos[i] != wantPos || st[i].Steps != wantSteps {
				t.Errorf("threads %d: agent %d at %d after %d steps, want at %d after %d", threads, i, pos[i], st[i].Steps, wantPos, wantSteps)
			}
		}
	}
}
