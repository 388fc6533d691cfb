package fixedwheels

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Label is the name under which .argos files use the controller.
const Label = "fixed_wheels_controller"

const description = "Constant wheel speeds, for calibration (the controller of ARGoS's reference traces): " +
	"sets the differential_steering actuator to (left, right) cm/s at control steps n with start_tick <= n and " +
	"(stop_tick < 0 or n < stop_tick), to (0, 0) otherwise; n is 1 at the first control step (tick 1) and Reset " +
	"sets it back to 0. Params: left, right (cm/s, default 0), start_tick (default 0), stop_tick (default -1: never). " +
	"Devices: actuator differential_steering; no sensors, no random numbers."

func init() {
	ci.Controllers.MustRegister(Label, description, func() ci.Controller { return New() })
}

// Controller is fixed_wheels_controller. Make one with New; it is ready
// after Init.
type Controller struct {
	wheels      ci.DifferentialSteeringActuator
	left, right float64 // cm/s
	start, stop int
	step        int // control steps since Init or Reset
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the wheels of r and reads left, right, start_tick and
// stop_tick from params.
func (c *Controller) Init(r ci.Robot, params ci.Params) error {
	var speeds [2]float64
	for k, attr := range [2]string{"left", "right"} {
		v, err := params.FloatOr(attr, 0)
		if err != nil {
			return fmt.Errorf("fixed_wheels: %w", err)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("fixed_wheels: %s: %s=%q is not a finite speed; write it in cm/s, like 10", params.Location(), attr, params.Attrs[attr])
		}
		speeds[k] = v
	}
	start, err := params.IntOr("start_tick", 0)
	if err != nil {
		return fmt.Errorf("fixed_wheels: %w", err)
	}
	stop, err := params.IntOr("stop_tick", -1)
	if err != nil {
		return fmt.Errorf("fixed_wheels: %w", err)
	}
	wheels, err := ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	if err != nil {
		return fmt.Errorf("fixed_wheels: %w", err)
	}
	*c = Controller{wheels: wheels, left: speeds[0], right: speeds[1], start: start, stop: stop}
	return nil
}

// ControlStep counts the step and sets the wheels for it.
func (c *Controller) ControlStep() {
	c.step++
	if c.Driving(c.step) {
		c.wheels.SetLinearVelocity(c.left, c.right)
	} else {
		c.wheels.SetLinearVelocity(0, 0)
	}
}

// Driving reports whether control step n drives the wheels.
func (c *Controller) Driving(n int) bool {
	return c.start <= n && (c.stop < 0 || n < c.stop)
}

// Steps returns the number of control steps since Init or Reset.
func (c *Controller) Steps() int { return c.step }

// Reset sets the step count back to 0.
func (c *Controller) Reset() { c.step = 0 }

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }
