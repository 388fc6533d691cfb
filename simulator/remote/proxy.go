package remote

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/wire/simlink"
)

// device is one of a hosted robot's devices that the link carries.
type device struct {
	tag  string
	kind simlink.Kind
	dev  any
}

// proxy is the controller of a hosted robot in the simulator: it sends
// the robot's sensors to the attached controller and applies its
// answers.
type proxy struct {
	srv   *Server
	id    string
	entry *config.Controller
	real  bool // the body's pose comes from outside; its wheels are the real robot's
	sens  []device
	acts  []device

	ready chan struct{} // closed when Init has collected the devices

	mu       sync.Mutex
	sess     *session
	ever     bool
	attached chan struct{} // closed at the first attach

	tick    uint64
	payload [][]byte
	scratch []byte
}

var _ ci.Controller = (*proxy)(nil)

// Init collects the robot's devices that the link carries.
func (p *proxy) Init(r ci.Robot, params ci.Params) error {
	params.FreeForm() // the parameters are the attached controller's
	for _, d := range p.entry.Sensors {
		if k := simlink.SensorKindOf(d.Tag); k != simlink.KindNone {
			if dev, ok := r.Sensor(d.Tag); ok {
				p.sens = append(p.sens, device{d.Tag, k, dev})
			}
		}
	}
	for _, d := range p.entry.Actuators {
		if k := simlink.ActuatorKindOf(d.Tag); k != simlink.KindNone {
			if dev, ok := r.Actuator(d.Tag); ok {
				p.acts = append(p.acts, device{d.Tag, k, dev})
			}
		}
	}
	close(p.ready)
	return nil
}

// Reset keeps the attached controller.
func (p *proxy) Reset() {}

// Destroy says bye to the attached controller.
func (p *proxy) Destroy() error {
	p.detach("the simulation ended")
	return nil
}

// act is one Act as received: the payloads are the reader's copies.
type act struct {
	tick     uint64
	stop     bool
	payloads [][]byte
}

// session is one attached controller.
type session struct {
	p      *proxy
	nc     net.Conn
	c      *simlink.Conn
	sensIx []int // hello's sensors -> p.sens
	actIx  []int // hello's actuators -> p.acts
	params []int

	wmu  sync.Mutex
	acts chan act      // lockstep: the Acts in order
	out  chan []byte   // real time: the newest Sense not yet written
	done chan struct{} // closed when the reader ends

	lmu     sync.Mutex // real time: the newest Act and the messages not yet sent
	latest  *act
	pending [][]byte
	bye     sync.Once
}

// newSession checks that the hello's devices are the robot's.
func (p *proxy) newSession(nc net.Conn, c *simlink.Conn, h simlink.Hello) (*session, error) {
	s := &session{p: p, nc: nc, c: c, acts: make(chan act, 16), out: make(chan []byte, 1), done: make(chan struct{})}
	find := func(list []device, tag, kind string) (int, error) {
		for i, d := range list {
			if d.tag == tag {
				return i, nil
			}
		}
		var have []string
		for _, d := range list {
			have = append(have, d.tag)
		}
		return 0, fmt.Errorf("robot %q has no %s <%s> that the link carries (it offers %v; the link carries %s): declare it in the robot's controller entry or remove it from the attached controller's",
			p.id, kind, tag, have, simlink.Supported)
	}
	for _, t := range h.Sensors {
		i, err := find(p.sens, t, "sensor")
		if err != nil {
			return nil, err
		}
		s.sensIx = append(s.sensIx, i)
	}
	for _, t := range h.Actuators {
		i, err := find(p.acts, t, "actuator")
		if err != nil {
			return nil, err
		}
		s.actIx = append(s.actIx, i)
		n := 0
		if l, ok := p.acts[i].dev.(ci.LEDs); ok {
			n = l.Len()
		}
		s.params = append(s.params, n)
	}
	return s, nil
}

// attach makes s the robot's controller.
func (p *proxy) attach(s *session) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sess != nil {
		return fmt.Errorf("robot %q already has an attached controller; stop it first", p.id)
	}
	p.sess = s
	if !p.ever {
		p.ever = true
		close(p.attached)
	}
	return nil
}

// detachSession forgets s when it is still the robot's controller.
func (p *proxy) detachSession(s *session, why string) {
	p.mu.Lock()
	if p.sess == s {
		p.sess = nil
	}
	p.mu.Unlock()
	s.close(why)
}

// detach says bye to the attached controller, if any.
func (p *proxy) detach(why string) {
	p.mu.Lock()
	s := p.sess
	p.sess = nil
	p.mu.Unlock()
	if s != nil {
		s.close(why)
	}
}

// close says bye and closes the connection, once.
func (s *session) close(why string) {
	s.bye.Do(func() {
		// The deadline also ends a write in progress (a real-time
		// writer stuck on a controller that does not read).
		s.nc.SetWriteDeadline(time.Now().Add(time.Second))
		s.wmu.Lock()
		s.c.Write(simlink.FrameBye, func(b []byte) []byte { return simlink.AppendReason(b, why) })
		s.wmu.Unlock()
		s.nc.Close()
	})
}

// read reads Acts until the controller leaves; it returns why.
func (s *session) read(mode byte) string {
	defer close(s.done)
	var f simlink.Frame
	for {
		typ, body, err := s.c.Read()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return "connection closed"
			}
			return err.Error()
		}
		switch typ {
		case simlink.FrameBye:
			r, _ := simlink.ParseReason(body)
			return "bye: " + r
		case simlink.FrameAct:
		default:
			return fmt.Sprintf("remote: a frame of type %d from the controller, which sends only act and bye", typ)
		}
		if err := simlink.ParseFrame(typ, body, &f); err != nil {
			return err.Error()
		}
		if len(f.Devices) != len(s.actIx) {
			return fmt.Sprintf("remote: an act with %d payloads for %d actuators", len(f.Devices), len(s.actIx))
		}
		a := act{tick: f.Tick, stop: f.Stop, payloads: make([][]byte, len(f.Devices))}
		for i, d := range f.Devices {
			a.payloads[i] = append([]byte(nil), d...)
		}
		if mode == simlink.Lockstep {
			select {
			case s.acts <- a:
			default:
				return "remote: the controller sent acts for ticks it was not asked about"
			}
			continue
		}
		s.lmu.Lock()
		for i, ix := range s.actIx {
			if s.p.acts[ix].kind == simlink.KindMessaging {
				s.pending = append(s.pending, a.payloads[i])
				a.payloads[i] = nil
			}
		}
		s.latest = &a
		s.lmu.Unlock()
	}
}

// writer writes the newest Sense in real time.
func (s *session) writer() {
	for {
		select {
		case b := <-s.out:
			s.wmu.Lock()
			s.nc.SetWriteDeadline(time.Now().Add(s.p.srv.timeout))
			err := s.c.Write(simlink.FrameSense, func(x []byte) []byte { return append(x, b...) })
			s.wmu.Unlock()
			if err != nil {
				return
			}
		case <-s.done:
			return
		}
	}
}

// ControlStep sends the robot's sensors and applies the answer.
func (p *proxy) ControlStep() {
	p.tick++
	p.mu.Lock()
	s, ever := p.sess, p.ever
	p.mu.Unlock()
	if p.real {
		if err := p.srv.lostPose(p.id); err != nil {
			panic(err.Error())
		}
	}
	if s == nil && !ever && p.srv.mode == simlink.Lockstep && !p.real {
		t := time.NewTimer(p.srv.wait)
		select {
		case <-p.attached:
		case <-t.C:
			panic(fmt.Sprintf("remote: no controller attached to robot %q within %v; start one with: robot -c FILE -i %s -b sim -sim-addr %s -robot-id %s (and the token in %s)",
				p.id, p.srv.wait, p.entry.ID, p.srv.Addr(), p.id, TokenEnv))
		}
		t.Stop()
		p.mu.Lock()
		s = p.sess
		p.mu.Unlock()
	}
	if s == nil {
		p.stopWheels()
		return
	}
	body, err := p.sense(s)
	if err != nil {
		p.detachSession(s, err.Error())
		p.stopWheels()
		return
	}
	if p.srv.mode == simlink.RealTime {
		select {
		case <-s.out: // the writer has not sent the older one: replace it
		default:
		}
		select {
		case s.out <- append([]byte(nil), body...):
		default:
		}
		s.lmu.Lock()
		a, pending := s.latest, s.pending
		s.pending = nil
		s.lmu.Unlock()
		if a != nil {
			p.apply(s, a)
		}
		for _, m := range pending {
			for _, ix := range s.actIx {
				if p.acts[ix].kind == simlink.KindMessaging {
					if err := simlink.ApplyActuator(simlink.KindMessaging, p.acts[ix].dev, m); err != nil {
						p.detachSession(s, err.Error())
						return
					}
					break
				}
			}
		}
		return
	}
	s.wmu.Lock()
	s.nc.SetWriteDeadline(time.Now().Add(p.srv.timeout)) // a controller that does not read is gone
	err = s.c.Write(simlink.FrameSense, func(x []byte) []byte { return append(x, body...) })
	s.wmu.Unlock()
	if err != nil {
		p.detachSession(s, err.Error())
		p.stopWheels()
		return
	}
	t := time.NewTimer(p.srv.timeout)
	defer t.Stop()
	for {
		select {
		case a := <-s.acts:
			if a.tick < p.tick {
				continue // an older stop
			}
			if a.tick > p.tick {
				p.detachSession(s, fmt.Sprintf("remote: an act for tick %d at tick %d", a.tick, p.tick))
				p.stopWheels()
				return
			}
			p.apply(s, &a)
			return
		case <-s.done:
			p.detachSession(s, "connection lost")
			p.stopWheels()
			return
		case <-t.C:
			panic(fmt.Sprintf("remote: the controller attached to robot %q did not answer tick %d within %v; raise timeout in <remote> or check the robot binary",
				p.id, p.tick, p.srv.timeout))
		}
	}
}

// sense encodes the Sense frame's body for s.
func (p *proxy) sense(s *session) ([]byte, error) {
	p.scratch = p.scratch[:0]
	ends := make([]int, 0, len(s.sensIx))
	var err error
	for _, ix := range s.sensIx {
		d := p.sens[ix]
		if p.scratch, err = simlink.AppendSensor(p.scratch, d.kind, d.dev); err != nil {
			return nil, fmt.Errorf("remote: robot %q, sensor <%s>: %w", p.id, d.tag, err)
		}
		ends = append(ends, len(p.scratch))
	}
	p.payload = p.payload[:0]
	start := 0
	for _, e := range ends {
		p.payload = append(p.payload, p.scratch[start:e])
		start = e
	}
	f := simlink.Frame{Tick: p.tick, Devices: p.payload}
	return simlink.AppendFrame(nil, simlink.FrameSense, &f), nil
}

// apply sets an Act's values on the robot's actuators.
func (p *proxy) apply(s *session, a *act) {
	for i, ix := range s.actIx {
		if a.payloads[i] == nil {
			continue // a real-time message list already sent
		}
		d := p.acts[ix]
		if p.real && d.kind == simlink.KindSteering {
			continue // the real robot's wheels move it, the pose stream says where
		}
		if err := simlink.ApplyActuator(d.kind, d.dev, a.payloads[i]); err != nil {
			p.detachSession(s, fmt.Sprintf("remote: actuator <%s>: %v", d.tag, err))
			p.stopWheels()
			return
		}
	}
	if a.stop {
		p.stopWheels()
	}
}

// stopWheels sets the robot's wheels to zero.
func (p *proxy) stopWheels() {
	for _, d := range p.acts {
		if w, ok := d.dev.(ci.DifferentialSteeringActuator); ok {
			w.SetLinearVelocity(0, 0)
		}
	}
}
