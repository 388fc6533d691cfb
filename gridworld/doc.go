// Package gridworld simulates millions of agents on a 2D or 3D grid in
// synchronous rounds, after ParSwarm ("ParSwarm: A C++ Framework for
// Evaluating Distributed Algorithms for Robot Swarms").
//
// A world is a [Grid] (a torus or a bounded lattice, 2D or 3D), agents
// with a state of the program's type A on its vertices, and a state of
// type V on every vertex. A round has ParSwarm's steps:
//
//  1. every agent may post a message of type M ([Messenger]);
//  2. every agent proposes a transition from its state and its local
//     mapping, the vertex states, agent counts and messages within
//     distance Radius ([View]): a new state, a suggested new state for
//     its vertex and an edge to move along ([Rules]);
//  3. every vertex with agents accepts or rejects their transitions and
//     may change its own state ([Locator]);
//  4. accepted transitions are applied ([AgentUpdater] may take over);
//  5. a program-defined test may end the run ([Finisher]).
//
// A program may also say which agents propose nothing in a round
// ([Sleeper]: they stay as they are at no cost, as committed agents of
// task allocation do).
//
// Every step reads the state the previous step left and writes only what
// it owns, so the steps run in parallel over agents (or vertices) with no
// locks, and the results are the same for any number of threads: each
// agent draws from its own counter-based random stream ([Rand]), derived
// from the seed and its id, and each vertex from one derived from the
// seed and the vertex.
//
// Agents live in flat arrays of the program's types (no pointer per
// agent), kept sorted by vertex: after every round a parallel, stable
// counting sort over buckets of vertices (one vertex per bucket on dense
// grids, about one agent per bucket on sparse ones; a small world sorts
// in place by insertion, since agents move one edge a round) puts the
// agents of one vertex, and their messages, next to each other, so that a
// vertex's agents are found in constant time and a round handles them
// vertex after vertex in one pass.
//
// Use it from Go with [New] and [World.Step] or [World.Run]:
//
//	w, err := gridworld.New(gridworld.Config{Grid: gridworld.Grid2D(100, 100, true), Agents: 1000, Radius: 1, Seed: 7}, rules)
//	err = w.Run(ctx, 50)
//
// or from an experiment file through the argos command: programs
// register under a label in [Programs] (argos -q all lists them) and
// [Experiment] reads the file's <grid> and <agents>. The packages under
// gridworld/ hold ParSwarm's applications (taskalloc, density), a
// random walk (walk), the runner behind argos (gridrun) and the web view
// (gridweb).
package gridworld
