package simulator

import (
	"fmt"
	"hash/fnv"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
)

// A million robots carry a million records: the record must not grow
// unnoticed (docs/benchmarks.md, "Up to a million robots").
func TestRobotRecordSize(t *testing.T) {
	if n := unsafe.Sizeof(robot{}); n > 224 {
		t.Errorf("the robot record takes %d bytes, more than the 224 of issue 17; put what is not needed every tick apart", n)
	}
}

// A robot's device lists are at most maxDevices long (their lengths are
// bytes of the record): maxDevices of each are kept whole, and a
// controller entry that declares more is an error that says where.
func TestRobotDeviceLimit(t *testing.T) {
	r := &robot{}
	sens := make([]devices.Sensor, maxDevices)
	for i := range sens {
		sens[i] = tagSensor{fmt.Sprint(i)}
	}
	r.setDevices(sens, []devices.Actuator{tagActuator{"a"}})
	if got := r.sensors(); len(got) != maxDevices || got[maxDevices-1] != sens[maxDevices-1] || len(r.actuators()) != 1 {
		t.Fatalf("%d sensors and %d actuators kept, want %d and 1", len(got), len(r.actuators()), maxDevices)
	}
	c := &config.Controller{ID: "many", Label: "test_probed_serial", Node: &config.Node{Name: "test_probed_serial", File: "test.argos", Line: 9}}
	for range maxDevices + 1 {
		c.Sensors = append(c.Sensors, config.Device{Tag: "positioning"})
	}
	s := &Simulator{}
	r = &robot{entry: c}
	err := s.buildDevices(r, map[planKey]*devicePlan{})
	if err == nil || !strings.Contains(err.Error(), "test.argos:9") || !strings.Contains(err.Error(), "at most 255") {
		t.Errorf("%d sensors: error %v; want where and the limit", maxDevices+1, err)
	}
	defer func() {
		if recover() == nil {
			t.Error("setDevices took 256 sensors")
		}
	}()
	r.setDevices(make([]devices.Sensor, maxDevices+1), nil)
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
	r.setDevices([]devices.Sensor{tagSensor{"a1"}, tagSensor{"b"}, tagSensor{"a2"}},
		[]devices.Actuator{tagActuator{"b"}}) // "c" not built yet
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

// The set-up of a large arena (largeArena bodies, 50 here) collects the garbage of its placement before
// the controllers are made (the peak memory of a million robots); a small
// one does not spend a collection on it.
func TestSetUpCollectsLargeArenas(t *testing.T) {
	arena := func(n int) string {
		return fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="1" ticks_per_second="10" random_seed="7"/></framework>
  <controllers/>
  <arena size="40,40,1" center="0,0,0.5">
    <distribute>
      <position method="uniform" min="-19.9,-19.9,0" max="19.9,19.9,0"/>
      <orientation method="constant" values="0,0,0"/>
      <entity quantity="%d" max_trials="10"><box id="b" size="0.01,0.01,0.01" movable="false"/></entity>
    </distribute>
  </arena>
  <physics_engines><kinematics2d id="k"/></physics_engines>
</argos-configuration>`, n)
	}
	for _, tc := range []struct {
		boxes int
		want  bool
	}{{49, false}, {50, true}} {
		exp, err := config.Parse("test.argos", []byte(arena(tc.boxes)))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		sim, err := New(exp, Options{largeArena: 50})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		sim.Close()
		if got := after.NumForcedGC > before.NumForcedGC; got != tc.want {
			t.Errorf("%d bodies: collected %v, want %v", tc.boxes, got, tc.want)
		}
	}
}

// The set-up of a large arena pauses the collector and leaves it as it
// found it, on success and on error; an arena paused by another set-up (or
// by GOGC=off) stays paused.
func TestSetUpGCRestoresTheCollector(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(137))
	g := setUpGC{large: 10}
	g.pause(9)
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("a small arena set the collector to %d", got)
	}
	g.pause(10)
	other := setUpGC{large: 10}
	other.pause(10) // a second set-up while the first is paused
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("a large arena left the collector at %d, want it off", got)
	}
	g.resume()
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("resumed, the collector is at %d, want 137", got)
	}
	other.resume()
	if got := debug.SetGCPercent(137); got != 137 {
		t.Errorf("the second set-up's resume set the collector to %d, want it left at 137", got)
	}
	for _, tc := range []struct{ name, ctrl string }{{"success", "c"}, {"error", "missing"}} {
		exp, err := config.Parse("test.argos", []byte(fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="1" ticks_per_second="10" random_seed="7"/></framework>
  <controllers><test_constant id="c"><actuators><differential_steering implementation="default"/></actuators><sensors/><params left="1" right="1"/></test_constant></controllers>
  <arena size="4,4,1" center="0,0,0.5">
    <distribute>
      <position method="uniform" min="-1.9,-1.9,0" max="1.9,1.9,0"/>
      <orientation method="constant" values="0,0,0"/>
      <entity quantity="20" max_trials="100"><foot-bot id="fb"><controller config="%s"/></foot-bot></entity>
    </distribute>
  </arena>
  <physics_engines><kinematics2d id="k"/></physics_engines>
</argos-configuration>`, tc.ctrl)))
		if err != nil {
			t.Fatal(err)
		}
		sim, err := New(exp, Options{largeArena: 10})
		if (err != nil) != (tc.name == "error") {
			t.Fatalf("%s: New: %v", tc.name, err)
		}
		if sim != nil {
			sim.Close()
		}
		if got := debug.SetGCPercent(137); got != 137 {
			t.Errorf("%s: after the set-up the collector is at %d, want 137", tc.name, got)
		}
	}
}

// streamSeed is FNV-1a: the robots' random streams (and so the pinned
// results) depend on it.
func TestStreamSeedIsFNV1a(t *testing.T) {
	for _, name := range []string{"", "fb0", "ep_999999", "distribute", "ü-robot"} {
		h := fnv.New64a()
		h.Write([]byte(name))
		if got, want := streamSeed(name), h.Sum64(); got != want {
			t.Errorf("streamSeed(%q) = %#x, want %#x", name, got, want)
		}
	}
}
