package ci

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// Controller is a robot controller. The runtime (simulator or real robot)
// calls Init once, then ControlStep once per tick after the sensors have
// been read; the actuator values set during ControlStep are applied after
// it returns. Reset brings the controller back to its state right after
// Init; Destroy releases what Init acquired.
//
// ControlStep must not read the wall clock nor a global random source: the
// caller owns time (one call is one tick) and randomness ([Robot.Rand]).
type Controller interface {
	Init(robot Robot, params Params) error
	ControlStep()
	Reset()
	Destroy() error
}

// ConcurrentInit is implemented by a controller whose Init may run at the
// same time as the Init of other robots' controllers, on other goroutines:
// a runtime that sets up many robots (the simulator, with a million of
// them) may then call their Init in parallel. The method itself does
// nothing; implementing it is the promise that Init
//
//   - reads only what it is given (its Robot, with its devices and random
//     stream, and its Params, which the robots of one controller entry
//     share and whose reads are safe for concurrent use) and writes only its
//     own controller and its own robot's devices;
//   - writes no package-level variable and no value shared with other
//     controllers, unless that value guards itself (a sync.Once, a lock);
//   - gives the same controller whatever the order in which the robots are
//     set up, so that the same seed still gives the same results.
//
// A controller without the method has its robots' Init called one after
// the other, in robot order. With or without it, a runtime reports the
// first failing robot's error in robot order; the runtimes may always call
// Init one robot at a time.
type ConcurrentInit interface {
	Controller
	ConcurrentInit()
}

// Robot is the handle a controller receives at Init: its identity, its
// random stream and its devices, looked up by their XML tag.
//
// Sensor and Actuator return the device implementation for a tag declared
// under <sensors> or <actuators>; prefer the typed getters [GetSensor] and
// [GetActuator], which explain what went wrong.
type Robot interface {
	// ID is the robot's id in the experiment ("fb0", "ep12").
	ID() string
	// Rand is this robot's own random stream, derived from the experiment
	// seed and the robot id: the same seed gives the same stream. The
	// simulator starts the stream again at a reset; call Rand where you
	// draw rather than keeping the one Init saw, which a runtime may
	// replace.
	Rand() *rand.Rand
	Sensor(tag string) (any, bool)
	Actuator(tag string) (any, bool)
}

// ErrNotDeclared is wrapped by the error of [GetSensor] and [GetActuator]
// when the controller asks for a device its XML does not declare.
var ErrNotDeclared = errors.New("device not declared")

// ErrWrongType is wrapped when a declared device does not implement the
// interface asked for.
var ErrWrongType = errors.New("device has another type")

// GetSensor returns the sensor declared under the tag, as the interface T.
func GetSensor[T any](r Robot, tag string) (T, error) {
	return getDevice[T](r, "sensor", "sensors", tag, r.Sensor)
}

// GetActuator returns the actuator declared under the tag, as the
// interface T.
func GetActuator[T any](r Robot, tag string) (T, error) {
	return getDevice[T](r, "actuator", "actuators", tag, r.Actuator)
}

func getDevice[T any](r Robot, kind, section, tag string, get func(string) (any, bool)) (T, error) {
	var zero T
	dev, ok := get(tag)
	if !ok {
		return zero, fmt.Errorf("ci: robot %q: %s %q: %w for this controller; add <%s implementation=\"default\"/> under <%s> in its <controllers> entry",
			r.ID(), kind, tag, ErrNotDeclared, tag, section)
	}
	t, ok := dev.(T)
	if !ok {
		return zero, fmt.Errorf("ci: robot %q: %s %q is a %T and does not provide %s: %w; ask for the interface of the %q device group",
			r.ID(), kind, tag, dev, typeName[T](), ErrWrongType, tag)
	}
	return t, nil
}

func typeName[T any]() string {
	var p *T
	return fmt.Sprintf("%T", p)[1:]
}
