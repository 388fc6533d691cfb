// Package epuckobstacleavoidance is ARGoS's e-puck obstacle avoidance
// example (argos3-examples, epuck_obstacleavoidance_controller): the
// e-puck drives straight and, when one of its four front proximity
// sensors sees something, stops the wheel on the far side of the closest
// reading to turn away from it.
//
//	<epuck_obstacleavoidance_controller id="eoc">
//	  <actuators><differential_steering implementation="default" /></actuators>
//	  <sensors><proximity implementation="default" /></sensors>   (or epuck_proximity)
//	  <params velocity="5" />                                       (cm/s, default 2.5)
//	</epuck_obstacleavoidance_controller>
package epuckobstacleavoidance

import (
	"fmt"

	"github.com/argosgo/argos/ci"
)

// Label is ARGoS's label of the controller.
const Label = "epuck_obstacleavoidance_controller"

func init() {
	ci.Controllers.MustRegister(Label,
		"ARGoS's e-puck obstacle avoidance: straight ahead, turning away from the closest of the four front proximity "+
			"readings (sensors 0 and 1 on the left, 7 and 6 on the right). Params: velocity (cm/s, default 2.5). "+
			"Devices: differential_steering; proximity or epuck_proximity.",
		func() ci.Controller { return New() })
}

// Controller is the obstacle avoidance controller.
type Controller struct {
	wheels   ci.DifferentialSteeringActuator
	prox     ci.Proximity
	velocity float64
}

// New returns a controller for Init to set up.
func New() *Controller { return &Controller{} }

// Init takes the wheels and the proximity sensors and reads velocity.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return fmt.Errorf("epuck_obstacleavoidance: %w", err)
	}
	c.prox, err = ci.GetSensor[ci.Proximity](r, ci.TagProximity)
	if err != nil {
		if c.prox, err = ci.GetSensor[ci.Proximity](r, ci.TagEPuckProximity); err != nil {
			return fmt.Errorf("epuck_obstacleavoidance: %w", err)
		}
	}
	if c.velocity, err = p.FloatOr("velocity", 2.5); err != nil {
		return err
	}
	return nil
}

// Turn says which way the controller steers for a set of readings:
// 0 straight, +1 right (an obstacle on the left), -1 left.
func Turn(r []ci.ProximityReading) int {
	if len(r) < 8 {
		return 0
	}
	// ARGoS looks at 0, 1, 7, 6 in this order and keeps the first of
	// equal readings.
	best, value := 0, r[0].Value
	for _, i := range [...]int{1, 7, 6} {
		if r[i].Value > value {
			best, value = i, r[i].Value
		}
	}
	switch {
	case value <= 0:
		return 0
	case best <= 1:
		return 1
	default:
		return -1
	}
}

// ControlStep steers away from the closest obstacle ahead.
func (c *Controller) ControlStep() {
	switch Turn(c.prox.Readings()) {
	case 1:
		c.wheels.SetLinearVelocity(c.velocity, 0)
	case -1:
		c.wheels.SetLinearVelocity(0, c.velocity)
	default:
		c.wheels.SetLinearVelocity(c.velocity, c.velocity)
	}
}

// Reset has no state to restore.
func (c *Controller) Reset() {}

// Destroy has nothing to release.
func (c *Controller) Destroy() error { return nil }
