package aseba_test

import (
	"bytes"
	"errors"
	"fmt"
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
