package realrobot_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/controllers/diffusion"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/realrobottest"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
)

const tps = 50 // 20 ms ticks keep the tests short

var declared = realrobot.Devices{
	Sensors:   []string{ci.TagEPuckProximity},
	Actuators: []string{ci.TagDifferentialSteering},
}

// hookCtrl is a controller whose ControlStep runs a hook with the tick
// number, then drives straight at 5 cm/s.
type hookCtrl struct {
	wheels    ci.DifferentialSteeringActuator
	step      func(n int)
	n         int
	destroyed atomic.Bool
}

func (c *hookCtrl) Init(r ci.Robot, _ ci.Params) (err error) {
	c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	return err
}
func (c *hookCtrl) ControlStep() {
	c.n++
	if c.step != nil {
		c.step(c.n)
	}
	c.wheels.SetLinearVelocity(5, 5)
}
func (c *hookCtrl) Reset()         {}
func (c *hookCtrl) Destroy() error { c.destroyed.Store(true); return nil }

func newRuntime(t *testing.T, drv realrobot.Driver, c ci.Controller, opt realrobot.Options) (*realrobot.Runtime, *test.Hook) {
	t.Helper()
	log, hook := test.NewNullLogger()
	log.SetLevel(logrus.DebugLevel)
	if opt.TicksPerSecond == 0 {
		opt.TicksPerSecond = tps
	}
	opt.Logger = log
	rt, err := realrobot.New(drv, realrobot.Spec{Label: "test", ID: "c", Controller: c, Devices: declared}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rt, hook
}

// stoppedWithinATick checks that after the event at index i (a fault seen
// by the driver) the motors were commanded to zero before the next sense,
// and no later than one period after the fault.
func stoppedWithinATick(t *testing.T, ev []realrobottest.Event, i int, period time.Duration) {
	t.Helper()
	for _, e := range ev[i+1:] {
		if e.Call == "sense" {
			break
		}
		if e.Call == "stop" && e.Err == nil && e.Motors == [2]float64{} {
			if d := e.At.Sub(ev[i].At); d > period {
				t.Errorf("motors stopped %v after the fault, more than one tick (%v)", d, period)
			}
			return
		}
	}
	t.Errorf("motors not stopped between the fault (event %d) and the next tick; events: %v", i, calls(ev))
}

func calls(ev []realrobottest.Event) string {
	var b strings.Builder
	for _, e := range ev {
		b.WriteString(e.Call)
		if e.Err != nil {
			b.WriteString("!")
		}
		b.WriteString(" ")
	}
	return b.String()
}

func TestRunDrivesAndStops(t *testing.T) {
	drv := realrobottest.NewDriver()
	c := &hookCtrl{}
	var stats []realrobot.TickStats
	rt, _ := newRuntime(t, drv, c, realrobot.Options{Ticks: 5, OnTick: func(s realrobot.TickStats) { stats = append(stats, s) }})
	if err := rt.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	ev := drv.Events()
	if got, want := calls(ev), strings.Repeat("sense act ", 5)+"stop "; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	for _, e := range ev[:10] {
		if e.Call == "act" && e.Motors != [2]float64{5, 5} {
			t.Errorf("act sent %v, want the controller's (5, 5)", e.Motors)
		}
	}
	if m := drv.Motors(); m != [2]float64{} {
		t.Errorf("motors %v after Run, want stopped", m)
	}
	if len(stats) != 5 || stats[4].N != 5 || rt.Ticks() != 5 {
		t.Errorf("%d tick stats, Ticks()=%d, want 5", len(stats), rt.Ticks())
	}
	// The ticks follow the period: 5 ticks take 4 periods.
	if d := ev[8].At.Sub(ev[0].At); d < 4*rt.Period()-5*time.Millisecond {
		t.Errorf("5 ticks in %v, faster than 4 periods of %v", d, rt.Period())
	}
	if err := rt.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if !c.destroyed.Load() || !drv.Closed() {
		t.Errorf("Close: destroyed %v, driver closed %v", c.destroyed.Load(), drv.Closed())
	}
	if err := rt.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestDiffusionOnFakeDriver(t *testing.T) {
	drv := realrobottest.NewDriver()
	drv.SenseHook = func(n int) error {
		if n >= 3 {
			drv.Proximity().Set(0, 0.9) // 17 degrees, on the left
		}
		return nil
	}
	rt, _ := newRuntime(t, drv, diffusion.New(), realrobot.Options{Ticks: 4})
	defer rt.Close()
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var acts [][2]float64
	for _, e := range drv.Events() {
		if e.Call == "act" {
			acts = append(acts, e.Motors)
		}
	}
	want := [][2]float64{{5, 5}, {5, 5}, {5, 0}, {5, 0}}
	if len(acts) != 4 || acts[0] != want[0] || acts[1] != want[1] || acts[2] != want[2] || acts[3] != want[3] {
		t.Errorf("acts %v, want %v", acts, want)
	}
}

func TestControllerPanicStopsWheels(t *testing.T) {
	drv := realrobottest.NewDriver()
	c := &hookCtrl{step: func(n int) {
		if n == 3 {
			panic("boom")
		}
	}}
	rt, _ := newRuntime(t, drv, c, realrobot.Options{Ticks: 10})
	err := rt.Run(context.Background())
	if !errors.Is(err, realrobot.ErrControllerPanic) || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "tick 3") {
		t.Fatalf("Run: %v, want a controller panic at tick 3", err)
	}
	ev := drv.Events()
	if got, want := calls(ev), "sense act sense act sense stop "; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	stoppedWithinATick(t, ev, 4, rt.Period())
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if !c.destroyed.Load() {
		t.Error("Destroy not called after a panic")
	}
}

func TestFailedTickRecovers(t *testing.T) {
	drv := realrobottest.NewDriver()
	drv.SenseHook = func(n int) error {
		if n == 3 || n == 4 {
			return errors.New("no reply")
		}
		return nil
	}
	rt, hook := newRuntime(t, drv, &hookCtrl{}, realrobot.Options{Ticks: 6})
	defer rt.Close()
	if err := rt.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v (two failed ticks should be survived)", err)
	}
	ev := drv.Events()
	if got, want := calls(ev), "sense act sense act sense! stop sense! stop sense act sense act stop "; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	stoppedWithinATick(t, ev, 4, rt.Period())
	if ev[10].Motors != [2]float64{5, 5} {
		t.Errorf("after recovery the motors got %v, want (5, 5)", ev[10].Motors)
	}
	var logged bool
	for _, e := range hook.AllEntries() {
		logged = logged || (e.Level == logrus.ErrorLevel && strings.Contains(e.Message, "no reply"))
	}
	if !logged {
		t.Error("the failure was not logged as an error")
	}
}

func TestDeviceLost(t *testing.T) {
	drv := realrobottest.NewDriver()
	drv.ActHook = func(n int) error {
		if n >= 2 {
			return errors.New("i2c: NACK")
		}
		return nil
	}
	rt, _ := newRuntime(t, drv, &hookCtrl{}, realrobot.Options{MaxFailures: 3})
	err := rt.Run(context.Background())
	if !errors.Is(err, realrobot.ErrDeviceLost) || !strings.Contains(err.Error(), "NACK") {
		t.Fatalf("Run: %v, want ErrDeviceLost", err)
	}
	ev := drv.Events()
	if got, want := calls(ev), "sense act sense act! stop sense act! stop sense act! stop stop "; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	stoppedWithinATick(t, ev, 3, rt.Period())
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestOverrunStopsWheelsThenRecovers(t *testing.T) {
	drv := realrobottest.NewDriver()
	var period time.Duration
	c := &hookCtrl{step: func(n int) {
		if n == 3 {
			time.Sleep(period * 5 / 2)
		}
	}}
	rt, hook := newRuntime(t, drv, c, realrobot.Options{Ticks: 5})
	period = rt.Period()
	defer rt.Close()
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev := drv.Events()
	// The late tick's act is not sent: it would undo the stop.
	if got, want := calls(ev), "sense act sense act sense stop sense act sense act stop "; got != want {
		t.Fatalf("calls %q, want %q", got, want)
	}
	// The stop came at the end of the late tick's period (with a period
	// of slack: timers fire late on a loaded machine).
	if d := ev[5].At.Sub(ev[4].At); d > 2*period {
		t.Errorf("wheels stopped %v after the late tick started, want about one period (%v)", d, period)
	}
	if ev[7].Motors != [2]float64{5, 5} {
		t.Errorf("the loop did not recover: %v", ev[7].Motors)
	}
	var warned bool
	for _, e := range hook.AllEntries() {
		warned = warned || (e.Level == logrus.WarnLevel && strings.Contains(e.Message, "overran"))
	}
	if !warned {
		t.Error("the overrun was not logged")
	}
}

// A tick that overran during its sense does not act: its commands would
// undo the stop.
func TestOverrunDuringSenseSkipsTheAct(t *testing.T) {
	drv := realrobottest.NewDriver()
	var period time.Duration
	drv.SenseHook = func(n int) error {
		if n == 3 {
			time.Sleep(period * 3 / 2) // the stop comes during this sense
		}
		return nil
	}
	var overran []int
	rt, _ := newRuntime(t, drv, &hookCtrl{}, realrobot.Options{Ticks: 5, OnTick: func(s realrobot.TickStats) {
		if s.Overran {
			overran = append(overran, s.N)
		}
	}})
	period = rt.Period()
	defer rt.Close()
	if err := rt.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev := drv.Events()
	got := calls(ev)
	if want := "sense act sense act stop sense sense act sense act stop "; got != want {
		t.Errorf("calls %q, want %q", got, want)
	}
	if len(overran) != 1 || overran[0] != 3 {
		t.Errorf("ticks reported overrun: %v, want [3]", overran)
	}
}

// The fake driver keeps a stop a stop (realrobot.Supersede): an Act after
// a Stop in the same tick sends nothing.
func TestActAfterStopIsSuperseded(t *testing.T) {
	drv := realrobottest.NewDriver()
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(3, 3)
	if err := drv.Sense(); err != nil {
		t.Fatal(err)
	}
	if err := drv.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := drv.Act(); !errors.Is(err, realrobot.ErrSuperseded) {
		t.Errorf("Act after Stop: %v, want ErrSuperseded", err)
	}
	if m := drv.Motors(); m != [2]float64{} {
		t.Errorf("motors %v after a superseded act", m)
	}
	// The next tick drives again; an Act without a Sense is its own tick.
	if err := errors.Join(drv.Sense(), drv.Act()); err != nil || drv.Motors() != [2]float64{3, 3} {
		t.Errorf("next tick: %v, motors %v", err, drv.Motors())
	}
	if err := errors.Join(drv.Stop(), drv.Act()); err != nil || drv.Motors() != [2]float64{3, 3} {
		t.Errorf("Act by hand after Stop: %v, motors %v", err, drv.Motors())
	}
}

// lastCall is a log hook that notes, for each entry, the driver's last
// call at the time the entry was written.
type lastCall struct {
	drv     *realrobottest.Driver
	mu      sync.Mutex
	entries []string
}

func (h *lastCall) Levels() []logrus.Level { return logrus.AllLevels }
func (h *lastCall) Fire(e *logrus.Entry) error {
	ev := h.drv.Events()
	last := "none"
	if len(ev) > 0 {
		last = ev[len(ev)-1].Call
	}
	h.mu.Lock()
	h.entries = append(h.entries, last+": "+e.Message)
	h.mu.Unlock()
	return nil
}

// Nothing about the end of a run is logged before the wheels are
// stopped: a log output that kills the process (a closed pipe) must find
// them stopped.
func TestStopBeforeLogging(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctrl func(cancel func()) *hookCtrl
		want string
	}{
		{"cancelled", func(cancel func()) *hookCtrl {
			return &hookCtrl{step: func(n int) {
				if n == 3 {
					cancel()
				}
			}}
		}, "stopping at tick 3"},
		{"panic", func(func()) *hookCtrl {
			return &hookCtrl{step: func(n int) {
				if n == 2 {
					panic("boom")
				}
			}}
		}, "panicked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			drv := realrobottest.NewDriver()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			log, _ := test.NewNullLogger()
			h := &lastCall{drv: drv}
			log.AddHook(h)
			rt, err := realrobot.New(drv, realrobot.Spec{Controller: tc.ctrl(cancel), Devices: declared}, realrobot.Options{TicksPerSecond: tps, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			rt.Run(ctx)
			rt.Close()
			var found bool
			for _, e := range h.entries {
				if strings.Contains(e, tc.want) {
					found = true
					if !strings.HasPrefix(e, "stop: ") {
						t.Errorf("logged before the wheels were stopped: %q", e)
					}
				}
			}
			if !found {
				t.Errorf("no entry says %q: %q", tc.want, h.entries)
			}
		})
	}
}

// The log says "wheels stopped" only when the stop went out.
func TestLogSaysWhetherTheWheelsStopped(t *testing.T) {
	drv := realrobottest.NewDriver()
	var period time.Duration
	drv.SenseHook = func(n int) error {
		switch n {
		case 2:
			return errors.New("no reply")
		case 4:
			time.Sleep(period * 3 / 2)
		}
		return nil
	}
	drv.StopHook = func(int) error { return errors.New("port gone") }
	rt, hook := newRuntime(t, drv, &hookCtrl{}, realrobot.Options{Ticks: 5})
	period = rt.Period()
	err := rt.Run(context.Background())
	rt.Close()
	if err == nil || !strings.Contains(err.Error(), "could not stop the wheels") {
		t.Errorf("Run: %v, want the failed stop", err)
	}
	var failed, overran bool
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "wheels stopped") {
			t.Errorf("the log claims a stop that failed: %q", e.Message)
		}
		failed = failed || strings.Contains(e.Message, "no reply") && strings.Contains(e.Message, "could not stop the wheels")
		overran = overran || strings.Contains(e.Message, "overran") && strings.Contains(e.Message, "could not stop the wheels")
	}
	if !failed || !overran {
		t.Errorf("the log does not say the stops failed (failed tick %v, overrun %v)", failed, overran)
	}
}

// A panic reports the panicking line of the controller, and the stack
// goes to the debug log.
func TestPanicSite(t *testing.T) {
	var m map[string]int
	for _, tc := range []struct {
		name   string
		step   func(n int)
		site   string // a substring of the panicking frame
		caller bool   // the panic happened outside the controller's package
	}{
		{"explicit", func(n int) { panic("boom") }, "runtime_test.go:", false},
		{"nil map", func(n int) { m["x"] = n }, "runtime_test.go:", false},
		{"library", func(n int) { _ = strings.Repeat("x", -n) }, "strings.Repeat", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			drv := realrobottest.NewDriver()
			rt, hook := newRuntime(t, drv, &hookCtrl{step: tc.step}, realrobot.Options{Ticks: 3})
			err := rt.Run(context.Background())
			rt.Close()
			var pe *realrobot.PanicError
			if !errors.As(err, &pe) || !errors.Is(err, realrobot.ErrControllerPanic) {
				t.Fatalf("Run: %v, want a PanicError", err)
			}
			if !strings.Contains(pe.Site, tc.site) {
				t.Errorf("site %q, want %q", pe.Site, tc.site)
			}
			if tc.caller != (pe.Caller != "") || tc.caller && !strings.Contains(pe.Caller, "runtime_test.go:") {
				t.Errorf("caller %q", pe.Caller)
			}
			if !strings.Contains(err.Error(), pe.Site) {
				t.Errorf("the error does not give the site: %v", err)
			}
			var stack bool
			for _, e := range hook.AllEntries() {
				stack = stack || e.Level == logrus.DebugLevel && strings.Contains(e.Message, "TestPanicSite")
			}
			if !stack {
				t.Error("no stack in the debug log")
			}
		})
	}
}

func TestStalledTick(t *testing.T) {
	before := runtime.NumGoroutine()
	drv := realrobottest.NewDriver()
	release := make(chan struct{})
	var releaseOnce sync.Once
	defer releaseOnce.Do(func() { close(release) })
	c := &hookCtrl{step: func(n int) {
		if n == 2 {
			<-release
		}
	}}
	rt, _ := newRuntime(t, drv, c, realrobot.Options{StallAfter: 200 * time.Millisecond})
	start := time.Now()
	err := rt.Run(context.Background())
	if !errors.Is(err, realrobot.ErrStalled) {
		t.Fatalf("Run: %v, want ErrStalled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the stall was noticed after %v", d)
	}
	ev := drv.Events()
	if got := calls(ev); !strings.HasPrefix(got, "sense act sense stop ") {
		t.Errorf("calls %q, want the wheels stopped during the stalled tick", got)
	}
	stoppedWithinATick(t, ev, 2, rt.Period()+rt.Period()/2)
	if err := rt.Close(); err != nil {
		t.Fatal(err)
	}
	if c.destroyed.Load() {
		t.Error("Destroy ran while ControlStep was still running")
	}
	if m := drv.Motors(); m != [2]float64{} || !drv.Closed() {
		t.Errorf("after Close: motors %v, closed %v", m, drv.Closed())
	}
	// once the stalled step returns, the worker goes away; its tick does
	// not act on the closed driver
	releaseOnce.Do(func() { close(release) })
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5 s after the stalled step returned, %d before the run: the worker did not exit", runtime.NumGoroutine(), before)
		}
	}
	if m := drv.Motors(); m != [2]float64{} {
		t.Errorf("the stalled tick set the motors to %v after Close", m)
	}
}

func TestCancelStopsCleanly(t *testing.T) {
	drv := realrobottest.NewDriver()
	ctx, cancel := context.WithCancel(context.Background())
	c := &hookCtrl{step: func(n int) {
		if n == 3 {
			cancel()
		}
	}}
	rt, _ := newRuntime(t, drv, c, realrobot.Options{})
	if err := rt.Run(ctx); err != nil {
		t.Fatalf("Run after cancel: %v", err)
	}
	if rt.Ticks() != 3 {
		t.Errorf("%d ticks, want 3", rt.Ticks())
	}
	if m := drv.Motors(); m != [2]float64{} {
		t.Errorf("motors %v", m)
	}
	if err := rt.Close(); err != nil || !c.destroyed.Load() {
		t.Errorf("Close: %v, destroyed %v", err, c.destroyed.Load())
	}
}

func TestStopFailureIsReported(t *testing.T) {
	drv := realrobottest.NewDriver()
	drv.StopHook = func(int) error { return errors.New("port gone") }
	rt, _ := newRuntime(t, drv, &hookCtrl{}, realrobot.Options{Ticks: 1})
	if err := rt.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "could not stop the wheels") {
		t.Errorf("Run: %v, want the failed stop reported", err)
	}
	if err := rt.Close(); err == nil {
		t.Error("Close hid the failed stop")
	}
}

func TestInitErrors(t *testing.T) {
	drv := realrobottest.NewDriver()
	_, err := realrobot.New(drv, realrobot.Spec{Controller: diffusion.New(), Devices: realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}},
		realrobot.Options{TicksPerSecond: 10})
	if !errors.Is(err, ci.ErrNotDeclared) {
		t.Errorf("New without a proximity sensor: %v", err)
	}
	_, err = realrobot.New(drv, realrobot.Spec{Controller: diffusion.New(), Devices: declared}, realrobot.Options{})
	if err == nil || !strings.Contains(err.Error(), "ticks_per_second") {
		t.Errorf("New without a tick rate: %v", err)
	}
	_, err = realrobot.New(drv, realrobot.Spec{Controller: &panicInit{}, Devices: declared}, realrobot.Options{TicksPerSecond: 10})
	if !errors.Is(err, realrobot.ErrControllerPanic) {
		t.Errorf("New with a panicking Init: %v", err)
	}
}

type panicInit struct{ hookCtrl }

func (*panicInit) Init(ci.Robot, ci.Params) error { panic("init") }

func TestRobotShowsOnlyDeclaredDevices(t *testing.T) {
	drv := realrobottest.NewDriver()
	r := realrobot.NewRobot("ep0", 7, drv, realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}})
	if _, ok := r.Sensor(ci.TagEPuckProximity); ok {
		t.Error("an undeclared sensor is visible")
	}
	if _, err := ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		t.Error(err)
	}
	a, b := realrobot.NewRobot("ep0", 7, drv, declared).Rand().Uint64(), realrobot.NewRobot("ep0", 7, drv, declared).Rand().Uint64()
	c := realrobot.NewRobot("ep1", 7, drv, declared).Rand().Uint64()
	if a != b || a == c || r.ID() != "ep0" {
		t.Errorf("random streams: same id %d %d, other id %d", a, b, c)
	}
}

func TestDevicesOf(t *testing.T) {
	exp, err := config.Parse("x.argos", []byte(`<argos-configuration>
  <framework><experiment ticks_per_second="10"/></framework>
  <controllers>
    <epuck_diffusion_controller id="ok">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><epuck_proximity implementation="default"/></sensors>
    </epuck_diffusion_controller>
    <epuck_diffusion_controller id="bad">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><footbot_proximity implementation="default"/></sensors>
    </epuck_diffusion_controller>
  </controllers>
  <arena size="1,1,1"/>
</argos-configuration>`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := boards.Lookup("epuck")
	d, err := realrobot.DevicesOf(&b, exp.FindController("ok"))
	if err != nil || !d.HasSensor(ci.TagEPuckProximity) || !d.HasActuator(ci.TagDifferentialSteering) {
		t.Errorf("DevicesOf(ok) = %v, %v", d, err)
	}
	_, err = realrobot.DevicesOf(&b, exp.FindController("bad"))
	for _, want := range []string{"x.argos:10", `board "epuck"`, "no sensor <footbot_proximity>", "epuck_proximity"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DevicesOf(bad) = %v, want it to mention %q", err, want)
		}
	}
	_, err = realrobot.Open(b, exp.FindController("ok"), realrobot.Options{TicksPerSecond: 10})
	if err == nil || !strings.Contains(err.Error(), "robot protocol") {
		t.Errorf("Open with no driver registered: %v", err)
	}
}

// BenchmarkRunLoop measures the runtime's own cost per tick on a fake
// driver with the diffusion controller: the hand-over to the tick
// goroutine, the watchdog, sense -> ControlStep -> act, at 10,000 ticks/s
// (ns/op is then the 100 µs period). It reports the median
// sense-to-act time (ControlStep and the runtime's work between the
// driver's Sense and Act, the figure of ROBOT-STATS) and how late the
// ticks start.
func BenchmarkRunLoop(b *testing.B) {
	drv := realrobottest.NewDriver()
	var control, late []time.Duration
	overruns := 0
	rt, err := realrobot.New(drv, realrobot.Spec{Controller: diffusion.New(), Devices: declared},
		realrobot.Options{TicksPerSecond: 10_000, Ticks: b.N, StallAfter: time.Second, OnTick: func(s realrobot.TickStats) {
			control, late = append(control, s.Control), append(late, s.Late)
			if s.Overran {
				overruns++
			}
		}})
	if err != nil {
		b.Fatal(err)
	}
	defer rt.Close()
	b.ResetTimer()
	if err := rt.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2])
	}
	b.ReportMetric(median(control), "sense-to-act-ns")
	b.ReportMetric(median(late), "late-ns")
	b.ReportMetric(float64(overruns)/float64(b.N), "overruns/op")
}
