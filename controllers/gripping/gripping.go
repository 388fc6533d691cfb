package gripping

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Label is the label under which the controller is registered, as
// ARGoS's gripping.argos names it.
const Label = "footbot_gripping_controller"

// The script of ARGoS's footbot_gripping.
const (
	DefaultSpeed       = 5.0 // cm/s
	DefaultGripStep    = 70
	DefaultReleaseStep = 120
	DefaultStopStep    = 170
)

const description = "Gripping (ARGoS's footbot_gripping): a scripted grip. Drives forward at speed " +
	"until grip_step, stops and locks the gripper, drives backwards dragging the object until " +
	"release_step, unlocks and keeps backing until stop_step, then stops. Params (optional, ARGoS's " +
	"values): speed=\"5\" (cm/s), grip_step=\"70\", release_step=\"120\", stop_step=\"170\". Devices: " +
	"actuators differential_steering, footbot_gripper."

func init() {
	ci.Controllers.MustRegister(Label, description, func() ci.Controller { return New() })
}

// Phase is what the script does at a step.
type Phase int

const (
	// Approaching: driving forward to the object.
	Approaching Phase = iota
	// Gripping: stopped, gripper locked (one step).
	Gripping
	// Dragging: backing with the object.
	Dragging
	// Releasing: gripper open, still backing.
	Releasing
	// Stopped for good.
	Stopped
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case Approaching:
		return "approaching"
	case Gripping:
		return "gripping"
	case Dragging:
		return "dragging"
	case Releasing:
		return "releasing"
	case Stopped:
		return "stopped"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// Controller is the gripping controller. Make one with New; it is ready
// after Init.
type Controller struct {
	wheels  ci.DifferentialSteeringActuator
	gripper ci.Gripper

	speed               float64
	grip, release, stop int
	counter             int
	phase               Phase
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the wheels and the gripper of r and reads params.
func (c *Controller) Init(r ci.Robot, params ci.Params) error {
	speed, err := params.FloatOr("speed", DefaultSpeed)
	if err != nil {
		return fmt.Errorf("gripping: %w", err)
	}
	if math.IsNaN(speed) || math.IsInf(speed, 0) {
		return fmt.Errorf("gripping: %s: speed=%q is not a finite number; give cm/s, like 5", params.Location(), params.Attrs["speed"])
	}
	var steps [3]int
	for i, p := range []struct {
		attr string
		def  int
	}{{"grip_step", DefaultGripStep}, {"release_step", DefaultReleaseStep}, {"stop_step", DefaultStopStep}} {
		if steps[i], err = params.IntOr(p.attr, p.def); err != nil {
			return fmt.Errorf("gripping: %w", err)
		}
	}
	if steps[0] < 1 || steps[1] <= steps[0] || steps[2] < steps[1] {
		return fmt.Errorf("gripping: %s: grip_step=%d, release_step=%d, stop_step=%d are out of order; give 1 <= grip_step < release_step <= stop_step, like 70, 120, 170",
			params.Location(), steps[0], steps[1], steps[2])
	}
	wheels, err := ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	if err != nil {
		return fmt.Errorf("gripping: %w", err)
	}
	gripper, err := ci.GetActuator[ci.Gripper](r, ci.TagFootBotGripper)
	if err != nil {
		return fmt.Errorf("gripping: %w", err)
	}
	*c = Controller{wheels: wheels, gripper: gripper, speed: speed, grip: steps[0], release: steps[1], stop: steps[2]}
	return nil
}

// ControlStep runs one step of the script.
func (c *Controller) ControlStep() {
	c.counter++
	switch n := c.counter; {
	case n < c.grip:
		c.phase = Approaching
		c.wheels.SetLinearVelocity(c.speed, c.speed)
	case n == c.grip:
		c.phase = Gripping
		c.wheels.SetLinearVelocity(0, 0)
		c.gripper.Lock()
	case n < c.release:
		c.phase = Dragging
		c.wheels.SetLinearVelocity(-c.speed, -c.speed)
	case n < c.stop:
		// As in ARGoS: the gripper opens and the wheels keep backing.
		c.phase = Releasing
		c.gripper.Unlock()
	default:
		c.phase = Stopped
		c.wheels.SetLinearVelocity(0, 0)
	}
}

// Phase returns what the last step did.
func (c *Controller) Phase() Phase { return c.phase }

// Step returns the number of steps run since Init or Reset.
func (c *Controller) Step() int { return c.counter }

// Reset restarts the script.
func (c *Controller) Reset() { c.counter, c.phase = 0, Approaching }

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }
