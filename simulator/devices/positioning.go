package devices

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// positioning reads the robot's pose.
type positioning struct {
	r       *entity.Robot
	reading ci.PositioningReading
}

func newPositioning(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	return &positioning{r: r}, nil
}

var _ ci.Positioning = (*positioning)(nil)

func (p *positioning) Update() {
	b := p.r.B()
	p.reading = ci.PositioningReading{
		Position:    ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z},
		Orientation: ci.QuaternionFromYaw(b.Yaw),
	}
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
