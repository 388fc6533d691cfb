package realrobot

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

	req  chan struct{}
	done chan TickStats
	tick int

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
		req: make(chan struct{}), done: make(chan TickStats, 1),
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
			err = fmt.Errorf("realrobot: controller %q (%s): Init panicked: %v: %w", rt.spec.ID, rt.spec.Label, p, ErrControllerPanic)
		}
	}()
	if err := rt.spec.Controller.Init(rt.robot, rt.spec.Params); err != nil {
		return fmt.Errorf("realrobot: controller %q (%s): %w", rt.spec.ID, rt.spec.Label, err)
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
// returns. Call Close afterwards.
func (rt *Runtime) Run(ctx context.Context) error {
	err := rt.run(ctx)
	if serr := rt.stopWheels("end of run"); serr != nil && err == nil {
		err = serr
	}
	return err
}

func (rt *Runtime) run(ctx context.Context) error {
	rt.mu.Lock()
	if rt.closed || rt.stalled {
		rt.mu.Unlock()
		return errors.New("realrobot: the runtime is closed or stalled; make a new one")
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
				rt.log.Infof("stopping at tick %d: %v", rt.tick, context.Cause(ctx))
				return nil
			case <-timer.C:
			}
		} else if ctx.Err() != nil {
			rt.log.Infof("stopping at tick %d: %v", rt.tick, context.Cause(ctx))
			return nil
		}
		start := time.Now()
		rt.tick++
		rt.req <- struct{}{}
		st, err := rt.wait(start)
		if err != nil {
			return err
		}
		st.N, st.Late = rt.tick, start.Sub(next)
		if rt.opt.OnTick != nil {
			rt.opt.OnTick(st)
		}
		switch {
		case errors.Is(st.Err, ErrControllerPanic):
			rt.log.Errorf("tick %d: %v", rt.tick, st.Err)
			return st.Err
		case st.Err != nil:
			failures++
			rt.log.Errorf("tick %d: %v; wheels stopped (%d failed ticks in a row, the run ends at %d)", rt.tick, st.Err, failures, rt.opt.MaxFailures)
			if err := rt.stopWheels("failed tick"); err != nil {
				rt.log.Errorf("tick %d: %v", rt.tick, err)
			}
			if failures >= rt.opt.MaxFailures {
				return fmt.Errorf("realrobot: %d failed ticks in a row, the last: %v: %w", failures, st.Err, ErrDeviceLost)
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
	return nil
}

// wait waits for the tick that started at start; past the period it
// stops the wheels, past StallAfter it gives up.
func (rt *Runtime) wait(start time.Time) (TickStats, error) {
	deadline := time.NewTimer(rt.period)
	defer deadline.Stop()
	select {
	case st := <-rt.done:
		return st, nil
	case <-deadline.C:
	}
	select {
	case st := <-rt.done:
		return st, nil
	default:
	}
	rt.log.Warnf("tick %d overran its %v period; wheels stopped until a tick finishes in time", rt.tick, rt.period)
	stopped := make(chan error, 1)
	go func() { stopped <- rt.stopWheels("overrun") }()
	stall := time.NewTimer(rt.opt.StallAfter - time.Since(start))
	defer stall.Stop()
	for {
		select {
		case st := <-rt.done:
			if stopped != nil {
				if err := <-stopped; err != nil {
					rt.log.Errorf("tick %d: %v", rt.tick, err)
				}
			}
			rt.log.Warnf("tick %d took %v", rt.tick, time.Since(start).Round(time.Microsecond))
			return st, nil
		case err := <-stopped:
			if err != nil {
				rt.log.Errorf("tick %d: %v", rt.tick, err)
			}
			stopped = nil
		case <-stall.C:
			rt.mu.Lock()
			rt.stalled = true
			rt.mu.Unlock()
			return TickStats{}, fmt.Errorf("realrobot: tick %d has run for %v (limit %v); wheels stopped: %w", rt.tick, time.Since(start).Round(time.Millisecond), rt.opt.StallAfter, ErrStalled)
		}
	}
}

// worker runs the ticks Run asks for, one at a time.
func (rt *Runtime) worker() {
	for range rt.req {
		rt.done <- rt.runTick()
	}
}

func (rt *Runtime) runTick() (st TickStats) {
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
	if err := rt.drv.Act(); err != nil {
		st.Err = fmt.Errorf("act: %w", err)
	}
	st.Act = time.Since(t2)
	return st
}

func (rt *Runtime) controlStep() (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("realrobot: controller %q (%s) panicked at tick %d: %v: %w", rt.spec.ID, rt.spec.Label, rt.tick, p, ErrControllerPanic)
		}
	}()
	rt.spec.Controller.ControlStep()
	return nil
}

// stopWheels commands the safe state, trying once more on failure.
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
	if rt.workerUp && !stalled {
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
			err = fmt.Errorf("realrobot: controller %q: Destroy panicked: %v: %w", rt.spec.ID, p, ErrControllerPanic)
		}
	}()
	if err := rt.spec.Controller.Destroy(); err != nil {
		return fmt.Errorf("realrobot: controller %q: Destroy: %w", rt.spec.ID, err)
	}
	return nil
}
