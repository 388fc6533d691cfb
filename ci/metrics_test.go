package ci_test

import (
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
)

type plainRobot struct{}

func (plainRobot) ID() string                  { return "r" }
func (plainRobot) Rand() *rand.Rand            { return nil }
func (plainRobot) Sensor(string) (any, bool)   { return nil, false }
func (plainRobot) Actuator(string) (any, bool) { return nil, false }

type keepingRobot struct {
	plainRobot
	got map[string]float64
}

func (k keepingRobot) Metrics() ci.Recorder {
	return ci.RecorderFunc(func(name string, v float64) { k.got[name] = v })
}

func TestMetrics(t *testing.T) {
	// a runtime that keeps nothing: recording is a no-op
	ci.Metrics(plainRobot{}).Record("x", 1)
	k := keepingRobot{got: map[string]float64{}}
	ci.Metrics(k).Record("x", 2)
	if k.got["x"] != 2 {
		t.Errorf("recorded %v", k.got)
	}
}

func ExampleMetrics() {
	var robot ci.Robot = plainRobot{} // the handle Init receives
	rec := ci.Metrics(robot)
	rec.Record("distance_to_goal", 0.42) // dropped here; written by argos --out in the simulator
}
