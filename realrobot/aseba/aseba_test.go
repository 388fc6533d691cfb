package aseba_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/realrobot/aseba"
)

func TestMessages(t *testing.T) {
	for _, tc := range []struct {
		m    aseba.Message
		want string
	}{
		{aseba.GetVariables(1000, 3, 24, 24), "06 00 e8 03 0b a0 03 00 18 00 18 00"},
		{aseba.SetVariables(1000, 1, 0, []int16{-5}), "06 00 e8 03 0c a0 01 00 00 00 fb ff"},
		{aseba.Variables(2, 1, []int16{300, -1}), "06 00 02 00 05 90 01 00 2c 01 ff ff"},
	} {
		b := tc.m.Append(nil)
		if got := fmt.Sprintf("% x", b); got != tc.want {
			t.Errorf("%+v encodes as %s, want %s", tc.m, got, tc.want)
		}
		m, n, err := aseba.Decode(b)
		if err != nil || n != len(b) || m.Type != tc.m.Type || m.Source != tc.m.Source || !bytes.Equal(m.Payload, tc.m.Payload) {
			t.Errorf("Decode(% x) = %+v, %d, %v", b, m, n, err)
		}
		r, err := aseba.Read(bytes.NewReader(b))
		if err != nil || !bytes.Equal(r.Payload, tc.m.Payload) {
			t.Errorf("Read(% x) = %+v, %v", b, r, err)
		}
	}
	dest, start, length, err := aseba.DecodeGetVariables(aseba.GetVariables(0, 4, 8, 4))
	if dest != 4 || start != 8 || length != 4 || err != nil {
		t.Errorf("DecodeGetVariables: %d %d %d %v", dest, start, length, err)
	}
	d, s, v, err := aseba.DecodeSetVariables(aseba.SetVariables(0, 5, 2, []int16{1, 2, 3}))
	if d != 5 || s != 2 || len(v) != 3 || v[2] != 3 || err != nil {
		t.Errorf("DecodeSetVariables: %d %d %v %v", d, s, v, err)
	}
	st, vals, err := aseba.DecodeVariables(aseba.Variables(9, 7, []int16{-32768}))
	if st != 7 || vals[0] != -32768 || err != nil {
		t.Errorf("DecodeVariables: %d %v %v", st, vals, err)
	}
	// Incomplete, oversized and mistyped messages.
	if _, n, err := aseba.Decode([]byte{6, 0, 1, 0}); n != 0 || err != nil {
		t.Errorf("a partial header: %d, %v", n, err)
	}
	// Aseba's largest payload is 516 bytes (ASEBA_MAX_EVENT_ARG_SIZE).
	full := aseba.Message{Source: 1, Type: aseba.TypeVariables, Payload: make([]byte, aseba.MaxPayload)}.Append(nil)
	if m, n, err := aseba.Decode(full); err != nil || n != len(full) || len(m.Payload) != 516 {
		t.Errorf("a 516-byte payload: %d bytes, %v", n, err)
	}
	over := aseba.Message{Source: 1, Type: aseba.TypeVariables, Payload: make([]byte, aseba.MaxPayload+2)}.Append(nil)
	if _, _, err := aseba.Decode(over); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("a 518-byte payload: %v", err)
	}
	if _, err := aseba.Read(bytes.NewReader(over)); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("Read of a 518-byte payload: %v", err)
	}
	if _, _, err := aseba.Decode([]byte{0xff, 0xff, 0, 0, 0, 0}); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("a 64 kB payload: %v", err)
	}
	if _, err := aseba.Read(bytes.NewReader([]byte{0xff, 0x7f, 0, 0, 0, 0})); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("Read of a 32 kB payload: %v", err)
	}
	if _, _, err := aseba.DecodeVariables(aseba.GetVariables(0, 1, 2, 3)); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("a GetVariables as Variables: %v", err)
	}
}

// FuzzDecode: seeds in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		m, n, err := aseba.Decode(b)
		if err != nil || n == 0 {
			return
		}
		if back := m.Append(nil); !bytes.Equal(back, b[:n]) {
			t.Fatalf("decode/encode: % x -> % x", b[:n], back)
		}
		r, err := aseba.Read(bytes.NewReader(b))
		if err != nil || !bytes.Equal(r.Payload, m.Payload) || r.Type != m.Type {
			t.Fatalf("Read disagrees with Decode on % x: %+v, %v", b, r, err)
		}
		if st, vals, err := aseba.DecodeVariables(m); err == nil {
			if back := aseba.Variables(m.Source, st, vals); !bytes.Equal(back.Payload, m.Payload) {
				t.Fatalf("Variables round trip: % x", m.Payload)
			}
		}
		if d, st, vals, err := aseba.DecodeSetVariables(m); err == nil {
			if back := aseba.SetVariables(m.Source, d, st, vals); !bytes.Equal(back.Payload, m.Payload) {
				t.Fatalf("SetVariables round trip: % x", m.Payload)
			}
		}
		if d, st, l, err := aseba.DecodeGetVariables(m); err == nil {
			if back := aseba.GetVariables(m.Source, d, st, l); !bytes.Equal(back.Payload, m.Payload) {
				t.Fatalf("GetVariables round trip: % x", m.Payload)
			}
		}
	})
}

// Every message type and limit of the codec is Aseba's own: the table in
// testdata/message_types.txt is copied from Aseba's header, and every
// entry of it must have its constant here with the same value.
func TestMessageTypes(t *testing.T) {
	ours := map[string]int{
		"ASEBA_MESSAGE_BOOTLOADER_RESET":            int(aseba.TypeBootloaderReset),
		"ASEBA_MESSAGE_BOOTLOADER_READ_PAGE":        int(aseba.TypeBootloaderReadPage),
		"ASEBA_MESSAGE_BOOTLOADER_WRITE_PAGE":       int(aseba.TypeBootloaderWritePage),
		"ASEBA_MESSAGE_BOOTLOADER_PAGE_DATA_WRITE":  int(aseba.TypeBootloaderPageDataWrite),
		"ASEBA_MESSAGE_BOOTLOADER_DESCRIPTION":      int(aseba.TypeBootloaderDescription),
		"ASEBA_MESSAGE_BOOTLOADER_PAGE_DATA_READ":   int(aseba.TypeBootloaderPageDataRead),
		"ASEBA_MESSAGE_BOOTLOADER_ACK":              int(aseba.TypeBootloaderAck),
		"ASEBA_MESSAGE_DESCRIPTION":                 int(aseba.TypeDescription),
		"ASEBA_MESSAGE_NAMED_VARIABLE_DESCRIPTION":  int(aseba.TypeNamedVariableDescription),
		"ASEBA_MESSAGE_LOCAL_EVENT_DESCRIPTION":     int(aseba.TypeLocalEventDescription),
		"ASEBA_MESSAGE_NATIVE_FUNCTION_DESCRIPTION": int(aseba.TypeNativeFunctionDescription),
		"ASEBA_MESSAGE_DISCONNECTED":                int(aseba.TypeDisconnected),
		"ASEBA_MESSAGE_VARIABLES":                   int(aseba.TypeVariables),
		"ASEBA_MESSAGE_ARRAY_ACCESS_OUT_OF_BOUNDS":  int(aseba.TypeArrayAccessOutOfBounds),
		"ASEBA_MESSAGE_DIVISION_BY_ZERO":            int(aseba.TypeDivisionByZero),
		"ASEBA_MESSAGE_EVENT_EXECUTION_KILLED":      int(aseba.TypeEventExecutionKilled),
		"ASEBA_MESSAGE_NODE_SPECIFIC_ERROR":         int(aseba.TypeNodeSpecificError),
		"ASEBA_MESSAGE_EXECUTION_STATE_CHANGED":     int(aseba.TypeExecutionStateChanged),
		"ASEBA_MESSAGE_BREAKPOINT_SET_RESULT":       int(aseba.TypeBreakpointSetResult),
		"ASEBA_MESSAGE_NODE_PRESENT":                int(aseba.TypeNodePresent),
		"ASEBA_MESSAGE_GET_DESCRIPTION":             int(aseba.TypeGetDescription),
		"ASEBA_MESSAGE_SET_BYTECODE":                int(aseba.TypeSetBytecode),
		"ASEBA_MESSAGE_RESET":                       int(aseba.TypeReset),
		"ASEBA_MESSAGE_RUN":                         int(aseba.TypeRun),
		"ASEBA_MESSAGE_PAUSE":                       int(aseba.TypePause),
		"ASEBA_MESSAGE_STEP":                        int(aseba.TypeStep),
		"ASEBA_MESSAGE_STOP":                        int(aseba.TypeStop),
		"ASEBA_MESSAGE_GET_EXECUTION_STATE":         int(aseba.TypeGetExecutionState),
		"ASEBA_MESSAGE_BREAKPOINT_SET":              int(aseba.TypeBreakpointSet),
		"ASEBA_MESSAGE_BREAKPOINT_CLEAR":            int(aseba.TypeBreakpointClear),
		"ASEBA_MESSAGE_BREAKPOINT_CLEAR_ALL":        int(aseba.TypeBreakpointClearAll),
		"ASEBA_MESSAGE_GET_VARIABLES":               int(aseba.TypeGetVariables),
		"ASEBA_MESSAGE_SET_VARIABLES":               int(aseba.TypeSetVariables),
		"ASEBA_MESSAGE_WRITE_BYTECODE":              int(aseba.TypeWriteBytecode),
		"ASEBA_MESSAGE_REBOOT":                      int(aseba.TypeReboot),
		"ASEBA_MESSAGE_SUSPEND_TO_RAM":              int(aseba.TypeSuspendToRAM),
		"ASEBA_MESSAGE_GET_NODE_DESCRIPTION":        int(aseba.TypeGetNodeDescription),
		"ASEBA_MESSAGE_LIST_NODES":                  int(aseba.TypeListNodes),
		"ASEBA_MESSAGE_INVALID":                     int(aseba.TypeInvalid),
		"ASEBA_MAX_EVENT_ARG_COUNT":                 aseba.MaxPayload / 2,
		"ASEBA_MAX_EVENT_ARG_SIZE":                  aseba.MaxPayload,
		"ASEBA_MAX_INNER_PACKET_SIZE":               aseba.MaxPayload + 2,
		"ASEBA_MAX_OUTER_PACKET_SIZE":               aseba.HeaderLen + aseba.MaxPayload,
		"ASEBA_PROTOCOL_VERSION":                    aseba.ProtocolVersion,
	}
	data, err := os.ReadFile("testdata/message_types.txt")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		want, err := strconv.ParseInt(f[1], 0, 32)
		if len(f) != 2 || err != nil {
			t.Fatalf("testdata/message_types.txt:%d: %q is not a name and a value", i+1, line)
		}
		got, ok := ours[f[0]]
		switch {
		case !ok:
			t.Errorf("%s (%#x) has no constant in the codec", f[0], want)
		case int64(got) != want:
			t.Errorf("%s is %#x in Aseba, %#x here", f[0], want, got)
		}
		seen[f[0]] = true
	}
	for name := range ours {
		if !seen[name] {
			t.Errorf("%s is not in Aseba's table", name)
		}
	}
}

func TestDescriptions(t *testing.T) {
	d := aseba.Description{Name: "motor.left", ProtocolVersion: 5, BytecodeSize: 1000, StackSize: 32, VariablesSize: 200, NamedVariables: 3, LocalEvents: 1, NativeFunctions: 2}
	m := aseba.DescriptionMessage(1, d)
	// "motor.left" is 10 bytes: 0a, the name, then seven words.
	if got := fmt.Sprintf("% x", m.Append(nil)); got != "19 00 01 00 00 90 0a 6d 6f 74 6f 72 2e 6c 65 66 74 05 00 e8 03 20 00 c8 00 03 00 01 00 02 00" {
		t.Errorf("Description encodes as %s", got)
	}
	if back, err := aseba.DecodeDescription(m); err != nil || back != d {
		t.Errorf("DecodeDescription: %+v, %v", back, err)
	}
	v := aseba.NamedVariable{Name: "speed.target", Size: 1}
	if back, err := aseba.DecodeNamedVariable(aseba.NamedVariableMessage(1, v)); err != nil || back != v {
		t.Errorf("DecodeNamedVariable: %+v, %v", back, err)
	}
	if got := fmt.Sprintf("% x", aseba.GetNodeDescription(1000, 3).Append(nil)); got != "04 00 e8 03 10 a0 03 00 05 00" {
		t.Errorf("GetNodeDescription encodes as %s", got)
	}
	if got := fmt.Sprintf("% x", aseba.ListNodes(1000).Append(nil)); got != "02 00 e8 03 11 a0 05 00" {
		t.Errorf("ListNodes encodes as %s", got)
	}
	if v, err := aseba.DecodeVersion(aseba.NodePresent(4)); v != 5 || err != nil {
		t.Errorf("NodePresent version %d, %v", v, err)
	}
	// A payload with bytes left over, or cut short, is refused.
	long := aseba.NamedVariableMessage(1, v)
	long.Payload = append(long.Payload, 0)
	if _, err := aseba.DecodeNamedVariable(long); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("a named variable with a byte left over: %v", err)
	}
	short := aseba.DescriptionMessage(1, d)
	short.Payload = short.Payload[:5]
	if _, err := aseba.DecodeDescription(short); !errors.Is(err, aseba.ErrCorrupt) {
		t.Errorf("a description cut short: %v", err)
	}
	nd := aseba.NodeDescription{Variables: []aseba.NamedVariable{{"id", 1}, {"source", 1}, {"args", 32}, {"speed.target", 1}}}
	if a, s, ok := nd.Lookup("speed.target"); !ok || a != 34 || s != 1 {
		t.Errorf("Lookup: %d %d %v, want address 34", a, s, ok)
	}
	if _, _, ok := nd.Lookup("speed"); ok {
		t.Error("Lookup found a variable that is not there")
	}
}

// FuzzDecodeDescription: seeds in testdata/fuzz/FuzzDecodeDescription.
// The description decoders take any payload without panicking, and what
// they accept encodes back to the same bytes.
func FuzzDecodeDescription(f *testing.F) {
	f.Fuzz(func(t *testing.T, typ uint16, payload []byte) {
		m := aseba.Message{Source: 7, Type: typ, Payload: payload}
		if d, err := aseba.DecodeDescription(m); err == nil {
			if back := aseba.DescriptionMessage(7, d); !bytes.Equal(back.Payload, payload) {
				t.Fatalf("Description round trip: % x -> % x", payload, back.Payload)
			}
		}
		if v, err := aseba.DecodeNamedVariable(m); err == nil {
			if back := aseba.NamedVariableMessage(7, v); !bytes.Equal(back.Payload, payload) {
				t.Fatalf("NamedVariableDescription round trip: % x -> % x", payload, back.Payload)
			}
		}
		if d, _, err := aseba.DecodeGetNodeDescription(m); err == nil {
			if back := aseba.GetNodeDescription(7, d); len(back.Payload) != len(payload) {
				t.Fatalf("GetNodeDescription: % x", payload)
			}
		}
		aseba.DecodeVersion(m)
	})
}
