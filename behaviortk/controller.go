package behaviortk

import (
	"fmt"

	"github.com/argosgo/argos/ci"
)

// Builder makes the root behaviour of a robot from its params; it may
// check which devices the robot has through the binding.
type Builder func(r ci.Robot, b *Binding, p ci.Params) (Behavior, error)

// Controller is a ci.Controller that runs a root behaviour: each
// ControlStep senses into the state, steps the root and acts.
type Controller struct {
	build Builder
	robot ci.Robot
	bind  *Binding
	root  Behavior
	state State
}

// NewController returns a controller whose root behaviour build makes at
// Init. Register it like any controller:
//
//	ci.Controllers.MustRegister("my_label", "...", func() ci.Controller {
//		return behaviortk.NewController(buildMyBehaviour)
//	})
func NewController(build Builder) *Controller { return &Controller{build: build} }

// Init implements ci.Controller.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	c.robot = r
	c.bind = Bind(r)
	if !c.bind.Has("wheels") && !c.bind.Has("quadrotor_position") {
		return fmt.Errorf("behaviortk: robot %q: %w: declare <differential_steering> (or <quadrotor_position> for a flying robot) under <actuators>",
			r.ID(), ci.ErrNotDeclared)
	}
	root, err := c.build(r, c.bind, p)
	if err != nil {
		return err
	}
	if v, ok := root.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	c.root = root
	c.state = State{}
	return nil
}

// ControlStep implements ci.Controller.
func (c *Controller) ControlStep() {
	c.bind.Sense(&c.state)
	c.root.Step(&c.state)
	c.bind.Act(&c.state)
	c.state.Step++
}

// Reset implements ci.Controller.
func (c *Controller) Reset() {
	reset(c.root)
	c.state = State{}
}

// Destroy implements ci.Controller.
func (c *Controller) Destroy() error { return nil }

// Root returns the root behaviour (to query an FSM's state in tests).
func (c *Controller) Root() Behavior { return c.root }

// State returns the state after the last step.
func (c *Controller) State() *State { return &c.state }
