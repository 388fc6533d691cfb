package ci_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

type inner struct {
	A int16
	B [2]uint8
}

type everything struct {
	Flag  bool
	I8    int8
	U16   uint16
	I32   int32
	U64   uint64
	I     int
	F32   float32
	F64   float64
	C     complex128
	S     string
	Bytes []byte
	Xs    []float64
	In    inner
	Ins   []inner
	_     int32
	Names []string
}

// point has its own encoding: two float32s.
type point struct{ X, Y float64 }

func (p point) AppendBinary(b []byte) ([]byte, error) {
	b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(p.X)))
	return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(p.Y))), nil
}

func (p *point) UnmarshalBinary(b []byte) error {
	if len(b) != 8 {
		return fmt.Errorf("point: %d bytes", len(b))
	}
	p.X = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	p.Y = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4:])))
	return nil
}

type withPoint struct {
	ID uint8
	P  point
}

func roundTrip[T any](t *testing.T, v T) []byte {
	t.Helper()
	c, err := ci.NewCodec[T]()
	if err != nil {
		t.Fatal(err)
	}
	b := c.Append(nil, &v)
	var got T
	if err := c.Decode(b, &got); err != nil {
		t.Fatalf("decode %x: %v", b, err)
	}
	if !reflect.DeepEqual(got, v) {
		t.Errorf("round trip of %+v gave %+v", v, got)
	}
	return b
}

func TestCodecRoundTrip(t *testing.T) {
	v := everything{Flag: true, I8: -3, U16: 513, I32: -70000, U64: 1 << 60, I: -1, F32: 1.5, F64: math.Pi, C: complex(1, -2),
		S: "héllo", Bytes: []byte{1, 2, 3}, Xs: []float64{1, 2}, In: inner{A: -2, B: [2]uint8{7, 8}}, Ins: []inner{{A: 1}, {A: 2}},
		Names: []string{"a", "", "bc"}}
	roundTrip(t, v)
	roundTrip(t, withPoint{ID: 3, P: point{X: 0.5, Y: -0.25}})
	roundTrip(t, 42.5)
	roundTrip(t, "just a string")
	roundTrip(t, []byte("raw"))
}

// The encoding is the documented one, byte for byte.
func TestCodecLayout(t *testing.T) {
	type msg struct {
		Ok   bool
		N    int16
		X    float64
		Tags []uint8
		Name string
	}
	b := roundTrip(t, msg{Ok: true, N: -2, X: 1, Tags: []uint8{9}, Name: "ab"})
	want := []byte{1, 0xfe, 0xff, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 1, 9, 2, 'a', 'b'}
	if !bytes.Equal(b, want) {
		t.Errorf("encoding % x, want % x", b, want)
	}
	c, _ := ci.NewCodec[msg]()
	if c.Size() != -1 {
		t.Errorf("size of a struct with a slice: %d, want -1", c.Size())
	}
	type fixed struct {
		A float64
		B [3]int32
		C bool
	}
	cf, _ := ci.NewCodec[fixed]()
	if cf.Size() != 8+12+1 {
		t.Errorf("size of a fixed struct: %d, want 21", cf.Size())
	}
	// a custom encoding goes behind its length
	b = roundTrip(t, withPoint{ID: 1, P: point{X: 1, Y: 2}})
	if len(b) != 1+1+8 || b[1] != 8 {
		t.Errorf("custom encoding % x: want the id, the length 8, then 8 bytes", b)
	}
}

func TestCodecRefusesTypesWithoutEncoding(t *testing.T) {
	type private struct{ x int }
	type recursive struct{ Kids []recursive }
	for name, f := range map[string]func() error{
		"map":        func() error { _, err := ci.NewCodec[map[string]int](); return err },
		"pointer":    func() error { _, err := ci.NewCodec[*int](); return err },
		"interface":  func() error { _, err := ci.NewCodec[any](); return err },
		"unexported": func() error { _, err := ci.NewCodec[private](); return err },
		"recursive":  func() error { _, err := ci.NewCodec[recursive](); return err },
		"chan field": func() error { _, err := ci.NewCodec[struct{ C chan int }](); return err },
	} {
		err := f()
		if !errors.Is(err, ci.ErrNotEncoding) {
			t.Errorf("%s: %v, want ErrNotEncoding", name, err)
		} else if !strings.HasPrefix(err.Error(), "ci: ") {
			t.Errorf("%s: %q does not start with the package name", name, err)
		}
	}
}

func TestCodecRejectsMalformed(t *testing.T) {
	type msg struct {
		Ok bool
		N  int8
		S  []uint16
	}
	c, _ := ci.NewCodec[msg]()
	var v msg
	for name, b := range map[string][]byte{
		"empty":          {},
		"bool of 2":      {2, 0, 0},
		"short":          {1},
		"trailing":       {1, 5, 0, 7},
		"count too long": {1, 5, 200, 1},
		"bad varint":     {1, 5, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
	} {
		if err := c.Decode(b, &v); !errors.Is(err, ci.ErrMalformed) {
			t.Errorf("%s (% x): %v, want ErrMalformed", name, b, err)
		}
	}
	// an int that does not fit is refused on a 32-bit platform only; an
	// int8 field always holds what an int8 encodes
	ci8, _ := ci.NewCodec[int8]()
	var i8 int8
	if err := ci8.Decode([]byte{0x80}, &i8); err != nil || i8 != -128 {
		t.Errorf("int8 0x80: %d, %v", i8, err)
	}
}

// Encoding a fixed-size struct and decoding it again allocates nothing.
func TestCodecDoesNotAllocate(t *testing.T) {
	type msg struct {
		ID    uint32
		X, Y  float64
		Round uint16
		Busy  bool
	}
	c, _ := ci.NewCodec[msg]()
	buf := make([]byte, 0, 64)
	v := msg{ID: 7, X: 1, Y: 2, Round: 3, Busy: true}
	var out msg
	if n := testing.AllocsPerRun(100, func() {
		buf = c.Append(buf[:0], &v)
		if err := c.Decode(buf, &out); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocations per round trip, want 0", n)
	}
}

func TestMessageRoundTrip(t *testing.T) {
	m := ci.Message{Topic: "estimate", From: "ep3", To: "", Payload: []byte{1, 2, 3}}
	b := ci.AppendMessage([]byte{0xaa}, m)
	got, n, err := ci.ReadMessage(b[1:])
	if err != nil || n != len(b)-1 || !reflect.DeepEqual(got, m) {
		t.Errorf("ReadMessage: %+v, %d, %v; want %+v, %d", got, n, err, m, len(b)-1)
	}
	want := []byte{1, 8, 'e', 's', 't', 'i', 'm', 'a', 't', 'e', 3, 'e', 'p', '3', 0, 3, 1, 2, 3}
	if !bytes.Equal(b[1:], want) {
		t.Errorf("encoding % x, want % x", b[1:], want)
	}
	// two messages back to back
	b2 := ci.AppendMessage(ci.AppendMessage(nil, m), ci.Message{Topic: "t", From: "a", To: "b"})
	_, n1, _ := ci.ReadMessage(b2)
	m2, n2, err := ci.ReadMessage(b2[n1:])
	if err != nil || n1+n2 != len(b2) || m2.To != "b" || len(m2.Payload) != 0 {
		t.Errorf("second message: %+v, %v", m2, err)
	}
}

func TestReadMessageRejectsMalformed(t *testing.T) {
	for name, b := range map[string][]byte{
		"empty":         {},
		"version 2":     {2, 0, 0, 0, 0},
		"cut in topic":  {1, 5, 'a'},
		"name too long": append([]byte{1, 0x80, 0x02}, bytes.Repeat([]byte{'a'}, 256)...),
		"payload cut":   {1, 0, 0, 0, 4, 1, 2},
	} {
		if _, _, err := ci.ReadMessage(b); !errors.Is(err, ci.ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}

func TestAppendMessagePanicsOnOversizedParts(t *testing.T) {
	for _, m := range []ci.Message{
		{Topic: strings.Repeat("t", ci.MaxName+1)},
		{Payload: make([]byte, ci.MaxPayload+1)},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic for a topic of %d bytes and a payload of %d", len(m.Topic), len(m.Payload))
				}
			}()
			ci.AppendMessage(nil, m)
		}()
	}
}

// FuzzReadMessage: any input either decodes to a message that survives
// an encoding and a decoding unchanged, or is refused with ErrMalformed.
func FuzzReadMessage(f *testing.F) {
	f.Add(ci.AppendMessage(nil, ci.Message{Topic: "x", From: "ep0", Payload: []byte{1}}))
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, n, err := ci.ReadMessage(b)
		if err != nil {
			if !errors.Is(err, ci.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if n <= 0 || n > len(b) {
			t.Fatalf("took %d of %d bytes", n, len(b))
		}
		again, k, err := ci.ReadMessage(ci.AppendMessage(nil, m))
		if err != nil || !reflect.DeepEqual(again, m) || k > n {
			t.Fatalf("%+v re-encoded decodes as %+v (%d bytes), %v", m, again, k, err)
		}
	})
}

type fuzzed struct {
	A    bool
	B    int32
	C    float64
	S    string
	L    []int16
	Arr  [2]uint8
	Subs []inner
	Raw  []byte
	P    point
}

// FuzzCodec: any input either decodes to a value that survives an
// encoding and a decoding unchanged (compared by their encodings, so that
// NaNs compare), or is refused with ErrMalformed; it never panics.
func FuzzCodec(f *testing.F) {
	c, err := ci.NewCodec[fuzzed]()
	if err != nil {
		f.Fatal(err)
	}
	v := fuzzed{A: true, B: -1, C: 2, S: "s", L: []int16{1, -1}, Subs: []inner{{A: 3}}, Raw: []byte{9}, P: point{X: 1}}
	f.Add(c.Append(nil, &v))
	f.Add([]byte{0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got fuzzed
		if err := c.Decode(b, &got); err != nil {
			if !errors.Is(err, ci.ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		enc := c.Append(nil, &got)
		var again fuzzed
		if err := c.Decode(enc, &again); err != nil {
			t.Fatalf("re-encoding % x does not decode: %v", enc, err)
		}
		if enc2 := c.Append(nil, &again); !bytes.Equal(enc, enc2) || len(enc) > len(b) {
			t.Fatalf("% x decodes, encodes as % x, then as % x", b, enc, enc2)
		}
	})
}

// A type whose memory is its encoding is copied as it is: the bytes are
// those the field-by-field encoding gives.
func TestRawLayoutMatchesTheEncoding(t *testing.T) {
	type packed struct {
		A uint32
		B int16
		C [2]int8
		D float64
	}
	v := packed{A: 0x01020304, B: -2, C: [2]int8{-1, 5}, D: 1}
	b := roundTrip(t, v)
	want := []byte{4, 3, 2, 1, 0xfe, 0xff, 0xff, 5, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}
	if !bytes.Equal(b, want) {
		t.Errorf("packed struct: % x, want % x", b, want)
	}
	b = roundTrip(t, [3]uint16{1, 2, 0xffff})
	if !bytes.Equal(b, []byte{1, 0, 2, 0, 0xff, 0xff}) {
		t.Errorf("array of uint16: % x", b)
	}
	c, _ := ci.NewCodec[packed]()
	var out packed
	if err := c.Decode(b, &out); !errors.Is(err, ci.ErrMalformed) {
		t.Errorf("6 bytes for a 16-byte struct: %v", err)
	}
}
