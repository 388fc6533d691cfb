// Package attach is the realrobot driver that attaches a controller to a
// running simulation (the "sim" board of the robot command): the
// controller drives one simulated robot, whose sensor readings arrive
// every tick over TCP and whose actuator values go back (protocol:
// wire/simlink, docs/remote.md).
//
// [Dial] opens the link and returns a realrobot.Driver; robotcli uses it
// for -b sim -sim-addr HOST:PORT. Its devices implement the ci
// interfaces with what the simulation sent, so that the controller does
// not know it is remote. [Merge] combines it with a real robot's driver
// for experiments that mix real and simulated robots.
package attach

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/wire/simlink"
)

// TokenEnv is the environment variable the token is read from when the
// options give none.
const TokenEnv = "ARGOS_REMOTE_TOKEN"

// ErrDetached is wrapped by the errors of a driver whose simulation
// said bye or whose connection dropped.
var ErrDetached = errors.New("the simulation detached")

// Options say where and as whom to attach.
type Options struct {
	// Addr is the simulation's <remote> address, host:port.
	Addr string
	// Token is the experiment's token; "" reads TokenEnv.
	Token string
	// RobotID is the simulated robot to drive.
	RobotID string
	// Devices are the controller's declared devices; all must be ones the
	// link carries (simlink.Supported) and the simulated robot has.
	Devices realrobot.Devices
	// Timeout bounds the connection and the wait for one tick's sensor
	// readings; 0 means 5 s.
	Timeout time.Duration
}

// Driver is the link to the simulation, as a realrobot.Driver.
type Driver struct {
	nc      net.Conn
	c       *simlink.Conn
	welcome simlink.Welcome
	timeout time.Duration
	sens    []simlink.Sensor
	acts    []simlink.Actuator
	tags    realrobot.Devices
	byTag   map[string]any
	actByTg map[string]any

	frames chan []byte   // Sense bodies, newest kept
	done   chan struct{} // closed when the reader ends
	why    error         // why the reader ended, set before done closes

	wmu     sync.Mutex // writes
	sup     realrobot.Supersede
	tick    uint64
	frame   simlink.Frame
	payload [][]byte
	scratch []byte
	ends    []int
	closed  bool
}

var _ realrobot.Driver = (*Driver)(nil)

// Dial attaches to the simulation: it sends the hello and waits for the
// welcome.
func Dial(opt Options) (*Driver, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Second
	}
	if opt.Token == "" {
		opt.Token = os.Getenv(TokenEnv)
	}
	if opt.Token == "" {
		return nil, fmt.Errorf("attach: no token; set %s to the experiment's token (or pass -sim-token)", TokenEnv)
	}
	if opt.Addr == "" || opt.RobotID == "" {
		return nil, errors.New("attach: give the simulation's address (-sim-addr host:port) and the simulated robot's id (-robot-id)")
	}
	d := &Driver{timeout: opt.Timeout, tags: opt.Devices, byTag: map[string]any{}, actByTg: map[string]any{},
		frames: make(chan []byte, 1), done: make(chan struct{})}
	for _, t := range opt.Devices.Sensors {
		k := simlink.SensorKindOf(t)
		if k == simlink.KindNone {
			return nil, fmt.Errorf("attach: sensor <%s> cannot come from a simulation; the link carries %s", t, simlink.Supported)
		}
		s, err := simlink.NewSensor(k)
		if err != nil {
			return nil, fmt.Errorf("attach: %w", err)
		}
		d.sens = append(d.sens, s)
		d.byTag[t] = s
	}
	for _, t := range opt.Devices.Actuators {
		if simlink.ActuatorKindOf(t) == simlink.KindNone {
			return nil, fmt.Errorf("attach: actuator <%s> cannot act in a simulation; the link carries %s", t, simlink.Supported)
		}
	}
	nc, err := net.DialTimeout("tcp", opt.Addr, opt.Timeout)
	if err != nil {
		return nil, fmt.Errorf("attach: %v; is the simulation running with <remote address=%q>?", err, opt.Addr)
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	d.nc, d.c = nc, simlink.NewConn(nc)
	fail := func(err error) (*Driver, error) {
		nc.Close()
		return nil, err
	}
	nc.SetDeadline(time.Now().Add(opt.Timeout))
	h := simlink.Hello{Version: simlink.Version, RobotID: opt.RobotID, Token: opt.Token, Sensors: opt.Devices.Sensors, Actuators: opt.Devices.Actuators}
	if err := d.c.Write(simlink.FrameHello, func(b []byte) []byte { return simlink.AppendHello(b, h) }); err != nil {
		return fail(fmt.Errorf("attach: %w", err))
	}
	typ, body, err := d.c.Read()
	if err != nil {
		return fail(fmt.Errorf("attach: no welcome from %s: %w", opt.Addr, err))
	}
	switch typ {
	case simlink.FrameWelcome:
	case simlink.FrameReject:
		r, _ := simlink.ParseReason(body)
		return fail(fmt.Errorf("attach: the simulation refused robot %q: %s", opt.RobotID, r))
	default:
		return fail(fmt.Errorf("attach: a frame of type %d instead of the welcome", typ))
	}
	if d.welcome, err = simlink.ParseWelcome(body); err != nil {
		return fail(fmt.Errorf("attach: %w", err))
	}
	if len(d.welcome.Params) != len(opt.Devices.Actuators) {
		return fail(fmt.Errorf("attach: a welcome with %d actuator parameters for %d actuators", len(d.welcome.Params), len(opt.Devices.Actuators)))
	}
	for i, t := range opt.Devices.Actuators {
		a, err := simlink.NewActuator(simlink.ActuatorKindOf(t), d.welcome.Params[i])
		if err != nil {
			return fail(fmt.Errorf("attach: %w", err))
		}
		if m, ok := a.(*simlink.MessagingActuator); ok {
			m.From = opt.RobotID
		}
		d.acts = append(d.acts, a)
		d.actByTg[t] = a
	}
	nc.SetDeadline(time.Time{})
	go d.read()
	return d, nil
}

// Welcome returns what the simulation said when it accepted the link.
func (d *Driver) Welcome() simlink.Welcome { return d.welcome }

// Done is closed when the simulation said bye or the link dropped.
func (d *Driver) Done() <-chan struct{} { return d.done }

// Err says why Done closed.
func (d *Driver) Err() error {
	select {
	case <-d.done:
		return d.why
	default:
		return nil
	}
}

// read keeps the newest Sense until the link ends.
func (d *Driver) read() {
	defer close(d.done)
	for {
		typ, body, err := d.c.Read()
		if err != nil {
			d.why = fmt.Errorf("attach: the link dropped (%v): %w", err, ErrDetached)
			return
		}
		switch typ {
		case simlink.FrameSense:
			b := append([]byte(nil), body...)
			select {
			case <-d.frames: // an older one nobody read: the newest wins
			default:
			}
			d.frames <- b
		case simlink.FrameBye:
			r, _ := simlink.ParseReason(body)
			d.why = fmt.Errorf("attach: the simulation said bye: %s: %w", r, ErrDetached)
			return
		default:
			d.why = fmt.Errorf("attach: a frame of type %d from the simulation, which sends sense and bye: %w", typ, ErrDetached)
			return
		}
	}
}

// Sense waits for the simulation's next readings.
func (d *Driver) Sense() error {
	d.wmu.Lock()
	mark := d.sup.BeginSense()
	d.wmu.Unlock()
	t := time.NewTimer(d.timeout)
	defer t.Stop()
	var body []byte
	select {
	case body = <-d.frames:
	case <-d.done:
		select {
		case body = <-d.frames:
		default:
			return d.why
		}
	case <-t.C:
		return fmt.Errorf("attach: no readings from the simulation for %v", d.timeout)
	}
	if err := simlink.ParseFrame(simlink.FrameSense, body, &d.frame); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if len(d.frame.Devices) != len(d.sens) {
		return fmt.Errorf("attach: readings of %d sensors for %d", len(d.frame.Devices), len(d.sens))
	}
	for i, s := range d.sens {
		if err := s.Decode(d.frame.Devices[i]); err != nil {
			return fmt.Errorf("attach: sensor <%s>: %w", d.tags.Sensors[i], err)
		}
	}
	d.wmu.Lock()
	defer d.wmu.Unlock()
	d.tick = d.frame.Tick
	if d.sup.Superseded(mark) && !d.closed {
		// A stop came while the readings were on their way: it carried
		// the older tick, and this tick's Act will not be sent. The stop
		// answers this tick, so that a simulation in lockstep goes on.
		return d.send(true)
	}
	return nil
}

// Tick returns the simulation tick of the last readings.
func (d *Driver) Tick() uint64 {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	return d.tick
}

// Act sends the actuator values for the tick of the last readings.
func (d *Driver) Act() error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	mark := d.sup.BeginAct()
	if d.sup.Superseded(mark) {
		return fmt.Errorf("attach: %w", realrobot.ErrSuperseded)
	}
	return d.send(false)
}

// Stop sends zero wheel speeds at once, flagged as a stop.
func (d *Driver) Stop() error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	d.sup.Stopped()
	if d.closed {
		return nil
	}
	select {
	case <-d.done:
		return nil // nothing moves in a simulation that left
	default:
	}
	return d.send(true)
}

// send writes an Act; d.wmu is held. A stop carries zero wheel speeds
// and no messages, and leaves what the controller set as it was.
func (d *Driver) send(stop bool) error {
	d.scratch = d.scratch[:0]
	d.ends = d.ends[:0]
	for _, a := range d.acts {
		switch a.(type) {
		case *simlink.MessagingActuator:
			if stop {
				d.scratch = simlink.AppendMessages(d.scratch, nil)
				break
			}
			d.scratch = a.AppendPayload(d.scratch)
		case *simlink.SteeringActuator:
			if stop {
				d.scratch = (&simlink.SteeringActuator{}).AppendPayload(d.scratch)
				break
			}
			d.scratch = a.AppendPayload(d.scratch)
		default:
			d.scratch = a.AppendPayload(d.scratch)
		}
		d.ends = append(d.ends, len(d.scratch))
	}
	d.payload = d.payload[:0]
	start := 0
	for _, end := range d.ends {
		d.payload = append(d.payload, d.scratch[start:end])
		start = end
	}
	f := simlink.Frame{Tick: d.tick, Stop: stop, Devices: d.payload}
	d.nc.SetWriteDeadline(time.Now().Add(d.timeout))
	if err := d.c.Write(simlink.FrameAct, func(b []byte) []byte { return simlink.AppendFrame(b, simlink.FrameAct, &f) }); err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	return nil
}

// Sensor returns the declared sensor with the tag.
func (d *Driver) Sensor(tag string) (any, bool) {
	s, ok := d.byTag[tag]
	return s, ok
}

// Actuator returns the declared actuator with the tag.
func (d *Driver) Actuator(tag string) (any, bool) {
	a, ok := d.actByTg[tag]
	return a, ok
}

// Close says bye and closes the link.
func (d *Driver) Close() error {
	d.wmu.Lock()
	if d.closed {
		d.wmu.Unlock()
		return nil
	}
	d.closed = true
	d.nc.SetWriteDeadline(time.Now().Add(time.Second))
	d.c.Write(simlink.FrameBye, func(b []byte) []byte { return simlink.AppendReason(b, "the controller stopped") })
	d.wmu.Unlock()
	err := d.nc.Close()
	<-d.done
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("attach: %w", err)
	}
	return nil
}
