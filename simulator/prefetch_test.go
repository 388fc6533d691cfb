package simulator

import (
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// ifaceData finds the value an interface holds: what prefetch asks the
// processor for is the controller and the sensor themselves.
func TestIfaceData(t *testing.T) {
	c := &stillController{}
	var ctrl ci.Controller = c
	if got := ifaceData(unsafe.Pointer(&ctrl)); got != unsafe.Pointer(c) {
		t.Errorf("ifaceData of a controller: %p, want %p", got, c)
	}
	ctrl = nil
	if got := ifaceData(unsafe.Pointer(&ctrl)); got != nil {
		t.Errorf("ifaceData of a nil controller: %p, want nil", got)
	}
}

// senseControl updates every robot's sensor and runs its controller
// once, robots removed, without a space, with a body out of range or
// without devices among them: the prefetching of the robots ahead reads
// nothing it must not.
func TestSenseControlPrefetchesSafely(t *testing.T) {
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 1})
	var robots []*robot
	var ctrls []*stillController
	updates := make([]int, 25)
	for k := range updates {
		r := &robot{}
		c := &stillController{}
		r.ctrl = c
		switch k % 5 {
		case 0: // no space
		case 1:
			r.Robot = entity.Robot{Space: sp, Body: 1 << 20} // a body out of range
		case 2, 3:
			r.Robot = entity.Robot{Space: sp}
			sp.Add(space.Body{Shape: space.Disc, Radius: 0.1, Movable: true})
			r.Body = len(sp.Bodies) - 1
		case 4:
			r.removed = true
		}
		if k%5 != 3 { // (3: no devices)
			dev := countingDevice{calls: &updates[k]}
			r.setDevices([]devices.Sensor{dev}, []devices.Actuator{dev})
		}
		robots = append(robots, r)
		ctrls = append(ctrls, c)
	}
	next, p := senseControl(robots, 0)
	if next != len(robots) || p.r != nil {
		t.Fatalf("senseControl stopped at %d of %d (panic %v)", next, len(robots), p.p)
	}
	for k, c := range ctrls {
		steps, calls := 1, 1
		switch k % 5 {
		case 3:
			calls = 0
		case 4:
			steps, calls = 0, 0
		}
		if c.steps != steps || updates[k] != calls {
			t.Errorf("robot %d: %d steps and %d sensor updates, want %d and %d", k, c.steps, updates[k], steps, calls)
		}
	}
}
