package simulator

import (
	"testing"

	"github.com/argosgo/argos/simulator/devices"
)

// The act phase runs only when some robot has an actuator to call: not
// for robots whose actuators are all tickless, again once a robot with
// one to call is added, and not for a removed robot.
func TestActingOnlyWithAnActuatorToCall(t *testing.T) {
	var calls int
	robotWith := func(tickless bool) *robot {
		r := &robot{}
		d := countingDevice{calls: &calls, tickless: tickless}
		r.setDevices(nil, []devices.Actuator{d, countingDevice{calls: &calls, tickless: true}})
		r.markIdle()
		return r
	}
	s := &Simulator{}
	if s.acting() {
		t.Errorf("no robot: acting")
	}
	s.robots = []*robot{robotWith(true), robotWith(true)}
	if s.acting() {
		t.Errorf("robots with tickless actuators only: acting")
	}
	s.robots = append(s.robots, robotWith(false))
	if !s.acting() {
		t.Errorf("a robot with an actuator to call was added: not acting")
	}
	gone := robotWith(false)
	gone.removed = true
	s = &Simulator{robots: []*robot{robotWith(true), gone}}
	if s.acting() {
		t.Errorf("the only robot with an actuator to call was removed: acting")
	}
}
