// Package unicycle drives an agent whose dynamics the experiment file
// writes as a unicycle (states x, y, theta; controls v, w): it reads the
// pose through the dynamics_state sensor and sets the two controls
// through the dynamics_control actuator. The ASCARI example controllers
// (controllers/ascari/...) share it.
package unicycle

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Body is a unicycle agent's state sensor and control actuator, with the
// positions of x, y, theta, v and w in them.
type Body struct {
	state      ci.DynamicsState
	control    ci.DynamicsControl
	x, y, th   int
	v, w       int
	MaxV, MaxW float64 // limits of the commands (m/s, rad/s)
}

// New finds the devices of r and the states and controls of a unicycle
// in them: states x, y, theta and controls v, w, in any order.
func New(r ci.Robot, maxV, maxW float64) (*Body, error) {
	s, err := ci.GetSensor[ci.DynamicsState](r, ci.TagDynamicsState)
	if err != nil {
		return nil, fmt.Errorf("unicycle: %w", err)
	}
	c, err := ci.GetActuator[ci.DynamicsControl](r, ci.TagDynamicsControl)
	if err != nil {
		return nil, fmt.Errorf("unicycle: %w", err)
	}
	b := &Body{state: s, control: c, x: s.Index("x"), y: s.Index("y"), th: s.Index("theta"),
		v: c.Index("v"), w: c.Index("w"), MaxV: maxV, MaxW: maxW}
	if b.x < 0 || b.y < 0 || b.th < 0 || b.v < 0 || b.w < 0 {
		return nil, fmt.Errorf("unicycle: robot %q: its dynamics has states %v and controls %v; a unicycle needs states x, y, theta and controls v, w",
			r.ID(), s.Names(), c.Names())
	}
	if !(maxV > 0) || !(maxW > 0) {
		return nil, fmt.Errorf("unicycle: robot %q: the speed limits (%g m/s, %g rad/s) must be positive", r.ID(), maxV, maxW)
	}
	return b, nil
}

// Pose returns the agent's position and heading at the last physics step.
func (b *Body) Pose() (x, y, theta float64) {
	v := b.state.Values()
	return v[b.x], v[b.y], v[b.th]
}

// Set sets the forward and the angular speed, clamped to the limits.
func (b *Body) Set(v, w float64) {
	b.control.Set(b.v, max(-b.MaxV, min(b.MaxV, v)))
	b.control.Set(b.w, max(-b.MaxW, min(b.MaxW, w)))
}

// Stop sets both speeds to 0.
func (b *Body) Stop() { b.Set(0, 0) }

// DriveTo steers towards (gx, gy): it turns on the spot while the
// heading is off by more than turnOnly radians, and otherwise drives
// forward at a speed that falls with the distance in the last gain
// metres; it returns the distance left. The gains suit steps of a few
// milliseconds.
func (b *Body) DriveTo(gx, gy float64) float64 {
	x, y, th := b.Pose()
	dx, dy := gx-x, gy-y
	d := math.Sqrt(dx*dx + dy*dy)
	if d < 1e-9 {
		b.Stop()
		return d
	}
	// the heading error in [-pi, pi] (theta is not wrapped: it is a state
	// of the dynamics)
	e := math.Atan2(dy, dx) - th
	e -= 2 * math.Pi * math.Round(e/(2*math.Pi))
	const turnOnly, kw, kv = 0.2, 12.0, 6.0
	v := 0.0
	if math.Abs(e) < turnOnly {
		// cos(e) to within 1e-7 for |e| < 0.2
		e2 := e * e
		v = min(b.MaxV, kv*d) * (1 - e2/2 + e2*e2/24)
	}
	b.Set(v, kw*e)
	return d
}
