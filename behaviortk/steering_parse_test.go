package behaviortk_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
)

func TestParseWheelTurning(t *testing.T) {
	def := behaviortk.WheelTurning{HardTurnAngle: math.Pi / 2, SoftTurnAngle: 1, NoTurnAngle: 0.1, MaxSpeed: 10}
	wt := func(attrs ...string) ci.Params {
		p := ci.NewParams()
		p.Children = append(p.Children, ci.NewParams(attrs...))
		p.Children[0].Name = "wheel_turning"
		return p
	}
	got, err := behaviortk.ParseWheelTurning(wt("hard_turn_angle_threshold", "60", "max_speed", "25"), def)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got.HardTurnAngle-math.Pi/3) > 1e-12 || got.MaxSpeed != 25 || got.SoftTurnAngle != 1 || got.NoTurnAngle != 0.1 {
		t.Errorf("parsed %+v", got)
	}
	if got, err := behaviortk.ParseWheelTurning(ci.NewParams(), def); err != nil || got != def {
		t.Errorf("no <wheel_turning>: %+v, %v; want the defaults", got, err)
	}
	for _, bad := range [][]string{
		{"hard_turn_angle_threshold", "0"},
		{"soft_turn_angle_threshold", "200"},
		{"no_turn_angle_threshold", "-1"},
		{"max_speed", "Inf"},
		{"max_speed", "fast"},
	} {
		if _, err := behaviortk.ParseWheelTurning(wt(bad...), def); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("%s=%q: %v", bad[0], bad[1], err)
		}
	}
}
