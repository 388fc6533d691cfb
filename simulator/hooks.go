package simulator

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
)

// LoopFunctions are hooks around each tick to measure and change the
// experiment, as ARGoS's loop functions. Embed LoopFunctionsBase to get
// no-op defaults and write only the hooks you need.
type LoopFunctions interface {
	// Init runs once the arena is built, before the first tick; node is
	// the <loop_functions> element with its attributes and children.
	Init(sim *Simulator, node *config.Node) error
	// Reset runs when the experiment is reset to its start.
	Reset() error
	// Destroy releases what Init acquired.
	Destroy() error
	// PreStep runs after physics and media, before the robots sense.
	PreStep()
	// PostStep runs after every robot's ControlStep.
	PostStep()
	// IsExperimentFinished ends the run early when it returns true.
	IsExperimentFinished() bool
	// PostExperiment runs once when the run ends, also when it is cut
	// short by an error or a signal, so that results can be written.
	PostExperiment()
}

// LoopFunctionsBase implements every hook as a no-op.
type LoopFunctionsBase struct{}

func (LoopFunctionsBase) Init(*Simulator, *config.Node) error { return nil }
func (LoopFunctionsBase) Reset() error                        { return nil }
func (LoopFunctionsBase) Destroy() error                      { return nil }
func (LoopFunctionsBase) PreStep()                            {}
func (LoopFunctionsBase) PostStep()                           {}
func (LoopFunctionsBase) IsExperimentFinished() bool          { return false }
func (LoopFunctionsBase) PostExperiment()                     {}

// LoopFunctionsTypes is the registry of loop functions by the label that
// <loop_functions label="..."> uses.
var LoopFunctionsTypes = ci.NewRegistry[func() LoopFunctions]("loop functions")

// Visualization shows or records the experiment. Draw runs after every
// tick's PostStep (and once before the first tick, with Tick() == 0).
type Visualization interface {
	Draw(sim *Simulator) error
	Close() error
}

// VisualizationType is a registered visualization.
type VisualizationType struct {
	// Interactive visualizations (a viewer) are skipped by headless runs
	// (argos -z); the others (recorders such as text) always run.
	Interactive bool
	New         func(node *config.Node, sim *Simulator) (Visualization, error)
}

// Visualizations is the registry of visualizations by their tag under
// <visualization>.
var Visualizations = ci.NewRegistry[VisualizationType]("visualization")

// Medium carries signals between robots (LEDs seen by cameras,
// range-and-bearing messages, radio). Update runs in phase 3 of every tick,
// after physics and before the robots sense; it may read the whole world
// and split its work with run. Devices find a medium by its id through
// entity.Medium.
type Medium interface {
	Update(run physics.Runner)
	Reset()
	Close() error
}

// MediumType builds a medium from its element under <media>.
type MediumType func(node *config.Node, world *entity.World) (Medium, error)

// Media is the registry of media by their tag under <media>.
var Media = ci.NewRegistry[MediumType]("medium")
