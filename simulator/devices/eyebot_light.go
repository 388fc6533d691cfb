package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
)

// eyeBotLight is the eye-bot's ring of 24 light sensors, ARGoS 3's
// eyebot_light "rot_z_only" (plugins/robots/eye-bot/simulator/
// eyebot_light_rotzonly_sensor.cpp): every light with a positive
// intensity that no body hides from the robot's origin adds
// exp(-2 d) (d: distance over intensity, 0 beyond 2.5) scaled by
// 1 - 2a/pi to the 13 sensors nearest its direction (a: angle between the
// sensor and the light, at most pi/2); the sums are clamped to [0, 1].
type eyeBotLight struct {
	r        *entity.Robot
	noise    float64
	ShowRays bool
	readings []ci.LightReading
}

func newEyeBotLight(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "noise_level", "show_rays"); err != nil {
		return nil, err
	}
	if r.Model != entity.EyeBot {
		return nil, n.Errorf("devices: <%s> is a sensor of the eye-bot, but robot %q is a %s", n.Name, r.ID, r.Model.Type)
	}
	l := &eyeBotLight{r: r}
	var err error
	if l.noise, err = n.FloatOr("noise_level", 0); err != nil {
		return nil, err
	}
	if l.noise < 0 {
		return nil, n.Errorf("devices: noise_level=%g must not be negative", l.noise)
	}
	if l.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
		return nil, err
	}
	angles := r.Model.Light.Angles
	l.readings = make([]ci.LightReading, len(angles))
	for i, a := range angles {
		l.readings[i].Angle = a
	}
	return l, nil
}

var (
	_ ci.Light  = (*eyeBotLight)(nil)
	_ Inspector = (*eyeBotLight)(nil)
)

func (l *eyeBotLight) Readings() []ci.LightReading { return l.readings }

const (
	eyeBotLightSpacing = math.Pi / 12
	eyeBotLightReach   = 2.5 // m, scaled by intensity
)

func (l *eyeBotLight) Update() {
	for i := range l.readings {
		l.readings[i].Value = 0
	}
	b := l.r.B()
	from := ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
	n := len(l.readings)
	if l.r.World != nil {
		for _, light := range l.r.World.Lights {
			if light.Intensity <= 0 {
				continue
			}
			v := light.Position.Sub(from)
			d := v.Length() / light.Intensity
			if d > eyeBotLightReach || media.Occluded(l.r.Space, from, light.Position, l.r.Body, -1) {
				continue
			}
			a := ci.NormalizeAngle(math.Atan2(v.Y, v.X) - b.Yaw)
			near := int(math.Round((a - eyeBotLightSpacing/2) / eyeBotLightSpacing))
			base := math.Exp(-2 * d)
			for k := -6; k <= 6; k++ {
				i := ((near+k)%n + n) % n
				off := math.Abs(ci.NormalizeAngle(a - l.readings[i].Angle))
				if off <= math.Pi/2 {
					l.readings[i].Value += base * (1 - 2*off/math.Pi)
				}
			}
		}
	}
	for i := range l.readings {
		v := l.readings[i].Value
		if l.noise > 0 {
			v += l.noise * (2*l.r.Rand.Float64() - 1)
		}
		l.readings[i].Value = math.Max(0, math.Min(1, v))
	}
}

func (l *eyeBotLight) Inspect() any {
	out := RingInspection{Values: make([]float64, len(l.readings)), AnglesDeg: make([]float64, len(l.readings))}
	for i, r := range l.readings {
		out.Values[i], out.AnglesDeg[i] = r.Value, ci.Degrees(r.Angle)
	}
	return out
}

// Reset clears the readings.
func (l *eyeBotLight) Reset() {
	for i := range l.readings {
		l.readings[i].Value = 0
	}
}

var _ Resetter = (*eyeBotLight)(nil)
