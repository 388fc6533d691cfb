package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
)

func init() {
	const rotz = "Each light that no body hides from the robot's centre (at floor level) adds exp(-2 d) (0 beyond d = 2.5), d being its distance " +
		"divided by its intensity, to every sensor less than 90 degrees from its direction, scaled by 1 - angle/90; readings are clamped to [0, 1]. " +
		"Attributes: noise_level (uniform noise in [-noise_level, noise_level] added to each reading), show_rays."
	for _, impl := range []string{"", "rot_z_only"} {
		Sensors.MustRegister(Key(ci.TagFootBotLight, impl),
			"The foot-bot's 24 light sensors (ci.Light), ARGoS's footbot_light (rot_z_only) model, angles pi/24 + i pi/12. "+rotz,
			lightRotZFactory(entity.FootBot))
	}
	Sensors.MustRegister(ci.TagEPuckLight,
		"The e-puck's 8 light sensors (ci.Light), the footbot_light model on the e-puck's ring (22.5 + i 45 degrees), as ARGoS's epuck_light. "+rotz,
		lightRotZFactory(entity.EPuck))
	Sensors.MustRegister(ci.TagLight,
		"The light-sensor ring of any robot that has one (ci.Light), ARGoS's generic light sensor: sensor i reads the sum over the lights it sees of "+
			"(intensity / distance)^2, clamped to [0, 1]; a light is seen when neither the robot's own body nor another body cuts the line from the "+
			"sensor to the light. Attributes: noise_level, show_rays.",
		newLightGeneric)
}

// lightRotZ is ARGoS's foot-bot (and e-puck) light sensor: one occlusion
// test per light from the robot's centre, then an angular falloff over
// the ring.
type lightRotZ struct {
	r        *entity.Robot
	noise    float64
	ShowRays bool
	readings []ci.LightReading
}

func lightRotZFactory(m *entity.RobotModel) Factory {
	return func(r *entity.Robot, n *config.Node) (any, error) {
		if err := n.CheckAttrs("implementation", "noise_level", "show_rays"); err != nil {
			return nil, err
		}
		if err := requireModel(n, r, m, ci.TagLight); err != nil {
			return nil, err
		}
		l := &lightRotZ{r: r}
		var err error
		if l.noise, err = noiseLevel(n); err != nil {
			return nil, err
		}
		if l.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
			return nil, err
		}
		l.readings = ringReadings(r.Model.Light.Angles)
		return l, nil
	}
}

func ringReadings(angles []float64) []ci.LightReading {
	rd := make([]ci.LightReading, len(angles))
	for i, a := range angles {
		rd[i].Angle = a
	}
	return rd
}

var _ ci.Light = (*lightRotZ)(nil)

func (l *lightRotZ) Readings() []ci.LightReading { return l.readings }

// FootBotLightResponse is ARGoS's footbot_light reading of a sensor that
// looks angle radians away from a light at distance d metres of
// intensity in: exp(-2 d/in) (0 when d/in > 2.5) times 1 - 2 angle/pi (0
// beyond pi/2).
func FootBotLightResponse(d, in, angle float64) float64 {
	x := d / in
	angle = math.Abs(angle)
	if x > 2.5 || angle >= math.Pi/2 {
		return 0
	}
	return math.Exp(-2*x) * (1 - 2*angle/math.Pi)
}

func (l *lightRotZ) Update() {
	for i := range l.readings {
		l.readings[i].Value = 0
	}
	w := l.r.World
	b := l.r.B()
	if w != nil {
		origin := ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
		for _, lt := range w.Lights {
			if lt.Intensity <= 0 {
				continue
			}
			v := lt.Position.Sub(origin)
			d := v.Length()
			if d/lt.Intensity > 2.5 || media.Occluded(l.r.Space, origin, lt.Position, l.r.Body, -1) {
				continue
			}
			dir := ci.NormalizeAngle(math.Atan2(v.Y, v.X) - b.Yaw)
			for i := range l.readings {
				l.readings[i].Value += FootBotLightResponse(d, lt.Intensity, ci.NormalizeAngle(dir-l.readings[i].Angle))
			}
		}
	}
	for i := range l.readings {
		v := l.readings[i].Value
		if l.noise > 0 {
			v += uniform(l.r, -l.noise, l.noise)
		}
		l.readings[i].Value = entity.Clamp01(v)
	}
}

func (l *lightRotZ) Reset() {
	for i := range l.readings {
		l.readings[i].Value = 0
	}
}

func (l *lightRotZ) Inspect() any { return lightInspection(l.readings) }

func lightInspection(rd []ci.LightReading) RingInspection {
	out := RingInspection{Values: make([]float64, len(rd)), AnglesDeg: make([]float64, len(rd))}
	for i, r := range rd {
		out.Values[i], out.AnglesDeg[i] = r.Value, ci.Degrees(r.Angle)
	}
	return out
}

// lightGeneric is ARGoS's generic light sensor ("light"): a ray from each
// sensor to each light.
type lightGeneric struct {
	r        *entity.Robot
	ring     *entity.LightRing
	noise    float64
	ShowRays bool
	readings []ci.LightReading
}

func newLightGeneric(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "noise_level", "show_rays"); err != nil {
		return nil, err
	}
	if len(r.Model.Light.Angles) == 0 {
		return nil, n.Errorf("devices: robot %q is a %s, which has no light sensors", r.ID, r.Model.Type)
	}
	l := &lightGeneric{r: r, ring: &r.Model.Light}
	var err error
	if l.noise, err = noiseLevel(n); err != nil {
		return nil, err
	}
	if l.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
		return nil, err
	}
	l.readings = ringReadings(l.ring.Angles)
	return l, nil
}

var _ ci.Light = (*lightGeneric)(nil)

func (l *lightGeneric) Readings() []ci.LightReading { return l.readings }

func (l *lightGeneric) Update() {
	b := l.r.B()
	var lights []*entity.Light
	if l.r.World != nil {
		lights = l.r.World.Lights
	}
	for i := range l.readings {
		s, c := math.Sincos(b.Yaw + l.readings[i].Angle)
		at := ci.Vector3{X: b.Pos.X + c*l.ring.Radius, Y: b.Pos.Y + s*l.ring.Radius, Z: b.Z + l.ring.Height}
		v := 0.0
		for _, lt := range lights {
			if lt.Intensity <= 0 {
				continue
			}
			d := lt.Position.Sub(at)
			// the robot's own body hides the lights behind the sensor
			if d.X*c+d.Y*s < 0 || media.Occluded(l.r.Space, at, lt.Position, l.r.Body, -1) {
				continue
			}
			d2 := d.X*d.X + d.Y*d.Y + d.Z*d.Z
			v += lt.Intensity * lt.Intensity / d2
		}
		if l.noise > 0 {
			v += uniform(l.r, -l.noise, l.noise)
		}
		l.readings[i].Value = entity.Clamp01(v)
	}
}

func (l *lightGeneric) Reset() {
	for i := range l.readings {
		l.readings[i].Value = 0
	}
}

func (l *lightGeneric) Inspect() any { return lightInspection(l.readings) }
