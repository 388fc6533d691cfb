package manualcontrol_test

import (
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	manualcontrol "github.com/argosgo/argos/controllers/footbot_manualcontrol"
)

func TestDrivesOnlyWhenSelected(t *testing.T) {
	w, leds := &citest.Wheels{}, citest.NewLEDs(12)
	r := citest.NewRobot("fb0", 1).AddActuator(ci.TagDifferentialSteering, w).AddActuator(ci.TagLEDs, leds)
	c := manualcontrol.New()
	if err := c.Init(r, ci.NewParams()); err != nil {
		t.Fatal(err)
	}
	c.SetControlVector(ci.Vector2{X: 10})
	c.ControlStep()
	if w.Left != 0 || w.Right != 0 {
		t.Fatalf("unselected: wheels %g, %g", w.Left, w.Right)
	}
	c.Select()
	if leds.Colors[0] != ci.Red {
		t.Errorf("selected: LED %v, want red", leds.Colors[0])
	}
	for _, tc := range []struct {
		v           ci.Vector2
		left, right float64
	}{
		{ci.Vector2{X: 10}, 10, 10},   // straight
		{ci.Vector2{Y: 10}, 0, 20},    // 90 degrees left: a soft turn at its sharpest (hard is above 90)
		{ci.Vector2{X: -10}, 10, -10}, // behind: hard turn
		{ci.Vector2{}, 0, 0},          // no key
	} {
		c.SetControlVector(tc.v)
		c.ControlStep()
		if w.Left != tc.left || w.Right != tc.right {
			t.Errorf("control %v: wheels %g, %g; want %g, %g", tc.v, w.Left, w.Right, tc.left, tc.right)
		}
	}
	c.Deselect()
	c.SetControlVector(ci.Vector2{X: 10})
	c.ControlStep()
	if w.Left != 0 || leds.Colors[0] != ci.Black {
		t.Errorf("deselected: wheels %g, LED %v", w.Left, leds.Colors[0])
	}
}

func TestBadWheelTurning(t *testing.T) {
	p := ci.NewParams()
	wt := ci.NewParams("max_speed", "-3")
	wt.Name = "wheel_turning"
	p.Children = append(p.Children, wt)
	r := citest.NewRobot("fb0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).AddActuator(ci.TagLEDs, citest.NewLEDs(12))
	if err := manualcontrol.New().Init(r, p); err == nil {
		t.Error("max_speed=-3 accepted")
	}
}
