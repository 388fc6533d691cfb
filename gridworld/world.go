package gridworld

import (
	"context"
	"fmt"
	"math/bits"
	"runtime/debug"
	"sync"
)

// Rules are the user functions of a grid-world program, ParSwarm's
// "generate transition"; the other ones (generate message, update
// location, update agent, is finished, and an initial state) are the
// optional interfaces [Messenger], [Locator], [AgentUpdater], [Finisher]
// and [Initializer], which the rules may also implement.
//
// A is the agent's state, V a vertex's, M a message: any Go types,
// stored by value in flat arrays (keep them small and free of pointers
// for speed). Use struct{} for what a program does not need.
type Rules[A, V, M any] interface {
	// Transition proposes the agent's transition from its state a and its
	// local mapping v (the vertex states, agent counts and messages within
	// distance Radius): a new state, a suggested new state for its vertex
	// and an edge to move along. It must not change *a nor anything
	// reached through v: the transition is applied only if the agent's
	// location accepts it. r is the agent's random stream for the round.
	Transition(a *A, v *View[V, M], r *Rand) Transition[A, V]
}

// Messenger is ParSwarm's "generate message": before the transitions,
// every agent posts a message that the agents whose local mapping holds
// its vertex read (View.MessagesAt). The view given here shows vertex
// states and agent counts but no messages yet.
type Messenger[A, V, M any] interface {
	Message(a *A, v *View[V, M], r *Rand) M
}

// Locator is ParSwarm's "update location": each vertex with agents on it
// decides which of their transitions to accept (set Accept; every
// proposal comes in with Accept false) and may change its own state *v
// (typically from the suggested states of what it accepts). ts holds the
// transitions of the agents on the vertex in a deterministic order (by
// the order they arrived in, ties by id at the start). r is the vertex's
// random stream for the round. Without a Locator every transition is
// accepted and vertex states never change.
type Locator[A, V any] interface {
	UpdateLocation(v *V, ts []Proposal[A, V], r *Rand)
}

// AgentUpdater is ParSwarm's "update agent": it is called for every
// agent once its location has decided, accepted or not, and sets the
// agent's new state from p. Without it, an accepted transition's State
// becomes the agent's state and a rejected one changes nothing. The move
// of an accepted transition is applied by the engine either way.
type AgentUpdater[A, V any] interface {
	UpdateAgent(a *A, p *Proposal[A, V])
}

// Finisher is ParSwarm's "is finished": it is asked after every round
// and ends the run when it says so.
type Finisher[A, V, M any] interface {
	Finished(w *World[A, V, M]) bool
}

// Sleeper lets a program say which agents propose nothing in a round (a
// task-allocation agent committed to its task, say), to save what their
// transitions cost: an agent Asleep keeps its state and its vertex, its
// location does not get it among the proposals (and is not asked when no
// agent on it proposes), and UpdateAgent is not called for it. It still
// posts its message and counts on its vertex for the others. Implement it
// only when that is what the agent's transition would do anyway: stay,
// keep its state, be accepted, leave its vertex as it is.
type Sleeper[A any] interface {
	Asleep(a *A) bool
}

// Initializer gives each agent its state before the first round (the
// zero value of A without it). at is the agent's starting vertex.
type Initializer[A any] interface {
	InitAgent(id int32, at int32, r *Rand) A
}

// Transition is what an agent proposes.
type Transition[A, V any] struct {
	// State is the agent's new state.
	State A
	// Vertex is the new state the agent suggests for its vertex; the
	// Locator decides what to make of it.
	Vertex V
	// Move is the edge to move along, or Stay. A move off a bounded grid
	// leaves the agent where it is.
	Move Dir
}

// Proposal is a transition as its location sees it.
type Proposal[A, V any] struct {
	Transition[A, V]
	// Agent is the proposing agent's id.
	Agent int32
	// Accept is the location's decision.
	Accept bool
}

// Config describes a world.
type Config struct {
	Grid Grid
	// Agents is the number of agents, with ids 0 to Agents-1.
	Agents int
	// Radius is the radius I of the local mapping: an agent sees the
	// vertices at most Radius edges away. 2*Radius+1 must fit in every
	// axis of the grid.
	Radius int
	// Seed derives every random stream.
	Seed uint64
	// Threads is the number of goroutines working on a round; 0 and 1
	// both mean one. Results do not depend on it.
	Threads int
	// Capacity is how many agents one vertex may hold; 0 means any
	// number. The engine places agents accordingly and refuses more
	// agents than the grid holds; keeping to it afterwards is the
	// program's business (through its locations' decisions).
	Capacity int
	// MinChunk is the fewest agents worth a goroutine of their own (0:
	// 4096); it matters for speed only, never for results.
	MinChunk int
	// Positions, when not nil, holds each agent's starting vertex, by
	// id; otherwise agents start on vertices drawn uniformly at random
	// (among the free places when Capacity is set).
	Positions []int32
}

// ConfigError is an error in a Config. Field names the attribute of the
// experiment file it comes from ("size", "quantity", "radius",
// "threads"), so that file readers can say where.
type ConfigError struct {
	Field string
	Msg   string
}

func (e *ConfigError) Error() string { return "gridworld: " + e.Field + ": " + e.Msg }

// Check validates c.
func (c *Config) Check() error {
	if err := c.Grid.Check(); err != nil {
		return err
	}
	if c.Agents < 1 || c.Agents > MaxAgents {
		return &ConfigError{Field: "quantity", Msg: fmt.Sprintf("%d agents: give 1 to %d agents", c.Agents, MaxAgents)}
	}
	if c.Radius < 0 || c.Radius > MaxRadius {
		return &ConfigError{Field: "radius", Msg: fmt.Sprintf("the radius of the local mapping must be 0 to %d", MaxRadius)}
	}
	for i := 0; i < c.Grid.Dims; i++ {
		if 2*c.Radius+1 > c.Grid.Size[i] {
			return &ConfigError{Field: "radius", Msg: fmt.Sprintf("a local mapping of radius %d spans %d vertices, more than the grid's %d along %c; use a radius of at most %d or a larger grid",
				c.Radius, 2*c.Radius+1, c.Grid.Size[i], "xyz"[i], (c.Grid.Size[i]-1)/2)}
		}
	}
	if c.Threads < 0 || c.Threads > 1024 {
		return &ConfigError{Field: "threads", Msg: "use 0 to 1024 threads"}
	}
	if c.Capacity < 0 {
		return &ConfigError{Field: "capacity", Msg: "the capacity of a vertex must not be negative"}
	}
	if c.Capacity > 0 && int64(c.Agents) > int64(c.Capacity)*int64(c.Grid.Vertices()) {
		return &ConfigError{Field: "quantity", Msg: fmt.Sprintf("%d agents do not fit on a %s grid of %d vertices holding %d agent(s) each; use at most %d agents or a larger grid",
			c.Agents, c.Grid, c.Grid.Vertices(), c.Capacity, int64(c.Capacity)*int64(c.Grid.Vertices()))}
	}
	if c.Positions != nil {
		if len(c.Positions) != c.Agents {
			return &ConfigError{Field: "positions", Msg: fmt.Sprintf("%d positions for %d agents", len(c.Positions), c.Agents)}
		}
		n := int32(c.Grid.Vertices())
		for i, p := range c.Positions {
			if p < 0 || p >= n {
				return &ConfigError{Field: "positions", Msg: fmt.Sprintf("agent %d starts at vertex %d, off the grid of %d vertices", i, p, n)}
			}
		}
	}
	return nil
}

// World is a running grid world: agents and vertices in flat arrays of
// the program's types, stepped in synchronous rounds. Its methods are not
// safe for concurrent use; Step runs its phases in parallel itself.
//
// Agents are kept sorted by vertex (a stable counting sort after every
// round), so that the agents on a vertex and their messages are
// contiguous: a vertex's agents and its local mapping are found through
// an index of bucket offsets, without pointers per agent, and a round
// handles the agents vertex after vertex, from their transitions to the
// location's decision and its application, in one pass. Locations write
// their new states aside until every transition of the round is made.
type World[A, V, M any] struct {
	cfg   Config
	t     topo
	rules Rules[A, V, M]
	msgr  Messenger[A, V, M]
	loc   Locator[A, V]
	upd   AgentUpdater[A, V]
	fin   Finisher[A, V, M]
	sleep Sleeper[A]

	n        int
	round    int
	finished bool
	threads  int

	// agent arrays in vertex order, and their spares for the sort
	pos, pos2 []int32
	next      []int32 // the agents' vertices after the round, before the sort
	id, id2   []int32
	st, st2   []A
	msg       []M
	vnext     []V // vertex states as the locations leave them, before they are copied back
	vert      []V

	ix      index
	hist    [][]int32 // per chunk: agents per bucket, then write offsets
	chunks  []span
	brange  []span // bucket ranges of the sort's parallel passes
	btotal  []int32
	views   []padded[View[V, M]] // per chunk, apart so that goroutines share no cache line
	rands   []padded[Rand]
	errs    []error
	offsets []Offset
	scratch [][]Proposal[A, V] // per chunk: the proposals of one vertex's agents
	awake   [][]int32          // per chunk: the places of the agents that made them
	touched [][]int32          // per chunk: the vertices whose location decided
	// keys of the agents' and the vertices' random streams
	agentKK, vertexKK uint64
	// minChunk is the fewest agents worth a goroutine of their own.
	minChunk int
	// smallSkip is the rounds for which sort does not try sortSmall,
	// smallBackoff what it was set to after sortSmall last gave up
	smallSkip, smallBackoff int
	// the phases as method values, made once
	fn struct {
		messages, located, applied, copyBack, count func(c int, s span)
		totals, offsets, scatter, inside            func(c int, s span)
	}
}

type span struct{ lo, hi int }

// padded is a T written by one goroutine, kept off the cache lines of
// its neighbours in a slice (false sharing doubled the CPU time of a
// round on 2 threads).
type padded[T any] struct {
	v T
	_ [128]byte
}

// New builds a world: it checks cfg, places the agents and gives them
// their initial state. Set the vertices' initial states through
// Vertices before the first Step.
func New[A, V, M any](cfg Config, rules Rules[A, V, M]) (*World[A, V, M], error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if rules == nil {
		return nil, fmt.Errorf("gridworld: no rules given")
	}
	w := &World[A, V, M]{cfg: cfg, t: newTopo(cfg.Grid), rules: rules, n: cfg.Agents, threads: max(1, cfg.Threads), minChunk: cfg.MinChunk}
	if w.minChunk <= 0 {
		w.minChunk = 4096
	}
	w.msgr, _ = rules.(Messenger[A, V, M])
	w.loc, _ = rules.(Locator[A, V])
	w.upd, _ = rules.(AgentUpdater[A, V])
	w.fin, _ = rules.(Finisher[A, V, M])
	w.sleep, _ = rules.(Sleeper[A])
	w.agentKK, w.vertexKK = kindKey(cfg.Seed, kindAgent), kindKey(cfg.Seed, kindVertex)
	w.fn.messages, w.fn.located, w.fn.applied, w.fn.copyBack, w.fn.count = w.messages, w.transitionsLocated, w.transitionsApplied, w.copyBack, w.count
	w.fn.totals, w.fn.offsets, w.fn.scatter, w.fn.inside = w.sortTotals, w.sortOffsets, w.sortScatter, w.sortInside
	nv := cfg.Grid.Vertices()
	// Buckets of 2^shift consecutive vertices: as many as vertices on
	// dense grids, about one per agent on sparse ones, so that the sort
	// costs O(agents) however large the grid.
	if nv > w.n {
		w.ix.shift = uint(bits.Len(uint(nv/w.n))) - 1
	}
	w.ix.buckets = (nv-1)>>w.ix.shift + 1
	w.ix.start = make([]int32, w.ix.buckets+1)
	w.pos, w.pos2, w.next = make([]int32, w.n), make([]int32, w.n), make([]int32, w.n)
	w.id, w.id2 = make([]int32, w.n), make([]int32, w.n)
	w.st, w.st2 = make([]A, w.n), make([]A, w.n)
	if w.loc != nil {
		w.vnext = make([]V, nv)
		w.scratch = make([][]Proposal[A, V], w.threads)
		w.touched = make([][]int32, w.threads)
		w.awake = make([][]int32, w.threads)
	}
	if w.msgr != nil {
		w.msg = make([]M, w.n)
	}
	w.vert = make([]V, nv)
	w.offsets = localMapping(cfg.Grid.Dims, cfg.Radius)
	p := w.threads
	w.hist = make([][]int32, p)
	w.views = make([]padded[View[V, M]], p)
	w.rands = make([]padded[Rand], p)
	w.errs = make([]error, p)
	w.btotal = make([]int32, p)
	lin := make([]int32, len(w.offsets))
	cells := make([][3]uint8, len(w.offsets))
	for i, o := range w.offsets {
		lin[i] = int32(o.DX) + w.t.sx*int32(o.DY) + w.t.plane*int32(o.DZ)
		cells[i] = [3]uint8{uint8(o.DX + cfg.Radius), uint8(o.DY + cfg.Radius), uint8(o.DZ + cfg.Radius)}
	}
	for i := range w.views {
		w.views[i].v = View[V, M]{ix: &w.ix, states: make([]V, len(w.offsets)), local: local{t: &w.t, radius: cfg.Radius, offsets: w.offsets,
			lin: lin, cells: cells, mapping: make([]int32, len(w.offsets)),
			ax: make([]int32, 2*cfg.Radius+1), ay: make([]int32, 2*cfg.Radius+1), az: make([]int32, 2*cfg.Radius+1)}}
	}
	if err := w.place(); err != nil {
		return nil, err
	}
	return w, nil
}

// place puts the agents on their starting vertices, in id order, sorts
// them by vertex and gives them their initial states.
func (w *World[A, V, M]) place() error {
	if w.cfg.Positions != nil {
		copy(w.pos, w.cfg.Positions)
	} else if w.cfg.Capacity > 0 {
		placeLimited(w.pos, w.cfg.Grid.Vertices(), w.cfg.Capacity, w.cfg.Seed)
	} else {
		nv := w.cfg.Grid.Vertices()
		kk := kindKey(w.cfg.Seed, kindPlace)
		w.split(w.n, false)
		w.parallel(func(c int, s span) {
			var r Rand
			for i := s.lo; i < s.hi; i++ {
				r.reset(ownerKey(kk, uint64(i)), 0, 0)
				w.pos[i] = int32(r.IntN(nv))
			}
		})
	}
	for i := range w.id {
		w.id[i] = int32(i)
	}
	if init, ok := w.rules.(Initializer[A]); ok {
		w.split(w.n, false)
		if err := w.parallel(func(c int, s span) {
			var r Rand
			for i := s.lo; i < s.hi; i++ {
				r.reset(ownerKey(w.agentKK, uint64(i)), 0, 2)
				w.st[i] = init.InitAgent(int32(i), w.pos[i], &r)
			}
		}); err != nil {
			return err
		}
	}
	copy(w.next, w.pos)
	w.split(w.n, false)
	w.parallel(w.fn.count)
	w.sort()
	return nil
}

// placeLimited draws distinct places (vertex, slot) uniformly for every
// agent: a partial Fisher-Yates shuffle of the places, kept in a map so
// that its memory is that of the agents, not of the grid.
func placeLimited(pos []int32, vertices, capacity int, seed uint64) {
	places := int64(vertices) * int64(capacity)
	swapped := make(map[int64]int64, len(pos))
	at := func(i int64) int64 {
		if v, ok := swapped[i]; ok {
			return v
		}
		return i
	}
	r := Rand{key: streamKey(seed, kindPlace, 1<<40)}
	for i := range pos {
		j := int64(i) + int64(r.Uint64()%uint64(places-int64(i)))
		pi, pj := at(int64(i)), at(j)
		swapped[j] = pi
		pos[i] = int32(pj / int64(capacity))
	}
}

// split cuts the agents into chunks for the goroutines: contiguous,
// about minChunk agents at least each, and, when aligned, starting at the
// first agent of a vertex so that no vertex's agents span two chunks.
func (w *World[A, V, M]) split(n int, aligned bool) {
	c := min(w.threads, max(1, n/w.minChunk))
	w.chunks = w.chunks[:0]
	lo := 0
	for i := 1; i <= c; i++ {
		hi := n * i / c
		if aligned {
			for hi < n && hi > 0 && w.pos[hi] == w.pos[hi-1] {
				hi++
			}
		}
		if hi < lo {
			hi = lo
		}
		w.chunks = append(w.chunks, span{lo, hi})
		lo = hi
	}
}

// parallel runs f on every chunk, one goroutine per chunk, and returns
// the first error (a panic in the program) in chunk order.
func (w *World[A, V, M]) parallel(f func(c int, s span)) error {
	if len(w.chunks) == 1 {
		w.runChunk(f, 0, nil)
	} else {
		var wg sync.WaitGroup
		wg.Add(len(w.chunks) - 1)
		for c := 1; c < len(w.chunks); c++ {
			go w.runChunk(f, c, &wg)
		}
		w.runChunk(f, 0, nil)
		wg.Wait()
	}
	for c := range w.chunks {
		if err := w.errs[c]; err != nil {
			w.errs[c] = nil
			return err
		}
	}
	return nil
}

// runChunk runs f on chunk c, turning a panic into the chunk's error.
func (w *World[A, V, M]) runChunk(f func(c int, s span), c int, wg *sync.WaitGroup) {
	if wg != nil {
		defer wg.Done()
	}
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(agentPanic); ok {
				w.errs[c] = e.err
			} else {
				w.errs[c] = fmt.Errorf("gridworld: round %d: the program panicked: %v\n%s", w.round, r, debug.Stack())
			}
		}
	}()
	f(c, w.chunks[c])
}

type agentPanic struct{ err error }

// guard turns a panic of the program while handling agent k into an
// error that names the agent.
func (w *World[A, V, M]) guard(k *int, what *string) {
	if r := recover(); r != nil {
		x, y, z := w.t.coords(w.pos[*k])
		panic(agentPanic{fmt.Errorf("gridworld: round %d: %s of agent %d at (%d,%d,%d) panicked: %v\n%s", w.round, *what, w.id[*k], x, y, z, r, debug.Stack())})
	}
}

// Step runs one round: messages, transitions, location decisions, the
// accepted transitions applied, and the agents sorted by their new
// vertices. Then the Finisher, if any, is asked.
func (w *World[A, V, M]) Step() error {
	if w.msgr != nil {
		w.split(w.n, false)
		if err := w.parallel(w.fn.messages); err != nil {
			return err
		}
	}
	if w.loc == nil {
		// no location decisions: every transition is applied as it is made
		w.split(w.n, false)
		if err := w.parallel(w.fn.applied); err != nil {
			return err
		}
	} else {
		w.split(w.n, true)
		if err := w.parallel(w.fn.located); err != nil {
			return err
		}
		w.parallel(w.fn.copyBack)
	}
	w.sort()
	w.round++
	if w.fin != nil && w.fin.Finished(w) {
		w.finished = true
	}
	return nil
}

// Run steps until rounds rounds are done in all (0: no limit), the
// Finisher says the run is over, an error occurs or ctx is cancelled
// (its error is returned then).
func (w *World[A, V, M]) Run(ctx context.Context, rounds int) error {
	for (rounds == 0 || w.round < rounds) && !w.finished {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := w.Step(); err != nil {
			return err
		}
	}
	return nil
}

func (w *World[A, V, M]) messages(c int, s span) {
	v := &w.views[c].v
	r := &w.rands[c].v
	k, what := s.lo, "Message"
	defer w.guard(&k, &what)
	v.round = w.round
	v.msgs = nil
	v.vert = w.vert
	for ; k < s.hi; k++ {
		v.set(k, w.pos[k], w.id[k])
		r.resetLazy(w.agentKK, uint64(w.id[k]), w.round, phaseMessage)
		w.msg[k] = w.msgr.Message(&w.st[k], v, r)
	}
}

// hist returns chunk c's bucket counts, zeroed.
func (w *World[A, V, M]) histOf(c int) []int32 {
	h := w.hist[c]
	if h == nil {
		h = make([]int32, w.ix.buckets)
		w.hist[c] = h
	} else {
		clear(h)
	}
	return h
}

// transitionsApplied is the transitions and their application in one
// pass, for programs without a Locator (every transition is accepted):
// the new state replaces the old at once (no other agent reads it), the
// new vertex goes to next (other agents' views still read pos).
func (w *World[A, V, M]) transitionsApplied(c int, s span) {
	h := w.histOf(c)
	v := &w.views[c].v
	r := &w.rands[c].v
	k, what := s.lo, "Transition"
	defer w.guard(&k, &what)
	v.round = w.round
	v.msgs = w.msg
	v.vert = w.vert
	kk := w.agentKK
	shift := w.ix.shift
	pos, id, st, next := w.pos, w.id, w.st, w.next
	for ; k < s.hi; k++ {
		i, here := id[k], pos[k]
		if w.sleep != nil && w.sleep.Asleep(&st[k]) {
			next[k] = here
			h[here>>shift]++
			continue
		}
		v.set(k, here, i)
		r.resetLazy(kk, uint64(i), w.round, phaseMove)
		t := w.rules.Transition(&st[k], v, r)
		if w.upd != nil {
			p := Proposal[A, V]{Transition: t, Agent: i, Accept: true}
			w.upd.UpdateAgent(&st[k], &p)
		} else {
			st[k] = t.State
		}
		if t.Move != Stay {
			here, _ = w.t.move(here, t.Move)
		}
		next[k] = here
		h[here>>shift]++
	}
}

// transitionsLocated runs, vertex after vertex of a chunk (chunks start
// at a vertex's first agent), the transitions of the vertex's agents, its
// location's decision and the application of the accepted transitions,
// and counts the agents per bucket of their new vertex for the sort.
// Other agents' views still read the vertex states of the round's start:
// a location's new state goes to vnext and is copied back after the
// phase (copyBack).
func (w *World[A, V, M]) transitionsLocated(c int, s span) {
	h := w.histOf(c)
	v := &w.views[c].v
	r := &w.rands[c].v
	k, what := s.lo, "Transition"
	defer w.guard(&k, &what)
	v.round = w.round
	v.msgs = w.msg
	v.vert = w.vert
	kk, vk := w.agentKK, w.vertexKK
	shift := w.ix.shift
	pos, id, st, next := w.pos, w.id, w.st, w.next
	touched := w.touched[c][:0]
	ps, awake := w.scratch[c], w.awake[c]
	for k < s.hi {
		here := pos[k]
		if k+1 == s.hi || pos[k+1] != here {
			// alone on its vertex, as most agents of a sparse world are
			u := here
			if w.sleep == nil || !w.sleep.Asleep(&st[k]) {
				what = "Transition"
				i := id[k]
				v.set(k, here, i)
				r.resetLazy(kk, uint64(i), w.round, phaseMove)
				ps = append(ps[:0], Proposal[A, V]{Transition: w.rules.Transition(&st[k], v, r), Agent: i})
				what = "UpdateLocation"
				w.vnext[here] = w.vert[here]
				r.resetLazy(vk, uint64(here), w.round, 0)
				w.loc.UpdateLocation(&w.vnext[here], ps, r)
				touched = append(touched, here)
				if w.upd != nil {
					what = "UpdateAgent"
				}
				u = w.settle(&st[k], &ps[0], here)
			}
			next[k] = u
			h[u>>shift]++
			k++
			continue
		}
		g0 := k
		ps, awake = ps[:0], awake[:0]
		what = "Transition"
		for ; k < s.hi && pos[k] == here; k++ {
			if w.sleep != nil && w.sleep.Asleep(&st[k]) {
				continue
			}
			i := id[k]
			v.set(k, here, i)
			r.resetLazy(kk, uint64(i), w.round, phaseMove)
			ps = append(ps, Proposal[A, V]{Transition: w.rules.Transition(&st[k], v, r), Agent: i})
			awake = append(awake, int32(k))
		}
		g1 := k
		k = g0
		if len(ps) > 0 {
			what = "UpdateLocation"
			w.vnext[here] = w.vert[here]
			r.resetLazy(vk, uint64(here), w.round, 0)
			w.loc.UpdateLocation(&w.vnext[here], ps, r)
			touched = append(touched, here)
		}
		j := 0
		for ; k < g1; k++ {
			u := here
			if j < len(awake) && int(awake[j]) == k {
				if w.upd != nil {
					what = "UpdateAgent"
				}
				u = w.settle(&st[k], &ps[j], here)
				j++
			}
			next[k] = u
			h[u>>shift]++
		}
	}
	w.scratch[c], w.awake[c], w.touched[c] = ps, awake, touched
}

// settle applies its location's decision p to the state a of an agent on
// vertex here (through UpdateAgent when the rules have one) and returns
// the vertex the agent is on next.
func (w *World[A, V, M]) settle(a *A, p *Proposal[A, V], here int32) int32 {
	if w.upd != nil {
		w.upd.UpdateAgent(a, p)
	} else if p.Accept {
		*a = p.State
	}
	if p.Accept && p.Move != Stay {
		here, _ = w.t.move(here, p.Move)
	}
	return here
}

// copyBack makes the locations' new states the vertices' states.
func (w *World[A, V, M]) copyBack(c int, _ span) {
	for _, u := range w.touched[c] {
		w.vert[u] = w.vnext[u]
	}
}

// count counts the agents of chunk s per bucket (for the first sort).
func (w *World[A, V, M]) count(c int, s span) {
	h := w.histOf(c)
	for k := s.lo; k < s.hi; k++ {
		h[w.next[k]>>w.ix.shift]++
	}
}

// sort moves the agents to their places in the order of their vertices
// in next, keeping the order of agents on the same vertex: a counting sort over the buckets
// (per-chunk counts, prefix sums in bucket then chunk order, scatter),
// then an insertion sort inside buckets of more than one vertex. The
// result is a stable sort by vertex, whatever the number of chunks.
func (w *World[A, V, M]) sort() {
	if len(w.chunks) == 1 && w.n <= smallSort {
		if w.smallSkip > 0 {
			w.smallSkip--
		} else if w.sortSmall() {
			w.smallBackoff = 0
			return
		} else {
			// the agents move too much: leave it for a while, longer
			// after every failure
			w.smallBackoff = min(2*w.smallBackoff+8, 256)
			w.smallSkip = w.smallBackoff
		}
	}
	nb := w.ix.buckets
	nr := len(w.chunks)
	w.brange = w.brange[:0]
	for i := 0; i < nr; i++ {
		w.brange = append(w.brange, span{nb * i / nr, nb * (i + 1) / nr})
	}
	// prefix sums, in parallel over ranges of buckets
	w.runSpans(w.brange, w.fn.totals)
	var base int32
	for r := range nr {
		t := w.btotal[r]
		w.btotal[r] = base
		base += t
	}
	w.runSpans(w.brange, w.fn.offsets)
	w.ix.start[nb] = int32(w.n)
	w.runSpans(w.chunks, w.fn.scatter)
	w.pos, w.pos2 = w.pos2, w.pos
	w.id, w.id2 = w.id2, w.id
	w.st, w.st2 = w.st2, w.st
	if w.ix.shift > 0 {
		w.runSpans(w.brange, w.fn.inside)
	}
	w.ix.pos = w.pos
}

// smallSort is the most agents sortSmall tries: beyond, a failed try
// costs as much as the counting sort.
const smallSort = 4096

// sortSmall is sort for a world of one chunk: an insertion sort in
// place, stable, cheap since agents move one edge a round and so pass few
// others in vertex order; the bucket offsets come from the counts. It
// gives up when the agents have moved more than 2 places each on average
// (after the first round, say, or in a crowd of walkers), leaving them partly sorted (still in
// their original order on each vertex) for the counting sort. Either way
// the result is the same stable sort by vertex.
func (w *World[A, V, M]) sortSmall() bool {
	pos, id, st := w.next, w.id, w.st
	budget := 2*w.n + 64
	for k := 1; k < len(pos); k++ {
		p := pos[k]
		if pos[k-1] <= p {
			continue
		}
		i, s := id[k], st[k]
		j := k
		for j > 0 && pos[j-1] > p {
			pos[j], id[j], st[j] = pos[j-1], id[j-1], st[j-1]
			j--
		}
		pos[j], id[j], st[j] = p, i, s
		if budget -= k - j; budget < 0 {
			return false
		}
	}
	start := w.ix.start
	var run int32
	for b, c := range w.hist[0][:w.ix.buckets] {
		start[b] = run
		run += c
	}
	start[w.ix.buckets] = int32(w.n)
	w.pos, w.next = w.next, w.pos
	w.ix.pos = w.pos
	return true
}

// sortTotals adds up the agents of a range of buckets, over all chunks.
func (w *World[A, V, M]) sortTotals(r int, s span) {
	var t int32
	for _, h := range w.hist[:len(w.chunks)] {
		for _, c := range h[s.lo:s.hi] {
			t += c
		}
	}
	w.btotal[r] = t
}

// sortOffsets turns the counts of a range of buckets into the places
// where each chunk writes its agents of each bucket.
func (w *World[A, V, M]) sortOffsets(r int, s span) {
	run := w.btotal[r]
	hist, start := w.hist[:len(w.chunks)], w.ix.start
	for b := s.lo; b < s.hi; b++ {
		start[b] = run
		for _, h := range hist {
			c := h[b]
			h[b] = run
			run += c
		}
	}
}

// sortScatter moves the agents of chunk c to their places.
func (w *World[A, V, M]) sortScatter(c int, s span) {
	h := w.hist[c]
	shift := w.ix.shift
	pos, id, st := w.next, w.id, w.st
	pos2, id2, st2 := w.pos2, w.id2, w.st2
	for k := s.lo; k < s.hi; k++ {
		p := pos[k]
		b := p >> shift
		j := h[b]
		h[b] = j + 1
		pos2[j], id2[j], st2[j] = p, id[k], st[k]
	}
}

// sortInside sorts the agents of a range of buckets by vertex.
func (w *World[A, V, M]) sortInside(r int, s span) {
	w.insertionSort(int(w.ix.start[s.lo]), int(w.ix.start[s.hi]))
}

// insertionSort sorts agents lo to hi by vertex, stably; they are already
// sorted by bucket, so only agents of one bucket move.
func (w *World[A, V, M]) insertionSort(lo, hi int) {
	pos, id, st := w.pos, w.id, w.st
	for k := lo + 1; k < hi; k++ {
		p := pos[k]
		if pos[k-1] <= p {
			continue
		}
		i, s := id[k], st[k]
		j := k
		for j > lo && pos[j-1] > p {
			pos[j], id[j], st[j] = pos[j-1], id[j-1], st[j-1]
			j--
		}
		pos[j], id[j], st[j] = p, i, s
	}
}

// runSpans runs f over spans on as many goroutines (engine code only:
// no panics expected).
func (w *World[A, V, M]) runSpans(spans []span, f func(i int, s span)) {
	if len(spans) == 1 {
		f(0, spans[0])
		return
	}
	var wg sync.WaitGroup
	wg.Add(len(spans) - 1)
	for i := 1; i < len(spans); i++ {
		go runSpan(f, i, spans[i], &wg)
	}
	f(0, spans[0])
	wg.Wait()
}

func runSpan(f func(i int, s span), i int, s span, wg *sync.WaitGroup) {
	defer wg.Done()
	f(i, s)
}

// Round returns the number of rounds done.
func (w *World[A, V, M]) Round() int { return w.round }

// Finished reports whether the Finisher ended the run.
func (w *World[A, V, M]) Finished() bool { return w.finished }

// Config returns the world's configuration.
func (w *World[A, V, M]) Config() Config { return w.cfg }

// Grid returns the grid.
func (w *World[A, V, M]) Grid() Grid { return w.cfg.Grid }

// NumAgents returns the number of agents.
func (w *World[A, V, M]) NumAgents() int { return w.n }

// Vertices returns the vertex states, indexed by vertex: set the initial
// ones before the first Step, read them between rounds.
func (w *World[A, V, M]) Vertices() []V { return w.vert }

// Each calls f for every agent, in vertex order (agents on one vertex in
// a fixed order): its id, its vertex and its state, which f may read but
// should change only between rounds and knowingly.
func (w *World[A, V, M]) Each(f func(id int32, at int32, a *A)) {
	for k := range w.n {
		f(w.id[k], w.pos[k], &w.st[k])
	}
}

// States returns the agents' states by id, in dst when it is large enough.
func (w *World[A, V, M]) States(dst []A) []A {
	if cap(dst) < w.n {
		dst = make([]A, w.n)
	}
	dst = dst[:w.n]
	for k, i := range w.id {
		dst[i] = w.st[k]
	}
	return dst
}

// Positions returns the agents' vertices by id, in dst when it is large
// enough.
func (w *World[A, V, M]) Positions(dst []int32) []int32 {
	if cap(dst) < w.n {
		dst = make([]int32, w.n)
	}
	dst = dst[:w.n]
	for k, i := range w.id {
		dst[i] = w.pos[k]
	}
	return dst
}

// Occupancy returns the number of agents on every vertex, in dst when it
// is large enough.
func (w *World[A, V, M]) Occupancy(dst []int32) []int32 {
	nv := w.cfg.Grid.Vertices()
	if cap(dst) < nv {
		dst = make([]int32, nv)
	}
	dst = dst[:nv]
	clear(dst)
	for _, p := range w.pos {
		dst[p]++
	}
	return dst
}

// Count returns the number of agents on vertex v.
func (w *World[A, V, M]) Count(v int32) int {
	lo, hi := w.ix.rangeOf(v)
	return hi - lo
}
