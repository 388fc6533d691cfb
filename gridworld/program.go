package gridworld

import (
	"errors"
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// Instance is a world as the argos command drives it, whatever the
// program's types: a *World is one, and a program wraps its World to add
// metrics ([Reporter]) and what the web view shades ([Shader]).
type Instance interface {
	Step() error
	Round() int
	Finished() bool
	Config() Config
	Occupancy(dst []int32) []int32
}

// Reporter is an Instance that records metrics: after every round (final
// false) and once at the end of the run (final true).
type Reporter interface {
	Report(r Recorder, final bool)
}

// Recorder takes the metrics of a round: Record a value of the whole
// world, RecordAgent a value of one agent (its id is the "robot" column
// of metrics.csv).
type Recorder interface {
	Record(metric string, value float64)
	RecordAgent(id int32, metric string, value float64)
}

// Shader is an Instance whose vertices have a value worth seeing (a
// task's residual demand, say): the web view shades the vertices of small
// grids by it. VertexValues fills dst (one value per vertex) and returns
// the name of the value.
type Shader interface {
	VertexValues(dst []float64) (name string)
}

// Factory makes a program's world for an experiment.
type Factory func(s *Setup) (Instance, error)

// Programs is the registry of grid-world programs, by the label that
// <agents program="..."> names, as ci.Controllers is for robot
// controllers. A program package registers from its init function:
//
//	func init() {
//		gridworld.Programs.MustRegister("task_allocation", "ParSwarm's task allocation ...", New)
//	}
var Programs = ci.NewRegistry[Factory]("grid program")

// Setup is what a program's Factory gets: the world's configuration from
// the experiment (grid, agents, radius, seed, threads) and the <params>
// of its <agents> element.
type Setup struct {
	Config
	// Params are the attributes and children of <params> inside <agents>;
	// malformed values are errors with file:line.
	Params ci.Params
	// AgentsNode is the <agents> element, GridNode the <grid> element
	// (nil when the setup comes from code).
	AgentsNode, GridNode *config.Node
}

// Errorf returns an error at the <agents> element, with file:line.
func (s *Setup) Errorf(format string, args ...any) error {
	if s.AgentsNode == nil {
		return fmt.Errorf("gridworld: "+format, args...)
	}
	return s.AgentsNode.Errorf(format, args...)
}

// ParamErrorf returns an error about attribute attr of the <params>
// element, with file:line.
func (s *Setup) ParamErrorf(attr, format string, args ...any) error {
	v, _ := s.Params.Lookup(attr)
	return fmt.Errorf("%s: attribute %s=%q: %s", s.Params.Location(), attr, v, fmt.Sprintf(format, args...))
}

// Build is New for a program's Factory: it builds the world from the
// setup's Config with the given capacity and reports configuration
// errors at the attribute of the experiment file they come from.
func Build[A, V, M any](s *Setup, capacity int, rules Rules[A, V, M]) (*World[A, V, M], error) {
	cfg := s.Config
	cfg.Capacity = capacity
	w, err := New(cfg, rules)
	if err != nil {
		return nil, s.locate(err)
	}
	return w, nil
}

// locate turns a ConfigError into an error at the file's attribute.
func (s *Setup) locate(err error) error {
	var ce *ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	n := s.AgentsNode
	if ce.Field == "size" && s.GridNode != nil {
		n = s.GridNode
	}
	if n == nil {
		return err
	}
	if n.Has(ce.Field) {
		return n.AttrErrorf(ce.Field, "%s", ce.Msg)
	}
	return n.Errorf("%s", ce.Msg)
}
