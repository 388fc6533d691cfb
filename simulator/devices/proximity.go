package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// proximity is an infrared proximity ring: one ray per sensor cast
// through the space's index; the distance to the first body hit goes
// through the model's response curve.
type proximity struct {
	r        *entity.Robot
	ring     *entity.ProximityRing
	response func(d float64) float64
	noise    float64
	ShowRays bool
	readings []ci.ProximityReading
	dirs     []ci.Vector2 // sensor directions in the robot's frame
	cands    []int32      // scratch: bodies within reach of the rays
}

// proximityFactory builds the sensor for robots of model m (nil: any).
func proximityFactory(m *entity.RobotModel) Factory {
	return func(r *entity.Robot, n *config.Node) (any, error) {
		if err := n.CheckAttrs("implementation", "noise_level", "show_rays", "calibrated"); err != nil {
			return nil, err
		}
		if m != nil && r.Model != m {
			return nil, n.Errorf("devices: <%s> is a sensor of the %s, but robot %q is a %s; use <%s> or the generic <proximity>",
				n.Name, m.Type, r.ID, r.Model.Type, r.Model.Proximity.Tag)
		}
		// room for the neighbours a robot meets in a crowd, so that the
		// scratch list does not grow run after run as robots meet more
		p := &proximity{r: r, ring: &r.Model.Proximity, cands: make([]int32, 0, 16)}
		p.response = p.ring.Response
		if m == nil {
			// ARGoS's generic sensor has its own curve, whatever the robot
			p.response = GenericProximityResponse
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
		p.readings = make([]ci.ProximityReading, len(p.ring.Angles))
		p.dirs = make([]ci.Vector2, len(p.ring.Angles))
		for i, a := range p.ring.Angles {
			p.readings[i].Angle = a
			p.dirs[i] = ci.FromPolar(1, a)
		}
		return p, nil
	}
}

var _ ci.Proximity = (*proximity)(nil)

func (p *proximity) Readings() []ci.ProximityReading { return p.readings }

// Update casts one ray per sensor. The bodies the rays can reach are
// gathered once per robot; a robot with nothing in reach reads zeros
// without casting.
func (p *proximity) Update() {
	b := p.r.B()
	sp := p.r.Space
	z := b.Z + p.ring.Height
	inner := b.Radius
	if p.ring.Radius > 0 {
		inner = p.ring.Radius
	}
	outer := inner + p.ring.Range
	p.cands = sp.Nearby(b.Pos, outer, z, p.r.Body, p.cands[:0])
	for i, d := range p.dirs {
		v := 0.0
		if len(p.cands) > 0 {
			// the sensor direction turned by the robot's heading
			c, s := b.Cos*d.X-b.Sin*d.Y, b.Sin*d.X+b.Cos*d.Y
			from := ci.Vector2{X: b.Pos.X + c*inner, Y: b.Pos.Y + s*inner}
			to := ci.Vector2{X: b.Pos.X + c*outer, Y: b.Pos.Y + s*outer}
			if t, hit := sp.CastRayAmong(p.cands, from, to); hit >= 0 {
				v = p.response(t * p.ring.Range)
			}
		}
		if p.noise > 0 {
			v = math.Max(0, math.Min(1, v+p.noise*(2*p.r.Rand.Float64()-1)))
		}
		p.readings[i].Value = v
	}
}

// GenericProximityResponse is the reading of ARGoS's generic proximity
// sensor (tag "proximity") for an obstacle d metres from the sensor:
// exp(-d), whatever the robot (0 when the ray meets nothing).
func GenericProximityResponse(d float64) float64 { return math.Exp(-d) }
