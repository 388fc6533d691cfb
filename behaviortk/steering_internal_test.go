package behaviortk

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
)

func TestSteeringSpeeds(t *testing.T) {
	argos := WheelTurning{HardTurnAngle: ci.Radians(90), SoftTurnAngle: ci.Radians(70), NoTurnAngle: ci.Radians(10), MaxSpeed: 10}
	soft := func(deg, length float64) (slow, fast float64) {
		f := (90 - deg) / 90
		base := math.Min(length, 10)
		return base * f, base * (2 - f)
	}
	s80, f80 := soft(80, 5)
	s50, f50 := soft(50, 20)
	for _, tc := range []struct {
		name        string
		from        Turning
		heading     ci.Vector2 // degrees, length
		left, right float64
		then        Turning
	}{
		{"ahead", NoTurn, ci.FromPolar(10, 0), 10, 10, NoTurn},
		{"ahead, short", NoTurn, ci.FromPolar(4, 0), 4, 4, NoTurn},
		{"ahead, long: clamped", NoTurn, ci.FromPolar(25, 0), 10, 10, NoTurn},
		{"10 degrees left: no turn", HardTurn, ci.FromPolar(10, ci.Radians(10)), 10, 10, NoTurn},
		{"60 degrees left while going straight: no turn", NoTurn, ci.FromPolar(10, ci.Radians(60)), 10, 10, NoTurn},
		{"80 degrees left while going straight: soft", NoTurn, ci.FromPolar(5, ci.Radians(80)), s80, f80, SoftTurn},
		{"80 degrees right while going straight: soft", NoTurn, ci.FromPolar(5, ci.Radians(-80)), f80, s80, SoftTurn},
		{"50 degrees left after a hard turn: still hard (hysteresis)", HardTurn, ci.FromPolar(20, ci.Radians(50)), -10, 10, HardTurn},
		{"50 degrees left during a soft turn: soft", SoftTurn, ci.FromPolar(20, ci.Radians(50)), s50, f50, SoftTurn},
		{"90 degrees left: still soft", NoTurn, ci.FromPolar(5, ci.Radians(90)), 0, 10, SoftTurn},
		{"100 degrees left: hard", NoTurn, ci.FromPolar(1, ci.Radians(100)), -10, 10, HardTurn},
		{"100 degrees right: hard", SoftTurn, ci.FromPolar(1, ci.Radians(-100)), 10, -10, HardTurn},
		{"behind: hard, to the right as ARGoS", NoTurn, ci.Vector2{X: -1}, 10, -10, HardTurn},
		{"zero vector: no turn, stopped", NoTurn, ci.Vector2{}, 0, 0, NoTurn},
	} {
		s := Steering{WheelTurning: argos, Mechanism: tc.from}
		l, r := s.Speeds(tc.heading)
		if math.Abs(l-tc.left) > 1e-12 || math.Abs(r-tc.right) > 1e-12 {
			t.Errorf("%s: wheels (%v, %v), want (%v, %v)", tc.name, l, r, tc.left, tc.right)
		}
		if s.Mechanism != tc.then {
			t.Errorf("%s: mechanism %v, want %v", tc.name, s.Mechanism, tc.then)
		}
	}
}

func TestTurningNames(t *testing.T) {
	for m, want := range map[Turning]string{NoTurn: "no turn", SoftTurn: "soft turn",
		HardTurn: "hard turn", 7: "unknown turn"} {
		if m.String() != want {
			t.Errorf("Turning(%d) = %q, want %q", int(m), m.String(), want)
		}
	}
}
