package epuck_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/argosgo/argos/realrobot/epuck"
)

// The seeds of these fuzz tests are in testdata/fuzz/<name>/: real
// frames, truncated and corrupted ones. `make fuzz` runs them longer.

func FuzzParseChain(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		cmds, n, ok := epuck.ParseChain(b)
		if !ok {
			if n != 0 || cmds != nil {
				t.Fatalf("incomplete chain returned %d bytes, %v", n, cmds)
			}
			return
		}
		if n < 1 || n > len(b) || b[n-1] != epuck.ChainEnd {
			t.Fatalf("chain of %d bytes in % x", n, b)
		}
		for _, c := range cmds {
			if _, known := epuck.ArgLen(c.Op); !known {
				t.Fatalf("unknown command %#x returned", c.Op)
			}
		}
	})
}

func FuzzDecodeSense(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := epuck.DecodeSense(b)
		if err != nil {
			return
		}
		if back := epuck.AppendSense(nil, s); !bytes.Equal(back, b) {
			t.Fatalf("decode/encode: % x -> % x", b, back)
		}
	})
}

func FuzzDecodeSpeed(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		l, r, err := epuck.DecodeSpeed(b)
		if err != nil {
			return
		}
		if back := epuck.AppendSetSpeed(nil, l, r)[1:]; !bytes.Equal(back, b) {
			t.Fatalf("decode/encode: % x -> % x", b, back)
		}
	})
}

func FuzzDecodeSensors(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := epuck.DecodeSensors(b)
		if err != nil {
			return
		}
		var back [epuck.SensorsLen]byte
		s.Encode(&back)
		// Bits 5-7 of the selector byte are not part of the frame's data.
		want := bytes.Clone(b)
		want[40] &= epuck.SelectorMask | epuck.ButtonBit
		want[46] = epuck.Checksum(want[:46])
		if !bytes.Equal(back[:], want) {
			t.Fatalf("decode/encode: % x -> % x", b, back)
		}
	})
}

func FuzzDecodeActuators(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := epuck.DecodeActuators(b)
		if err != nil {
			return
		}
		var back [epuck.ActuatorsLen]byte
		a.Encode(&back)
		if !bytes.Equal(back[:], b) {
			t.Fatalf("decode/encode: % x -> % x", b, back)
		}
	})
}

func FuzzDecodeChips(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := epuck.DecodeIMU(b); err == nil {
			back := epuck.EncodeIMU(s)
			// the temperature (bytes 6-7) is not kept
			if !bytes.Equal(back[:6], b[:6]) || !bytes.Equal(back[8:], b[8:]) {
				t.Fatalf("IMU decode/encode: % x -> % x", b, back)
			}
		}
		if g, err := epuck.DecodeGround(b); err == nil {
			if back := epuck.EncodeGround(g); !bytes.Equal(back[:], b) {
				t.Fatalf("ground decode/encode: % x -> % x", b, back)
			}
		}
	})
}

// FuzzParseReply: an ASCII reply line either parses, and then formats
// back to itself, or is an error wrapping ErrGarbage.
func FuzzParseReply(f *testing.F) {
	f.Fuzz(func(t *testing.T, line []byte) {
		r, err := epuck.ParseReply(line)
		if err != nil {
			if !errors.Is(err, epuck.ErrGarbage) {
				t.Fatalf("%q: %v does not wrap ErrGarbage", line, err)
			}
			return
		}
		if r.Letter < 'a' || r.Letter > 'z' {
			t.Fatalf("%q parsed with letter %q", line, r.Letter)
		}
		back, err := epuck.ParseReply(r.Format())
		if err != nil || back.Letter != r.Letter || !slices.Equal(back.Values, r.Values) {
			t.Fatalf("%q -> %+v -> %q -> %+v, %v", line, r, r.Format(), back, err)
		}
	})
}

// FuzzSenseFromReplies: the reply lines of a sense request (the seeds'
// lines, split at '\n') decode into readings within the sensors' ranges,
// or are rejected.
func FuzzSenseFromReplies(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte) {
		var rs []epuck.Reply
		for len(b) > 0 {
			line, rest, ok := epuck.CutLine(b)
			if !ok {
				return
			}
			b = rest
			r, err := epuck.ParseReply(line)
			if err != nil {
				return
			}
			rs = append(rs, r)
		}
		s, err := epuck.SenseFromReplies(rs)
		if err != nil {
			return
		}
		for i := range 8 {
			if s.Proximity[i] < -epuck.ADCMax || s.Proximity[i] > epuck.ADCMax || s.Ambient[i] > epuck.ADCMax {
				t.Fatalf("readings out of range: %+v", s)
			}
		}
	})
}

func BenchmarkDecodeSense(b *testing.B) {
	var lines [][]byte
	for _, l := range realistic() {
		lines = append(lines, []byte(l+"\r\n"))
	}
	rs := make([]epuck.Reply, len(lines))
	b.ReportAllocs()
	for b.Loop() {
		for i, l := range lines {
			var err error
			if rs[i], err = epuck.ParseReply(l); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := epuck.SenseFromReplies(rs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFrames(b *testing.B) {
	in := sensorFrame(10, -20)
	a := epuck.Actuators{Left: 388, Right: 388}
	var w [epuck.ActuatorsLen]byte
	b.ReportAllocs()
	for b.Loop() {
		a.Encode(&w)
		if _, err := epuck.DecodeSensors(in); err != nil {
			b.Fatal(err)
		}
	}
}
