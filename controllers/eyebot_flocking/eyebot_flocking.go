// Package eyebotflocking is ARGoS's eye-bot flocking example
// (argos3-examples, eyebot_flocking_controller): eye-bots take off to
// 3 m and flock toward a light in a hexagonal lattice, each keeping its
// neighbours at a target distance with a generalised Lennard-Jones
// potential over range-and-bearing messages, and heading for the
// brightest light its eyebot_light sensors see.
//
//	<eyebot_flocking_controller id="efc">
//	  <actuators><quadrotor_position implementation="default" /><range_and_bearing implementation="default" /></actuators>
//	  <sensors>
//	    <positioning implementation="default" />
//	    <range_and_bearing implementation="medium" medium="rab" />
//	    <eyebot_light implementation="rot_z_only" />
//	  </sensors>
//	  <params><flocking target_distance="100" gain="25" exponent="1.5" max_interaction="0.1" /></params>
//	</eyebot_flocking_controller>
//
// target_distance is in cm (range-and-bearing ranges are), max_interaction
// in m: the longest step the robot takes toward its set-point per tick.
package eyebotflocking

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Label is ARGoS's label of the controller.
const Label = "eyebot_flocking_controller"

// Altitude is the flight altitude (m), Tolerance how close to it the
// take-off ends (m).
const (
	Altitude  = 3.0
	Tolerance = 0.01
)

// The states an eye-bot broadcasts in the first byte of its payload.
const (
	StateStart byte = iota
	StateTakeOff
	StateFlock
)

func init() {
	ci.Controllers.MustRegister(Label,
		"ARGoS's eye-bot flocking: take off to 3 m, then flock toward the light (a Lennard-Jones interaction with "+
			"the neighbours heard over range and bearing, plus a pull toward the light). Params: <flocking "+
			"target_distance (cm) gain exponent max_interaction (m)/>, all required. Devices: quadrotor_position, "+
			"range_and_bearing (actuator and sensor), eyebot_light, positioning.",
		func() ci.Controller { return New() })
}

// Params are the flocking parameters of <params><flocking>.
type Params struct {
	TargetDistance, Gain, Exponent, MaxInteraction float64
}

// LennardJones is ARGoS's generalised Lennard-Jones interaction at
// distance d (cm): negative (repulsive) closer than the target distance,
// positive beyond.
func (p Params) LennardJones(d float64) float64 {
	x := math.Pow(p.TargetDistance/d, p.Exponent)
	return -p.Gain / d * (x*x - x)
}

// Controller is the eye-bot flocking controller.
type Controller struct {
	fly   ci.QuadrotorPosition
	send  ci.RangeAndBearingActuator
	hear  ci.RangeAndBearingSensor
	light ci.Light
	pos   ci.Positioning

	params Params
	state  byte
	target ci.Vector3
}

// New returns a controller for Init to set up.
func New() *Controller { return &Controller{} }

// Init takes the devices and reads the flocking parameters.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	f, err := p.Child("flocking")
	if err != nil {
		return fmt.Errorf("eyebot_flocking: %w", err)
	}
	for _, a := range []struct {
		name string
		v    *float64
	}{{"target_distance", &c.params.TargetDistance}, {"gain", &c.params.Gain}, {"exponent", &c.params.Exponent}, {"max_interaction", &c.params.MaxInteraction}} {
		if *a.v, err = f.Float(a.name); err != nil {
			return fmt.Errorf("eyebot_flocking: %w", err)
		}
	}
	if c.params.TargetDistance <= 0 || c.params.MaxInteraction < 0 {
		return fmt.Errorf("eyebot_flocking: %s: target_distance must be above 0 and max_interaction 0 or more", f.Location())
	}
	if c.fly, err = ci.GetActuator[ci.QuadrotorPosition](r, ci.TagQuadrotorPosition); err != nil {
		return fmt.Errorf("eyebot_flocking: %w", err)
	}
	if c.send, err = ci.GetActuator[ci.RangeAndBearingActuator](r, ci.TagRangeAndBearing); err != nil {
		return fmt.Errorf("eyebot_flocking: %w", err)
	}
	if c.hear, err = ci.GetSensor[ci.RangeAndBearingSensor](r, ci.TagRangeAndBearing); err != nil {
		return fmt.Errorf("eyebot_flocking: %w", err)
	}
	if c.light, err = ci.GetSensor[ci.Light](r, ci.TagEyeBotLight); err != nil {
		return fmt.Errorf("eyebot_flocking: %w", err)
	}
	if c.pos, err = ci.GetSensor[ci.Positioning](r, ci.TagPositioning); err != nil {
		return fmt.Errorf("eyebot_flocking: %w", err)
	}
	c.Reset()
	return nil
}

// Params returns the parameters in use.
func (c *Controller) Params() Params { return c.params }

// State returns the state the robot broadcasts.
func (c *Controller) State() byte { return c.state }

func (c *Controller) setState(s byte) {
	c.state = s
	c.send.SetByte(0, s)
}

// ControlStep takes off, then flocks.
func (c *Controller) ControlStep() {
	switch c.state {
	case StateStart:
		c.setState(StateTakeOff)
		c.target = c.pos.Reading().Position
		c.target.Z = Altitude
		c.fly.SetAbsolutePosition(c.target)
		fallthrough
	case StateTakeOff:
		if c.target.Sub(c.pos.Reading().Position).Length() < Tolerance {
			c.setState(StateFlock)
			c.flock()
		}
	case StateFlock:
		c.flock()
	}
}

func (c *Controller) flock() {
	d := c.VectorToLight().Add(c.FlockingVector())
	c.fly.SetRelativePosition(ci.Vector3{X: d.X, Y: d.Y})
}

// VectorToLight points at the light, a quarter of max_interaction long,
// or is zero when no light is seen.
func (c *Controller) VectorToLight() ci.Vector2 {
	var sum ci.Vector2
	for _, r := range c.light.Readings() {
		sum = sum.Add(ci.FromPolar(r.Value, r.Angle))
	}
	if l := sum.Length(); l > 0 {
		return sum.Scale(0.25 * c.params.MaxInteraction / l)
	}
	return ci.Vector2{}
}

// FlockingVector is the mean Lennard-Jones interaction with the
// neighbours that flock, at most max_interaction long.
func (c *Controller) FlockingVector() ci.Vector2 {
	var sum ci.Vector2
	peers := 0
	for _, m := range c.hear.Packets() {
		if len(m.Data) == 0 || m.Data[0] != StateFlock {
			continue
		}
		sum = sum.Add(ci.FromPolar(c.params.LennardJones(m.Range), m.HorizontalBearing))
		peers++
	}
	if peers == 0 {
		return ci.Vector2{}
	}
	sum = sum.Scale(1 / float64(peers))
	if l := sum.Length(); l > c.params.MaxInteraction {
		sum = sum.Scale(c.params.MaxInteraction / l)
	}
	return sum
}

// Reset goes back to the start and says so.
func (c *Controller) Reset() { c.setState(StateStart) }

// Destroy has nothing to release.
func (c *Controller) Destroy() error { return nil }
