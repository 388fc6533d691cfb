package epuckobstacleavoidance_test

import (
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	epuckobstacleavoidance "github.com/argosgo/argos/controllers/epuck_obstacleavoidance"
)

func TestSteersAwayFromTheClosestFrontReading(t *testing.T) {
	for _, tc := range []struct {
		name        string
		readings    map[int]float64
		left, right float64
	}{
		{"free", nil, 5, 5},
		{"front-left", map[int]float64{0: 0.3}, 5, 0},
		{"left", map[int]float64{1: 0.3}, 5, 0},
		{"front-right", map[int]float64{7: 0.3}, 0, 5},
		{"right", map[int]float64{6: 0.3}, 0, 5},
		{"closer on the right", map[int]float64{0: 0.2, 7: 0.6}, 0, 5},
		{"a tie keeps ARGoS's first sensor", map[int]float64{0: 0.5, 7: 0.5}, 5, 0},
		{"behind", map[int]float64{3: 0.9, 4: 0.9}, 5, 5},
	} {
		for _, tag := range []string{ci.TagProximity, ci.TagEPuckProximity} {
			w, prox := &citest.Wheels{}, citest.NewEPuckProximity()
			r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w).AddSensor(tag, prox)
			c := epuckobstacleavoidance.New()
			if err := c.Init(r, ci.NewParams("velocity", "5")); err != nil {
				t.Fatal(err)
			}
			for i, v := range tc.readings {
				prox.Set(i, v)
			}
			c.ControlStep()
			if w.Left != tc.left || w.Right != tc.right {
				t.Errorf("%s (%s): wheels %g, %g; want %g, %g", tc.name, tag, w.Left, w.Right, tc.left, tc.right)
			}
		}
	}
}

func TestLifeCycle(t *testing.T) {
	r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).AddSensor(ci.TagProximity, citest.NewEPuckProximity())
	citest.TestController(t, func() ci.Controller { return epuckobstacleavoidance.New() }, r, ci.NewParams(), 20)
	bare := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{})
	if err := epuckobstacleavoidance.New().Init(bare, ci.NewParams()); err == nil {
		t.Error("Init without a proximity sensor succeeded")
	}
}
