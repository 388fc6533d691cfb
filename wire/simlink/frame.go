package simlink

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/argosgo/argos/ci"
)

// Version is the protocol version a Hello and a Welcome carry.
const Version = 1

// MaxFrame is the largest frame after its length field, in bytes.
const MaxFrame = 4 << 20

// MaxDevices is the most sensors or actuators a Hello may declare.
const MaxDevices = 64

// Frame types.
const (
	FrameHello   byte = 1
	FrameWelcome byte = 2
	FrameReject  byte = 3
	FrameSense   byte = 4
	FrameAct     byte = 5
	FrameBye     byte = 6
)

// Modes of a simulation toward its attached controllers.
const (
	// Lockstep: the simulation waits for every attached controller's
	// Act at each tick.
	Lockstep byte = 0
	// RealTime: the simulation never waits; the last Act is applied.
	RealTime byte = 1
)

// ErrMalformed is wrapped by every decoding error.
var ErrMalformed = errors.New("malformed frame")

// Hello opens a connection.
type Hello struct {
	Version   byte
	RobotID   string
	Token     string
	Sensors   []string
	Actuators []string
}

// Welcome accepts a Hello.
type Welcome struct {
	Version        byte
	TicksPerSecond int
	Mode           byte
	// Params has one value per actuator of the Hello: the number of
	// LEDs of "leds", 0 for the others.
	Params []int
}

// Frame is a decoded Sense or Act.
type Frame struct {
	Tick uint64
	// Stop is the stop flag of an Act.
	Stop bool
	// Devices are the payloads, one per sensor (Sense) or actuator (Act)
	// in the Hello's order; they point into the frame's buffer.
	Devices [][]byte
}

// AppendHello appends the body of a Hello.
func AppendHello(buf []byte, h Hello) []byte {
	buf = append(buf, h.Version)
	buf = appendString(buf, h.RobotID)
	buf = appendString(buf, h.Token)
	buf = appendStrings(buf, h.Sensors)
	return appendStrings(buf, h.Actuators)
}

// ParseHello decodes the body of a Hello.
func ParseHello(body []byte) (Hello, error) {
	var h Hello
	r := reader{b: body}
	h.Version = r.byte("version")
	h.RobotID = r.string("robot id", ci.MaxName)
	h.Token = r.string("token", 1024)
	h.Sensors = r.strings("sensors")
	h.Actuators = r.strings("actuators")
	return h, r.end("hello")
}

// AppendWelcome appends the body of a Welcome.
func AppendWelcome(buf []byte, w Welcome) []byte {
	buf = append(buf, w.Version)
	buf = binary.AppendUvarint(buf, uint64(w.TicksPerSecond))
	buf = append(buf, w.Mode)
	buf = binary.AppendUvarint(buf, uint64(len(w.Params)))
	for _, p := range w.Params {
		buf = binary.AppendUvarint(buf, uint64(p))
	}
	return buf
}

// ParseWelcome decodes the body of a Welcome.
func ParseWelcome(body []byte) (Welcome, error) {
	var w Welcome
	r := reader{b: body}
	w.Version = r.byte("version")
	w.TicksPerSecond = r.count("ticks per second", 1<<20)
	w.Mode = r.byte("mode")
	if r.err == nil && w.Mode > RealTime {
		r.fail("mode %d (0 lockstep, 1 real time)", w.Mode)
	}
	n := r.count("parameters", MaxDevices)
	for i := 0; i < n && r.err == nil; i++ {
		w.Params = append(w.Params, r.count("parameter", 1<<16))
	}
	return w, r.end("welcome")
}

// AppendFrame appends the body of a Sense or Act: the tick, for an Act
// the flags, then the device payloads.
func AppendFrame(buf []byte, typ byte, f *Frame) []byte {
	buf = binary.AppendUvarint(buf, f.Tick)
	if typ == FrameAct {
		var flags byte
		if f.Stop {
			flags = 1
		}
		buf = append(buf, flags)
	}
	buf = binary.AppendUvarint(buf, uint64(len(f.Devices)))
	for _, d := range f.Devices {
		buf = binary.AppendUvarint(buf, uint64(len(d)))
		buf = append(buf, d...)
	}
	return buf
}

// ParseFrame decodes the body of a Sense or Act into f, reusing its
// Devices slice; the payloads point into body.
func ParseFrame(typ byte, body []byte, f *Frame) error {
	r := reader{b: body}
	f.Tick = r.uvarint("tick")
	f.Stop = false
	if typ == FrameAct {
		flags := r.byte("flags")
		if r.err == nil && flags > 1 {
			r.fail("flags %#x (only bit 0, stop, is defined)", flags)
		}
		f.Stop = flags&1 != 0
	}
	n := r.count("devices", MaxDevices)
	f.Devices = f.Devices[:0]
	for i := 0; i < n && r.err == nil; i++ {
		l := r.count("device payload", MaxFrame)
		f.Devices = append(f.Devices, r.take(l, "device payload"))
	}
	return r.end("sense or act")
}

// AppendReason appends the body of a Reject or Bye.
func AppendReason(buf []byte, reason string) []byte {
	if len(reason) > 4096 {
		reason = reason[:4096]
	}
	return appendString(buf, reason)
}

// ParseReason decodes the body of a Reject or Bye.
func ParseReason(body []byte) (string, error) {
	r := reader{b: body}
	s := r.string("reason", 4096)
	return s, r.end("reason")
}

// Conn reads and writes frames on a stream. Reads and writes may run in
// two goroutines; each of them from one goroutine at a time.
type Conn struct {
	r    *bufio.Reader
	w    io.Writer
	rbuf []byte
	wbuf []byte
}

// NewConn returns a Conn over rw.
func NewConn(rw io.ReadWriter) *Conn {
	return &Conn{r: bufio.NewReaderSize(rw, 64<<10), w: rw}
}

// Write sends one frame whose body append writes (one Write call on the
// stream).
func (c *Conn) Write(typ byte, body func([]byte) []byte) error {
	b := append(c.wbuf[:0], 0, 0, 0, 0, typ)
	b = body(b)
	n := len(b) - 4
	if n > MaxFrame {
		return fmt.Errorf("simlink: a frame of %d bytes is over the limit of %d; send fewer or smaller messages", n, MaxFrame)
	}
	binary.LittleEndian.PutUint32(b, uint32(n))
	c.wbuf = b
	_, err := c.w.Write(b)
	return err
}

// Read returns the next frame's type and body; the body is valid until
// the next Read.
func (c *Conn) Read() (byte, []byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c.r, hdr[:]); err != nil {
		return 0, nil, err
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	if n == 0 || n > MaxFrame {
		return 0, nil, fmt.Errorf("simlink: a frame of %d bytes (1 to %d allowed): %w", n, MaxFrame, ErrMalformed)
	}
	if cap(c.rbuf) < int(n) {
		c.rbuf = make([]byte, n)
	}
	b := c.rbuf[:n]
	if _, err := io.ReadFull(c.r, b); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return 0, nil, err
	}
	if b[0] < FrameHello || b[0] > FrameBye {
		return 0, nil, fmt.Errorf("simlink: unknown frame type %d: %w", b[0], ErrMalformed)
	}
	return b[0], b[1:], nil
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func appendStrings(buf []byte, ss []string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(ss)))
	for _, s := range ss {
		buf = appendString(buf, s)
	}
	return buf
}

func appendFloat(buf []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
}

// reader decodes a body; the first error sticks and later reads return
// zero values.
type reader struct {
	b   []byte
	at  int
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("simlink: "+format+" at byte %d: %w", append(args, r.at, ErrMalformed)...)
	}
}

func (r *reader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if r.at >= len(r.b) {
		r.fail("%s missing", what)
		return 0
	}
	r.at++
	return r.b[r.at-1]
}

func (r *reader) uvarint(what string) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.at:])
	if n <= 0 {
		r.fail("%s: bad or missing varint", what)
		return 0
	}
	r.at += n
	return v
}

// count reads a uvarint that must be at most limit.
func (r *reader) count(what string, limit int) int {
	v := r.uvarint(what)
	if r.err == nil && v > uint64(limit) {
		r.fail("%s %d over the limit of %d", what, v, limit)
		return 0
	}
	return int(v)
}

func (r *reader) take(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n > len(r.b)-r.at {
		r.fail("%s of %d bytes beyond the end", what, n)
		return nil
	}
	r.at += n
	return r.b[r.at-n : r.at : r.at]
}

func (r *reader) string(what string, limit int) string {
	return string(r.take(r.count(what, limit), what))
}

func (r *reader) strings(what string) []string {
	n := r.count(what, MaxDevices)
	var out []string
	for i := 0; i < n && r.err == nil; i++ {
		out = append(out, r.string(what, ci.MaxName))
	}
	return out
}

func (r *reader) float(what string) float64 {
	b := r.take(8, what)
	if b == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// end checks that the whole body was read.
func (r *reader) end(what string) error {
	if r.err == nil && r.at != len(r.b) {
		r.fail("%s: %d trailing bytes", what, len(r.b)-r.at)
	}
	return r.err
}
