package simulator

import (
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
)

// countingDevice counts its Apply and Update calls; tickless says
// whether it declares that it has nothing to do at a tick.
type countingDevice struct {
	calls    *int
	tickless bool
}

func (d countingDevice) Apply()         { *d.calls++ }
func (d countingDevice) Update()        { *d.calls++ }
func (d countingDevice) Tickless() bool { return d.tickless }

type stillController struct{ steps int }

func (c *stillController) Init(ci.Robot, ci.Params) error { return nil }
func (c *stillController) ControlStep()                   { c.steps++ }
func (c *stillController) Reset()                         {}
func (c *stillController) Destroy() error                 { return nil }

// The act and sense phases skip the devices that say they are tickless
// (the channel's messaging devices) and call every other, including a
// device that implements Tickless but answers false, and devices past
// the first eight, whose marks do not fit.
func TestTicklessDevicesAreSkipped(t *testing.T) {
	var idle, busy int
	r := &robot{}
	for i := 0; i < 10; i++ {
		d := countingDevice{calls: &busy}
		if i == 1 || i == 9 {
			d.tickless = true
			if i == 1 {
				d.calls = &idle
			}
		}
		r.setDevices(append(r.sensors(), d), append(r.actuators(), d))
	}
	r.markIdle()
	if r.idleActs != 1<<1 || r.idleSens != 1<<1 {
		t.Fatalf("marks %08b, %08b; want device 1 marked", r.idleActs, r.idleSens)
	}
	ctrl := &stillController{}
	r.ctrl = ctrl
	s := &Simulator{robots: []*robot{r}, pool: newPool(1, "")}
	s.makeJobs()
	s.jobs.act(0)
	if idle != 0 || busy != 9 {
		t.Errorf("act: the tickless device was called %d times, the others %d; want 0 and 9", idle, busy)
	}
	busy = 0
	senseControl(s.robots, 0)
	if idle != 0 || busy != 9 || ctrl.steps != 1 {
		t.Errorf("sense: the tickless device was called %d times, the others %d, the controller %d; want 0, 9 and 1", idle, busy, ctrl.steps)
	}
}

var _ devices.Actuator = countingDevice{}
