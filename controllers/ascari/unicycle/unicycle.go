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
//
// What FollowLeg reads at every tick of a leg comes first, on two or
// three cache lines: a swarm's controllers run one after the other, each
// reading its own body once a tick.
type Body struct {
	state    ci.DynamicsState
	x, y, th int
	// sent are the commands last set, when known (set): Set does not set
	// them again. Reset forgets them, since the runtime's Reset of the
	// actuator zeroes them.
	set        bool
	sent       [2]uint64 // v and w, as bits
	MaxV, MaxW float64   // limits of the commands (m/s, rad/s)
	leg        leg       // FollowLeg's state
	control    ci.DynamicsControl
	v, w       int
}

// leg is the straight leg FollowLeg drives along.
type leg struct {
	on      bool
	driving bool // facing the goal: w = 0
	// cruising: drive set (MaxV, 0) last, under the limits whose bits
	// are limits; cruise is what Set kept of it and slow2 the squared
	// distance below which the speed falls. While the commands are still
	// those, a tick of the straight part farther than that would set
	// them again: FollowLeg skips drive's arithmetic and Set's clamps.
	cruising bool
	aimed    bool    // bearing holds the bearing from (x, y)
	gx, gy   float64 // the goal
	ux, uy   float64 // the unit vector of the bearing
	slow2    float64
	cruise   [2]uint64
	limits   [2]uint64
	x, y     float64 // where the bearing was taken
	bearing  float64 // the heading to drive on, near theta
	// the turn's divisor of the heading error (h, doubled at each
	// overshoot: a tick longer than h would otherwise swing the heading
	// for ever) and the last heading error
	div, lastE float64
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

// Set sets the forward and the angular speed, clamped to the limits. The
// commands the actuator holds already, bit for bit, are not set again
// (an agent driving straight at full speed sets them at the start of the
// leg only).
func (b *Body) Set(v, w float64) {
	v, w = max(-b.MaxV, min(b.MaxV, v)), max(-b.MaxW, min(b.MaxW, w))
	sent := [2]uint64{math.Float64bits(v), math.Float64bits(w)}
	if b.set && sent == b.sent {
		return
	}
	b.control.Set(b.v, v)
	b.control.Set(b.w, w)
	b.sent, b.set = sent, true
}

// Stop sets both speeds to 0. While the commands are +0 already, under
// positive limits (which Set clamps 0 to +0 under), it returns at once,
// without Set's clamps: an agent waiting for a grant stops at every tick.
func (b *Body) Stop() {
	if b.set && b.sent == [2]uint64{} && b.MaxV > 0 && b.MaxW > 0 {
		return
	}
	b.Set(0, 0)
}

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

// Constants of FollowLeg.
const (
	// legKv is the gain of the forward speed in the last metres: v =
	// min(MaxV, legKv*d), as DriveTo's
	legKv = 6.0
	// legAim is the heading error (rad) below which the agent stops
	// turning and drives
	legAim = 1e-9
	// legOff is how far (m) the goal may fall off the line driven before
	// the agent turns again
	legOff = 0.005
)

// FollowLeg drives to (gx, gy) along a straight leg and reports whether
// the agent is within tol metres of it. Unlike DriveTo, it steers only
// at the start of the leg: it turns on the spot towards the goal, at
// most MaxW, the last tick's command landing on the heading (h is the
// tick's length in seconds; should the heading overshoot, a tick being
// longer, the command is halved until it lands); it then drives straight with w = 0 (so the
// heading stays exactly as it is, and the dynamics' sine and cosine of
// it are not recomputed), at min(MaxV, 6*d) m/s. It turns again if the
// goal falls more than 5 mm off the line driven, or behind the agent.
// A new goal starts a new leg; the state is the Body's, so an agent
// follows one leg at a time (Reset forgets it).
func (b *Body) FollowLeg(gx, gy, tol, h float64) bool {
	l := &b.leg
	if !l.on || gx != l.gx || gy != l.gy {
		*l = leg{on: true, gx: gx, gy: gy}
	}
	x, y, th := b.Pose()
	dx, dy := gx-x, gy-y
	d2 := dx*dx + dy*dy
	if d2 < tol*tol {
		return true
	}
	if l.driving {
		// the goal is ahead and on the line, or the agent turns again
		along, off := dx*l.ux+dy*l.uy, dx*l.uy-dy*l.ux
		if along > 0 && off < legOff && off > -legOff {
			if l.cruising && d2 >= l.slow2 && b.set && b.sent == l.cruise &&
				l.limits == [2]uint64{math.Float64bits(b.MaxV), math.Float64bits(b.MaxW)} {
				return false // drive would set (MaxV, 0), which Set holds already
			}
			b.drive(d2)
			return false
		}
		l.driving, l.aimed = false, false
	}
	if !l.aimed || x != l.x || y != l.y {
		// the heading to the goal, unwrapped near theta
		a := math.Atan2(dy, dx)
		a += 2 * math.Pi * math.Round((th-a)/(2*math.Pi))
		d := math.Sqrt(d2)
		l.aimed, l.x, l.y, l.bearing, l.ux, l.uy = true, x, y, a, dx/d, dy/d
		l.div, l.lastE = 0, 0
	}
	e := l.bearing - th
	if math.Abs(e) <= legAim {
		l.driving = true
		b.drive(d2)
		return false
	}
	if l.div == 0 {
		l.div = h
	} else if e*l.lastE < 0 {
		l.div *= 2 // it overshot: the tick is longer than h
	}
	l.lastE = e
	b.Set(0, e/l.div)
	return false
}

// drive sets the commands of a leg's straight part, d2 the squared
// distance to the goal.
func (b *Body) drive(d2 float64) {
	v := b.MaxV
	r := b.MaxV / legKv
	if d2 < r*r {
		v = legKv * math.Sqrt(d2)
	}
	b.Set(v, 0)
	l := &b.leg
	if l.cruising = v == b.MaxV && d2 >= r*r; l.cruising {
		l.limits = [2]uint64{math.Float64bits(b.MaxV), math.Float64bits(b.MaxW)}
		l.cruise, l.slow2 = b.sent, r*r
	}
}

// Reset forgets the leg FollowLeg was driving along (the next call
// starts a new one) and the commands last set (the next Set sets them
// whatever they are). Call it from the controller's Reset: the runtime
// resets the actuator, whose commands are then 0.
func (b *Body) Reset() { b.leg, b.set = leg{}, false }
