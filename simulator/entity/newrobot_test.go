package entity_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
)

func TestNewRobotSpec(t *testing.T) {
	s, err := entity.NewRobotSpec("foot-bot", "fb7", "ffc", ci.Vector3{X: 1, Y: -2}, math.Pi/2)
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "fb7" || s.Body.ID != "fb7" || s.ControllerID != "ffc" || s.Robot != entity.FootBot || !s.Embodied {
		t.Errorf("spec %+v", s)
	}
	if s.Body.Pos != (ci.Vector2{X: 1, Y: -2}) || math.Abs(s.Body.Yaw-math.Pi/2) > 1e-12 || s.Body.Radius < 0.08 {
		t.Errorf("body %+v", s.Body)
	}
	for _, bad := range [][2]string{{"box", "x"}, {"tank", "x"}, {"e-puck", ""}} {
		if _, err := entity.NewRobotSpec(bad[0], bad[1], "c", ci.Vector3{}, 0); err == nil {
			t.Errorf("NewRobotSpec(%q, id %q) succeeded", bad[0], bad[1])
		}
	}
}
