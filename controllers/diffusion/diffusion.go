package diffusion

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// The labels under which the controller is registered, as .argos files
// name it.
const (
	FootBotLabel = "footbot_diffusion_controller"
	EPuckLabel   = "epuck_diffusion_controller"
)

// Default parameter values, used when <params> does not set them.
const (
	DefaultAlpha    = 7.5 // degrees
	DefaultDelta    = 0.1
	DefaultVelocity = 5.0 // cm/s
)

// proximityTags are the proximity sensors the controller can use, in order
// of preference.
var proximityTags = [...]string{ci.TagFootBotProximity, ci.TagEPuckProximity, ci.TagProximity}

const description = "Diffusion (ARGoS's footbot_diffusion): goes straight and turns away from " +
	"obstacles seen by the proximity sensors. Params: alpha (degrees, default 7.5) is the " +
	"half-width of the straight-ahead cone; delta (default 0.1) the largest mean proximity " +
	"still taken as free; velocity (cm/s, default 5) the wheel speed. Devices: actuator " +
	"differential_steering; sensor footbot_proximity, epuck_proximity or proximity (the first " +
	"one declared)."

func init() {
	factory := func() ci.Controller { return New() }
	ci.Controllers.MustRegister(FootBotLabel, description, factory)
	ci.Controllers.MustRegister(EPuckLabel, description, factory)
}

// Controller is the diffusion controller. Make one with New; it is ready
// after Init.
type Controller struct {
	wheels    ci.DifferentialSteeringActuator
	proximity ci.Proximity

	alpha    float64 // radians
	delta    float64
	velocity float64 // cm/s

	// dirs caches the unit vector of each sensor's angle (angles): the
	// angles of a ring do not change, so the sum needs no trigonometry
	// per step. When the sensor offers its ring's directions (ringSource),
	// both are the sensor's, shared by every robot of the model, and own
	// is false: the controller copies them before it writes.
	dirs   []ci.Vector2
	angles []float64
	own    bool
}

// ringSource is what a proximity sensor may offer besides ci.Proximity:
// the angle of each reading and its unit vector (ci.FromPolar(1, angle)),
// which the caller must not change. The simulator's sensors share them
// between the robots of a model, which saves a million e-pucks 190 MB of
// caches.
type ringSource interface {
	Directions() (angles []float64, dirs []ci.Vector2)
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the wheels and the first declared proximity sensor of r and
// reads alpha, delta and velocity from params.
func (c *Controller) Init(r ci.Robot, params ci.Params) error {
	alpha, err := param(params, "alpha", DefaultAlpha)
	if err != nil {
		return err
	}
	if alpha < 0 {
		return fmt.Errorf("diffusion: %s: alpha=%v is negative; give the half-width of the straight-ahead cone in degrees, like 7.5", params.Location(), alpha)
	}
	delta, err := param(params, "delta", DefaultDelta)
	if err != nil {
		return err
	}
	if delta < 0 {
		return fmt.Errorf("diffusion: %s: delta=%v is negative; give a proximity level in [0, 1], like 0.1", params.Location(), delta)
	}
	velocity, err := param(params, "velocity", DefaultVelocity)
	if err != nil {
		return err
	}

	wheels, err := ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	if err != nil {
		return fmt.Errorf("diffusion: %w", err)
	}
	proximity, err := proximitySensor(r)
	if err != nil {
		return err
	}

	*c = Controller{
		wheels:    wheels,
		proximity: proximity,
		alpha:     ci.Radians(alpha),
		delta:     delta,
		velocity:  velocity,
	}
	if src, ok := proximity.(ringSource); ok {
		if angles, dirs := src.Directions(); len(angles) == len(dirs) {
			c.angles, c.dirs = angles, dirs
		}
	}
	if c.dirs == nil {
		c.ownCache(len(proximity.Readings()))
	}
	return nil
}

// param reads a finite number.
func param(p ci.Params, attr string, def float64) (float64, error) {
	v, err := p.FloatOr(attr, def)
	if err != nil {
		return 0, fmt.Errorf("diffusion: %w", err)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("diffusion: %s: %s=%q is not a finite number; write it like %v", p.Location(), attr, p.Attrs[attr], def)
	}
	return v, nil
}

// proximitySensor returns the first declared proximity sensor.
func proximitySensor(r ci.Robot) (ci.Proximity, error) {
	for _, tag := range proximityTags {
		if _, ok := r.Sensor(tag); !ok {
			continue
		}
		p, err := ci.GetSensor[ci.Proximity](r, tag)
		if err != nil {
			return nil, fmt.Errorf("diffusion: %w", err)
		}
		return p, nil
	}
	return nil, fmt.Errorf("diffusion: robot %q: no proximity sensor: %w; add one of <%s implementation=\"default\"/>, <%s implementation=\"default\"/> or <%s implementation=\"default\"/> under <sensors> in its <controllers> entry",
		r.ID(), ci.ErrNotDeclared, proximityTags[0], proximityTags[1], proximityTags[2])
}

// dir returns the unit vector of sensor i's angle, from the cache. The
// cache is sized in Init, so that ControlStep does not allocate; a ring
// that grew since, or an angle that changed, makes it once.
func (c *Controller) dir(i int, angle float64) ci.Vector2 {
	if i < len(c.dirs) && c.angles[i] == angle {
		return c.dirs[i]
	}
	return c.miss(i, angle)
}

// miss caches the direction of sensor i at angle in a cache of the
// controller's own.
func (c *Controller) miss(i int, angle float64) ci.Vector2 {
	if !c.own || i >= len(c.dirs) {
		c.ownCache(max(i+1, len(c.dirs)))
	}
	c.angles[i], c.dirs[i] = angle, ci.FromPolar(1, angle)
	return c.dirs[i]
}

// ownCache makes the controller's own cache with room for n sensors,
// keeping the directions cached so far; the others are not cached (NaN
// angles).
func (c *Controller) ownCache(n int) {
	angles, dirs := make([]float64, n), make([]ci.Vector2, n)
	k := copy(angles, c.angles)
	copy(dirs, c.dirs)
	for i := k; i < n; i++ {
		angles[i] = math.NaN()
	}
	c.angles, c.dirs, c.own = angles, dirs, true
}

// ControlStep reads the proximity sensors and sets the wheel speeds. It
// does not allocate.
func (c *Controller) ControlStep() {
	readings := c.proximity.Readings()
	var sum ci.Vector2
	for i, r := range readings {
		if r.Value != 0 {
			sum = sum.Add(c.dir(i, r.Angle).Scale(r.Value))
		}
	}
	// ARGoS divides by the number of readings unconditionally; with no
	// readings at all (an empty ring) nothing is sensed, so the robot
	// goes straight instead of turning on a NaN.
	if n := len(readings); n > 0 {
		sum = sum.Scale(1 / float64(n))
	}
	angle := sum.Angle()
	switch {
	case angle >= -c.alpha && angle <= c.alpha && sum.Length() < c.delta:
		c.wheels.SetLinearVelocity(c.velocity, c.velocity)
	case angle > 0: // obstacle on the left: turn right
		c.wheels.SetLinearVelocity(c.velocity, 0)
	default: // obstacle on the right or dead ahead: turn left
		c.wheels.SetLinearVelocity(0, c.velocity)
	}
}

// Reset does nothing: the controller keeps no state between ticks.
func (c *Controller) Reset() {}

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }
