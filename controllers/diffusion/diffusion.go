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
	wheels ci.DifferentialSteeringActuator
	// ring is the proximity sensor with the unit vector of each sensor's
	// angle: the angles of a ring do not change, so the sum needs no
	// trigonometry per step. The simulator's sensors offer directions
	// shared by every robot of a model; other sensors get a cache of the
	// controller's own (ownRing), made in Init, or when an angle changes.
	ring ring

	alpha    float64 // radians
	delta    float64
	velocity float64 // cm/s
	// last is the turn of the last ControlStep, which the next one keeps
	// when the ring says its readings did not change (Unchanged); known
	// is false until a ControlStep has made one
	last  turn
	known bool
}

// ring is a proximity sensor that also gives the angle of each reading and
// its unit vector (ci.FromPolar(1, angle)), which callers must not change.
// The simulator's sensors share them between the robots of a model, which
// saves a million e-pucks 190 MB of caches.
//
// AllZero reports whether every reading is zero (false when the sensor
// does not know): the simulator's noiseless sensors know it when nothing
// was in reach or the response read nothing at every hit, and
// ControlStep then reads no reading. Unchanged reports whether the
// readings are, bit for bit, those of the sensor's update before (false
// when it does not know): the simulator's sensors know it of a robot
// jammed among jammed robots, and of any ring that read the same again
// (a robot alone, or one whose neighbours moved out of its reach), and
// ControlStep then keeps its last turn, which the same readings would
// give again.
type ring interface {
	ci.Proximity
	Directions() (angles []float64, dirs []ci.Vector2)
	AllZero() bool
	Unchanged() bool
}

// directed is a proximity sensor that gives its directions (the ring's
// first two methods), which may or may not know when its readings are
// all zero.
type directed interface {
	ci.Proximity
	Directions() (angles []float64, dirs []ci.Vector2)
}

// partRing is a directed sensor that lacks AllZero or Unchanged, or
// both: what it has is found once (asRing), not at every step; what it
// lacks (nil) reports false (not known).
type partRing struct {
	directed
	zero      interface{ AllZero() bool }
	unchanged interface{ Unchanged() bool }
}

func (p partRing) AllZero() bool   { return p.zero != nil && p.zero.AllZero() }
func (p partRing) Unchanged() bool { return p.unchanged != nil && p.unchanged.Unchanged() }

// asRing returns d as a ring: itself when it has AllZero and Unchanged.
func asRing(d directed) ring {
	if r, ok := d.(ring); ok {
		return r
	}
	p := partRing{directed: d}
	p.zero, _ = d.(interface{ AllZero() bool })
	p.unchanged, _ = d.(interface{ Unchanged() bool })
	return p
}

// ownRing is a proximity sensor with directions cached by the controller.
type ownRing struct {
	ci.Proximity
	angles []float64
	dirs   []ci.Vector2
}

func (o *ownRing) Directions() ([]float64, []ci.Vector2) { return o.angles, o.dirs }

// AllZero is false: the controller reads the readings to know.
func (o *ownRing) AllZero() bool { return false }

// Unchanged is false: the controller reads the readings to know.
func (o *ownRing) Unchanged() bool { return false }

var _ ci.ConcurrentInit = (*Controller)(nil)

// ConcurrentInit tells the runtimes that Init may run for many robots at
// once: it reads its robot's devices and params and writes only the
// controller. (The params' tracking of what is read takes no lock for a
// name read before, so that this pays on two threads.)
func (*Controller) ConcurrentInit() {}

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
		wheels:   wheels,
		alpha:    ci.Radians(alpha),
		delta:    delta,
		velocity: velocity,
	}
	if r, ok := proximity.(directed); ok {
		if angles, dirs := r.Directions(); len(angles) == len(dirs) {
			c.ring = asRing(r)
		}
	}
	if c.ring == nil {
		c.ring = ownCache(proximity, nil, nil, len(proximity.Readings()))
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

// dir returns the unit vector of sensor i at angle, from angles and dirs
// (the ring's), or else from a cache of the controller's own, which a
// ring that grew since Init, or an angle that changed, makes once.
func (c *Controller) dir(i int, angle float64, angles []float64, dirs []ci.Vector2) ci.Vector2 {
	if i < len(dirs) && angles[i] == angle {
		return dirs[i]
	}
	o, own := c.ring.(*ownRing)
	if !own || i >= len(o.dirs) {
		o = ownCache(c.ring, angles, dirs, max(i+1, len(dirs)))
		c.ring = o
	}
	o.angles[i], o.dirs[i] = angle, ci.FromPolar(1, angle)
	return o.dirs[i]
}

// ownCache returns p with a cache of the controller's own, with room for n
// sensors, holding the directions of angles and dirs; the others are not
// cached (NaN angles).
func ownCache(p ci.Proximity, angles []float64, dirs []ci.Vector2, n int) *ownRing {
	if o, ok := p.(*ownRing); ok {
		p = o.Proximity
	}
	o := &ownRing{Proximity: p, angles: make([]float64, n), dirs: make([]ci.Vector2, n)}
	k := copy(o.angles, angles)
	copy(o.dirs, dirs)
	for i := k; i < n; i++ {
		o.angles[i] = math.NaN()
	}
	return o
}

// ControlStep reads the proximity sensors and sets the wheel speeds. It
// does not allocate.
func (c *Controller) ControlStep() {
	// The turn depends on the readings only: readings that did not
	// change give the last one again (a robot jammed in a crowd reads
	// none of them). A robot that senses nothing (most of a sparse swarm)
	// has the zero sum, whose angle and length are zero: no Atan2 and
	// Hypot for it, and no reading to read when the sensor knows they are
	// all zero.
	t := c.last
	if !c.known || !c.ring.Unchanged() {
		t = c.cone(0, 0)
		if !c.ring.AllZero() {
			if mean, sensed := c.sum(); sensed {
				t = c.decide(mean)
			}
		}
		c.last, c.known = t, true
	}
	switch t {
	case straight:
		c.wheels.SetLinearVelocity(c.velocity, c.velocity)
	case right:
		c.wheels.SetLinearVelocity(c.velocity, 0)
	default:
		c.wheels.SetLinearVelocity(0, c.velocity)
	}
}

// turn is what a robot does in a step.
type turn uint8

const (
	straight turn = iota
	right         // away from an obstacle on the left
	left          // away from an obstacle on the right or dead ahead
)

// cone is the decision from the angle and length of the mean vector:
// straight when it points within alpha of the front and is shorter than
// delta; else right when it points to the left (a positive angle), left
// otherwise.
func (c *Controller) cone(angle, length float64) turn {
	switch {
	case angle >= -c.alpha && angle <= c.alpha && length < c.delta:
		return straight
	case angle > 0:
		return right
	default:
		return left
	}
}

// decide returns c.cone(mean.Angle(), mean.Length()), for every mean,
// without the angle (an Atan2, the dearest part of a step when many
// robots sense something), and often without the length, when mean's
// coordinates tell. That is when each of them is plain
// (finite, its magnitude in [2^-500, 2^500], so that their quotient is
// neither zero nor infinite) and
//   - x < 0 and alpha < pi/2: math.Atan2(y, x) is Atan(y/x) + pi when y >
//     0 and Atan(y/x) - pi when y < 0, and Atan, in [-pi/2, pi/2], keeps
//     the sign of the nonzero y/x: the angle is in [pi/2, pi] or [-pi,
//     -pi/2] (the float sums too: pi - pi/2 is exact), outside the cone,
//     and positive exactly when y is;
//   - or x > 0 and the length, math.Hypot(x, y), is at least delta: the
//     robot turns, whatever the angle, and Atan(y/x) has the sign of y.
//     Hypot is max(|x|, |y|)*sqrt(1 + (min/max)^2) (its assembly and its
//     Go), never below max(|x|, |y|): when |x| or |y| is at least delta,
//     no Hypot either;
//   - or 0 < x < |y| and alpha < pi/4: y/x rounds to 1 or more in
//     magnitude, where Atan is pi/4 + xatan((t-1)/(t+1)) (xatan of zero
//     is zero, of a positive number positive; its 0.5*Morebits is below
//     half an ulp of pi/4) or, beyond tan(3pi/8), above 1.1: the angle is
//     outside the cone, whatever the length.
//
// And a mean shorter than delta with x > 0 is in the cone (straight)
// when |y/x| <= alpha <= 0.66: Atan there is xatan, t + t*z with z =
// t^2*P(t^2)/Q(t^2) <= 0 (P's coefficients are negative, Q's positive),
// never farther from zero than t, and of t's sign.
//
// Otherwise (a mean shorter than delta with x > 0 that none of these
// places, where the angle decides; a coordinate zero, tiny, huge,
// infinite or NaN; x < 0 with a cone of pi/2 or more) it takes the angle.
func (c *Controller) decide(mean ci.Vector2) turn {
	x, y := mean.X, mean.Y
	if !plain(x) || !plain(y) || x < 0 && c.alpha >= math.Pi/2 {
		return c.cone(mean.Angle(), mean.Length())
	}
	if x < 0 || x >= c.delta || math.Abs(y) >= c.delta || math.Abs(y) > x && c.alpha < math.Pi/4 {
		return sideOf(y)
	}
	length := mean.Length()
	if length >= c.delta {
		return sideOf(y)
	}
	if math.Abs(y/x) <= c.alpha && c.alpha <= 0.66 {
		return straight
	}
	return c.cone(mean.Angle(), length)
}

// sideOf returns the turn away from the side of y, a plain coordinate:
// right when it is positive (an obstacle on the left), else left.
func sideOf(y float64) turn {
	if y > 0 {
		return right
	}
	return left
}

// plain reports whether v is finite and its magnitude in [2^-500, 2^500]:
// the quotient of two plain numbers is a normal number, not zero.
func plain(v float64) bool {
	a := math.Abs(v)
	return a >= 0x1p-500 && a <= 0x1p500
}

// sum returns the mean of the readings' vectors, and whether a reading
// was not zero (the zero vector and false when every reading is zero).
func (c *Controller) sum() (mean ci.Vector2, sensed bool) {
	readings := c.ring.Readings()
	angles, dirs := c.ring.Directions()
	var sum ci.Vector2
	for i, r := range readings {
		if r.Value != 0 {
			d := ci.Vector2{}
			if i < len(dirs) && angles[i] == r.Angle {
				d = dirs[i] // dir's first case, without the call
			} else {
				d = c.dir(i, r.Angle, angles, dirs)
			}
			sum = sum.Add(d.Scale(r.Value))
			sensed = true
		}
	}
	if !sensed {
		return ci.Vector2{}, false
	}
	// ARGoS divides by the number of readings unconditionally (there is
	// at least one here)
	return sum.Scale(1 / float64(len(readings))), true
}

// Reset forgets the last turn: the controller keeps no other state
// between ticks.
func (c *Controller) Reset() { c.last, c.known = straight, false }

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }
