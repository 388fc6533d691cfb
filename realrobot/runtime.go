package realrobot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"
)

// Options tune a run.
type Options struct {
	// RobotID is the id the controller sees (ci.Robot.ID).
	RobotID string
	// Seed seeds the robot's random stream (with its id).
	Seed uint64
	// TicksPerSecond is the tick rate (the experiment's
	// ticks_per_second); required.
	TicksPerSecond int
	// Ticks ends the run after that many ticks; 0 runs until the context
	// is cancelled.
	Ticks int
	// MaxFailures is how many failed ticks in a row end the run with
	// ErrDeviceLost; 0 means one second's worth of ticks, at least 3.
	MaxFailures int
	// StallAfter is how long a tick may run before the run ends with
	// ErrStalled; 0 means ten periods, at least one second.
	StallAfter time.Duration
	// Logger receives overruns, failures and the shutdown; nil discards.
	Logger logrus.FieldLogger
	// OnTick, when set, is called on the loop's goroutine after each tick
	// with its timings (measurements, tests).
	OnTick func(TickStats)
}

// TickStats are the timings of one tick.
type TickStats struct {
	// N counts ticks from 1.
	N int
	// Late is how long after its scheduled time the tick started (the
	// jitter of the loop).
	Late time.Duration
	// Sense and Act are the driver's time (bus and codec); Control is
	// the time from the end of Sense to the start of Act: ControlStep
	// and the runtime's own work, the "sense-to-act" time without bus.
	Sense, Control, Act time.Duration
	// Err is the tick's failure (nil when it worked).
	Err error
	// Overran is set when the tick did not finish within its period: the
	// wheels were stopped and the tick's commands not sent.
	Overran bool
}

// Runtime runs one controller on one driver. Make it with Open or New,
// then Run, then Close.
type Runtime struct {
	drv    Driver
	spec   Spec
	robot  *Robot
	opt    Options
	log    logrus.FieldLogger
	period time.Duration

	req     chan time.Time // a tick to run, with its deadline
	done    chan TickStats
	tick    int
	overran atomic.Bool // the tick in progress overran: its Act is not called

	mu       sync.Mutex
	stalled  bool
	closed   bool
	workerUp bool
}

// New makes a runtime for spec on an open driver and calls the
// controller's Init with the robot handle. On error the driver is left
// open (the caller closes it).
func New(drv Driver, spec Spec, opt Options) (*Runtime, error) {
	if opt.TicksPerSecond <= 0 {
		return nil, fmt.Errorf("realrobot: ticks per second must be positive, not %d; set ticks_per_second in <experiment>", opt.TicksPerSecond)
	}
	if opt.Ticks < 0 {
		return nil, fmt.Errorf("realrobot: a negative number of ticks (%d); use 0 to run until stopped", opt.Ticks)
	}
	period := time.Second / time.Duration(opt.TicksPerSecond)
	if opt.MaxFailures <= 0 {
		opt.MaxFailures = max(3, opt.TicksPerSecond)
	}
	if opt.StallAfter <= 0 {
		opt.StallAfter = max(time.Second, 10*period)
	}
	if opt.StallAfter < period {
		return nil, fmt.Errorf("realrobot: StallAfter %v is shorter than a tick (%v); make it several ticks long", opt.StallAfter, period)
	}
	if opt.RobotID == "" {
		opt.RobotID = "robot"
	}
	rt := &Runtime{
		drv: drv, spec: spec, opt: opt, log: opt.logger(), period: period,
		req: make(chan time.Time), done: make(chan TickStats, 1),
	}
	rt.robot = NewRobot(opt.RobotID, opt.Seed, drv, spec.Devices)
	if err := rt.initController(); err != nil {
		return nil, err
	}
	return rt, nil
}

func (rt *Runtime) initController() (err error) {
	defer func() {
		if p := recover(); p != nil {
			pe := recovered(rt.spec.Controller, fmt.Sprintf("controller %q (%s): Init panicked", rt.spec.ID, rt.spec.Label), p)
			rt.log.Debugf("%s: the stack of the panic:\n%s", pe.What, pe.Stack)
			err = pe
		}
	}()
	params := rt.spec.Params.Track() // a parameter Init never asks for is a mistake
	if err := rt.spec.Controller.Init(rt.robot, params); err != nil {
		return fmt.Errorf("realrobot: controller %q (%s): %w", rt.spec.ID, rt.spec.Label, err)
	}
	if err := params.CheckUnread(); err != nil {
		return errors.Join(fmt.Errorf("realrobot: controller %q (%s): %w", rt.spec.ID, rt.spec.Label, err), rt.spec.Controller.Destroy())
	}
	return nil
}

// Robot returns the handle the controller received.
func (rt *Runtime) Robot() *Robot { return rt.robot }

// Period returns the length of a tick.
func (rt *Runtime) Period() time.Duration { return rt.period }

// Ticks returns the number of ticks run.
func (rt *Runtime) Ticks() int { return rt.tick }

// Run runs ticks until Options.Ticks are done, ctx is cancelled (no
// error) or a fault ends the run (ErrControllerPanic, ErrDeviceLost,
// ErrStalled, wrapped with what happened). The wheels are stopped when it
// returns, and stopped before anything about the end of the run is
// logged, so that a log output that fails (a closed pipe) cannot keep
// them running. Call Close afterwards.
func (rt *Runtime) Run(ctx context.Context) error {
	cause, err := rt.run(ctx)
	serr := rt.stopWheels("end of run")
	switch {
	case cause != nil && serr == nil:
		rt.log.Infof("stopping at tick %d: %v; wheels stopped", rt.tick, cause)
	case cause != nil:
		rt.log.Errorf("stopping at tick %d: %v; %v", rt.tick, cause, serr)
	}
	if pe := (*PanicError)(nil); errors.As(err, &pe) {
		rt.log.Errorf("tick %d: %v", rt.tick, err)
		rt.log.Debugf("%s: the stack of the panic:\n%s", pe.What, pe.Stack)
	}
	return errors.Join(err, serr)
}

// run runs the ticks. It returns the cause of a cancellation, or the
// fault that ended the run; it logs nothing that must come after the
// final stop.
func (rt *Runtime) run(ctx context.Context) (cause, err error) {
	rt.mu.Lock()
	if rt.closed || rt.stalled {
		rt.mu.Unlock()
		return nil, errors.New("realrobot: the runtime is closed or stalled; make a new one")
	}
	if !rt.workerUp {
		rt.workerUp = true
		go rt.worker()
	}
	rt.mu.Unlock()

	failures := 0
	next := time.Now()
	timer := time.NewTimer(0)
	defer timer.Stop()
	<-timer.C
	for rt.opt.Ticks == 0 || rt.tick < rt.opt.Ticks {
		if d := time.Until(next); d > 0 {
			timer.Reset(d)
			select {
			case <-ctx.Done():
				return context.Cause(ctx), nil
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			return context.Cause(ctx), nil
		}
		start := time.Now()
		rt.tick++
		rt.overran.Store(false)
		rt.req <- start.Add(rt.period)
		st, err := rt.wait(start)
		if err != nil {
			return nil, err
		}
		st.N, st.Late = rt.tick, start.Sub(next)
		if rt.opt.OnTick != nil {
			rt.opt.OnTick(st)
		}
		switch {
		case errors.Is(st.Err, ErrControllerPanic):
			return nil, st.Err
		case st.Err != nil:
			failures++
			// Stop first, then say what happened.
			if serr := rt.stopWheels("failed tick"); serr != nil {
				rt.log.Errorf("tick %d: %v; %v (%d failed ticks in a row, the run ends at %d)", rt.tick, st.Err, serr, failures, rt.opt.MaxFailures)
			} else {
				rt.log.Errorf("tick %d: %v; wheels stopped (%d failed ticks in a row, the run ends at %d)", rt.tick, st.Err, failures, rt.opt.MaxFailures)
			}
			if failures >= rt.opt.MaxFailures {
				return nil, fmt.Errorf("realrobot: %d failed ticks in a row, the last: %v: %w", failures, st.Err, ErrDeviceLost)
			}
		default:
			if failures > 0 {
				rt.log.Infof("tick %d: the hardware answers again after %d failed ticks", rt.tick, failures)
			}
			failures = 0
		}
		next = next.Add(rt.period)
		if now := time.Now(); now.After(next) {
			// Overran: start the next tick now and do not try to catch
			// up with a burst of ticks.
			next = now
		}
	}
	return nil, nil
}

// wait waits for the tick that started at start; past the period it
// stops the wheels (the tick's own commands are then never sent), past
// StallAfter it gives up.
func (rt *Runtime) wait(start time.Time) (TickStats, error) {
	deadline := time.NewTimer(rt.period)
	defer deadline.Stop()
	select {
	case st := <-rt.done:
		if st.Overran {
			// The tick ran past its deadline and did not act, but this
			// loop did not run in time to see it: stop now.
			rt.lateStop(rt.stopWheels("overrun"))
		}
		return st, nil
	case <-deadline.C:
	}
	select {
	case st := <-rt.done:
		if st.Overran {
			rt.lateStop(rt.stopWheels("overrun"))
		}
		return st, nil
	default:
	}
	// From here on the tick's Act is not called, and a Stop supersedes an
	// Act in progress (Supersede): the wheels stay stopped until a tick
	// finishes in time.
	rt.overran.Store(true)
	stopped := make(chan error, 1)
	go func() { stopped <- rt.stopWheels("overrun") }()
	logStop := rt.lateStop
	stall := time.NewTimer(rt.opt.StallAfter - time.Since(start))
	defer stall.Stop()
	for {
		select {
		case st := <-rt.done:
			if stopped != nil {
				logStop(<-stopped)
			}
			rt.log.Warnf("tick %d took %v", rt.tick, time.Since(start).Round(time.Microsecond))
			st.Overran = true
			return st, nil
		case err := <-stopped:
			logStop(err)
			stopped = nil
		case <-stall.C:
			rt.mu.Lock()
			rt.stalled = true
			rt.mu.Unlock()
			return TickStats{}, fmt.Errorf("realrobot: tick %d has run for %v (limit %v): %w", rt.tick, time.Since(start).Round(time.Millisecond), rt.opt.StallAfter, ErrStalled)
		}
	}
}

// lateStop logs the stop of a tick that overran.
func (rt *Runtime) lateStop(err error) {
	if err != nil {
		rt.log.Errorf("tick %d overran its %v period; %v", rt.tick, rt.period, err)
	} else {
		rt.log.Warnf("tick %d overran its %v period; wheels stopped until a tick finishes in time", rt.tick, rt.period)
	}
}

// worker runs the ticks Run asks for, one at a time.
func (rt *Runtime) worker() {
	for deadline := range rt.req {
		rt.done <- rt.runTick(deadline)
	}
}

// runTick runs one tick. Past its deadline it does not act: its
// commands would come late, and the loop stops the wheels.
func (rt *Runtime) runTick(deadline time.Time) (st TickStats) {
	t0 := time.Now()
	if err := rt.drv.Sense(); err != nil {
		st.Sense = time.Since(t0)
		st.Err = fmt.Errorf("sense: %w", err)
		return st
	}
	t1 := time.Now()
	st.Sense = t1.Sub(t0)
	if err := rt.controlStep(); err != nil {
		st.Control = time.Since(t1)
		st.Err = err
		return st
	}
	t2 := time.Now()
	st.Control = t2.Sub(t1)
	if rt.overran.Load() || time.Now().After(deadline) {
		// The wheels are stopped because this tick is late: its
		// commands would undo the stop.
		st.Overran = true
		return st
	}
	if err := rt.drv.Act(); err != nil && !errors.Is(err, ErrSuperseded) {
		st.Err = fmt.Errorf("act: %w", err)
	}
	st.Act = time.Since(t2)
	return st
}

func (rt *Runtime) controlStep() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = recovered(rt.spec.Controller, fmt.Sprintf("controller %q (%s) panicked at tick %d", rt.spec.ID, rt.spec.Label, rt.tick), p)
		}
	}()
	rt.spec.Controller.ControlStep()
	return nil
}

// stopWheels commands the safe state, trying once more on failure. Its
// error says that the wheels could not be stopped.
func (rt *Runtime) stopWheels(why string) error {
	err := rt.drv.Stop()
	if err != nil {
		err = rt.drv.Stop()
	}
	if err != nil {
		return fmt.Errorf("realrobot: could not stop the wheels (%s): %w", why, err)
	}
	return nil
}

// Close stops the wheels, calls the controller's Destroy (unless a tick
// stalled inside it) and closes the driver. It returns every error, joined.
// It is safe to call more than once.
func (rt *Runtime) Close() error {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return nil
	}
	rt.closed = true
	stalled := rt.stalled
	if rt.workerUp {
		// Nothing sends after Run returned. A stalled worker sees the
		// close once its tick returns (its result goes to done's buffer)
		// and exits instead of waiting forever.
		close(rt.req)
	}
	rt.mu.Unlock()
	var errs []error
	errs = append(errs, rt.stopWheels("close"))
	if stalled {
		rt.log.Warnf("controller %q not destroyed: its last tick is still running", rt.spec.ID)
	} else {
		errs = append(errs, rt.destroy())
	}
	if err := rt.drv.Close(); err != nil {
		errs = append(errs, fmt.Errorf("realrobot: closing the driver: %w", err))
	}
	return errors.Join(errs...)
}

func (rt *Runtime) destroy() (err error) {
	defer func() {
		if p := recover(); p != nil {
			pe := recovered(rt.spec.Controller, fmt.Sprintf("controller %q: Destroy panicked", rt.spec.ID), p)
			rt.log.Debugf("%s: the stack of the panic:\n%s", pe.What, pe.Stack)
			err = pe
		}
	}()
	if err := rt.spec.Controller.Destroy(); err != nil {
		return fmt.Errorf("realrobot: controller %q: Destroy: %w", rt.spec.ID, err)
	}
	return nil
}
