// Package realrobottest has a fake [realrobot.Driver] for testing the
// runtime loop and the robot command without hardware, and
// [TestDriver], the conformance test every driver of realrobot passes.
package realrobottest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/realrobot"
)

// Driver is a fake robot link with wheels (differential_steering, both
// as actuator and sensor) and a proximity ring (proximity and
// epuck_proximity). "The motors" are what the last Act or Stop sent.
// Hooks inject faults: SenseHook runs without the driver's lock (it may
// block, to stall a tick, and may change the proximity readings: it runs
// on the runtime's tick goroutine); ActHook and StopHook run with it.
type Driver struct {
	mu     sync.Mutex
	wheels *citest.Wheels
	prox   *citest.Proximity
	motors [2]float64
	events []Event
	closed bool

	// SenseHook runs at the start of Sense with the 1-based number of
	// the call; a non-nil error fails the exchange.
	SenseHook func(n int) error
	// ActHook is the same for Act.
	ActHook func(n int) error
	// StopHook is the same for Stop.
	StopHook func(n int) error
	senses   int
	acts     int
	stops    int
	sup      realrobot.Supersede
}

// Event is one call the driver received, with the motor speeds after it.
type Event struct {
	Call   string // "sense", "act", "stop", "close"
	Motors [2]float64
	Err    error
	At     time.Time
}

var _ realrobot.Driver = (*Driver)(nil)

// NewDriver returns a fake e-puck-like driver: 8 proximity sensors at the
// e-puck's angles, wheels at rest.
func NewDriver() *Driver {
	return &Driver{wheels: &citest.Wheels{}, prox: citest.NewEPuckProximity()}
}

// Proximity returns the fake ring. While the runtime runs, change its
// readings only from SenseHook.
func (d *Driver) Proximity() *citest.Proximity { return d.prox }

// Motors returns the wheel speeds (cm/s) last sent.
func (d *Driver) Motors() [2]float64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.motors
}

// Events returns a copy of the calls received so far.
func (d *Driver) Events() []Event {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Event(nil), d.events...)
}

// Closed reports whether Close was called.
func (d *Driver) Closed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}

func (d *Driver) record(call string, err error) {
	d.events = append(d.events, Event{Call: call, Motors: d.motors, Err: err, At: time.Now()})
}

// Sense runs SenseHook.
func (d *Driver) Sense() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.senses++
	d.sup.BeginSense()
	var err error
	if d.SenseHook != nil {
		d.mu.Unlock()
		err = d.SenseHook(d.senses)
		d.mu.Lock()
	}
	d.record("sense", err)
	return err
}

// Act sends the wheels' command to the motors unless ActHook fails or a
// Stop came since the tick's Sense (realrobot.ErrSuperseded).
func (d *Driver) Act() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.acts++
	mark := d.sup.BeginAct()
	var err error
	if d.ActHook != nil {
		err = d.ActHook(d.acts)
	}
	if err == nil && d.sup.Superseded(mark) {
		err = fmt.Errorf("realrobottest: %w", realrobot.ErrSuperseded)
	}
	if err == nil {
		d.motors = [2]float64{d.wheels.Left, d.wheels.Right}
	}
	d.record("act", err)
	return err
}

// Stop sets the motors to zero unless StopHook fails.
func (d *Driver) Stop() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stops++
	d.sup.Stopped()
	var err error
	if d.StopHook != nil {
		err = d.StopHook(d.stops)
	}
	if err == nil {
		d.motors = [2]float64{}
	}
	d.record("stop", err)
	return err
}

// Sensor returns the proximity ring or the wheel encoders.
func (d *Driver) Sensor(tag string) (any, bool) {
	switch tag {
	case ci.TagProximity, ci.TagEPuckProximity:
		return d.prox, true
	case ci.TagDifferentialSteering:
		return d.wheels, true
	}
	return nil, false
}

// Actuator returns the wheels.
func (d *Driver) Actuator(tag string) (any, bool) {
	if tag == ci.TagDifferentialSteering {
		return d.wheels, true
	}
	return nil, false
}

// Close marks the driver closed; a second Close is an error, which the
// runtime must never cause.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("realrobottest: Close called twice")
	}
	d.closed = true
	d.record("close", nil)
	return nil
}
