package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// positioning reads the robot's pose.
type positioning struct {
	r       *entity.Robot
	reading ci.PositioningReading
	// ARGoS's noise ranges: position (m), angle (radians), axis
	pos, angle, axis [2]float64
	noisy            bool
}

func newPositioning(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "pos_noise_range", "angle_noise_range", "axis_noise_range"); err != nil {
		return nil, err
	}
	p := &positioning{r: r}
	for _, a := range []struct {
		name string
		to   *[2]float64
	}{{"pos_noise_range", &p.pos}, {"angle_noise_range", &p.angle}, {"axis_noise_range", &p.axis}} {
		lo, hi, err := noiseRange(n, a.name)
		if err != nil {
			return nil, err
		}
		*a.to = [2]float64{lo, hi}
		p.noisy = p.noisy || hi > lo
	}
	p.angle = [2]float64{ci.Radians(p.angle[0]), ci.Radians(p.angle[1])} // written in degrees
	return p, nil
}

var _ ci.Positioning = (*positioning)(nil)

func (p *positioning) Update() {
	b := p.r.B()
	p.reading = ci.PositioningReading{
		Position:    ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z},
		Orientation: ci.QuaternionFromYaw(b.Yaw),
	}
	if p.noisy {
		p.addNoise()
	}
}

// addNoise perturbs the reading as ARGoS's positioning sensor does: a
// uniform offset on each coordinate, and on the angle and the axis of the
// orientation's angle-axis form.
func (p *positioning) addNoise() {
	u := func(r [2]float64) float64 { return uniform(p.r, r[0], r[1]) }
	p.reading.Position = p.reading.Position.Add(ci.Vector3{X: u(p.pos), Y: u(p.pos), Z: u(p.pos)})
	q := p.reading.Orientation
	angle := 2 * math.Acos(math.Max(-1, math.Min(1, q.W)))
	axis := ci.Vector3{Z: 1}
	if s := math.Sqrt(math.Max(0, 1-q.W*q.W)); s > 1e-12 {
		axis = ci.Vector3{X: q.X / s, Y: q.Y / s, Z: q.Z / s}
	}
	angle += u(p.angle)
	axis = axis.Add(ci.Vector3{X: u(p.axis), Y: u(p.axis), Z: u(p.axis)})
	l := axis.Length()
	if l == 0 {
		axis, l = ci.Vector3{Z: 1}, 1
	}
	s, c := math.Sincos(angle / 2)
	p.reading.Orientation = ci.Quaternion{W: c, X: s * axis.X / l, Y: s * axis.Y / l, Z: s * axis.Z / l}
}

func (p *positioning) Reading() ci.PositioningReading { return p.reading }

// leds is the leds actuator.
type leds struct {
	r      *entity.Robot
	colors []ci.Color
}

func newLEDs(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "medium"); err != nil {
		return nil, err
	}
	l := &leds{r: r, colors: make([]ci.Color, r.Model.LEDs)}
	for i := range l.colors {
		l.colors[i] = ci.Black
	}
	if len(r.LEDs) != len(l.colors) {
		r.LEDs = make([]ci.Color, len(l.colors))
	}
	copy(r.LEDs, l.colors)
	return l, nil
}

var _ ci.LEDs = (*leds)(nil)

func (l *leds) Len() int { return len(l.colors) }

func (l *leds) SetSingleColor(i int, c ci.Color) {
	if i >= 0 && i < len(l.colors) {
		l.colors[i] = c
	}
}

func (l *leds) SetAllColors(c ci.Color) {
	for i := range l.colors {
		l.colors[i] = c
	}
}

func (l *leds) Apply() { copy(l.r.LEDs, l.colors) }

// Reset switches the LEDs off, as ARGoS's actuator does.
func (l *leds) Reset() { l.SetAllColors(ci.Black) }

var _ Resetter = (*leds)(nil)
