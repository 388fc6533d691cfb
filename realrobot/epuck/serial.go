package epuck

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
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

// SerCom drives a classic e-puck through advanced sercom in ASCII mode
// (see AppendASCII). Make it with OpenSerCom.
//
// Each attempt of an exchange flushes stale input, writes its request
// prefixed with the tag of its number (AppendTag) and reads one reply
// line per command within the board's Timeout. A reply is accepted only
// when every line is whole, answers the command due at its place, and
// has the right number of values in range: a late reply to an earlier
// attempt, or to another exchange, fails its framing and is retried.
type SerCom struct {
	b   boards.Board
	log logrus.FieldLogger
	dev *devices
	sup realrobot.Supersede

	mu      sync.Mutex // guards the port and the exchange buffers
	wmu     sync.Mutex // serializes writes: an urgent Stop writes during an exchange
	port    Port       // written with mu and wmu held, read with either
	req     []byte
	want    []Expect
	in      []byte
	chunk   [256]byte
	replies []Reply
	leds    [8]int8 // LED states last acknowledged; -1 unknown
	closed  bool
	opened  bool   // the port was opened once
	reopens int    // guarded by mu
	attempt uint64 // attempts made, for their tags
	urgent  atomic.Int32
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

// stopBody is the stop request: both wheels to 0 and the speeds read
// back.
var (
	stopBody   = AppendASCII(AppendASCII(nil, 'D', 0, 0), 'E')
	stopExpect = []Expect{{'d', 0}, {'e', 2}}
)

// ensurePort (re)opens the port; a reopened port gets a stop exchange
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
		s.sup.Stopped()
		if err := s.try(stopBody, stopExpect, nil, checkEcho(0, 0)); err != nil {
			if s.port != nil {
				s.drop(err)
			}
			return fmt.Errorf("epuck: stopping the wheels on the reopened port: %w", err)
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

// errTimeout is a reply that did not come within the board's Timeout.
type errTimeout struct{ got, want int }

func (e errTimeout) Error() string {
	return fmt.Sprintf("epuck: truncated reply: %d of %d lines", e.got, e.want)
}

// readLine reads one line before the deadline.
func (s *SerCom) readLine(deadline time.Time) ([]byte, error) {
	for {
		if line, rest, ok := CutLine(s.in); ok {
			s.in = rest
			return line, nil
		}
		if len(s.in) > MaxReplyLen {
			return nil, fmt.Errorf("%w: %d bytes without a line end", ErrGarbage, len(s.in))
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, nil
		}
		if err := s.port.SetReadTimeout(left); err != nil {
			return nil, err
		}
		n, err := s.port.Read(s.chunk[:])
		s.in = append(s.in, s.chunk[:n]...)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, nil // timed out
		}
	}
}

// ioError marks an error of the port itself (the port is dropped).
type ioError struct{ error }

func (e ioError) Unwrap() error { return e.error }

// try runs one attempt: it flushes stale input, writes the tagged
// request (unless a stop superseded the tick of mark) and reads the
// replies into s.replies, which check must accept.
func (s *SerCom) try(body []byte, want []Expect, mark *uint64, check func([]Reply) error) error {
	if err := s.port.ResetInputBuffer(); err != nil {
		return ioError{err}
	}
	s.in = s.in[:0]
	s.req, s.want = AppendTag(s.req[:0], s.want[:0], s.attempt+1)
	s.req, s.want = append(s.req, body...), append(s.want, want...)
	if err := s.send(s.req, mark); err != nil {
		return err
	}
	s.attempt++ // the requests sent: consecutive ones have different tags
	deadline := time.Now().Add(s.b.Timeout)
	s.replies = s.replies[:0]
	for len(s.replies) < len(s.want) {
		line, err := s.readLine(deadline)
		if err != nil {
			if errors.Is(err, ErrGarbage) {
				return err
			}
			return ioError{err}
		}
		if line == nil {
			return errTimeout{len(s.replies), len(s.want)}
		}
		r, err := ParseReply(line)
		if err != nil {
			return err
		}
		e := s.want[len(s.replies)]
		if r.Letter == 'd' && len(r.Values) == 0 && e.Letter != 'd' && s.urgent.Load() > 0 {
			s.urgent.Add(-1) // the answer to an urgent stop
			continue
		}
		if err := e.Check(r); err != nil {
			return err
		}
		s.replies = append(s.replies, r)
	}
	return check(s.replies[TagLen:])
}

// send writes req, unless a stop came since the tick of mark began.
func (s *SerCom) send(req []byte, mark *uint64) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if mark != nil && s.sup.Superseded(*mark) {
		return fmt.Errorf("epuck: %w", realrobot.ErrSuperseded)
	}
	if _, err := s.port.Write(req); err != nil {
		return ioError{err}
	}
	return nil
}

// exchange runs attempts of a request until check accepts the replies,
// Board.Retries times more at most. With a mark, it gives up (wrapping
// realrobot.ErrSuperseded) once a stop supersedes the tick of mark.
func (s *SerCom) exchange(body []byte, want []Expect, mark *uint64, check func([]Reply) error) error {
	var last error
	attempts := 1 + max(0, s.b.Retries)
	for range attempts {
		if err := s.ensurePort(); err != nil {
			last = err
			continue
		}
		err := s.try(body, want, mark, check)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, realrobot.ErrSuperseded):
			return err
		case errors.As(err, new(ioError)):
			s.drop(err)
		default:
			s.log.Debugf("bad reply: %v", err)
		}
		last = err
	}
	return fmt.Errorf("epuck: %s: %d attempts failed, the last: %w", s.b.Serial.Port, attempts, last)
}

// Sense reads proximity, ambient light, wheel speeds and step counters.
func (s *SerCom) Sense() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sup.BeginSense()
	var got SerComSensors
	err := s.exchange(SenseASCII[:], SenseExpect[:], nil, func(rs []Reply) (err error) {
		got, err = SenseFromReplies(rs)
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

// checkEcho accepts the "e" reply (the last) when it echoes the speeds.
func checkEcho(left, right int16) func([]Reply) error {
	return func(rs []Reply) error {
		e := rs[len(rs)-1].Values
		if e[0] != int(left) || e[1] != int(right) {
			return fmt.Errorf("epuck: the firmware runs the wheels at %d, %d steps/s after a command of %d, %d", e[0], e[1], left, right)
		}
		return nil
	}
}

// setSpeed sends the wheel speeds and the LED changes, and checks the
// firmware's echo of the speeds.
func (s *SerCom) setSpeed(left, right int16, leds bool, mark *uint64) error {
	body := AppendASCII(nil, 'D', int(left), int(right))
	want := []Expect{{'d', 0}}
	var lit8 [8]int8
	if leds && s.dev.leds != nil {
		for i, c := range s.dev.leds.Colors() {
			if lit(c) {
				lit8[i] = 1
			}
			if lit8[i] != s.leds[i] {
				body = AppendASCII(body, 'L', i, int(lit8[i]))
				want = append(want, Expect{'l', 0})
			}
		}
	}
	body = AppendASCII(body, 'E')
	want = append(want, Expect{'e', 2})
	err := s.exchange(body, want, mark, checkEcho(left, right))
	if err == nil && leds && s.dev.leds != nil {
		s.leds = lit8
	}
	return err
}

// Act sends the wheel speeds and LEDs the controller set. After a Stop
// in the same tick it sends nothing (realrobot.ErrSuperseded), and a
// Stop during it ends its retries.
func (s *SerCom) Act() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	mark := s.sup.BeginAct()
	l, r := s.dev.wheelSteps()
	return s.setSpeed(l, r, true, &mark)
}

// urgentStop is the stop command alone: it goes out between the lines of
// an exchange in progress, and its "d" answer is skipped there.
var urgentStop = AppendASCII(nil, 'D', 0, 0)

// Stop sets both wheels to 0 steps/s and checks the firmware's echo. When
// an exchange is in progress (its retries can outlast a tick) it does not
// wait: it writes the stop command between the exchange's requests and
// returns; no retry of that exchange resends older speeds, and the next
// Stop checks.
func (s *SerCom) Stop() error {
	if s.mu.TryLock() {
		defer s.mu.Unlock()
		s.sup.Stopped()
		return s.setSpeed(0, 0, false, nil)
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.sup.Stopped()
	p := s.port
	if p == nil {
		return errors.New("epuck: the serial port is lost; cannot stop the wheels now")
	}
	if _, err := p.Write(urgentStop); err != nil {
		return fmt.Errorf("epuck: writing the stop: %w", err)
	}
	s.urgent.Add(1)
	return nil
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
