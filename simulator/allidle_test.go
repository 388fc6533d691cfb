package simulator

import "testing"

// A robot whose devices are all tickless is skipped whole by the act and
// sense phases, and one with a single device to call still has it
// called, whatever the number of devices up to eight.
func TestAllIdleRobotsSkipped(t *testing.T) {
	for n := 0; n <= 8; n++ {
		for busyAt := -1; busyAt < n; busyAt++ {
			var idleCalls, busyCalls int
			r := &robot{}
			for i := 0; i < n; i++ {
				d := countingDevice{calls: &idleCalls, tickless: true}
				if i == busyAt {
					d = countingDevice{calls: &busyCalls}
				}
				r.setDevices(append(r.sensors(), d), append(r.actuators(), d))
			}
			r.markIdle()
			if got, want := allIdle(r.idleActs, r.nActs), busyAt < 0; got != want || allIdle(r.idleSens, r.nSens) != want {
				t.Fatalf("%d devices, device %d to call: allIdle %v, want %v", n, busyAt, got, want)
			}
			ctrl := &stillController{}
			r.ctrl = ctrl
			s := &Simulator{robots: []*robot{r}, pool: newPool(1, "")}
			s.makeJobs()
			s.jobs.act(0)
			senseControl(s.robots, 0)
			wantBusy := 0
			if busyAt >= 0 {
				wantBusy = 2 // its Apply and its Update
			}
			if idleCalls != 0 || busyCalls != wantBusy || ctrl.steps != 1 {
				t.Errorf("%d devices, device %d to call: tickless called %d times, the other %d, the controller %d; want 0, %d, 1",
					n, busyAt, idleCalls, busyCalls, ctrl.steps, wantBusy)
			}
		}
	}
	if allIdle(0xff, 9) || !allIdle(0xff, 8) || allIdle(0x7f, 8) || !allIdle(0, 0) {
		t.Error("allIdle: wrong for 8 or 9 devices, or none")
	}
}
