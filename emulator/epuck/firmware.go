// Package epuck emulates the e-puck's firmware on a simulated robot:
// advanced sercom (binary and the main ASCII commands) on any byte stream
// or a pseudo-terminal ([ServePTY]), and the e-puck2's I²C frames with the
// ToF, IMU, ground-sensor module and mux of a Pi-puck on an emulated
// periph bus ([Bus], [RegisterBus]). The codecs are realrobot/epuck's.
//
// Faults can be injected ([Faults]) to test that the drivers and the
// robot runtime never leave the motors running: a firmware that stops
// answering, garbage and truncated replies, corrupted checksums, I²C NACKs
// and timeouts, and (with the pty) a link that hangs up and comes back.
package epuck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/emulator"
	rr "github.com/argosgo/argos/realrobot/epuck"
)

// WheelCommand is a wheel command the firmware received (steps/s).
type WheelCommand struct {
	At          time.Time
	Left, Right int16
}

// Faults are the faults the firmware injects; set them with the
// Firmware's methods. Counters count replies (sercom) or transactions
// (I²C) still to spoil.
type Faults struct {
	Mute        bool // sercom: run commands but send no reply (a broken transmit line); I²C: NACK
	Garbage     int  // replace replies with bytes out of the sensors' range
	Truncate    int  // cut replies in half
	NACK        int  // I²C: refuse transactions at the e-puck's address
	Timeout     int  // I²C: time transactions out
	BadChecksum int  // I²C: corrupt the sensor frame's checksum
	// Late replies: sercom: the next Late replies are written LateBy
	// after their command, the firmware busy meanwhile (the commands
	// that come in the while wait); I²C: the next Late transactions at
	// the e-puck's address take LateBy and time out, after the e-puck2
	// took what was written.
	Late   int
	LateBy time.Duration
}

// Firmware is the e-puck's firmware on a Body: it keeps the commanded
// speeds, step counters and LEDs, and answers from the Body's readings
// through the board's calibration.
type Firmware struct {
	body emulator.Body
	b    boards.Board

	mu       sync.Mutex
	speed    [2]int16
	stepsOff [2]float64 // steps set by -P, minus the odometry then
	leds     [10]bool
	rgb      [4][3]uint8
	commands []WheelCommand
	faults   Faults
	frames   int // I²C frames with a good checksum
}

// NewFirmware returns the firmware of an e-puck of board b on body.
func NewFirmware(body emulator.Body, b boards.Board) *Firmware {
	return &Firmware{body: body, b: b}
}

// SetFaults replaces the faults to inject.
func (f *Firmware) SetFaults(x Faults) {
	f.mu.Lock()
	f.faults = x
	f.mu.Unlock()
}

// Faults returns the faults still to inject.
func (f *Firmware) Faults() Faults {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.faults
}

// Commands returns the wheel commands received so far.
func (f *Firmware) Commands() []WheelCommand {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]WheelCommand(nil), f.commands...)
}

// Speed returns the wheel speeds the motors run at (steps/s).
func (f *Firmware) Speed() (int16, int16) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.speed[0], f.speed[1]
}

// LED reports whether LED n is on (0-7 ring, 8 body, 9 front; on the
// e-puck2 the RGB LEDs count as on when any channel is).
func (f *Firmware) LED(n int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return n >= 0 && n < len(f.leds) && f.leds[n]
}

// setSpeed clamps, records and applies a wheel command; f.mu is held.
func (f *Firmware) setSpeed(l, r int16) {
	lim := int16(f.b.Geometry.MaxWheelSpeed)
	clamp := func(v int16) int16 { return max(-lim, min(lim, v)) }
	f.speed = [2]int16{clamp(l), clamp(r)}
	f.commands = append(f.commands, WheelCommand{At: time.Now(), Left: f.speed[0], Right: f.speed[1]})
	k := 1 / (f.b.Geometry.WheelStepsPerCM() * 100) // m per step
	f.body.SetWheels(float64(f.speed[0])*k, float64(f.speed[1])*k)
}

// raw returns the firmware's raw sensor values from the body.
func (f *Firmware) raw(rd emulator.Reading) (prox, amb [8]uint16, steps [2]int16) {
	cal := f.b.Calibration
	for i, j := range cal.ProximityOrder {
		v := 0.0
		if i < len(rd.Proximity) {
			v = rd.Proximity[i]
		}
		prox[j] = uint16(cal.Proximity.Raw(v))
		l := 0.0
		if i < len(rd.Light) {
			l = rd.Light[i]
		}
		amb[j] = uint16(cal.Light.Raw(l))
	}
	spc := f.b.Geometry.WheelStepsPerCM() * 100 // steps per m
	for w := range 2 {
		steps[w] = int16(int64(math.Round(rd.Odometry[w]*spc + f.stepsOff[w])))
	}
	return prox, amb, steps
}

// spoil applies the reply faults to a sercom reply; f.mu is held.
func (f *Firmware) spoil(reply []byte) []byte {
	switch {
	case f.faults.Garbage > 0:
		f.faults.Garbage--
		return bytes.Repeat([]byte{0x7F}, len(reply))
	case f.faults.Truncate > 0:
		f.faults.Truncate--
		return reply[:len(reply)/2]
	}
	return reply
}

// late returns how long to hold the next reply (the Late fault).
func (f *Firmware) late() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.faults.Late <= 0 {
		return 0
	}
	f.faults.Late--
	return f.faults.LateBy
}

// Serve runs advanced sercom on rw until reading fails (the error is
// returned; io.EOF and a hung-up terminal are not errors).
func (f *Firmware) Serve(rw io.ReadWriter) error {
	var buf []byte
	chunk := make([]byte, 256)
	for {
		n, err := rw.Read(chunk)
		if n > 0 {
			buf = append(buf, chunk[:n]...)
			var out []byte
			buf, out = f.Handle(buf)
			if len(out) > 0 {
				if d := f.late(); d > 0 {
					time.Sleep(d)
				}
				if _, werr := rw.Write(out); werr != nil {
					return quiet(werr)
				}
			}
		}
		if err != nil {
			return quiet(err)
		}
	}
}

func quiet(err error) error {
	if errors.Is(err, io.EOF) || strings.Contains(err.Error(), "input/output error") || errors.Is(err, io.ErrClosedPipe) ||
		strings.Contains(err.Error(), "file already closed") {
		return nil
	}
	return err
}

// Handle consumes the complete commands at the start of in and returns
// what is left and the firmware's replies.
func (f *Firmware) Handle(in []byte) (rest, out []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(in) > 0 {
		c := in[0]
		switch {
		case c == '\r' || c == '\n' || c == rr.ChainEnd:
			in = in[1:] // empty line or chain
		case c < 0x80: // ASCII mode: one command per line
			end := bytes.IndexAny(in, "\r\n")
			if end < 0 {
				return in, out
			}
			line := string(in[:end])
			in = in[end+1:]
			reply := f.ascii(line)
			if f.faults.Mute {
				continue
			}
			out = append(out, f.spoil([]byte(reply+"\r\n"))...)
		default:
			cmds, n, ok := rr.ParseChain(in)
			if !ok {
				return in, out
			}
			in = in[n:]
			reply := f.binary(cmds)
			if len(reply) > 0 && !f.faults.Mute {
				out = append(out, f.spoil(reply)...)
			}
		}
	}
	return in, out
}

// binary runs a chain and returns the concatenated replies.
func (f *Firmware) binary(cmds []rr.Command) []byte {
	var reply []byte
	var rd *emulator.Reading
	read := func() emulator.Reading {
		if rd == nil {
			r := f.body.Sense()
			rd = &r
		}
		return *rd
	}
	le := binary.LittleEndian
	for _, c := range cmds {
		switch c.Op {
		case rr.CmdSetSpeed:
			l, r := c.Int16s()
			f.setSpeed(l, r)
		case rr.CmdSetSteps:
			l, r := c.Int16s()
			_, _, cur := f.raw(read())
			f.stepsOff[0] += float64(l) - float64(cur[0])
			f.stepsOff[1] += float64(r) - float64(cur[1])
		case rr.CmdLED:
			f.led(int(c.Args[0]), c.Args[1])
		case rr.CmdGetSpeed:
			reply = le.AppendUint16(reply, uint16(f.speed[0]))
			reply = le.AppendUint16(reply, uint16(f.speed[1]))
		case rr.CmdGetSteps:
			_, _, st := f.raw(read())
			reply = le.AppendUint16(reply, uint16(st[0]))
			reply = le.AppendUint16(reply, uint16(st[1]))
		case rr.CmdProximity, rr.CmdAmbient:
			p, a, _ := f.raw(read())
			v := p
			if c.Op == rr.CmdAmbient {
				v = a
			}
			for _, x := range v {
				reply = le.AppendUint16(reply, x)
			}
		}
	}
	return reply
}

func (f *Firmware) led(n int, state byte) {
	set := func(i int) {
		switch state {
		case 0:
			f.leds[i] = false
		case 1:
			f.leds[i] = true
		case 2:
			f.leds[i] = !f.leds[i]
		}
	}
	if n >= 0 && n < len(f.leds) {
		set(n)
		return
	}
	for i := range 8 { // any other number: the whole ring
		set(i)
	}
}

// ascii runs one ASCII command (the main ones; docs/robots.md lists them).
func (f *Firmware) ascii(line string) string {
	fields := strings.Split(strings.TrimSpace(line), ",")
	cmd := strings.ToUpper(fields[0])
	arg := func(i int) int {
		if i >= len(fields) {
			return 0
		}
		v, _ := strconv.Atoi(strings.TrimSpace(fields[i]))
		return v
	}
	list := func(tag string, v []uint16) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.Itoa(int(x))
		}
		return tag + "," + strings.Join(s, ",")
	}
	switch cmd {
	case "D":
		f.setSpeed(int16(max(math.MinInt16, min(math.MaxInt16, arg(1)))), int16(max(math.MinInt16, min(math.MaxInt16, arg(2)))))
		return "d"
	case "E":
		return fmt.Sprintf("e,%d,%d", f.speed[0], f.speed[1])
	case "N", "O":
		p, a, _ := f.raw(f.body.Sense())
		if cmd == "N" {
			return list("n", p[:])
		}
		return list("o", a[:])
	case "Q":
		_, _, st := f.raw(f.body.Sense())
		return fmt.Sprintf("q,%d,%d", st[0], st[1])
	case "L":
		f.led(arg(1), byte(arg(2)))
		return "l"
	case "B":
		f.led(rr.LEDBody, byte(arg(1)))
		return "b"
	case "F":
		f.led(rr.LEDFront, byte(arg(1)))
		return "f"
	case "S":
		f.setSpeed(0, 0)
		return "s"
	case "V":
		return "v,Version 1.2.2 (ARGoS-Go emulator)"
	}
	return "z,Command not found"
}
