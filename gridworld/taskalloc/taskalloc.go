// Package taskalloc is ParSwarm's task allocation application: tasks with
// a demand (the number of agents they need) sit on vertices of the grid;
// an agent walks at random until a vertex with residual demand is within
// its local mapping, goes there, and commits to it while demand remains.
// A vertex accepts as many commitments as its residual demand and
// rejects the rest, so that no task is ever over-committed; the run ends
// when every demand is met (or after the experiment's length).
//
// It registers as the grid program "task_allocation":
//
//	<agents program="task_allocation" quantity="100" radius="2">
//	  <params tasks="16" demand="80"/>
//	</agents>
//
// tasks are placed on vertices drawn uniformly at random (several may
// share a vertex: its demand is theirs together, filled in task order),
// and the total demand is split evenly among them (the first ones get
// one more when it does not divide). With finish="false" the run goes on
// after every demand is met, until the experiment's length (as
// ParSwarm's 100-round benchmark does).
package taskalloc

import (
	"sync/atomic"

	"github.com/argosgo/argos/gridworld"
)

// Phases of an agent.
const (
	Searching uint8 = iota // walking at random or towards a task
	Joining                // proposing to commit to its vertex's task
	Committed              // committed: stays on its task
)

// Agent is an agent's state.
type Agent struct{ Phase uint8 }

// Vertex is a vertex's state: the residual demand of its tasks.
type Vertex struct{ Demand int32 }

// World is the task-allocation world.
type World = gridworld.World[Agent, Vertex, struct{}]

// Task is a task: its vertex and demand.
type Task struct {
	At     int32
	Demand int32
}

// Rules are the program's user functions.
type Rules struct {
	g        gridworld.Grid
	residual atomic.Int64 // total residual demand
	// near counts, per vertex, the vertices with residual demand in its
	// local mapping (nil: unknown, every searching agent scans); live
	// holds the vertices with residual demand, seen the residual seen
	// when near was last brought up to date. Between rounds only.
	near   []int32
	live   []int32
	seen   int64
	radius int
	// Endless keeps the run going after every demand is met (until the
	// experiment's length).
	Endless bool
}

type view = gridworld.View[Vertex, struct{}]
type transition = gridworld.Transition[Agent, Vertex]

// Transition: a committed agent stays; a searching agent on a vertex with
// residual demand proposes to join it; otherwise it steps towards the
// nearest vertex with residual demand in its local mapping (one of the
// nearest, at random), or to a random neighbour when there is none.
func (r *Rules) Transition(a *Agent, v *view, rnd *gridworld.Rand) transition {
	here := v.Vertex()
	if a.Phase == Committed {
		return transition{State: *a, Vertex: *here}
	}
	if r.near != nil && r.near[v.Here()] == 0 {
		// no residual demand in the local mapping (the agent's vertex
		// included): the scan would find nothing
		return transition{State: Agent{Searching}, Vertex: *here, Move: gridworld.Dir(1 + rnd.IntN(2*r.g.Dims))}
	}
	if here.Demand > 0 {
		return transition{State: Agent{Joining}, Vertex: Vertex{here.Demand - 1}}
	}
	var best gridworld.Offset
	found, dist := 0, 0
	offs, states := v.Offsets(), v.LocalStates()
	for i := 1; i < len(offs); i++ {
		if found > 0 && offs[i].Distance() > dist {
			break
		}
		if s := states.At(i); s != nil && s.Demand > 0 {
			found++
			dist = offs[i].Distance()
			if found == 1 || rnd.IntN(found) == 0 {
				best = offs[i]
			}
		}
	}
	if found > 0 {
		return transition{State: Agent{Searching}, Vertex: *here, Move: gridworld.Toward(best.DX, best.DY, best.DZ)}
	}
	return transition{State: Agent{Searching}, Vertex: *here, Move: gridworld.Dir(1 + rnd.IntN(2*r.g.Dims))} // rnd.Dir(r.g) without copying the grid
}

// Asleep: a committed agent proposes nothing (its transition would be to
// stay, committed, and be accepted), which spares the engine its cost.
func (r *Rules) Asleep(a *Agent) bool { return a.Phase == Committed }

// UpdateLocation accepts every move and, in order, as many of the agents
// joining as the residual demand allows, committing them; the others are
// rejected and keep searching.
func (r *Rules) UpdateLocation(v *Vertex, ts []gridworld.Proposal[Agent, Vertex], _ *gridworld.Rand) {
	joined := int32(0)
	for i := range ts {
		t := &ts[i]
		if t.State.Phase != Joining {
			t.Accept = true
			continue
		}
		if v.Demand > 0 {
			v.Demand--
			joined++
			t.State.Phase = Committed
			t.Accept = true
		}
	}
	if joined > 0 {
		r.residual.Add(-int64(joined))
	}
}

// Finished ends the run when every demand is met (unless Endless). It
// also brings near up to date after a round that met some demand.
func (r *Rules) Finished(w *World) bool {
	res := r.residual.Load()
	if r.near != nil && res != r.seen {
		r.seen = res
		vs := w.Vertices()
		live := r.live[:0]
		for _, u := range r.live {
			if vs[u].Demand > 0 {
				live = append(live, u)
			} else {
				r.addNear(u, -1)
			}
		}
		r.live = live
	}
	return !r.Endless && res == 0
}

// initNear counts, for every vertex, the vertices with residual demand
// in its local mapping.
func (r *Rules) initNear(vs []Vertex) {
	r.near = make([]int32, len(vs))
	r.live = r.live[:0]
	for u := range vs {
		if vs[u].Demand > 0 {
			r.live = append(r.live, int32(u))
			r.addNear(int32(u), 1)
		}
	}
	r.seen = r.residual.Load()
}

// addNear adds d to near on every vertex whose local mapping holds u:
// the vertices of u's own local mapping, since mappings are symmetric.
func (r *Rules) addNear(u int32, d int32) {
	g, rad := r.g, r.radius
	x, y, z := g.Coords(u)
	rz := 0
	if g.Dims == 3 {
		rz = rad
	}
	for dz := -rz; dz <= rz; dz++ {
		cz, ok := axis(z+dz, g.Size[2], g.Torus)
		if !ok {
			continue
		}
		for dy := -rad; dy <= rad; dy++ {
			cy, ok := axis(y+dy, g.Size[1], g.Torus)
			if !ok {
				continue
			}
			left := rad - abs(dy) - abs(dz)
			for dx := -left; dx <= left; dx++ {
				if cx, ok := axis(x+dx, g.Size[0], g.Torus); ok {
					r.near[g.Vertex(cx, cy, cz)] += d
				}
			}
		}
	}
}

// axis is coordinate c on an axis of n vertices: wrapped on a torus,
// false off a bounded grid.
func axis(c, n int, torus bool) (int, bool) {
	if c >= 0 && c < n {
		return c, true
	}
	if !torus {
		return 0, false
	}
	return (c%n + n) % n, true
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// Program is a task-allocation world as the argos command runs it.
// Demands change through the program only: the world keeps, per vertex,
// how many vertices with residual demand its local mapping holds, so
// that a searching agent with none in sight does not scan for them, and
// it would not see demand written into Vertices between rounds.
type Program struct {
	*World
	rules  *Rules
	tasks  []Task
	demand int64
}

// NewWorld builds a task-allocation world with the given tasks (their
// vertices and demands).
func NewWorld(cfg gridworld.Config, tasks []Task) (*Program, error) {
	r := &Rules{g: cfg.Grid, radius: cfg.Radius}
	w, err := gridworld.New[Agent, Vertex, struct{}](cfg, r)
	if err != nil {
		return nil, err
	}
	return newProgram(w, r, tasks), nil
}

func newProgram(w *World, r *Rules, tasks []Task) *Program {
	p := &Program{World: w, rules: r, tasks: tasks}
	vs := w.Vertices()
	for _, t := range tasks {
		vs[t.At].Demand += t.Demand
		p.demand += int64(t.Demand)
	}
	r.residual.Store(p.demand)
	r.initNear(vs)
	return p
}

// RandomTasks places n tasks on vertices drawn uniformly at random from
// the seed, splitting demand evenly among them.
func RandomTasks(g gridworld.Grid, n int, demand int64, seed uint64) []Task {
	rnd := gridworld.NewRand(seed, 1)
	tasks := make([]Task, n)
	nv := g.Vertices()
	for i := range tasks {
		d := demand / int64(n)
		if int64(i) < demand%int64(n) {
			d++
		}
		tasks[i] = Task{At: int32(rnd.IntN(nv)), Demand: int32(d)}
	}
	return tasks
}

// New is the program's gridworld.Factory.
func New(s *gridworld.Setup) (gridworld.Instance, error) {
	n, err := s.Params.Int("tasks")
	if err != nil {
		return nil, err
	}
	demand, err := s.Params.Int("demand")
	if err != nil {
		return nil, err
	}
	if n < 1 || n > gridworld.MaxAgents {
		return nil, s.ParamErrorf("tasks", "write the number of tasks, 1 to %d", gridworld.MaxAgents)
	}
	if demand < n || int64(demand) > int64(n)*(1<<31-1) {
		return nil, s.ParamErrorf("demand", "write the total demand of the %d tasks (agents they need in all): at least one per task", n)
	}
	finish, err := s.Params.BoolOr("finish", true)
	if err != nil {
		return nil, err
	}
	r := &Rules{g: s.Grid, radius: s.Radius, Endless: !finish}
	w, err := gridworld.Build[Agent, Vertex, struct{}](s, 0, r)
	if err != nil {
		return nil, err
	}
	return newProgram(w, r, RandomTasks(s.Grid, n, int64(demand), s.Seed)), nil
}

// Tasks returns the tasks.
func (p *Program) Tasks() []Task { return p.tasks }

// Demand returns the total demand of the tasks.
func (p *Program) Demand() int64 { return p.demand }

// Residual returns the total residual demand.
func (p *Program) Residual() int64 { return p.rules.residual.Load() }

// Committed returns the number of committed agents on every vertex, in
// dst when it is large enough.
func (p *Program) Committed(dst []int32) []int32 {
	nv := p.Grid().Vertices()
	if cap(dst) < nv {
		dst = make([]int32, nv)
	}
	dst = dst[:nv]
	clear(dst)
	p.Each(func(_, at int32, a *Agent) {
		if a.Phase == Committed {
			dst[at]++
		}
	})
	return dst
}

// TasksDone returns the number of tasks whose demand is met: the
// commitments of a vertex fill its tasks in order.
func (p *Program) TasksDone() int {
	vs := p.Vertices()
	left := make([]int32, len(vs)) // commitments not yet given to a task
	for _, t := range p.tasks {
		left[t.At] += t.Demand
	}
	for v := range left {
		left[v] -= vs[v].Demand
	}
	done := 0
	for _, t := range p.tasks {
		if left[t.At] >= t.Demand {
			done++
			left[t.At] -= t.Demand
		} else {
			left[t.At] = 0
		}
	}
	return done
}

// Report records the residual demand and the committed agents every
// round, and at the end the rounds done, the tasks done and the tasks.
func (p *Program) Report(rec gridworld.Recorder, final bool) {
	res := p.Residual()
	rec.Record("residual_demand", float64(res))
	rec.Record("committed_agents", float64(p.demand-res))
	if final {
		rec.Record("rounds", float64(p.Round()))
		rec.Record("tasks_done", float64(p.TasksDone()))
		rec.Record("tasks", float64(len(p.tasks)))
	}
}

// VertexValues shades the vertices by their residual demand.
func (p *Program) VertexValues(dst []float64) string {
	for i, v := range p.Vertices() {
		dst[i] = float64(v.Demand)
	}
	return "residual demand"
}

func init() {
	gridworld.Programs.MustRegister("task_allocation",
		"ParSwarm's task allocation: tasks with a demand sit on vertices; agents walk at random until a vertex with residual demand "+
			"is within their local mapping, go there and commit while demand remains (a vertex never accepts more than its demand). "+
			"<params tasks=\"16\" demand=\"80\" finish=\"true\"/> (the number of tasks and their total demand, split evenly). "+
			"The run ends when every demand is met (finish=\"false\": at the experiment's length). Records residual_demand and committed_agents every round, rounds and tasks_done at the end.",
		New)
}
