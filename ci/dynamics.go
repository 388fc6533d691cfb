package ci

// Tags of the devices of agents whose dynamics the experiment file writes
// (<agent> entities of the custom engine).
const (
	TagDynamicsState   = "dynamics_state"
	TagDynamicsControl = "dynamics_control"
)

// DynamicsState reads the state of an agent whose dynamics the experiment
// file writes (tag "dynamics_state"), as ASCARI's agents read theirs: the
// values of the states the file declares (states="x, y, theta"), in that
// order, at the end of the last physics step.
type DynamicsState interface {
	// Names are the states, in the file's order.
	Names() []string
	// Values are their values; the slice belongs to the device and is
	// overwritten at the next tick.
	Values() []float64
	// Index returns the position of a state in Names, or -1.
	Index(name string) int
}

// DynamicsControl holds the control commands of such an agent (tag
// "dynamics_control"): the inputs its equations read (controls="v, w").
// Values set during ControlStep hold from the next physics step until
// they are set again.
type DynamicsControl interface {
	// Names are the control commands, in the file's order.
	Names() []string
	// Set sets command i (an index in Names); an index out of range is
	// ignored.
	Set(i int, v float64)
	// SetAll sets the first len(v) commands.
	SetAll(v ...float64)
	// Index returns the position of a command in Names, or -1.
	Index(name string) int
}
