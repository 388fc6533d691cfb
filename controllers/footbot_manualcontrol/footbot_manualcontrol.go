// Package manualcontrol is ARGoS's manual control example
// (argos3-examples, footbot_manualcontrol_controller): a foot-bot stands
// still until the viewer selects it; then it lights its LEDs red and
// drives along the control vector its user functions
// (manualcontrol_qtuser_functions, package
// github.com/argosgo/argos/loop_functions/manualcontrol) set from the
// keys pressed in the viewer.
//
//	<footbot_manualcontrol_controller id="fmc">
//	  <actuators><differential_steering implementation="default" /><leds implementation="default" medium="leds" /></actuators>
//	  <sensors />
//	  <params>
//	    <wheel_turning hard_turn_angle_threshold="90" soft_turn_angle_threshold="70"
//	                   no_turn_angle_threshold="10" max_speed="10" />
//	  </params>
//	</footbot_manualcontrol_controller>
package manualcontrol

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
)

// Label is ARGoS's label of the controller.
const Label = "footbot_manualcontrol_controller"

func init() {
	ci.Controllers.MustRegister(Label,
		"ARGoS's manual control: still until selected in the viewer, then LEDs red and driving along the control "+
			"vector that manualcontrol_qtuser_functions set from the keys. Params: <wheel_turning "+
			"hard_turn_angle_threshold soft_turn_angle_threshold no_turn_angle_threshold (degrees) max_speed (cm/s)/>. "+
			"Devices: differential_steering, leds.",
		func() ci.Controller { return New() })
}

// Controller is the manual control controller. Select, Deselect and
// SetControlVector are called between ticks, by user functions.
type Controller struct {
	wheels ci.DifferentialSteeringActuator
	leds   ci.LEDs
	steer  behaviortk.Steering

	selected bool
	control  ci.Vector2
}

// New returns a controller for Init to set up.
func New() *Controller { return &Controller{} }

// Init takes the devices and reads <wheel_turning>.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	def := behaviortk.WheelTurning{HardTurnAngle: math.Pi / 2, SoftTurnAngle: ci.Radians(70), NoTurnAngle: ci.Radians(10), MaxSpeed: 10}
	wt, err := behaviortk.ParseWheelTurning(p, def)
	if err != nil {
		return fmt.Errorf("footbot_manualcontrol: %w", err)
	}
	*c = Controller{steer: behaviortk.Steering{WheelTurning: wt}}
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return fmt.Errorf("footbot_manualcontrol: %w", err)
	}
	if c.leds, err = ci.GetActuator[ci.LEDs](r, ci.TagLEDs); err != nil {
		return fmt.Errorf("footbot_manualcontrol: %w", err)
	}
	return nil
}

// Select makes the robot follow the control vector, its LEDs red.
func (c *Controller) Select() {
	c.selected = true
	c.leds.SetAllColors(ci.Red)
}

// Deselect stops the robot and switches its LEDs off.
func (c *Controller) Deselect() {
	c.selected = false
	c.leds.SetAllColors(ci.Black)
}

// Selected reports whether the robot is selected.
func (c *Controller) Selected() bool { return c.selected }

// SetControlVector sets the direction to drive in, in the robot's frame
// (x forward, y left); its length is the speed in cm/s.
func (c *Controller) SetControlVector(v ci.Vector2) { c.control = v }

// ControlStep drives along the control vector when selected, and stands
// still otherwise.
func (c *Controller) ControlStep() {
	if !c.selected {
		c.wheels.SetLinearVelocity(0, 0)
		return
	}
	c.wheels.SetLinearVelocity(c.steer.Speeds(c.control))
}

// Reset forgets the control vector and the selection.
func (c *Controller) Reset() {
	c.selected, c.control = false, ci.Vector2{}
	c.steer.Reset()
}

// Destroy has nothing to release.
func (c *Controller) Destroy() error { return nil }
