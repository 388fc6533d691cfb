package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// quadPosition is the quadrotor_position actuator. A set-point is a
// command: Apply writes it into the robot's Flight when the controller
// set one since the last Apply, so that after a reset (which puts the
// Flight back to Hover) the robot hovers until its controller commands
// it again.
type quadPosition struct {
	r     *entity.Robot
	f     *space.Flight
	pos   ci.Vector3
	yaw   float64
	dirty bool
}

func newQuadPosition(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	f, err := claimFlight(r, n, ci.TagQuadrotorPosition)
	if err != nil {
		return nil, err
	}
	q := &quadPosition{r: r, f: f}
	q.rebase()
	return q, nil
}

var _ ci.QuadrotorPosition = (*quadPosition)(nil)

// rebase starts a new set-point from the robot's pose when nobody flies
// it to a position (at start and after a reset), as ARGoS's actuator
// does in Reset.
func (q *quadPosition) rebase() {
	if q.dirty || q.f.Mode == space.ToPosition {
		return
	}
	b := q.r.B()
	q.pos, q.yaw = ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}, b.Yaw
}

func (q *quadPosition) SetAbsolutePosition(p ci.Vector3) {
	q.rebase()
	q.pos, q.dirty = p, true
}

func (q *quadPosition) SetRelativePosition(d ci.Vector3) {
	q.rebase()
	b := q.r.B()
	// ARGoS rotates the offset by the robot's orientation.
	x, y := b.Cos*d.X-b.Sin*d.Y, b.Sin*d.X+b.Cos*d.Y
	q.pos, q.dirty = ci.Vector3{X: b.Pos.X + x, Y: b.Pos.Y + y, Z: b.Z + d.Z}, true
}

func (q *quadPosition) SetAbsoluteYaw(yaw float64) {
	q.rebase()
	q.yaw, q.dirty = ci.NormalizeAngle(yaw), true
}

func (q *quadPosition) SetRelativeYaw(d float64) {
	q.rebase()
	q.yaw, q.dirty = ci.NormalizeAngle(q.r.B().Yaw+d), true
}

func (q *quadPosition) Apply() {
	if !q.dirty {
		return
	}
	q.f.Mode, q.f.Position, q.f.Yaw = space.ToPosition, q.pos, q.yaw
	q.dirty = false
}

// QuadrotorInspection is what a quad-rotor actuator asks for.
type QuadrotorInspection struct {
	Mode   string  `json:"mode"` // "position", "speed" or "hover"
	X      float64 `json:"x"`    // position (m) or velocity (m/s)
	Y      float64 `json:"y"`
	Z      float64 `json:"z"`
	YawDeg float64 `json:"yaw_deg"` // yaw (degrees) or rotational speed (degrees/s)
}

func (q *quadPosition) Inspect() any { return inspectFlight(q.f) }

func inspectFlight(f *space.Flight) QuadrotorInspection {
	switch f.Mode {
	case space.ToPosition:
		p := f.Position
		return QuadrotorInspection{Mode: "position", X: p.X, Y: p.Y, Z: p.Z, YawDeg: ci.Degrees(f.Yaw)}
	case space.AtSpeed:
		v := f.Velocity
		return QuadrotorInspection{Mode: "speed", X: v.X, Y: v.Y, Z: v.Z, YawDeg: ci.Degrees(f.RotSpeed)}
	}
	return QuadrotorInspection{Mode: "hover"}
}

// quadSpeed is the quadrotor_speed actuator.
type quadSpeed struct {
	f     *space.Flight
	vel   ci.Vector3
	rot   float64
	dirty bool
}

func newQuadSpeed(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	f, err := claimFlight(r, n, ci.TagQuadrotorSpeed)
	if err != nil {
		return nil, err
	}
	return &quadSpeed{f: f}, nil
}

var _ ci.QuadrotorSpeed = (*quadSpeed)(nil)

func (q *quadSpeed) SetLinearVelocity(v ci.Vector3) { q.rebase(); q.vel, q.dirty = v, true }
func (q *quadSpeed) SetRotationalSpeed(w float64)   { q.rebase(); q.rot, q.dirty = w, true }

// rebase starts from rest when nobody flies the robot at a speed (at
// start and after a reset).
func (q *quadSpeed) rebase() {
	if !q.dirty && q.f.Mode != space.AtSpeed {
		q.vel, q.rot = ci.Vector3{}, 0
	}
}

func (q *quadSpeed) Apply() {
	if !q.dirty {
		return
	}
	q.f.Mode, q.f.Velocity, q.f.RotSpeed = space.AtSpeed, q.vel, q.rot
	q.dirty = false
}

func (q *quadSpeed) Inspect() any { return inspectFlight(q.f) }

// ceilingAttachment is the ceiling_attachment actuator.
type ceilingAttachment struct {
	f     *space.Flight
	want  bool
	dirty bool
}

func newCeilingAttachment(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	f, err := flightOf(r, n)
	if err != nil {
		return nil, err
	}
	return &ceilingAttachment{f: f}, nil
}

var _ ci.CeilingAttachment = (*ceilingAttachment)(nil)

func (c *ceilingAttachment) Attach() { c.want, c.dirty = true, true }
func (c *ceilingAttachment) Detach() { c.want, c.dirty = false, true }

// Attached reports whether the robot hangs at the ceiling, as the physics
// engine found at the end of the last tick.
func (c *ceilingAttachment) Attached() bool { return c.f.Attached }

func (c *ceilingAttachment) Apply() {
	if c.dirty {
		c.f.Attach, c.dirty = c.want, false
	}
}

// CeilingInspection is the ceiling attachment's state.
type CeilingInspection struct {
	Requested bool `json:"requested"`
	Attached  bool `json:"attached"`
}

func (c *ceilingAttachment) Inspect() any {
	return CeilingInspection{Requested: c.f.Attach, Attached: c.f.Attached}
}

// altitude is the altitude sensor.
type altitude struct {
	r       *entity.Robot
	noise   float64
	reading float64
}

func newAltitude(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "noise_std_dev"); err != nil {
		return nil, err
	}
	a := &altitude{r: r}
	var err error
	if a.noise, err = n.FloatOr("noise_std_dev", 0); err != nil {
		return nil, err
	}
	if a.noise < 0 {
		return nil, n.Errorf("devices: altitude: noise_std_dev=%g must not be negative", a.noise)
	}
	return a, nil
}

var _ ci.Altitude = (*altitude)(nil)

func (a *altitude) Update() {
	v := a.r.B().Z
	if a.noise > 0 {
		v = math.Max(0, v+a.noise*a.r.Rand.NormFloat64())
	}
	a.reading = v
}

func (a *altitude) Reading() float64 { return a.reading }

// AltitudeInspection is the altitude sensor's reading.
type AltitudeInspection struct {
	Altitude float64 `json:"altitude_m"`
}

func (a *altitude) Inspect() any { return AltitudeInspection{Altitude: a.reading} }

var (
	_ Inspector = (*quadPosition)(nil)
	_ Inspector = (*quadSpeed)(nil)
	_ Inspector = (*ceilingAttachment)(nil)
	_ Inspector = (*altitude)(nil)
)

// Reset forgets a set-point not applied yet; the engine's reset has put
// the robot back in Hover.
func (q *quadPosition) Reset() { q.dirty = false }

// Reset forgets the speed set-point.
func (q *quadSpeed) Reset() { q.vel, q.rot, q.dirty = ci.Vector3{}, 0, false }

// Reset forgets an attachment request.
func (c *ceilingAttachment) Reset() { c.want, c.dirty = false, false }

// Reset clears the reading.
func (a *altitude) Reset() { a.reading = 0 }

var (
	_ Resetter = (*quadPosition)(nil)
	_ Resetter = (*quadSpeed)(nil)
	_ Resetter = (*ceilingAttachment)(nil)
	_ Resetter = (*altitude)(nil)
)
