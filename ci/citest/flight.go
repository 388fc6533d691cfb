package citest

import "github.com/argosgo/argos/ci"

// Fakes of the eye-bot's flight devices: the position set-point actuator,
// the altitude sensor and the laser pointer. Like the others in this
// package they record what the controller asked for and return what the
// test set.

// QuadrotorPosition is a fake quadrotor_position actuator: it keeps the
// set-point the controller asked for. Relative commands move the last
// set-point (the fake has no pose of its own; a test that flies the robot
// sets Position to the robot's pose before each step when it needs
// ARGoS's pose-relative semantics). The zero value is ready to use.
type QuadrotorPosition struct {
	// Position and Yaw are the set-point, in metres and radians.
	Position ci.Vector3
	Yaw      float64
	// Calls counts every command.
	Calls int
}

var _ ci.QuadrotorPosition = (*QuadrotorPosition)(nil)

// SetAbsolutePosition sets the position set-point.
func (q *QuadrotorPosition) SetAbsolutePosition(p ci.Vector3) { q.Position = p; q.Calls++ }

// SetRelativePosition moves the position set-point by d.
func (q *QuadrotorPosition) SetRelativePosition(d ci.Vector3) {
	q.Position = q.Position.Add(d)
	q.Calls++
}

// SetAbsoluteYaw sets the yaw set-point.
func (q *QuadrotorPosition) SetAbsoluteYaw(yaw float64) { q.Yaw = ci.NormalizeAngle(yaw); q.Calls++ }

// SetRelativeYaw turns the yaw set-point by d.
func (q *QuadrotorPosition) SetRelativeYaw(d float64) {
	q.Yaw = ci.NormalizeAngle(q.Yaw + d)
	q.Calls++
}

// Altitude is a fake altitude sensor: Reading returns Value (metres).
type Altitude struct {
	Value float64
}

var _ ci.Altitude = (*Altitude)(nil)

// Reading returns Value.
func (a *Altitude) Reading() float64 { return a.Value }

// LaserPointer is a fake laser pointer that records its state.
type LaserPointer struct {
	// Lit tells whether the laser is on, Color its last colour.
	Lit   bool
	Color ci.Color
	// Ons and Offs count the calls.
	Ons, Offs int
}

var _ ci.LaserPointer = (*LaserPointer)(nil)

// On turns the laser on with colour c.
func (l *LaserPointer) On(c ci.Color) { l.Lit, l.Color = true, c; l.Ons++ }

// Off turns it off.
func (l *LaserPointer) Off() { l.Lit = false; l.Offs++ }

// IsOn reports whether the laser is on.
func (l *LaserPointer) IsOn() bool { return l.Lit }
