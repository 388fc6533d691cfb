// Package space holds the simulated world's geometry: every embodied
// entity as a [Body] (a vertical disc or box prism) in one contiguous
// slice, and a positional index owned by the project (two uniform grids:
// one for static bodies, rebuilt only when they change, one for mobile
// bodies, rebuilt at a tick when something reads it) that answers range
// and ray queries with analytic ray-disc and ray-box tests. The grids
// store only the cells the bodies occupy ([Cells]), so the cost of a
// tick follows the number of bodies, not the arena's area. Beside the
// grids, each mobile body has a clearance (how far its nearest mobile
// neighbour is) and a list of the neighbours within a sensor's range,
// which most queries read instead of the grid; they are built again
// only once some body has drifted a few centimetres, and hold in between
// with a margin of twice the drift.
// Between those builds, while the lists answer every query (a swarm of
// e-pucks), the mobile grid is not built at all: the first query that
// needs it builds it, and a Reindex after a tick that read it builds it
// at once. Each Reindex also marks the mobile bodies it found as the one
// before did (still): a proximity ring whose body and neighbours are all
// still reads what it read a tick before ([Space.RingSettled]), which
// most rings of a jammed swarm do.
//
// Concurrency follows the simulation tick: physics engines write the poses
// of the bodies they own (disjoint sets) while nobody reads; the index is
// rebuilt on the coordinating goroutine; sensors then read the space from
// many goroutines at once without writing it, but for atomic flags (a
// query refused a neighbour list for the drift alone; the mobile grid
// was read) and the mobile grid, which the first query to need it
// builds under a lock while the others wait.
package space
