package citest

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Wheels is a fake differential-steering actuator and sensor. As an
// actuator it records the last SetLinearVelocity; as a sensor it returns
// what SetReading gave it. The zero value is ready to use.
type Wheels struct {
	// Left and Right are the wheel speeds, in cm/s, of the last call to
	// SetLinearVelocity.
	Left, Right float64
	// Calls counts the calls to SetLinearVelocity.
	Calls int

	reading ci.DifferentialSteeringReading
}

var (
	_ ci.DifferentialSteeringActuator = (*Wheels)(nil)
	_ ci.DifferentialSteeringSensor   = (*Wheels)(nil)
)

// SetLinearVelocity records the wheel speeds.
func (w *Wheels) SetLinearVelocity(left, right float64) {
	w.Left, w.Right = left, right
	w.Calls++
}

// SetReading sets what Reading returns.
func (w *Wheels) SetReading(r ci.DifferentialSteeringReading) { w.reading = r }

// Reading returns the value last given to SetReading (zero at first).
func (w *Wheels) Reading() ci.DifferentialSteeringReading { return w.reading }

// Proximity is a fake ring of proximity sensors. Readings start at 0
// (nothing sensed); the test sets them with Set and SetAll. Values are
// passed through unchecked, so a test may also feed out-of-range values.
type Proximity struct {
	readings []ci.ProximityReading
}

var _ ci.Proximity = (*Proximity)(nil)

// NewProximity returns a ring with one sensor per angle (radians,
// counter-clockwise from the front), in that order, all reading 0.
func NewProximity(angles ...float64) *Proximity {
	p := &Proximity{readings: make([]ci.ProximityReading, len(angles))}
	for i, a := range angles {
		p.readings[i].Angle = a
	}
	return p
}

// NewFootBotProximity returns the foot-bot's ring: 24 sensors, sensor i at
// pi/24 + i*pi/12, normalized to (-pi, pi] with [ci.NormalizeAngle] (so
// sensor 23 is at -pi/24, just right of the front).
func NewFootBotProximity() *Proximity {
	angles := make([]float64, 24)
	for i := range angles {
		angles[i] = ci.NormalizeAngle(math.Pi/24 + float64(i)*math.Pi/12)
	}
	return NewProximity(angles...)
}

// ePuckProximityDegrees are the e-puck's sensor angles, counter-clockwise
// from the front, in the order of ARGoS 3's e-puck model (docs/robots.md).
var ePuckProximityDegrees = [8]float64{17, 50, 90, 150, 210, 270, 310, 343}

// NewEPuckProximity returns the e-puck's ring as ARGoS 3 models it: 8
// sensors at 17, 50, 90, 150, 210, 270, 310 and 343 degrees, in radians
// normalized to (-pi, pi] with [ci.NormalizeAngle] (so the last one is at
// -17 degrees, the front-right).
func NewEPuckProximity() *Proximity {
	angles := make([]float64, len(ePuckProximityDegrees))
	for i, d := range ePuckProximityDegrees {
		angles[i] = ci.NormalizeAngle(ci.Radians(d))
	}
	return NewProximity(angles...)
}

// Len returns the number of sensors.
func (p *Proximity) Len() int { return len(p.readings) }

// Set sets the value of sensor i. An index out of range is a mistake in
// the test and panics.
func (p *Proximity) Set(i int, v float64) {
	if i < 0 || i >= len(p.readings) {
		panic(fmt.Sprintf("citest: Proximity.Set(%d): the ring has %d sensors", i, len(p.readings)))
	}
	p.readings[i].Value = v
}

// SetAll sets sensor i to values[i]; sensors beyond the values read 0, so
// SetAll() clears the ring. More values than sensors panics.
func (p *Proximity) SetAll(values ...float64) {
	if len(values) > len(p.readings) {
		panic(fmt.Sprintf("citest: Proximity.SetAll: %d values for %d sensors", len(values), len(p.readings)))
	}
	for i := range p.readings {
		v := 0.0
		if i < len(values) {
			v = values[i]
		}
		p.readings[i].Value = v
	}
}

// Readings returns the ring's readings. Like a real device, the slice
// belongs to p and changes with the next Set or SetAll.
func (p *Proximity) Readings() []ci.ProximityReading { return p.readings }

// Positioning is a fake positioning sensor returning a settable pose. The
// zero value reads the origin with a zero quaternion; use SetPose or Set.
type Positioning struct {
	reading ci.PositioningReading
}

var _ ci.Positioning = (*Positioning)(nil)

// NewPositioning returns a positioning sensor reading (x, y, 0) in metres
// with the given yaw in radians.
func NewPositioning(x, y, yaw float64) *Positioning {
	p := &Positioning{}
	p.SetPose(x, y, yaw)
	return p
}

// Set sets what Reading returns.
func (p *Positioning) Set(r ci.PositioningReading) { p.reading = r }

// SetPose sets the reading to position (x, y, 0) in metres, turned by yaw
// radians about the vertical axis.
func (p *Positioning) SetPose(x, y, yaw float64) {
	p.reading = ci.PositioningReading{
		Position:    ci.Vector3{X: x, Y: y},
		Orientation: ci.QuaternionFromYaw(yaw),
	}
}

// Reading returns the pose last set.
func (p *Positioning) Reading() ci.PositioningReading { return p.reading }

// LEDs is a fake ring of RGB LEDs that records the colours set.
type LEDs struct {
	// Colors holds the colour of each LED, black (off) at first.
	Colors []ci.Color
	// Calls counts the calls to SetSingleColor and SetAllColors,
	// including those with an index out of range.
	Calls int
}

var _ ci.LEDs = (*LEDs)(nil)

// NewLEDs returns n LEDs, all black.
func NewLEDs(n int) *LEDs {
	l := &LEDs{Colors: make([]ci.Color, n)}
	for i := range l.Colors {
		l.Colors[i] = ci.Black
	}
	return l
}

// Len returns the number of LEDs.
func (l *LEDs) Len() int { return len(l.Colors) }

// SetSingleColor sets LED i; an index out of range is ignored, as
// [ci.LEDs] specifies.
func (l *LEDs) SetSingleColor(i int, c ci.Color) {
	l.Calls++
	if i >= 0 && i < len(l.Colors) {
		l.Colors[i] = c
	}
}

// SetAllColors sets every LED.
func (l *LEDs) SetAllColors(c ci.Color) {
	l.Calls++
	for i := range l.Colors {
		l.Colors[i] = c
	}
}
