package obstacleavoidance_test

import (
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"

	"example.com/mybots/controllers/obstacleavoidance"
)

func TestTurnsAwayFromTheClosestFrontReading(t *testing.T) {
	for _, tc := range []struct {
		sensor      int
		left, right float64
	}{
		{-1, 5, 5}, // nothing ahead: straight
		{0, 5, 0},  // front-left: turn right
		{1, 5, 0},
		{7, 0, 5}, // front-right: turn left
		{6, 0, 5},
		{3, 5, 5}, // behind: ignored
	} {
		w, prox := &citest.Wheels{}, citest.NewEPuckProximity()
		r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(ci.TagProximity, prox)
		c := &obstacleavoidance.Controller{}
		if err := c.Init(r, ci.NewParams("velocity", "5")); err != nil {
			t.Fatal(err)
		}
		if tc.sensor >= 0 {
			prox.Set(tc.sensor, 0.4)
		}
		c.ControlStep()
		if w.Left != tc.left || w.Right != tc.right {
			t.Errorf("sensor %d reads 0.4: wheels %g, %g; want %g, %g", tc.sensor, w.Left, w.Right, tc.left, tc.right)
		}
	}
}

func TestLifeCycle(t *testing.T) {
	r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).AddSensor(ci.TagProximity, citest.NewEPuckProximity())
	citest.TestController(t, func() ci.Controller { return &obstacleavoidance.Controller{} }, r, ci.NewParams(), 20)
}
