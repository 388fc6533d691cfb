package flocking

import (
	"fmt"
	"github.com/argosgo/argos/behaviortk"
	"math"

	"github.com/argosgo/argos/ci"
)

// Label is the label under which the controller is registered, as
// ARGoS's flocking.argos names it.
const Label = "footbot_flocking_controller"

// BeaconLED is the index of the foot-bot's beacon among its LEDs (12 on
// the ring, then the beacon), which the controller lights red so that the
// others' cameras see it.
const BeaconLED = 12

const description = "Flocking (ARGoS's footbot_flocking): heads for the light seen by the light " +
	"sensors while keeping target_distance from the red beacons the omnidirectional camera sees, " +
	"through a generalized Lennard-Jones potential. Params (children of <params>, every attribute " +
	"optional, defaults from ARGoS's flocking.argos): <wheel_turning hard_turn_angle_threshold=\"90\" " +
	"soft_turn_angle_threshold=\"70\" no_turn_angle_threshold=\"10\" max_speed=\"10\"/> (degrees, cm/s), " +
	"<flocking target_distance=\"75\" gain=\"1000\" exponent=\"2\"/> (cm). Devices: actuators " +
	"differential_steering, leds; sensors footbot_light, colored_blob_omnidirectional_camera."

func init() {
	ci.Controllers.MustRegister(Label, description, func() ci.Controller { return New() })
}

// Params are the settings of the controller: <wheel_turning> and
// <flocking> under <params>.
type Params struct {
	Turning behaviortk.WheelTurning
	// TargetDistance is the distance (cm) the robots keep between them.
	TargetDistance float64
	// Gain and Exponent shape the Lennard-Jones potential.
	Gain, Exponent float64
}

// DefaultParams returns the values of ARGoS's experiments/flocking.argos
// (argos3-examples).
func DefaultParams() Params {
	return Params{
		Turning: behaviortk.WheelTurning{
			HardTurnAngle: ci.Radians(90),
			SoftTurnAngle: ci.Radians(70),
			NoTurnAngle:   ci.Radians(10),
			MaxSpeed:      10,
		},
		TargetDistance: 75,
		Gain:           1000,
		Exponent:       2,
	}
}

// LennardJones returns the generalized Lennard-Jones interaction at
// distance d (cm): negative (repulsive) closer than the target distance,
// positive (attractive) beyond, zero at it. It is ARGoS's
// -gain/d * ((target/d)^(2*exponent) - (target/d)^exponent).
func (p Params) LennardJones(d float64) float64 {
	x := math.Pow(p.TargetDistance/d, p.Exponent)
	return -p.Gain / d * (x*x - x)
}

// ParseParams reads <params> over the defaults.
func ParseParams(p ci.Params) (Params, error) {
	out := DefaultParams()
	r := reader{}
	var err error
	if out.Turning, err = behaviortk.ParseWheelTurning(p, out.Turning); err != nil {
		return out, fmt.Errorf("flocking: %w", err)
	}
	f := p.ChildOr("flocking")
	out.TargetDistance = r.float(f, "target_distance", out.TargetDistance, true)
	out.Gain = r.float(f, "gain", out.Gain, false)
	out.Exponent = r.float(f, "exponent", out.Exponent, true)
	return out, r.err
}

// Controller is the flocking controller. Make one with New; it is ready
// after Init.
type Controller struct {
	wheels ci.DifferentialSteeringActuator
	leds   ci.LEDs
	light  ci.Light
	camera ci.ColoredBlobCamera

	params Params
	steer  behaviortk.Steering
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the devices of r, reads params, switches the camera on and
// lights the beacon red.
func (c *Controller) Init(r ci.Robot, params ci.Params) error {
	p, err := ParseParams(params)
	if err != nil {
		return err
	}
	*c = Controller{params: p, steer: behaviortk.Steering{WheelTurning: p.Turning}}
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return fmt.Errorf("flocking: %w", err)
	}
	if c.leds, err = ci.GetActuator[ci.LEDs](r, ci.TagLEDs); err != nil {
		return fmt.Errorf("flocking: %w", err)
	}
	if c.light, err = ci.GetSensor[ci.Light](r, ci.TagFootBotLight); err != nil {
		return fmt.Errorf("flocking: %w", err)
	}
	if c.camera, err = ci.GetSensor[ci.ColoredBlobCamera](r, ci.TagOmnidirectionalCamera); err != nil {
		return fmt.Errorf("flocking: %w", err)
	}
	c.camera.Enable()
	c.leds.SetSingleColor(BeaconLED, ci.Red)
	return nil
}

// Params returns the settings in use.
func (c *Controller) Params() Params { return c.params }

// ControlStep heads for the sum of the light vector and the flocking
// vector.
func (c *Controller) ControlStep() {
	c.wheels.SetLinearVelocity(c.steer.Speeds(c.VectorToLight().Add(c.FlockingVector())))
}

// VectorToLight returns a vector toward the light, a quarter of the top
// speed long, or zero when no light is seen.
func (c *Controller) VectorToLight() ci.Vector2 {
	var sum ci.Vector2
	for _, r := range c.light.Readings() {
		sum = sum.Add(ci.FromPolar(r.Value, r.Angle))
	}
	if l := sum.Length(); l > 0 {
		return sum.Scale(0.25 * c.params.Turning.MaxSpeed / l)
	}
	return sum
}

// FlockingVector returns the mean Lennard-Jones interaction with the red
// blobs (the others' beacons) closer than 1.8 times the target distance,
// at most the top speed long; zero when none is seen. Other colours (the
// light is yellow) are ignored.
func (c *Controller) FlockingVector() ci.Vector2 {
	var sum ci.Vector2
	seen := 0
	for _, b := range c.camera.Blobs() {
		d := b.Distance * 100 // ARGoS works in cm
		if b.Color != ci.Red || d <= 0 || d >= 1.8*c.params.TargetDistance {
			continue
		}
		sum = sum.Add(ci.FromPolar(c.params.LennardJones(d), b.Angle))
		seen++
	}
	if seen == 0 {
		return ci.Vector2{}
	}
	sum = sum.Scale(1 / float64(seen))
	if l, top := sum.Length(), c.params.Turning.MaxSpeed; l > top {
		sum = sum.Scale(top / l)
	}
	return sum
}

// Reset forgets the turning state; the camera stays on and the beacon
// red.
func (c *Controller) Reset() { c.steer.Reset() }

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }

// reader reads attributes and keeps the first error.
type reader struct{ err error }

// float reads a finite number that is at least 0, or above 0 when
// positive is set.
func (r *reader) float(p ci.Params, attr string, def float64, positive bool) float64 {
	if r.err != nil {
		return def
	}
	v, err := p.FloatOr(attr, def)
	want := "0 or more"
	if positive {
		want = "above 0"
	}
	switch {
	case err != nil:
		r.err = fmt.Errorf("flocking: %w", err)
	case math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || positive && v == 0:
		r.err = fmt.Errorf("flocking: %s: %s=%q is out of range; give a finite number %s, like %g", p.Location(), attr, p.Attrs[attr], want, def)
	}
	return v
}
