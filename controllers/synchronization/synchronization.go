package synchronization

import (
	"fmt"

	"github.com/argosgo/argos/ci"
)

// Label is the label under which the controller is registered, as
// ARGoS's synchronization.argos names it.
const Label = "footbot_synchronization_controller"

// MaxCount is the counter value past which a robot flashes; the counter
// starts uniformly in [0, MaxCount). Values of ARGoS's example (its
// CRange<UInt32>(0, 100)).
const MaxCount = 100

const description = "Synchronization (ARGoS's footbot_synchronization): firefly-like flashing. A counter " +
	"grows by 1 per tick, or by a tenth of its value when the omnidirectional camera sees a red blob; past " +
	"100 the robot flashes its LEDs red for one tick and restarts from 0. No params. Devices: actuator leds; " +
	"sensor colored_blob_omnidirectional_camera."

func init() {
	ci.Controllers.MustRegister(Label, description, func() ci.Controller { return New() })
}

// Controller is the synchronization controller. Make one with New; it is
// ready after Init.
type Controller struct {
	robot    ci.Robot
	leds     ci.LEDs
	camera   ci.ColoredBlobCamera
	counter  int
	flashing bool
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the LEDs and the camera of r, switches the camera on and
// draws the counter at random.
func (c *Controller) Init(r ci.Robot, _ ci.Params) error {
	leds, err := ci.GetActuator[ci.LEDs](r, ci.TagLEDs)
	if err != nil {
		return fmt.Errorf("synchronization: %w", err)
	}
	camera, err := ci.GetSensor[ci.ColoredBlobCamera](r, ci.TagOmnidirectionalCamera)
	if err != nil {
		return fmt.Errorf("synchronization: %w", err)
	}
	*c = Controller{robot: r, leds: leds, camera: camera}
	c.camera.Enable()
	c.Reset()
	return nil
}

// Reset draws a new counter from the robot's random stream, as ARGoS
// does.
func (c *Controller) Reset() {
	c.counter = c.robot.Rand().IntN(MaxCount)
	c.flashing = false
}

// ControlStep advances the counter and flashes when it passes MaxCount.
func (c *Controller) ControlStep() {
	seen := false
	for _, b := range c.camera.Blobs() {
		if b.Color == ci.Red {
			seen = true
			break
		}
	}
	if seen {
		c.counter += c.counter / 10
	} else {
		c.counter++
	}
	c.flashing = c.counter > MaxCount
	if c.flashing {
		c.leds.SetAllColors(ci.Red)
		c.counter = 0
	} else {
		c.leds.SetAllColors(ci.Black)
	}
}

// Counter returns the counter, in [0, MaxCount].
func (c *Controller) Counter() int { return c.counter }

// Flashing reports whether the robot flashed at the last step.
func (c *Controller) Flashing() bool { return c.flashing }

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }
