package behaviortk

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Turning is the way the robot turns toward a heading: ARGoS's
// SWheelTurningParams::ETurningMechanism.
type Turning int

const (
	// NoTurn: both wheels at the same speed.
	NoTurn Turning = iota
	// SoftTurn: both wheels forward, one faster.
	SoftTurn
	// HardTurn: the wheels at opposite speeds, turning on the spot.
	HardTurn
)

// String returns the name ARGoS gives the mechanism.
func (t Turning) String() string {
	switch t {
	case NoTurn:
		return "no turn"
	case SoftTurn:
		return "soft turn"
	case HardTurn:
		return "hard turn"
	}
	return "unknown turn"
}

// WheelTurning are the parameters of <wheel_turning>: the heading angles
// (radians) at which the robot switches between going straight, turning
// softly and turning on the spot, and the top wheel speed (cm/s).
type WheelTurning struct {
	HardTurnAngle, SoftTurnAngle, NoTurnAngle float64
	MaxSpeed                                  float64
}

// Steering turns a heading vector into wheel speeds with ARGoS's
// SetWheelSpeedsFromVector (its foraging and flocking examples): a state
// machine with hysteresis between going straight, turning softly and
// turning on the spot.
type Steering struct {
	WheelTurning
	// Mechanism is the current way of turning.
	Mechanism Turning
}

// Reset goes back to going straight.
func (s *Steering) Reset() { s.Mechanism = NoTurn }

// Speeds returns the left and right wheel speeds (cm/s) that drive toward
// heading, whose length is the wanted speed.
func (s *Steering) Speeds(heading ci.Vector2) (left, right float64) {
	angle := heading.Angle()
	if angle == math.Pi {
		angle = -math.Pi // ARGoS's SignedNormalize maps into [-pi, pi)
	}
	abs := math.Abs(angle)
	base := math.Min(heading.Length(), s.MaxSpeed)
	switch {
	case abs <= s.NoTurnAngle:
		s.Mechanism = NoTurn
	case abs > s.HardTurnAngle:
		s.Mechanism = HardTurn
	case s.Mechanism == NoTurn && abs > s.SoftTurnAngle:
		s.Mechanism = SoftTurn
	}
	var slow, fast float64
	switch s.Mechanism {
	case NoTurn:
		slow, fast = base, base
	case SoftTurn:
		factor := (s.HardTurnAngle - abs) / s.HardTurnAngle
		slow, fast = base*factor, base*(2-factor)
	case HardTurn:
		slow, fast = -s.MaxSpeed, s.MaxSpeed
	}
	if angle > 0 { // the heading is to the left: the left wheel is the slow one
		return slow, fast
	}
	return fast, slow
}

// ParseWheelTurning reads ARGoS's <wheel_turning> element of a
// controller's <params> over def: hard_turn_angle_threshold,
// soft_turn_angle_threshold and no_turn_angle_threshold in degrees
// ([0, 180]; the hard one above 0) and max_speed in cm/s (finite, 0 or
// more). A
// missing element or attribute keeps def's value.
func ParseWheelTurning(p ci.Params, def WheelTurning) (WheelTurning, error) {
	w := p.ChildOr("wheel_turning")
	out := def
	for _, f := range []struct {
		attr    string
		v       *float64
		degrees bool
	}{
		{"hard_turn_angle_threshold", &out.HardTurnAngle, true},
		{"soft_turn_angle_threshold", &out.SoftTurnAngle, true},
		{"no_turn_angle_threshold", &out.NoTurnAngle, true},
		{"max_speed", &out.MaxSpeed, false},
	} {
		d := *f.v
		if f.degrees {
			d = ci.Degrees(d)
		}
		v, err := w.FloatOr(f.attr, d)
		if err != nil {
			return def, fmt.Errorf("behaviortk: %w", err)
		}
		hi := math.Inf(1)
		if f.degrees {
			hi = 180
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > hi {
			return def, fmt.Errorf("behaviortk: %s: %s=%q is out of range; give a number in [0, %g], like %g", w.Location(), f.attr, w.Attrs[f.attr], hi, d)
		}
		if f.degrees {
			v = ci.Radians(v)
		}
		*f.v = v
	}
	if out.HardTurnAngle <= 0 {
		return def, fmt.Errorf("behaviortk: %s: hard_turn_angle_threshold must be above 0 degrees, like 90", w.Location())
	}
	return out, nil
}
