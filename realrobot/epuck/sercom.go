package epuck

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Binary sercom commands: the negated ASCII letter of the command
// (docs/robots.md, GCtronic's asercom). A chain of commands ends with 0x00;
// the firmware answers the queries of a chain, concatenated in order,
// after the 0x00.
const (
	CmdSetSpeed  byte = 0x100 - 'D' // + int16 left + int16 right (steps/s); no reply
	CmdGetSpeed  byte = 0x100 - 'E' // -> int16 left, int16 right (steps/s)
	CmdLED       byte = 0x100 - 'L' // + led (0-7 ring, 8 body, 9 front) + state (0 off, 1 on, 2 toggle); no reply
	CmdProximity byte = 0x100 - 'N' // -> 8 x uint16
	CmdAmbient   byte = 0x100 - 'O' // -> 8 x uint16
	CmdSetSteps  byte = 0x100 - 'P' // + int16 left + int16 right; no reply
	CmdGetSteps  byte = 0x100 - 'Q' // -> int16 left, int16 right
	ChainEnd     byte = 0x00
)

// LED numbers of CmdLED besides the ring's 0-7.
const (
	LEDBody  = 8
	LEDFront = 9
)

// ADCMax is the largest reading of the e-puck's 12-bit ADC.
const ADCMax = 4095

// ArgLen returns the number of argument bytes of a binary command and
// whether the command is known.
func ArgLen(op byte) (int, bool) {
	switch op {
	case CmdSetSpeed, CmdSetSteps:
		return 4, true
	case CmdLED:
		return 2, true
	case CmdGetSpeed, CmdGetSteps, CmdProximity, CmdAmbient:
		return 0, true
	}
	return 0, false
}

// ReplyLen returns the number of bytes the firmware answers to a binary
// command (0 for commands without a reply and unknown ones).
func ReplyLen(op byte) int {
	switch op {
	case CmdGetSpeed, CmdGetSteps:
		return 4
	case CmdProximity, CmdAmbient:
		return 16
	}
	return 0
}

// Command is one binary command of a chain with its arguments.
type Command struct {
	Op   byte
	Args [4]byte
}

// Int16s returns the two little-endian int16 arguments of CmdSetSpeed
// and CmdSetSteps.
func (c Command) Int16s() (int16, int16) {
	return int16(binary.LittleEndian.Uint16(c.Args[0:])), int16(binary.LittleEndian.Uint16(c.Args[2:]))
}

// ParseChain reads one binary chain from the start of b, up to and
// including the 0x00 that ends it. It returns the known commands, the
// number of bytes the chain takes, and ok=false when b does not hold the
// whole chain yet. Unknown bytes are skipped, as the firmware ignores
// them.
func ParseChain(b []byte) (cmds []Command, n int, ok bool) {
	for i := 0; i < len(b); {
		op := b[i]
		if op == ChainEnd {
			return cmds, i + 1, true
		}
		args, known := ArgLen(op)
		if !known {
			i++
			continue
		}
		if i+1+args > len(b) {
			return nil, 0, false
		}
		c := Command{Op: op}
		copy(c.Args[:], b[i+1:i+1+args])
		cmds = append(cmds, c)
		i += 1 + args
	}
	return nil, 0, false
}

// AppendSetSpeed appends CmdSetSpeed with the wheel speeds in steps/s.
func AppendSetSpeed(b []byte, left, right int16) []byte {
	b = append(b, CmdSetSpeed)
	b = binary.LittleEndian.AppendUint16(b, uint16(left))
	return binary.LittleEndian.AppendUint16(b, uint16(right))
}

// AppendLED appends CmdLED.
func AppendLED(b []byte, led, state byte) []byte { return append(b, CmdLED, led, state) }

// SenseChain is the chain the driver sends to read the sensors:
// proximity, ambient light, wheel speeds and step counters.
var SenseChain = [...]byte{CmdProximity, CmdAmbient, CmdGetSpeed, CmdGetSteps, ChainEnd}

// SenseReplyLen is the length of the firmware's answer to SenseChain.
const SenseReplyLen = 16 + 16 + 4 + 4

// SerComSensors is the firmware's answer to SenseChain.
type SerComSensors struct {
	// Proximity is reflected minus ambient IR; slightly negative values
	// happen and mean nothing is there.
	Proximity [8]int16
	Ambient   [8]uint16
	Speed     [2]int16 // steps/s
	Steps     [2]int16 // step counters, wrapping
}

// ErrGarbage is wrapped by decoding errors of replies that cannot come
// from the firmware.
var ErrGarbage = errors.New("epuck: reply is not a firmware answer")

// maxSpeedEcho bounds the wheel speeds a reply may carry (the firmware
// clamps at 1000 or 1100 steps/s).
const maxSpeedEcho = 2000

// DecodeSense decodes the answer to SenseChain. Values out of the
// sensors' range are an error wrapping ErrGarbage: the reply is shifted,
// truncated or noise.
func DecodeSense(b []byte) (SerComSensors, error) {
	var s SerComSensors
	if len(b) != SenseReplyLen {
		return s, fmt.Errorf("%w: %d bytes, want %d", ErrGarbage, len(b), SenseReplyLen)
	}
	le := binary.LittleEndian
	for i := range 8 {
		s.Proximity[i] = int16(le.Uint16(b[2*i:]))
		s.Ambient[i] = le.Uint16(b[16+2*i:])
		if p := s.Proximity[i]; p < -ADCMax || p > ADCMax {
			return s, fmt.Errorf("%w: proximity %d = %d is outside the ADC's range", ErrGarbage, i, p)
		}
		if s.Ambient[i] > ADCMax {
			return s, fmt.Errorf("%w: ambient light %d = %d is outside the ADC's range", ErrGarbage, i, s.Ambient[i])
		}
	}
	for w := range 2 {
		s.Speed[w] = int16(le.Uint16(b[32+2*w:]))
		s.Steps[w] = int16(le.Uint16(b[36+2*w:]))
		if s.Speed[w] < -maxSpeedEcho || s.Speed[w] > maxSpeedEcho {
			return s, fmt.Errorf("%w: wheel speed %d steps/s is impossible", ErrGarbage, s.Speed[w])
		}
	}
	return s, nil
}

// AppendSense appends the encoding of s (the firmware's side of
// DecodeSense).
func AppendSense(b []byte, s SerComSensors) []byte {
	le := binary.LittleEndian
	for _, p := range s.Proximity {
		b = le.AppendUint16(b, uint16(p))
	}
	for _, a := range s.Ambient {
		b = le.AppendUint16(b, a)
	}
	for _, v := range s.Speed {
		b = le.AppendUint16(b, uint16(v))
	}
	for _, v := range s.Steps {
		b = le.AppendUint16(b, uint16(v))
	}
	return b
}

// DecodeSpeed decodes the 4-byte answer to CmdGetSpeed.
func DecodeSpeed(b []byte) (left, right int16, err error) {
	if len(b) != 4 {
		return 0, 0, fmt.Errorf("%w: %d bytes, want 4", ErrGarbage, len(b))
	}
	left, right = int16(binary.LittleEndian.Uint16(b)), int16(binary.LittleEndian.Uint16(b[2:]))
	if left < -maxSpeedEcho || left > maxSpeedEcho || right < -maxSpeedEcho || right > maxSpeedEcho {
		return left, right, fmt.Errorf("%w: wheel speeds %d, %d steps/s are impossible", ErrGarbage, left, right)
	}
	return left, right, nil
}
