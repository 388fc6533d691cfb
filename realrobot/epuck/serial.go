package epuck

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/realrobot"
	"github.com/sirupsen/logrus"
	"go.bug.st/serial"
)

// Port is the part of a serial port the sercom driver uses;
// go.bug.st/serial's ports have it.
type Port interface {
	io.ReadWriteCloser
	// SetReadTimeout bounds each Read, which then returns (0, nil).
	SetReadTimeout(time.Duration) error
	// ResetInputBuffer drops the bytes received and not yet read.
	ResetInputBuffer() error
}

// OpenPort opens a serial port at the baud rate, 8N1, without flow
// control, with go.bug.st/serial.
func OpenPort(path string, baud int) (Port, error) {
	p, err := serial.Open(path, &serial.Mode{BaudRate: baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// SerCom drives a classic e-puck through advanced sercom in binary mode.
// Make it with OpenSerCom.
type SerCom struct {
	b   boards.Board
	log logrus.FieldLogger
	dev *devices

	mu      sync.Mutex // guards the port and the exchange buffers
	wmu     sync.Mutex // serializes writes: an urgent Stop writes during an exchange
	port    Port       // written with mu and wmu held, read with either
	req     []byte
	reply   [SenseReplyLen]byte
	leds    [8]int8 // LED states last acknowledged; -1 unknown
	closed  bool
	opened  bool // the port was opened once
	reopens int
}

var _ realrobot.Driver = (*SerCom)(nil)

// OpenSerCom opens the board's serial port and builds the declared
// devices. It stops the wheels as its first exchange, which also checks
// that the firmware answers.
func OpenSerCom(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (*SerCom, error) {
	if b.Serial == nil {
		return nil, fmt.Errorf("epuck: board %q has no serial port", b.Name)
	}
	if log == nil {
		log = discardLogger()
	}
	s := &SerCom{b: b, log: log.WithField("port", b.Serial.Port), dev: newDevices(b, d)}
	s.forgetLEDs()
	if err := s.Stop(); err != nil {
		s.Close()
		return nil, fmt.Errorf("%w; check the port and baud rate (-port, -baud) and that the e-puck is on and runs advanced sercom", err)
	}
	return s, nil
}

func (s *SerCom) forgetLEDs() {
	for i := range s.leds {
		s.leds[i] = -1
	}
}

// Reopens returns how many times the port was reopened after it was lost.
func (s *SerCom) Reopens() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reopens
}

// ensurePort (re)opens the port; a reopened port gets a stop command
// first, since the firmware keeps the last speeds while disconnected.
func (s *SerCom) ensurePort() error {
	if s.closed {
		return errors.New("epuck: the driver is closed")
	}
	if s.port != nil {
		return nil
	}
	p, err := OpenPort(s.b.Serial.Port, s.b.Serial.Baud)
	if err != nil {
		return fmt.Errorf("epuck: cannot open %s: %w", s.b.Serial.Port, err)
	}
	s.setPort(p)
	if s.opened {
		s.reopens++
		s.log.Warnf("serial port reopened (%d times so far); stopping the wheels first", s.reopens)
		s.forgetLEDs()
		if _, err := s.write(urgentStop[:]); err != nil {
			s.drop(err)
			return err
		}
	}
	s.opened = true
	return nil
}

// drop closes a port that failed with an I/O error; the next exchange
// reopens it.
func (s *SerCom) drop(err error) {
	if s.port == nil {
		return
	}
	s.log.Warnf("serial port lost: %v", err)
	s.port.Close()
	s.setPort(nil)
}

func (s *SerCom) setPort(p Port) {
	s.wmu.Lock()
	s.port = p
	s.wmu.Unlock()
}

// readFull reads len(b) bytes within the board's timeout; it returns how
// many arrived.
func (s *SerCom) readFull(b []byte) (int, error) {
	deadline := time.Now().Add(s.b.Timeout)
	got := 0
	for got < len(b) {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		if err := s.port.SetReadTimeout(left); err != nil {
			return got, err
		}
		n, err := s.port.Read(b[got:])
		got += n
		if err != nil {
			return got, err
		}
		if n == 0 {
			break // timed out
		}
	}
	return got, nil
}

// exchange sends req (a whole chain) and reads replyLen bytes, which
// check must accept; it retries Board.Retries times.
func (s *SerCom) exchange(req []byte, reply []byte, check func([]byte) error) error {
	var last error
	attempts := 1 + max(0, s.b.Retries)
	for attempt := 0; attempt < attempts; attempt++ {
		if err := s.ensurePort(); err != nil {
			last = err
			continue
		}
		if err := s.port.ResetInputBuffer(); err != nil {
			s.drop(err)
			last = err
			continue
		}
		if _, err := s.write(req); err != nil {
			s.drop(err)
			last = err
			continue
		}
		n, err := s.readFull(reply)
		if err != nil {
			s.drop(err)
			last = err
			continue
		}
		if n < len(reply) {
			last = fmt.Errorf("epuck: truncated reply: %d of %d bytes within %v", n, len(reply), s.b.Timeout)
			s.log.Debug(last)
			continue
		}
		if err := check(reply); err != nil {
			last = err
			s.log.Debugf("bad reply: %v", err)
			continue
		}
		return nil
	}
	return fmt.Errorf("epuck: %s: %d attempts failed, the last: %w", s.b.Serial.Port, attempts, last)
}

// Sense reads proximity, ambient light, wheel speeds and step counters.
func (s *SerCom) Sense() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var got SerComSensors
	err := s.exchange(SenseChain[:], s.reply[:], func(b []byte) (err error) {
		got, err = DecodeSense(b)
		return err
	})
	if err != nil {
		return err
	}
	s.dev.setProximity(func(i int) float64 { return float64(got.Proximity[i]) })
	s.dev.setLight(func(i int) float64 { return float64(got.Ambient[i]) })
	s.dev.setWheels(got.Speed, got.Steps)
	return nil
}

// setSpeed sends the wheel speeds and the LED changes, and checks the
// firmware's echo of the speeds.
func (s *SerCom) setSpeed(left, right int16, leds bool) error {
	s.req = AppendSetSpeed(s.req[:0], left, right)
	var want [8]int8
	if leds && s.dev.leds != nil {
		for i, c := range s.dev.leds.Colors() {
			want[i] = 0
			if lit(c) {
				want[i] = 1
			}
			if want[i] != s.leds[i] {
				s.req = AppendLED(s.req, byte(i), byte(want[i]))
			}
		}
	}
	s.req = append(s.req, CmdGetSpeed, ChainEnd)
	err := s.exchange(s.req, s.reply[:4], func(b []byte) error {
		l, r, err := DecodeSpeed(b)
		if err != nil {
			return err
		}
		if l != left || r != right {
			return fmt.Errorf("epuck: the firmware runs the wheels at %d, %d steps/s after a command of %d, %d", l, r, left, right)
		}
		return nil
	})
	if err == nil && leds && s.dev.leds != nil {
		s.leds = want
	}
	return err
}

// Act sends the wheel speeds and LEDs the controller set.
func (s *SerCom) Act() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, r := s.dev.wheelSteps()
	return s.setSpeed(l, r, true)
}

func (s *SerCom) write(b []byte) (int, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.port.Write(b)
}

// urgentStop is the stop chain without a query: it has no reply, so it
// may go out between the chains of an exchange in progress.
var urgentStop = [...]byte{CmdSetSpeed, 0, 0, 0, 0, ChainEnd}

// Stop sets both wheels to 0 steps/s and checks the firmware's echo. When
// an exchange is in progress (its retries can outlast a tick) it does not
// wait: it writes a stop chain without a reply between the exchange's
// chains and returns, and the next Stop checks.
func (s *SerCom) Stop() error {
	if s.mu.TryLock() {
		defer s.mu.Unlock()
		return s.setSpeed(0, 0, false)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	p := s.port
	if p == nil {
		return errors.New("epuck: the serial port is lost; cannot stop the wheels now")
	}
	_, err := p.Write(urgentStop[:])
	return err
}

// Sensor returns the declared sensor with the tag.
func (s *SerCom) Sensor(tag string) (any, bool) { return s.dev.sensor(tag) }

// Actuator returns the declared actuator with the tag.
func (s *SerCom) Actuator(tag string) (any, bool) { return s.dev.actuator(tag) }

// Close closes the port.
func (s *SerCom) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.port == nil {
		return nil
	}
	err := s.port.Close()
	s.setPort(nil)
	return err
}
