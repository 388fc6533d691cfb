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

// senseControl runs every robot's controller once, robots removed or
// without a space or devices among them: the prefetching of the robots
// ahead reads nothing it must not.
func TestSenseControlPrefetchesSafely(t *testing.T) {
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 1})
	var robots []*robot
	var ctrls []*stillController
	for k := range 20 {
		r := &robot{}
		c := &stillController{}
		r.ctrl = c
		switch k % 4 {
		case 0: // no space
		case 1:
			r.Robot = entity.Robot{Space: sp, Body: 1 << 20} // a body out of range
		case 2:
			r.Robot = entity.Robot{Space: sp}
			sp.Add(space.Body{Shape: space.Disc, Radius: 0.1, Movable: true})
			r.Body = len(sp.Bodies) - 1
		case 3:
			r.removed = true
		}
		r.setDevices(nil, []devices.Actuator(nil))
		robots = append(robots, r)
		ctrls = append(ctrls, c)
	}
	next, p := senseControl(robots, 0)
	if next != len(robots) || p.r != nil {
		t.Fatalf("senseControl stopped at %d of %d (panic %v)", next, len(robots), p.p)
	}
	for k, c := range ctrls {
		want := 1
		if k%4 == 3 {
			want = 0
		}
		if c.steps != want {
			t.Errorf("robot %d: %d steps, want %d", k, c.steps, want)
		}
	}
}
