package citest

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Fakes of the foot-bot's light sensors, ground sensors, coloured-blob
// camera, range-and-bearing device and gripper. Like the others in this
// package they return what the test set and record what the controller
// asked for.

// Light is a fake ring of light sensors. Readings start at 0 (no light
// seen); the test sets them with Set and SetAll.
type Light struct {
	readings []ci.LightReading
}

var _ ci.Light = (*Light)(nil)

// NewLight returns a ring with one sensor per angle (radians,
// counter-clockwise from the front), in that order, all reading 0.
func NewLight(angles ...float64) *Light {
	l := &Light{readings: make([]ci.LightReading, len(angles))}
	for i, a := range angles {
		l.readings[i].Angle = a
	}
	return l
}

// NewFootBotLight returns the foot-bot's ring of 24 light sensors, at the
// angles of its proximity ring (docs/robots.md): sensor i at pi/24 + i*pi/12,
// normalized to (-pi, pi].
func NewFootBotLight() *Light {
	angles := make([]float64, 24)
	for i := range angles {
		angles[i] = ci.NormalizeAngle(math.Pi/24 + float64(i)*math.Pi/12)
	}
	return NewLight(angles...)
}

// Len returns the number of sensors.
func (l *Light) Len() int { return len(l.readings) }

// Set sets the value of sensor i; an index out of range panics.
func (l *Light) Set(i int, v float64) {
	if i < 0 || i >= len(l.readings) {
		panic(fmt.Sprintf("citest: Light.Set(%d): the ring has %d sensors", i, len(l.readings)))
	}
	l.readings[i].Value = v
}

// SetAll sets sensor i to values[i]; sensors beyond the values read 0.
// More values than sensors panics.
func (l *Light) SetAll(values ...float64) {
	if len(values) > len(l.readings) {
		panic(fmt.Sprintf("citest: Light.SetAll: %d values for %d sensors", len(values), len(l.readings)))
	}
	for i := range l.readings {
		v := 0.0
		if i < len(values) {
			v = values[i]
		}
		l.readings[i].Value = v
	}
}

// SetToward lights the ring as a single light in direction angle (radians,
// counter-clockwise from the front) would: each sensor reads
// peak*cos(angle between the sensor and the light) when that is positive,
// 0 otherwise.
func (l *Light) SetToward(angle, peak float64) {
	for i := range l.readings {
		c := math.Cos(l.readings[i].Angle - angle)
		l.readings[i].Value = math.Max(0, peak*c)
	}
}

// Readings returns the ring's readings; the slice belongs to l.
func (l *Light) Readings() []ci.LightReading { return l.readings }

// Ground is a fake set of ground sensors. Readings start at 1 (a white
// floor); the test sets them with Set and SetAll.
type Ground struct {
	readings []ci.GroundReading
}

var _ ci.Ground = (*Ground)(nil)

// NewGround returns one sensor per offset (metres in the robot's frame, X
// forward, Y left), in that order, all reading 1 (white).
func NewGround(offsets ...ci.Vector2) *Ground {
	g := &Ground{readings: make([]ci.GroundReading, len(offsets))}
	for i, o := range offsets {
		g.readings[i] = ci.GroundReading{Value: 1, Offset: o}
	}
	return g
}

// NewFootBotMotorGround returns the foot-bot's four motor ground sensors
// at the offsets of ARGoS's ci_footbot_motor_ground_sensor.cpp (6.3 cm
// forward or back, 1.16 cm left or right): 0 front-left, 1 back-left,
// 2 back-right, 3 front-right.
func NewFootBotMotorGround() *Ground {
	return NewGround(
		ci.Vector2{X: 0.063, Y: 0.0116},
		ci.Vector2{X: -0.063, Y: 0.0116},
		ci.Vector2{X: -0.063, Y: -0.0116},
		ci.Vector2{X: 0.063, Y: -0.0116},
	)
}

// Len returns the number of sensors.
func (g *Ground) Len() int { return len(g.readings) }

// Set sets the value of sensor i; an index out of range panics.
func (g *Ground) Set(i int, v float64) {
	if i < 0 || i >= len(g.readings) {
		panic(fmt.Sprintf("citest: Ground.Set(%d): there are %d sensors", i, len(g.readings)))
	}
	g.readings[i].Value = v
}

// SetAll sets every sensor to v (0 black, 0.5 grey, 1 white).
func (g *Ground) SetAll(v float64) {
	for i := range g.readings {
		g.readings[i].Value = v
	}
}

// Readings returns the readings; the slice belongs to g.
func (g *Ground) Readings() []ci.GroundReading { return g.readings }

// BlobCamera is a fake coloured-blob camera (omnidirectional or
// perspective). It starts disabled, as the simulated and real ones do;
// while disabled it returns no blobs, whatever the test set.
type BlobCamera struct {
	// Enabled tells whether the controller switched the camera on.
	Enabled bool
	// Enables and Disables count the calls.
	Enables, Disables int
	// List is what the camera sees while enabled.
	List []ci.Blob
}

var _ ci.ColoredBlobCamera = (*BlobCamera)(nil)

// Enable switches the camera on.
func (c *BlobCamera) Enable() { c.Enabled = true; c.Enables++ }

// Disable switches the camera off.
func (c *BlobCamera) Disable() { c.Enabled = false; c.Disables++ }

// Blobs returns List while the camera is enabled, nil otherwise.
func (c *BlobCamera) Blobs() []ci.Blob {
	if !c.Enabled {
		return nil
	}
	return c.List
}

// Set replaces what the camera sees.
func (c *BlobCamera) Set(blobs ...ci.Blob) { c.List = blobs }

// RangeAndBearing is a fake range-and-bearing device: as an actuator it
// keeps the payload the controller set, as a sensor it returns the packets
// the test set. Declare the same value under both tags.
type RangeAndBearing struct {
	// Data is the payload to broadcast, of the size given to
	// NewRangeAndBearing.
	Data []byte
	// Received is what Packets returns.
	Received []ci.RABPacket
}

var (
	_ ci.RangeAndBearingActuator = (*RangeAndBearing)(nil)
	_ ci.RangeAndBearingSensor   = (*RangeAndBearing)(nil)
)

// NewRangeAndBearing returns a device with a zeroed payload of size bytes
// (10 on a foot-bot).
func NewRangeAndBearing(size int) *RangeAndBearing {
	return &RangeAndBearing{Data: make([]byte, size)}
}

// SetData copies data into the start of the payload; more bytes than the
// payload holds panics, as the real devices do.
func (r *RangeAndBearing) SetData(data []byte) {
	if len(data) > len(r.Data) {
		panic(fmt.Sprintf("citest: RangeAndBearing.SetData: %d bytes for a %d-byte payload", len(data), len(r.Data)))
	}
	copy(r.Data, data)
}

// SetByte sets byte i of the payload; an index out of range panics.
func (r *RangeAndBearing) SetByte(i int, b byte) {
	if i < 0 || i >= len(r.Data) {
		panic(fmt.Sprintf("citest: RangeAndBearing.SetByte(%d): the payload has %d bytes", i, len(r.Data)))
	}
	r.Data[i] = b
}

// ClearData zeroes the payload.
func (r *RangeAndBearing) ClearData() { clear(r.Data) }

// Receive replaces the packets received; each packet gets the payload
// given in data, the rest of its fields are zero.
func (r *RangeAndBearing) Receive(data ...[]byte) {
	r.Received = r.Received[:0]
	for _, d := range data {
		r.Received = append(r.Received, ci.RABPacket{Data: d})
	}
}

// Packets returns Received.
func (r *RangeAndBearing) Packets() []ci.RABPacket { return r.Received }

// Gripper is a fake gripper. Lock grips an object when the test said one
// is in reach (InReach); Unlock lets it go.
type Gripper struct {
	// InReach tells whether a grippable object is in front of the
	// gripper; Lock grips it.
	InReach bool
	// Locked is the state the controller asked for last.
	Locked bool
	// Locks and Unlocks count the calls.
	Locks, Unlocks int
	holding        bool
}

var _ ci.Gripper = (*Gripper)(nil)

// Lock closes the gripper, on the object if one is in reach.
func (g *Gripper) Lock() {
	g.Locks++
	g.Locked = true
	g.holding = g.holding || g.InReach
}

// Unlock opens the gripper and drops what it held.
func (g *Gripper) Unlock() {
	g.Unlocks++
	g.Locked, g.holding = false, false
}

// Gripping reports whether something is held.
func (g *Gripper) Gripping() bool { return g.holding }
