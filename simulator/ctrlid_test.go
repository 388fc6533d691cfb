package simulator_test

import (
	"fmt"

	"testing"

	"github.com/argosgo/argos/simulator"
)

// The robot record keeps its <controllers> entry, not the id: a robot
// whose controller id <controllers> lacks is still named with that id, and
// so are the controllers of the others, whichever came first.
func TestControllerIDs(t *testing.T) {
	ctrl := `<test_panic id="tp"><actuators><differential_steering implementation="default"/></actuators><sensors/><params at="3"/></test_panic>
<test_panic id="tq"><actuators><differential_steering implementation="default"/></actuators><sensors/><params at="1000"/></test_panic>`
	arena := `<foot-bot id="fb0"><body position="0,0,0"/><controller config="tq"/></foot-bot>
<foot-bot id="fb1"><body position="1,0,0"/><controller config="%s"/></foot-bot>
<foot-bot id="fb2"><body position="-1,1,0"/><controller config="tq"/></foot-bot>`
	err := buildErr(t, experiment("100", ctrl, fmt.Sprintf(arena, "nowhere"), ""))
	contains(t, err, "fb1", `"nowhere"`, "does not define")

	sim := build(t, experiment("100", ctrl, fmt.Sprintf(arena, "tp"), ""), simulator.Options{})
	for i, want := range []string{"tq", "tp", "tq"} {
		if id, _, active := sim.RobotController(i); id != want || !active {
			t.Errorf("robot %d: controller %q (active %v), want %q", i, id, active, want)
		}
	}
	err = nil
	for i := 0; i < 4 && err == nil; i++ {
		err = sim.Step()
	}
	contains(t, err, "fb1", `"tp"`, "panicked")
}
