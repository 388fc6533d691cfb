package simulator_test

import (
	"testing"

	"github.com/argosgo/argos/simulator"
)

// A controller's panic stops the run, but the robots after it in the same
// chunk still sense and run their control step in that tick (the chunk
// runs under one recover, and goes on after the robot that panicked), and
// the error names the robot that panicked.
func TestPanicInChunkLetsTheOthersRun(t *testing.T) {
	ctrl := `<test_panic id="tp"><actuators><differential_steering implementation="default"/></actuators><sensors/><params at="5"/></test_panic>
<test_panic id="tq"><actuators><differential_steering implementation="default"/></actuators><sensors/><params at="1000"/></test_panic>`
	arena := `<foot-bot id="fb0"><body position="0,0,0"/><controller config="tq"/></foot-bot>
<foot-bot id="fb1"><body position="1,0,0"/><controller config="tp"/></foot-bot>
<foot-bot id="fb2"><body position="-1,1,0"/><controller config="tq"/></foot-bot>`
	for _, threads := range []int{0, 2} {
		sim := build(t, experiment("100", ctrl, arena, ""), simulator.Options{Threads: &threads})
		var err error
		for i := 0; i < 6 && err == nil; i++ {
			err = sim.Step()
		}
		contains(t, err, "fb1", "panicked", "boom")
		for i := 0; i < sim.NumRobots(); i++ {
			id := sim.Robot(i).ID
			if id == "fb1" {
				continue
			}
			if ticks := sim.Controller(i).(*panicky).tick; ticks != 6 {
				t.Errorf("threads %d: %s ran %d control steps, want 6 (also in the tick where fb1 panicked)", threads, id, ticks)
			}
		}
	}
}
