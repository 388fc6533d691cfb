package aseba

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/sirupsen/logrus"
	"go.bug.st/serial"
)

// conn is a byte stream with read deadlines.
type conn interface {
	io.ReadWriteCloser
	SetReadDeadline(time.Time) error
}

// serialConn gives a serial port read deadlines.
type serialConn struct {
	serial.Port
	deadline time.Time
}

func (s *serialConn) SetReadDeadline(t time.Time) error { s.deadline = t; return nil }

func (s *serialConn) Read(b []byte) (int, error) {
	left := time.Until(s.deadline)
	if s.deadline.IsZero() {
		left = serial.NoTimeout
	} else if left <= 0 {
		return 0, os.ErrDeadlineExceeded
	}
	if err := s.Port.SetReadTimeout(left); err != nil {
		return 0, err
	}
	n, err := s.Port.Read(b)
	if n == 0 && err == nil {
		return 0, os.ErrDeadlineExceeded
	}
	return n, err
}

// Write is one SetVariables of a device: values for a variable.
type Write struct {
	Var    boards.AsebaVar
	Values []int16
}

// Link is a connection to an Aseba network that reads and writes node
// variables. A lost connection is redialled at the next exchange, and the
// writes of OnReconnect (the driver's stop) are sent first.
type Link struct {
	a       boards.Aseba
	timeout time.Duration
	retries int
	log     logrus.FieldLogger
	// OnReconnect returns the writes to send first on a redialled
	// connection.
	OnReconnect func() []Write

	mu      sync.Mutex // exchanges
	wmu     sync.Mutex // writes and the conn pointer
	c       conn
	r       *bufio.Reader
	opened  bool
	reopens int
	closed  bool
	out     []byte
}

// Dial connects to the board's Aseba network: TCP to host:port, or a
// serial port at the board's baud rate.
func Dial(a boards.Aseba, timeout time.Duration, retries int, log logrus.FieldLogger) (*Link, error) {
	if log == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		log = l
	}
	l := &Link{a: a, timeout: timeout, retries: retries, log: log.WithField("aseba", a.Address)}
	if err := l.ensure(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Link) dial() (conn, error) {
	switch l.a.Transport {
	case "tcp":
		c, err := net.DialTimeout("tcp", l.a.Address, max(time.Second, 10*l.timeout))
		if err != nil {
			return nil, err
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetNoDelay(true)
		}
		return c, nil
	case "serial":
		p, err := serial.Open(l.a.Address, &serial.Mode{BaudRate: l.a.Baud, DataBits: 8, Parity: serial.NoParity, StopBits: serial.OneStopBit})
		if err != nil {
			return nil, err
		}
		return &serialConn{Port: p}, nil
	}
	return nil, fmt.Errorf("aseba: unknown transport %q; use tcp or serial", l.a.Transport)
}

// ensure (re)connects; l.mu is held (or the link is being made).
func (l *Link) ensure() error {
	if l.closed {
		return errors.New("aseba: the link is closed")
	}
	if l.c != nil {
		return nil
	}
	c, err := l.dial()
	if err != nil {
		return fmt.Errorf("aseba: cannot reach the Aseba network at %s (%s): %w", l.a.Address, l.a.Transport, err)
	}
	l.setConn(c)
	l.r = bufio.NewReader(c)
	if l.opened {
		l.reopens++
		l.log.Warnf("reconnected to the Aseba network (%d times so far)", l.reopens)
		if l.OnReconnect != nil {
			if err := l.send(l.OnReconnect(), nil); err != nil {
				l.drop(err)
				return err
			}
		}
	}
	l.opened = true
	return nil
}

func (l *Link) setConn(c conn) {
	l.wmu.Lock()
	l.c = c
	l.wmu.Unlock()
}

// drop closes a connection that failed; the next exchange redials.
func (l *Link) drop(err error) {
	if l.c == nil {
		return
	}
	l.log.Warnf("Aseba connection lost: %v", err)
	l.c.Close()
	l.setConn(nil)
}

// Reopens returns how many times the connection was redialled.
func (l *Link) Reopens() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reopens
}

// ErrSuperseded is returned by Store when its superseded function says
// a stop came: the writes were not sent (again).
var ErrSuperseded = errors.New("aseba: the writes were superseded by a stop")

// send writes the SetVariables of ws in one write. When superseded is
// not nil it is asked first, under the write lock: a true answer sends
// nothing and returns ErrSuperseded.
func (l *Link) send(ws []Write, superseded func() bool) error {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	if superseded != nil && superseded() {
		return ErrSuperseded
	}
	if l.c == nil {
		return errors.New("aseba: not connected")
	}
	l.out = l.out[:0]
	for _, w := range ws {
		l.out = SetVariables(l.a.HostID, w.Var.Node, w.Var.Address, w.Values).Append(l.out)
	}
	_, err := l.c.Write(l.out)
	return err
}

// Store writes variables (Aseba does not acknowledge writes), retrying
// on a lost connection. superseded, when not nil, is asked under the
// write lock before each attempt: once it says a stop came, Store gives
// up with ErrSuperseded, so that no retry resends commands older than
// the stop.
func (l *Link) Store(ws []Write, superseded func() bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var last error
	for range 1 + max(0, l.retries) {
		if err := l.ensure(); err != nil {
			last = err
			continue
		}
		if err := l.send(ws, superseded); err != nil {
			if errors.Is(err, ErrSuperseded) {
				return err
			}
			l.drop(err)
			last = err
			continue
		}
		return nil
	}
	return fmt.Errorf("aseba: writing variables: %w", last)
}

// Fetch reads the variables vars into out (out[i] gets vars[i].Size
// values): one GetVariables each, sent together, then the nodes' answers
// in any order. Other traffic of the network is skipped.
func (l *Link) Fetch(vars []boards.AsebaVar, out [][]int16) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var last error
	attempts := 1 + max(0, l.retries)
	for range attempts {
		if err := l.ensure(); err != nil {
			last = err
			continue
		}
		err := l.fetch(vars, out)
		if err == nil {
			return nil
		}
		last = err
	}
	return fmt.Errorf("aseba: reading variables: %d attempts failed, the last: %w", attempts, last)
}

func (l *Link) fetch(vars []boards.AsebaVar, out [][]int16) error {
	l.wmu.Lock()
	l.out = l.out[:0]
	for _, v := range vars {
		l.out = GetVariables(l.a.HostID, v.Node, v.Address, uint16(v.Size)).Append(l.out)
	}
	_, err := l.c.Write(l.out)
	l.wmu.Unlock()
	if err != nil {
		l.drop(err)
		return err
	}
	pending := len(vars)
	got := make([]bool, len(vars))
	if err := l.c.SetReadDeadline(time.Now().Add(l.timeout)); err != nil {
		l.drop(err)
		return err
	}
	for pending > 0 {
		m, err := Read(l.r)
		if err != nil {
			// A timeout may cut a message: the stream is out of step
			// either way, so the connection is redialled.
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = fmt.Errorf("aseba: %d of %d variables not answered within %v", pending, len(vars), l.timeout)
			}
			l.drop(err)
			return err
		}
		if m.Type != TypeVariables {
			continue
		}
		start, vals, err := DecodeVariables(m)
		if err != nil {
			continue
		}
		for i, v := range vars {
			if !got[i] && v.Node == m.Source && v.Address == start && len(vals) == v.Size {
				copy(out[i], vals)
				got[i] = true
				pending--
				break
			}
		}
	}
	return nil
}

// Close closes the connection.
func (l *Link) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.c == nil {
		return nil
	}
	err := l.c.Close()
	l.setConn(nil)
	return err
}
