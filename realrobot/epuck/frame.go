package epuck

import (
	"encoding/binary"
	"fmt"
)

// The e-puck2's I²C frames (docs/robots.md): one transaction at Addr writes an
// actuator frame and, after a repeated start, reads a sensor frame. The
// last byte of each frame is the XOR of the others.
const (
	Addr           = 0x1F
	ActuatorsLen   = 20
	SensorsLen     = 47
	SettingsCalib  = 1 << 0 // calibrate the IR sensors
	SettingsAvoid  = 1 << 1 // the firmware's own obstacle avoidance
	SettingsSteps  = 1 << 2 // the speeds are step targets
	ButtonBit      = 1 << 4 // in the selector byte
	SelectorMask   = 0x0F
	RedLEDsMask    = 0x0F // LED1, LED3, LED5, LED7 in bits 0-3
	MelodyMaxIndex = 3
)

// Checksum returns the XOR of b.
func Checksum(b []byte) byte {
	var x byte
	for _, c := range b {
		x ^= c
	}
	return x
}

// Actuators is the 20-byte frame the Pi writes.
type Actuators struct {
	Left, Right int16 // steps/s (or step targets with SettingsSteps)
	Speaker     uint8 // 0 silent, 1..3 a melody
	RedLEDs     uint8 // LED1/3/5/7 on in bits 0-3
	RGB         [4][3]uint8
	Settings    uint8
}

// Encode writes the frame, checksum included, into b.
func (a *Actuators) Encode(b *[ActuatorsLen]byte) {
	le := binary.LittleEndian
	le.PutUint16(b[0:], uint16(a.Left))
	le.PutUint16(b[2:], uint16(a.Right))
	b[4] = a.Speaker
	b[5] = a.RedLEDs
	for i, c := range a.RGB {
		copy(b[6+3*i:9+3*i], c[:])
	}
	b[18] = a.Settings
	b[19] = Checksum(b[:19])
}

// DecodeActuators decodes an actuator frame (the firmware's side). A
// frame with a bad checksum is an error wrapping ErrGarbage: the firmware
// ignores it.
func DecodeActuators(b []byte) (Actuators, error) {
	var a Actuators
	if len(b) != ActuatorsLen {
		return a, fmt.Errorf("%w: actuator frame of %d bytes, want %d", ErrGarbage, len(b), ActuatorsLen)
	}
	if c := Checksum(b[:19]); c != b[19] {
		return a, fmt.Errorf("%w: actuator frame checksum %#02x, want %#02x", ErrGarbage, b[19], c)
	}
	le := binary.LittleEndian
	a.Left, a.Right = int16(le.Uint16(b[0:])), int16(le.Uint16(b[2:]))
	a.Speaker, a.RedLEDs, a.Settings = b[4], b[5], b[18]
	for i := range a.RGB {
		copy(a.RGB[i][:], b[6+3*i:9+3*i])
	}
	return a, nil
}

// Sensors is the 47-byte frame the Pi reads.
type Sensors struct {
	Proximity [8]uint16
	Ambient   [8]uint16
	Mic       [4]uint16
	Selector  uint8 // low nibble
	Button    bool
	Steps     [2]int16
	TVRemote  uint8
}

// Encode writes the frame, checksum included, into b (the firmware's
// side).
func (s *Sensors) Encode(b *[SensorsLen]byte) {
	le := binary.LittleEndian
	for i := range 8 {
		le.PutUint16(b[2*i:], s.Proximity[i])
		le.PutUint16(b[16+2*i:], s.Ambient[i])
	}
	for i := range 4 {
		le.PutUint16(b[32+2*i:], s.Mic[i])
	}
	b[40] = s.Selector & SelectorMask
	if s.Button {
		b[40] |= ButtonBit
	}
	le.PutUint16(b[41:], uint16(s.Steps[0]))
	le.PutUint16(b[43:], uint16(s.Steps[1]))
	b[45] = s.TVRemote
	b[46] = Checksum(b[:46])
}

// DecodeSensors decodes a sensor frame; a bad checksum is an error
// wrapping ErrGarbage.
func DecodeSensors(b []byte) (Sensors, error) {
	var s Sensors
	if len(b) != SensorsLen {
		return s, fmt.Errorf("%w: sensor frame of %d bytes, want %d", ErrGarbage, len(b), SensorsLen)
	}
	if c := Checksum(b[:46]); c != b[46] {
		return s, fmt.Errorf("%w: sensor frame checksum %#02x, want %#02x", ErrGarbage, b[46], c)
	}
	le := binary.LittleEndian
	for i := range 8 {
		s.Proximity[i] = le.Uint16(b[2*i:])
		s.Ambient[i] = le.Uint16(b[16+2*i:])
	}
	for i := range 4 {
		s.Mic[i] = le.Uint16(b[32+2*i:])
	}
	s.Selector = b[40] & SelectorMask
	s.Button = b[40]&ButtonBit != 0
	s.Steps = [2]int16{int16(le.Uint16(b[41:])), int16(le.Uint16(b[43:]))}
	s.TVRemote = b[45]
	return s, nil
}
