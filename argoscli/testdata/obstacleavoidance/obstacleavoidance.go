// Package obstacleavoidance is a port of ARGoS's e-puck obstacle
// avoidance example (argos3-examples, epuck_obstacleavoidance): the robot
// drives straight and, when one of its four front proximity sensors sees
// something, stops the wheel on the other side to turn away from the
// closest reading.
package obstacleavoidance

import "github.com/argosgo/argos/ci"

// Label is ARGoS's label for this controller.
const Label = "epuck_obstacleavoidance_controller"

func init() {
	ci.Controllers.MustRegister(Label,
		"Port of ARGoS's e-puck obstacle avoidance: straight ahead, turning away from the closest front reading. Params: velocity (cm/s, default 2.5).",
		func() ci.Controller { return &Controller{} })
}

// front are the sensors ARGoS's example looks at, in its order: 0 and 1
// on the left of the front, 7 and 6 on the right.
var front = [4]int{0, 1, 7, 6}

// Controller is the obstacle avoidance controller.
type Controller struct {
	wheels   ci.DifferentialSteeringActuator
	prox     ci.Proximity
	velocity float64
}

// Init takes the wheels and the proximity sensors and reads velocity.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	if c.prox, err = ci.GetSensor[ci.Proximity](r, ci.TagProximity); err != nil {
		return err
	}
	c.velocity, err = p.FloatOr("velocity", 2.5)
	return err
}

// ControlStep turns away from the closest obstacle ahead, or goes
// straight.
func (c *Controller) ControlStep() {
	r := c.prox.Readings()
	best, max := front[0], r[front[0]].Value
	for _, i := range front[1:] {
		if r[i].Value > max {
			best, max = i, r[i].Value
		}
	}
	switch {
	case max <= 0:
		c.wheels.SetLinearVelocity(c.velocity, c.velocity)
	case best == 0 || best == 1: // obstacle on the left: turn right
		c.wheels.SetLinearVelocity(c.velocity, 0)
	default: // on the right: turn left
		c.wheels.SetLinearVelocity(0, c.velocity)
	}
}

// Reset has nothing to reset.
func (c *Controller) Reset() {}

// Destroy has nothing to release.
func (c *Controller) Destroy() error { return nil }
