package simulator

import (
	"testing"
	"unsafe"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
)

// A million robots carry a million records: the record must not grow
// unnoticed (docs/benchmarks.md, "Up to a million robots").
func TestRobotRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(robot{}); n > 288 {
		t.Errorf("the robot record takes %d bytes, more than the 288 of issue 17; put what is not needed every tick apart", n)
	}
}

type tagSensor struct{ name string }

func (tagSensor) Update() {}

type tagActuator struct{ name string }

func (tagActuator) Apply() {}

// A robot finds its devices by the tags of its controller entry: the
// first of a tag, a sensor and an actuator of one tag apart, nothing
// before its devices are built.
func TestRobotDeviceByTag(t *testing.T) {
	r := &robot{}
	if _, ok := r.device("a", false); ok {
		t.Fatal("a device found before the robot's devices were built")
	}
	r.entry = &config.Controller{
		Sensors:   []config.Device{{Tag: "a"}, {Tag: "b"}, {Tag: "a"}},
		Actuators: []config.Device{{Tag: "b"}, {Tag: "c"}},
	}
	r.sens = []devices.Sensor{tagSensor{"a1"}, tagSensor{"b"}, tagSensor{"a2"}}
	r.acts = []devices.Actuator{tagActuator{"b"}} // "c" not built yet
	for _, tc := range []struct {
		tag      string
		actuator bool
		want     any
	}{
		{"a", false, tagSensor{"a1"}},
		{"b", false, tagSensor{"b"}},
		{"b", true, tagActuator{"b"}},
		{"a", true, nil},
		{"c", true, nil},
		{"d", false, nil},
	} {
		got, ok := r.device(tc.tag, tc.actuator)
		if ok != (tc.want != nil) || got != tc.want {
			t.Errorf("device(%q, %v) = %v, %v; want %v", tc.tag, tc.actuator, got, ok, tc.want)
		}
	}
}

// With recording off a robot keeps no recorder, and the one it hands out
// keeps nothing.
func TestNoRecorderWhenMetricsOff(t *testing.T) {
	s := &Simulator{}
	r := &robot{}
	r.ID = "r0"
	s.robots = append(s.robots, r)
	s.RobotMetrics(0).Record("x", 1)
	handle{r}.Metrics().Record("y", 2)
	if r.metrics != nil {
		t.Fatal("a recorder was made with recording off")
	}
	if got := s.TakeSamples(nil); len(got) != 0 {
		t.Fatalf("samples %v with recording off", got)
	}
}
