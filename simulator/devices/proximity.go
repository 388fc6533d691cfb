package devices

import (
	"math"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// proximity is an infrared proximity ring: one ray per sensor cast
// through the space's index; the distance to the first body hit goes
// through the model's response curve.
type proximity struct {
	r *entity.Robot
	*proximityConf
	// rd and n are the readings (readings, Readings): a pointer and a
	// length instead of a slice header, so that the sensor keeps to 48
	// bytes and an e-puck's, with its readings (proximity8), to 176
	rd *ci.ProximityReading
	// settle is fresh before the first Update; notSettled, or settled:
	// the last Update cast the ring, without noise, after the space's
	// Reindex of epoch, met something, and left the readings as they are;
	// the robot's heading was then cos, sin. The next Update keeps them
	// if the space says nothing the ring meets moved (space.RingSettled)
	// and the robot did not turn; settle is then kept (still settled, and
	// the readings are those of the Update before: Unchanged). A cast
	// that read what the Update before had read adds same.
	cos, sin float64
	epoch    uint32
	n        uint16
	// zero: every reading of the last Update is zero (+0), which a
	// controller can ask instead of reading the readings (AllZero)
	zero   bool
	settle settleState
}

// settleState is how a proximity sensor's last Update left its readings.
type settleState uint8

const (
	fresh      settleState = iota // no Update yet
	notSettled                    // cast, or found nothing within reach
	settled                       // cast, and may be kept by the next Update
	kept                          // kept from the Update before (and still settled)
	// same, with notSettled or settled: the last Update cast the ring, or
	// found nothing within its reach, and read what the Update before it
	// had read, bit for bit (Unchanged)
	same settleState = 4
)

// maxRays is the most sensors a proximity ring can have.
const maxRays = math.MaxUint16

// readings returns the sensor's readings.
func (p *proximity) readings() []ci.ProximityReading { return unsafe.Slice(p.rd, p.n) }

// setReadings makes rd the sensor's readings (at most maxRays).
func (p *proximity) setReadings(rd []ci.ProximityReading) {
	p.rd, p.n = unsafe.SliceData(rd), uint16(len(rd))
}

// proximityConf is what the clones of a proximity sensor share (40 bytes
// less per robot: a million e-pucks save 46 MB).
type proximityConf struct {
	ring     *entity.ProximityRing
	response func(d float64) float64
	noise    float64
	// zeroBeyond: the response reads +0 beyond this distance from the
	// sensor (the model's ring's ZeroBeyond, for its own curve); 0: not
	// known to
	zeroBeyond float64
	ShowRays   bool
	// dirs are the sensor directions in the robot's frame, shared by the
	// sensors of every robot of a model.
	dirs []ci.Vector2
}

// ringDirs returns the unit vectors of a ring's angles.
func ringDirs(ring *entity.ProximityRing) []ci.Vector2 {
	dirs := make([]ci.Vector2, len(ring.Angles))
	for i, a := range ring.Angles {
		dirs[i] = ci.FromPolar(1, a)
	}
	return dirs
}

// proximityFactory builds the sensor for robots of model m (nil: any).
func proximityFactory(m *entity.RobotModel) Factory {
	var shared []ci.Vector2 // the directions of m's ring, made once
	if m != nil {
		shared = ringDirs(&m.Proximity)
	}
	return func(r *entity.Robot, n *config.Node) (any, error) {
		if err := n.CheckAttrs("implementation", "noise_level", "show_rays", "calibrated"); err != nil {
			return nil, err
		}
		if m != nil && r.Model != m {
			return nil, n.Errorf("devices: <%s> is a sensor of the %s, but robot %q is a %s; use <%s> or the generic <proximity>",
				n.Name, m.Type, r.ID, r.Model.Type, r.Model.Proximity.Tag)
		}
		p := &proximity{r: r, proximityConf: &proximityConf{ring: &r.Model.Proximity}}
		p.response, p.zeroBeyond = p.ring.Response, p.ring.ZeroBeyond
		if m == nil {
			// ARGoS's generic sensor has its own curve, whatever the robot
			p.response, p.zeroBeyond = GenericProximityResponse, 0
		}
		var err error
		if p.noise, err = n.FloatOr("noise_level", 0); err != nil {
			return nil, err
		}
		if p.noise < 0 {
			return nil, n.Errorf("devices: noise_level=%g must not be negative", p.noise)
		}
		if p.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
			return nil, err
		}
		if len(p.ring.Angles) > maxRays {
			return nil, n.Errorf("devices: the proximity ring of robot %q has %d sensors, more than the %d a ring can have", r.ID, len(p.ring.Angles), maxRays)
		}
		rd := make([]ci.ProximityReading, len(p.ring.Angles))
		for i, a := range p.ring.Angles {
			rd[i].Angle = a
		}
		p.setReadings(rd)
		p.dirs = shared
		if m == nil || len(shared) != len(p.ring.Angles) {
			p.dirs = ringDirs(p.ring)
		}
		return p, nil
	}
}

var _ ci.Proximity = (*proximity)(nil)

// proximity8 is a sensor of up to 8 rays (an e-puck's) with its readings
// in one allocation (176 bytes, as the two apart were): an update
// writes the readings right after reading the sensor, and the
// controller reads them, on the lines next to it instead of elsewhere
// in the heap. (At 192 bytes, dynamics2d's e-pucks ran some 6 % slower
// at 100,000: their sensors then share a size class with another of
// each robot's allocations, and lie twice as far apart.)
type proximity8 struct {
	proximity
	buf [8]ci.ProximityReading
}

// CloneFor implements Cloner: the same ring, response and noise (one
// proximityConf), zero readings of its own.
func (p *proximity) CloneFor(r *entity.Robot) any {
	var c *proximity
	if n := int(p.n); n <= 8 {
		x := &proximity8{proximity: *p}
		x.setReadings(x.buf[:n:n])
		c = &x.proximity
	} else {
		c = new(proximity)
		*c = *p
		c.setReadings(make([]ci.ProximityReading, n))
	}
	c.r, c.zero, c.settle = r, false, fresh
	for i, rd := range p.readings() {
		c.readings()[i].Angle = rd.Angle
	}
	return c
}

func (p *proximity) Readings() []ci.ProximityReading { return p.readings() }

// Directions returns the angle of each reading and its unit vector
// (ci.FromPolar(1, angle)), shared by the sensors of every robot of the
// model: a controller that caches the directions of its ring (diffusion)
// uses these instead of a copy per robot. Callers must not change them.
func (p *proximity) Directions() (angles []float64, dirs []ci.Vector2) {
	return p.ring.Angles, p.dirs
}

// AllZero reports whether every reading of the last Update is zero:
// nothing was in reach, or the response curve read nothing at the
// distance of every hit (an e-puck's reads 0 beyond 5 cm of its 10 cm
// range). It is false when unknown: before the first Update, or with
// noise. The diffusion controller asks it before reading the readings:
// most robots of a sparse swarm sense nothing.
func (p *proximity) AllZero() bool { return p.zero }

// Unchanged reports whether the last Update left the readings as the
// Update before it had made them, bit for bit: it kept them, having found
// the robot where it was, heading as it was, among bodies none of which
// moved within the ring's reach (a robot jammed among jammed robots), or
// it cast the ring again and read the same (a neighbour moved, but not
// within reach; a robot alone). A controller whose decision depends only
// on the readings can keep its last one instead of reading them again
// (the diffusion controller does). It is false at the first Update, and
// with noise.
func (p *proximity) Unchanged() bool { return p.settle == kept || p.settle&same != 0 }

// zeroMargin is how far beyond a response's ZeroBeyond the bodies a ring
// gathers reach, in metres: far more than the rounding of a hit's
// distance, so that a hit Update leaves out reads +0 on the curve.
const zeroMargin = 1e-6

// Update casts one ray per sensor (space.CastRing: the bodies the rays
// can reach are gathered once per robot, and a robot with nothing in
// reach reads zeros without casting). When the response reads nothing
// beyond some distance (zeroBeyond), only the bodies that come within
// it (space.CastRingWithin) are gathered: a hit on a farther body
// would read +0, as a ray that meets nothing does, with or without
// noise.
func (p *proximity) Update() {
	b := p.r.B()
	z := b.Z + p.ring.Height
	inner := b.Radius
	if p.ring.Radius > 0 {
		inner = p.ring.Radius
	}
	outer := inner + p.ring.Range
	var buf [24]float64 // a foot-bot's ring; larger ones allocate
	t := buf[:]
	if len(p.dirs) > len(buf) {
		t = make([]float64, len(p.dirs))
	}
	readings, conf := p.readings(), p.proximityConf
	reach := outer
	if conf.zeroBeyond > 0 {
		reach = min(outer, inner+conf.zeroBeyond+zeroMargin)
	}
	sp := p.r.Space
	known := p.settle != fresh // the readings are an Update's
	if st := p.settle &^ same; st == settled || st == kept {
		if math.Float64bits(b.Cos) == math.Float64bits(p.cos) && math.Float64bits(b.Sin) == math.Float64bits(p.sin) &&
			sp.RingSettled(p.r.Body, reach, p.epoch) {
			// the same ring from the same pose among the same bodies,
			// where they were: the same readings (a robot stuck in a
			// cluster of stuck robots)
			p.epoch, p.settle = sp.Epoch(), kept
			return
		}
	}
	p.settle = notSettled
	hits := sp.CastRingWithin(p.r.Body, p.dirs, inner, outer, reach, z, t)
	if conf.noise > 0 {
		p.zero = false
		for i := range readings {
			v := 0.0
			if t[i] >= 0 {
				v = conf.response(t[i] * conf.ring.Range)
			}
			readings[i].Value = entity.Clamp01(v + conf.noise*(2*p.r.Rand.Float64()-1))
		}
		return
	}
	if hits == 0 {
		// nothing in reach, no noise: every reading is zero, as they
		// already are when the last Update found nothing either (the
		// readings belong to the sensor: a robot alone tick after tick
		// neither writes nor, through AllZero, reads their memory)
		if !p.zero {
			for i := range readings {
				readings[i].Value = 0
			}
			p.zero = true
		} else {
			p.settle = notSettled | same // (zero: the last Update left them so)
		}
		return
	}
	// Only the rays that met something go through the response curve;
	// when it reads nothing at each of their hits the readings are all
	// zero too, which AllZero says (a controller then reads none). A
	// reading of -0 would not count as zero: the zero readings must be
	// +0, as the path above leaves them. Readings the same as the last
	// Update's, bit for bit, are Unchanged (same).
	rng, response, nonzero, diff := conf.ring.Range, conf.response, uint64(0), uint64(0)
	for i := range readings {
		v := 0.0
		if t[i] >= 0 {
			v = response(t[i] * rng)
			nonzero |= math.Float64bits(v)
		}
		diff |= math.Float64bits(readings[i].Value) ^ math.Float64bits(v)
		readings[i].Value = v
	}
	p.zero = nonzero == 0
	p.settle, p.epoch, p.cos, p.sin = settled, sp.Epoch(), b.Cos, b.Sin
	if diff == 0 && known {
		p.settle |= same
	}
}

// GenericProximityResponse is the reading of ARGoS's generic proximity
// sensor (tag "proximity") for an obstacle d metres from the sensor:
// exp(-d), whatever the robot (0 when the ray meets nothing).
func GenericProximityResponse(d float64) float64 { return math.Exp(-d) }
