// Package aseba is the Aseba message protocol of the foot-bot's and
// eye-bot's microcontroller nodes (docs/robots.md; Aseba's msg/msg.h): the
// message codec, shared with the emulated network of emulator/aseba, and
// [Link], a connection to an Aseba network (TCP to an Aseba switch, or a
// serial port) that reads and writes node variables.
//
// A message is a 6-byte header, little-endian: the payload's length in
// bytes (at most MaxPayload), the source node id and the message type,
// then the payload. Types below 0x8000 are user events; the system
// messages used here are GetVariables (0xA00B: destination node, start
// address, length), SetVariables (0xA00C: destination, start, int16
// values) and the node's answer Variables (0x9005: start, int16 values),
// and, to find variables by name, GetNodeDescription (0xA010:
// destination, protocol version), answered by a Description (0x9000)
// and one NamedVariableDescription (0x9001) per variable, in the order
// of the node's memory.
package aseba

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Message types: the values of Aseba's AsebaSystemMessagesTypes
// (common/consts.h, which msg/msg.h includes); TestMessageTypes checks
// every one against a copy of that table in testdata.
const (
	// From the bootloader's control program to a node, and back.
	TypeBootloaderReset         uint16 = 0x8000
	TypeBootloaderReadPage      uint16 = 0x8001
	TypeBootloaderWritePage     uint16 = 0x8002
	TypeBootloaderPageDataWrite uint16 = 0x8003
	TypeBootloaderDescription   uint16 = 0x8004
	TypeBootloaderPageDataRead  uint16 = 0x8005
	TypeBootloaderAck           uint16 = 0x8006

	// From a node.
	TypeDescription               uint16 = 0x9000
	TypeNamedVariableDescription  uint16 = 0x9001
	TypeLocalEventDescription     uint16 = 0x9002
	TypeNativeFunctionDescription uint16 = 0x9003
	TypeDisconnected              uint16 = 0x9004
	TypeVariables                 uint16 = 0x9005
	TypeArrayAccessOutOfBounds    uint16 = 0x9006
	TypeDivisionByZero            uint16 = 0x9007
	TypeEventExecutionKilled      uint16 = 0x9008
	TypeNodeSpecificError         uint16 = 0x9009
	TypeExecutionStateChanged     uint16 = 0x900A
	TypeBreakpointSetResult       uint16 = 0x900B
	TypeNodePresent               uint16 = 0x900C

	// From a host to every node.
	TypeGetDescription uint16 = 0xA000

	// From a host to one node (the destination is the payload's first
	// word).
	TypeSetBytecode        uint16 = 0xA001
	TypeReset              uint16 = 0xA002
	TypeRun                uint16 = 0xA003
	TypePause              uint16 = 0xA004
	TypeStep               uint16 = 0xA005
	TypeStop               uint16 = 0xA006
	TypeGetExecutionState  uint16 = 0xA007
	TypeBreakpointSet      uint16 = 0xA008
	TypeBreakpointClear    uint16 = 0xA009
	TypeBreakpointClearAll uint16 = 0xA00A
	TypeGetVariables       uint16 = 0xA00B
	TypeSetVariables       uint16 = 0xA00C
	TypeWriteBytecode      uint16 = 0xA00D
	TypeReboot             uint16 = 0xA00E
	TypeSuspendToRAM       uint16 = 0xA00F
	TypeGetNodeDescription uint16 = 0xA010

	// From a host to every node (added to the protocol after the others).
	TypeListNodes uint16 = 0xA011

	// TypeInvalid is no message.
	TypeInvalid uint16 = 0xFFFF

	// UserEventLimit: types below it are user events.
	UserEventLimit uint16 = 0x8000
)

// ProtocolVersion is the Aseba protocol version the driver speaks (and
// sends in GetDescription, GetNodeDescription and ListNodes).
const ProtocolVersion = 5

// HeaderLen is the size of a message header. MaxPayload is the largest
// payload (the length the header gives, the type excluded): Aseba's
// ASEBA_MAX_EVENT_ARG_SIZE, 258 words; with the 2-byte type it makes the
// 518-byte ASEBA_MAX_INNER_PACKET_SIZE, and a whole message on the wire
// is at most HeaderLen + MaxPayload bytes. A larger length means the
// stream is corrupt.
const (
	HeaderLen  = 6
	MaxPayload = 516
)

// ErrCorrupt is wrapped by errors about messages that cannot be valid.
var ErrCorrupt = errors.New("aseba: corrupt message")

// Message is one Aseba message.
type Message struct {
	Source  uint16
	Type    uint16
	Payload []byte
}

// Append appends the encoded message to b.
func (m Message) Append(b []byte) []byte {
	le := binary.LittleEndian
	b = le.AppendUint16(b, uint16(len(m.Payload)))
	b = le.AppendUint16(b, m.Source)
	b = le.AppendUint16(b, m.Type)
	return append(b, m.Payload...)
}

// Decode decodes the message at the start of b and returns how many bytes
// it takes; n is 0 (and err nil) when b does not hold a whole message yet.
func Decode(b []byte) (m Message, n int, err error) {
	if len(b) < HeaderLen {
		return m, 0, nil
	}
	le := binary.LittleEndian
	size := int(le.Uint16(b))
	if size > MaxPayload {
		return m, 0, fmt.Errorf("%w: payload of %d bytes (at most %d)", ErrCorrupt, size, MaxPayload)
	}
	if len(b) < HeaderLen+size {
		return m, 0, nil
	}
	m = Message{Source: le.Uint16(b[2:]), Type: le.Uint16(b[4:]), Payload: b[HeaderLen : HeaderLen+size : HeaderLen+size]}
	return m, HeaderLen + size, nil
}

// Read reads one message from r; its payload is a fresh slice.
func Read(r io.Reader) (Message, error) {
	var h [HeaderLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return Message{}, err
	}
	le := binary.LittleEndian
	size := int(le.Uint16(h[:]))
	if size > MaxPayload {
		return Message{}, fmt.Errorf("%w: payload of %d bytes (at most %d)", ErrCorrupt, size, MaxPayload)
	}
	m := Message{Source: le.Uint16(h[2:]), Type: le.Uint16(h[4:]), Payload: make([]byte, size)}
	if _, err := io.ReadFull(r, m.Payload); err != nil {
		return Message{}, err
	}
	return m, nil
}

func words(vs ...uint16) []byte {
	b := make([]byte, 0, 2*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func appendValues(b []byte, values []int16) []byte {
	for _, v := range values {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

func values(b []byte) []int16 {
	v := make([]int16, len(b)/2)
	for i := range v {
		v[i] = int16(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return v
}

// GetVariables asks node dest for length words from address start.
func GetVariables(source, dest, start, length uint16) Message {
	return Message{Source: source, Type: TypeGetVariables, Payload: words(dest, start, length)}
}

// DecodeGetVariables decodes a GetVariables message.
func DecodeGetVariables(m Message) (dest, start, length uint16, err error) {
	if m.Type != TypeGetVariables || len(m.Payload) != 6 {
		return 0, 0, 0, fmt.Errorf("%w: not a GetVariables (type %#x, %d bytes)", ErrCorrupt, m.Type, len(m.Payload))
	}
	le := binary.LittleEndian
	return le.Uint16(m.Payload), le.Uint16(m.Payload[2:]), le.Uint16(m.Payload[4:]), nil
}

// SetVariables writes values into node dest from address start.
func SetVariables(source, dest, start uint16, vals []int16) Message {
	return Message{Source: source, Type: TypeSetVariables, Payload: appendValues(words(dest, start), vals)}
}

// DecodeSetVariables decodes a SetVariables message.
func DecodeSetVariables(m Message) (dest, start uint16, vals []int16, err error) {
	if m.Type != TypeSetVariables || len(m.Payload) < 4 || len(m.Payload)%2 != 0 {
		return 0, 0, nil, fmt.Errorf("%w: not a SetVariables (type %#x, %d bytes)", ErrCorrupt, m.Type, len(m.Payload))
	}
	le := binary.LittleEndian
	return le.Uint16(m.Payload), le.Uint16(m.Payload[2:]), values(m.Payload[4:]), nil
}

// Variables is a node's answer to GetVariables.
func Variables(source, start uint16, vals []int16) Message {
	return Message{Source: source, Type: TypeVariables, Payload: appendValues(words(start), vals)}
}

// DecodeVariables decodes a Variables message.
func DecodeVariables(m Message) (start uint16, vals []int16, err error) {
	if m.Type != TypeVariables || len(m.Payload) < 2 || len(m.Payload)%2 != 0 {
		return 0, nil, fmt.Errorf("%w: not a Variables (type %#x, %d bytes)", ErrCorrupt, m.Type, len(m.Payload))
	}
	return binary.LittleEndian.Uint16(m.Payload), values(m.Payload[2:]), nil
}
