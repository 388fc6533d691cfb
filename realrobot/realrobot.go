package realrobot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/sirupsen/logrus"
)

// Driver is one link to a robot's hardware and the devices built on it.
// Sense, Act and Close are called from one goroutine at a time; Stop may
// be called from another goroutine while Sense or Act runs, and must then
// wait for the bus rather than interleave with them.
//
// A Stop is final for the tick in progress (one that began with Sense):
// no later write of that tick's commands, retries included, may undo it,
// and an Act that follows it returns an error wrapping ErrSuperseded
// without sending them. A driver whose Sense also writes the actuators'
// state sends it stopped after a Stop, until the next Act. [Supersede]
// does the bookkeeping.
type Driver interface {
	// Sense reads every declared sensor into its device's readings.
	Sense() error
	// Act sends what the controller set on the declared actuators.
	Act() error
	// Stop commands the actuators to their safe state (wheels at zero)
	// right away, whatever the controller set. It returns nil only when
	// the stop went out.
	Stop() error
	// Sensor and Actuator return the device built for a declared tag.
	Sensor(tag string) (any, bool)
	Actuator(tag string) (any, bool)
	// Close releases the link; it does not stop the actuators.
	Close() error
}

// Devices are the tags a controller declares under <sensors> and
// <actuators>: the devices a driver builds.
type Devices struct {
	Sensors, Actuators []string
}

// HasSensor reports whether tag is a declared sensor.
func (d Devices) HasSensor(tag string) bool { return slices.Contains(d.Sensors, tag) }

// HasActuator reports whether tag is a declared actuator.
func (d Devices) HasActuator(tag string) bool { return slices.Contains(d.Actuators, tag) }

// Opener opens the driver of a board for the declared devices. It must
// check that the hardware answers (a firmware that does not reply is an
// error here, not at the first tick).
type Opener func(b boards.Board, devs Devices, log logrus.FieldLogger) (Driver, error)

// Protocols is the registry of drivers by the board protocol they speak
// (boards.Protocol as a string), or by protocol and model
// ("aseba/foot-bot") when one protocol serves several models: Open tries
// the second first. The model packages register themselves; the robot
// command imports them.
var Protocols = ci.NewRegistry[Opener]("robot protocol")

// Errors that end a run; test for them with errors.Is.
var (
	// ErrControllerPanic: ControlStep panicked.
	ErrControllerPanic = errors.New("the controller panicked")
	// ErrDeviceLost: the hardware stopped answering.
	ErrDeviceLost = errors.New("the robot's hardware stopped answering")
	// ErrStalled: a tick did not finish in time.
	ErrStalled = errors.New("a tick stalled")
	// ErrNotSupported: the board needs something this build or platform
	// cannot do.
	ErrNotSupported = errors.New("not supported")
)

// Spec is the controller a runtime runs, with what the .argos file says
// about it.
type Spec struct {
	// Label and ID name the controller in messages.
	Label, ID  string
	Controller ci.Controller
	Params     ci.Params
	Devices    Devices
}

// Robot is the handle a controller receives: the robot's id, its random
// stream and the declared devices of the driver.
type Robot struct {
	id   string
	rng  *rand.Rand
	drv  Driver
	devs Devices
}

var _ ci.Robot = (*Robot)(nil)

// NewRobot returns the handle of robot id on drv, with only the devices of
// devs visible. Its random stream is a PCG seeded with seed and a hash of
// id, as the simulator derives it.
func NewRobot(id string, seed uint64, drv Driver, devs Devices) *Robot {
	h := fnv.New64a()
	h.Write([]byte(id))
	return &Robot{id: id, rng: rand.New(rand.NewPCG(seed, h.Sum64())), drv: drv, devs: devs}
}

// ID returns the robot's id.
func (r *Robot) ID() string { return r.id }

// Rand returns the robot's random stream.
func (r *Robot) Rand() *rand.Rand { return r.rng }

// Sensor returns the declared sensor with the tag.
func (r *Robot) Sensor(tag string) (any, bool) {
	if !r.devs.HasSensor(tag) {
		return nil, false
	}
	return r.drv.Sensor(tag)
}

// Actuator returns the declared actuator with the tag.
func (r *Robot) Actuator(tag string) (any, bool) {
	if !r.devs.HasActuator(tag) {
		return nil, false
	}
	return r.drv.Actuator(tag)
}

// DevicesOf returns the tags a controller entry declares, after checking
// that the board offers each of them.
func DevicesOf(b *boards.Board, c *config.Controller) (Devices, error) {
	var d Devices
	for _, s := range c.Sensors {
		if !b.HasSensor(s.Tag) {
			return d, s.Node.Errorf("realrobot: board %q (%s) has no sensor <%s>; it offers %s: remove it from <sensors> of controller %q or pick another board",
				b.Name, b.Model, s.Tag, strings.Join(boards.Tags(b.Sensors), ", "), c.ID)
		}
		d.Sensors = append(d.Sensors, s.Tag)
	}
	for _, a := range c.Actuators {
		if !b.HasActuator(a.Tag) {
			return d, a.Node.Errorf("realrobot: board %q (%s) has no actuator <%s>; it offers %s: remove it from <actuators> of controller %q or pick another board",
				b.Name, b.Model, a.Tag, strings.Join(boards.Tags(b.Actuators), ", "), c.ID)
		}
		d.Actuators = append(d.Actuators, a.Tag)
	}
	return d, nil
}

// Open opens the driver of board b for the devices controller entry c
// declares, makes the controller registered under c's label and
// initialises it. On error nothing is left open and the wheels are
// stopped if the driver was opened.
func Open(b boards.Board, c *config.Controller, opt Options) (*Runtime, error) {
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("realrobot: %w", err)
	}
	devs, err := DevicesOf(&b, c)
	if err != nil {
		return nil, err
	}
	factory, err := ci.Controllers.Lookup(c.Label)
	if err != nil {
		return nil, c.Node.Errorf("realrobot: %v; the robot binary links only the controllers imported by cmd/robot", err)
	}
	open, err := Protocols.Lookup(string(b.Protocol) + "/" + b.Model)
	if err != nil {
		open, err = Protocols.Lookup(string(b.Protocol))
	}
	if err != nil {
		return nil, fmt.Errorf("realrobot: board %q: %w", b.Name, err)
	}
	log := opt.logger()
	drv, err := open(b, devs, log)
	if err != nil {
		return nil, fmt.Errorf("realrobot: board %q: %w", b.Name, err)
	}
	rt, err := New(drv, Spec{Label: c.Label, ID: c.ID, Controller: factory(), Params: c.Params, Devices: devs}, opt)
	if err != nil {
		return nil, errors.Join(err, drv.Stop(), drv.Close())
	}
	return rt, nil
}

// logger returns the options' logger or one that discards.
func (o *Options) logger() logrus.FieldLogger {
	if o.Logger != nil {
		return o.Logger
	}
	l := logrus.New()
	l.SetOutput(discard{})
	return l
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
