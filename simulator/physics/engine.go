package physics

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

// Runner runs job(0) ... job(n-1), possibly in parallel, and returns when
// all have finished. Jobs must be independent: the result may not depend
// on their order. Engines may call Run from inside a job.
type Runner interface {
	Run(n int, job func(i int))
}

// Serial is a Runner that runs jobs one after the other.
type Serial struct{}

// Run implements Runner.
func (Serial) Run(n int, job func(i int)) {
	for i := 0; i < n; i++ {
		job(i)
	}
}

// Engine moves the mobile bodies it owns.
//
// Add, Remove and AddStatic are called on the coordinating goroutine only.
// Step may run in parallel with other engines' Step; Commit in parallel
// with other engines' Commit.
type Engine interface {
	// ID is the engine's id in the .argos file.
	ID() string
	// Region is the part of the arena the engine simulates; nil means all.
	Region() *Prism
	// Add takes ownership of mobile body i of the space.
	Add(i int) error
	// Remove gives up body i, keeping nothing of it.
	Remove(i int)
	// AddStatic makes static body i an obstacle for the engine's bodies.
	AddStatic(i int) error
	// Bodies returns the handles of the owned bodies, in an order that
	// depends only on the sequence of Add and Remove calls.
	Bodies() []int
	// Step advances the engine by dt seconds. It may read the whole space
	// but must not write it.
	Step(dt float64, run Runner)
	// Commit writes the poses and velocities computed by Step into the
	// owned bodies of the space.
	Commit(run Runner)
	// Reset brings every owned body back to the pose it had when added.
	Reset()
	// Close releases the engine's resources.
	Close() error
}

// Env is what a new engine gets from the simulator.
type Env struct {
	Space *space.Space
	// Index is the engine's position in <physics_engines>; it is stored in
	// space.Body.Engine for the bodies it owns.
	Index int
	// TickLength is the duration of one simulation tick in seconds.
	TickLength float64
}

// Factory builds an engine from its .argos element.
type Factory func(node *config.Node, env Env) (Engine, error)

// Engines is the registry of physics engines by their .argos tag
// ("dynamics2d", ...).
var Engines = ci.NewRegistry[Factory]("physics engine")

// Container is implemented by engines that take only some points of their
// region, such as an engine confined to a plane.
type Container interface {
	Contains(p ci.Vector3) bool
}

// Contains reports whether point p belongs to the engine: to its Contains
// method when it has one, else to its region.
func Contains(e Engine, p ci.Vector3) bool {
	if c, ok := e.(Container); ok {
		return c.Contains(p)
	}
	r := e.Region()
	return r == nil || r.Contains(p)
}
