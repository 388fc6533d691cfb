package ci

import (
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

// The wire encoding of messages. It is defined here, once, and used by
// every runtime: the simulator's channels count its bytes against their
// bandwidth, real robots send it over UDP and attached controllers over
// TCP.
//
// # Values
//
// A value of a Go type T is encoded by [Codec] from T's structure, with
// no type information on the wire (both ends share T):
//
//   - bool: one byte, 0 or 1;
//   - int8, uint8: one byte; int16, uint16: two bytes; int32, uint32,
//     float32: four bytes; int64, uint64, float64, int, uint: eight bytes
//     (int and uint as 64 bits on every platform); complex64 and
//     complex128: the real then the imaginary part. Little-endian,
//     floats in IEEE 754;
//   - string and []byte: the length as an unsigned varint
//     (encoding/binary's Uvarint), then the bytes;
//   - other slices: the number of elements as an unsigned varint, then
//     the elements;
//   - arrays: the elements, without a count;
//   - structs: the fields in declaration order (every field must be
//     exported; blank fields "_" are skipped);
//   - a type whose pointer implements encoding.BinaryUnmarshaler and
//     whose value implements encoding.BinaryAppender or
//     encoding.BinaryMarshaler: the length of its own encoding as an
//     unsigned varint, then that encoding.
//
// Maps, pointers, interfaces, channels and functions have no encoding:
// [NewCodec] refuses them. Decoding consumes exactly the bytes of one
// value; short input, trailing bytes, a bool other than 0 or 1, an int
// that does not fit and a length beyond the input are errors.
//
// # Messages
//
// A [Message] on a network link (one UDP datagram may carry several, a
// TCP stream carries them in its own frames) is, after [AppendMessage]:
//
//	version  byte            1
//	topic    uvarint + bytes at most 255 bytes
//	from     uvarint + bytes the sender's robot id, at most 255 bytes
//	to       uvarint + bytes "" for a broadcast, at most 255 bytes
//	payload  uvarint + bytes at most MaxPayload bytes
//
// [ReadMessage] decodes one and says how many bytes it took.

// MaxPayload is the largest payload of one message, in bytes.
const MaxPayload = 64 << 10

// MaxName is the longest topic or robot id a message carries, in bytes.
const MaxName = 255

// WireVersion is the first byte of an encoded message.
const WireVersion = 1

// Errors of the wire encoding; decoding errors wrap ErrMalformed.
var (
	ErrMalformed   = errors.New("malformed encoding")
	ErrNotEncoding = errors.New("type has no wire encoding")
)

// AppendMessage appends the encoding of m to buf. It panics when a name
// is longer than MaxName or the payload longer than MaxPayload: the
// devices check both when a message is sent.
func AppendMessage(buf []byte, m Message) []byte {
	if len(m.Topic) > MaxName || len(m.From) > MaxName || len(m.To) > MaxName {
		panic(fmt.Sprintf("ci: a message's topic and robot ids are at most %d bytes (topic %q, from %q, to %q)", MaxName, clip(m.Topic), clip(m.From), clip(m.To)))
	}
	if len(m.Payload) > MaxPayload {
		panic(fmt.Sprintf("ci: a message's payload is at most %d bytes, not %d", MaxPayload, len(m.Payload)))
	}
	buf = append(buf, WireVersion)
	buf = appendBytes(buf, m.Topic)
	buf = appendBytes(buf, m.From)
	buf = appendBytes(buf, m.To)
	buf = binary.AppendUvarint(buf, uint64(len(m.Payload)))
	return append(buf, m.Payload...)
}

func appendBytes[S string | []byte](buf []byte, s S) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// ReadMessage decodes the message at the start of data and returns it
// with the number of bytes it took. The payload is a copy; names are new
// strings.
func ReadMessage(data []byte) (Message, int, error) {
	var m Message
	if len(data) == 0 {
		return m, 0, fmt.Errorf("ci: message: no bytes: %w", ErrMalformed)
	}
	if data[0] != WireVersion {
		return m, 0, fmt.Errorf("ci: message: version %d, this build reads version %d: %w", data[0], WireVersion, ErrMalformed)
	}
	r := reader{data: data, at: 1}
	var err error
	if m.Topic, err = r.name("topic"); err != nil {
		return m, 0, err
	}
	if m.From, err = r.name("sender"); err != nil {
		return m, 0, err
	}
	if m.To, err = r.name("receiver"); err != nil {
		return m, 0, err
	}
	n, err := r.length("payload", MaxPayload)
	if err != nil {
		return m, 0, err
	}
	m.Payload = append([]byte(nil), r.data[r.at:r.at+n]...)
	r.at += n
	return m, r.at, nil
}

// reader walks an encoding.
type reader struct {
	data []byte
	at   int
}

func (r *reader) fail(format string, args ...any) error {
	return fmt.Errorf("ci: byte %d: %s: %w", r.at, fmt.Sprintf(format, args...), ErrMalformed)
}

// length reads an unsigned varint length of at most limit that the rest
// of the input holds.
func (r *reader) length(what string, limit int) (int, error) {
	v, k := binary.Uvarint(r.data[r.at:])
	if k <= 0 {
		return 0, r.fail("the length of the %s is cut short or too large", what)
	}
	if v > uint64(limit) {
		return 0, r.fail("a %s of %d bytes, more than the %d allowed", what, v, limit)
	}
	if v > uint64(len(r.data)-r.at-k) {
		return 0, r.fail("a %s of %d bytes, but only %d follow", what, v, len(r.data)-r.at-k)
	}
	r.at += k
	return int(v), nil
}

func (r *reader) name(what string) (string, error) {
	n, err := r.length(what, MaxName)
	if err != nil {
		return "", err
	}
	s := string(r.data[r.at : r.at+n])
	r.at += n
	return s, nil
}

func (r *reader) take(n int, what string) ([]byte, error) {
	if len(r.data)-r.at < n {
		return nil, r.fail("%s needs %d bytes, %d are left", what, n, len(r.data)-r.at)
	}
	b := r.data[r.at : r.at+n]
	r.at += n
	return b, nil
}

// Codec encodes and decodes values of type T in the wire encoding. Make
// one with [NewCodec] (it works out T's layout once); it is safe for
// concurrent use and allocates nothing for types without strings or
// slices.
type Codec[T any] struct {
	enc  encodeFn
	dec  decodeFn
	get  func(b []byte, v reflect.Value) bool
	size int // the fixed size of an encoded value, -1 when it varies
	// raw says that a T's memory is its encoding (see rawLayout), which
	// is then copied as it is
	raw bool
}

type (
	encodeFn func(buf []byte, v reflect.Value) []byte
	decodeFn func(r reader, v reflect.Value) (reader, error)
)

// NewCodec returns the codec of T, or an error wrapping ErrNotEncoding
// that names the part of T that has no encoding.
func NewCodec[T any]() (*Codec[T], error) {
	t := reflect.TypeFor[T]()
	p, err := planFor(t)
	if err != nil {
		return nil, err
	}
	return &Codec[T]{enc: p.enc, dec: p.dec, get: p.get, size: p.size, raw: littleEndian() && rawLayout(t)}, nil
}

// Size returns the number of bytes every value of T takes, or -1 when
// it depends on the value (strings, slices, custom encodings).
func (c *Codec[T]) Size() int { return c.size }

// memory returns the bytes of *v, which are its encoding when c.raw.
func (c *Codec[T]) memory(v *T) []byte { return unsafe.Slice((*byte)(unsafe.Pointer(v)), c.size) }

// Append appends the encoding of *v to buf.
func (c *Codec[T]) Append(buf []byte, v *T) []byte {
	if c.raw {
		return append(buf, unsafe.Slice((*byte)(unsafe.Pointer(v)), c.size)...)
	}
	return c.enc(buf, reflect.ValueOf(v).Elem())
}

// Decode decodes data, which must hold exactly one value, into *v.
// Fields decode in place: a slice field reuses the capacity of the slice
// *v already holds.
func (c *Codec[T]) Decode(data []byte, v *T) error {
	if c.raw && len(data) == c.size {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(v)), c.size), data)
		return nil
	}
	if c.get != nil && len(data) == c.size {
		if c.get(data, reflect.ValueOf(v).Elem()) {
			return nil
		}
	}
	r, err := c.dec(reader{data: data}, reflect.ValueOf(v).Elem())
	if err != nil {
		return err
	}
	if r.at != len(data) {
		return fmt.Errorf("ci: %d bytes follow the value of %d bytes: %w", len(data)-r.at, r.at, ErrMalformed)
	}
	return nil
}

// rawLayout reports whether the memory of a value of t, on a
// little-endian machine, is its encoding: numbers of fixed widths (no
// bool, which must decode as 0 or 1, nor int or uint narrower than 64
// bits), in arrays and structs without padding or blank fields, and no
// type with its own encoding.
func rawLayout(t reflect.Type) bool {
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return false
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return true
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return t.Size() == 8
	case reflect.Array:
		return rawLayout(t.Elem())
	case reflect.Struct:
		var sum uintptr
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Name == "_" || f.Offset != sum || !rawLayout(f.Type) {
				return false
			}
			sum += f.Type.Size()
		}
		return sum == t.Size()
	}
	return false
}

// littleEndian reports whether this machine stores numbers little-endian.
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// plan is how one type is encoded. Plans of a fixed size also have get,
// which decodes exactly size bytes without bounds checks and reports
// false for a value the type cannot take.
type plan struct {
	enc  encodeFn
	dec  decodeFn
	get  func(b []byte, v reflect.Value) bool
	size int
}

// fixed completes a plan of a fixed size: its dec takes the bytes and
// calls get.
func fixed(size int, enc encodeFn, get func(b []byte, v reflect.Value) bool, what string) *plan {
	return &plan{size: size, enc: enc, get: get,
		dec: func(r reader, v reflect.Value) (reader, error) {
			b, err := r.take(size, what)
			if err != nil {
				return r, err
			}
			if !get(b, v) {
				r.at -= size
				return r, r.fail("%s holds a value a %s cannot take (a bool other than 0 or 1, an int too large for this platform)", what, v.Type())
			}
			return r, nil
		}}
}

var (
	appenderType    = reflect.TypeFor[encoding.BinaryAppender]()
	marshalerType   = reflect.TypeFor[encoding.BinaryMarshaler]()
	unmarshalerType = reflect.TypeFor[encoding.BinaryUnmarshaler]()
)

func planFor(t reflect.Type) (*plan, error) { return makePlan(t, t.String(), map[reflect.Type]bool{}) }

func makePlan(t reflect.Type, path string, open map[reflect.Type]bool) (*plan, error) {
	if open[t] {
		return nil, fmt.Errorf("ci: %s contains itself: %w; a recursive type has no encoding, flatten it", path, ErrNotEncoding)
	}
	open[t] = true
	defer delete(open, t)
	if reflect.PointerTo(t).Implements(unmarshalerType) && (t.Implements(appenderType) || t.Implements(marshalerType)) {
		return customPlan(t), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return fixed(1, func(buf []byte, v reflect.Value) []byte {
			if v.Bool() {
				return append(buf, 1)
			}
			return append(buf, 0)
		}, func(b []byte, v reflect.Value) bool {
			v.SetBool(b[0] == 1)
			return b[0] <= 1
		}, "a bool"), nil
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		return intPlan(t), nil
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr:
		return uintPlan(t), nil
	case reflect.Float32:
		return fixed(4, func(buf []byte, v reflect.Value) []byte {
			return binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(v.Float())))
		}, func(b []byte, v reflect.Value) bool {
			v.SetFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
			return true
		}, "a float32"), nil
	case reflect.Float64:
		return fixed(8, func(buf []byte, v reflect.Value) []byte {
			return binary.LittleEndian.AppendUint64(buf, math.Float64bits(v.Float()))
		}, func(b []byte, v reflect.Value) bool {
			v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
			return true
		}, "a float64"), nil
	case reflect.Complex64, reflect.Complex128:
		half := 4
		if t.Kind() == reflect.Complex128 {
			half = 8
		}
		put := func(buf []byte, f float64) []byte {
			if half == 4 {
				return binary.LittleEndian.AppendUint32(buf, math.Float32bits(float32(f)))
			}
			return binary.LittleEndian.AppendUint64(buf, math.Float64bits(f))
		}
		get := func(b []byte) float64 {
			if half == 4 {
				return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
			}
			return math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
		return fixed(2*half, func(buf []byte, v reflect.Value) []byte {
			c := v.Complex()
			return put(put(buf, real(c)), imag(c))
		}, func(b []byte, v reflect.Value) bool {
			v.SetComplex(complex(get(b), get(b[half:])))
			return true
		}, "a complex number"), nil
	case reflect.String:
		return &plan{size: -1,
			enc: func(buf []byte, v reflect.Value) []byte { return appendBytes(buf, v.String()) },
			dec: func(r reader, v reflect.Value) (reader, error) {
				n, err := r.length("string", MaxPayload)
				if err != nil {
					return r, err
				}
				b := r.data[r.at : r.at+n]
				if v.Len() != n || v.String() != string(b) { // keep the string it holds when equal
					v.SetString(string(b))
				}
				r.at += n
				return r, nil
			}}, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && t.Elem().PkgPath() == "" && !reflect.PointerTo(t.Elem()).Implements(unmarshalerType) {
			return &plan{size: -1,
				enc: func(buf []byte, v reflect.Value) []byte { return appendBytes(buf, v.Bytes()) },
				dec: func(r reader, v reflect.Value) (reader, error) {
					n, err := r.length("byte slice", MaxPayload)
					if err != nil {
						return r, err
					}
					b := v.Bytes()
					if cap(b) < n {
						b = make([]byte, n)
					}
					b = b[:n]
					copy(b, r.data[r.at:r.at+n])
					v.SetBytes(b)
					r.at += n
					return r, nil
				}}, nil
		}
		ep, err := makePlan(t.Elem(), path+"[]", open)
		if err != nil {
			return nil, err
		}
		return slicePlan(t, ep), nil
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(unmarshalerType) {
			// bytes as they are, in one copy (values reach the codec
			// through a pointer, so they are addressable)
			return fixed(t.Len(), func(buf []byte, v reflect.Value) []byte { return append(buf, v.Bytes()...) },
				func(b []byte, v reflect.Value) bool {
					copy(v.Bytes(), b)
					return true
				}, "a byte array"), nil
		}
		ep, err := makePlan(t.Elem(), path+"[]", open)
		if err != nil {
			return nil, err
		}
		n := t.Len()
		enc := func(buf []byte, v reflect.Value) []byte {
			for i := 0; i < n; i++ {
				buf = ep.enc(buf, v.Index(i))
			}
			return buf
		}
		if ep.get != nil {
			es := ep.size
			return fixed(n*es, enc, func(b []byte, v reflect.Value) bool {
				ok := true
				for i := 0; i < n; i++ {
					ok = ep.get(b[i*es:(i+1)*es], v.Index(i)) && ok
				}
				return ok
			}, "an array"), nil
		}
		return &plan{size: -1, enc: enc,
			dec: func(r reader, v reflect.Value) (reader, error) {
				for i := 0; i < n; i++ {
					var err error
					if r, err = ep.dec(r, v.Index(i)); err != nil {
						return r, err
					}
				}
				return r, nil
			}}, nil
	case reflect.Struct:
		return structPlan(t, path, open)
	}
	return nil, fmt.Errorf("ci: %s is a %s: %w; send its contents as a struct of numbers, strings and slices, or give the type AppendBinary and UnmarshalBinary methods",
		path, t.Kind(), ErrNotEncoding)
}

func intPlan(t reflect.Type) *plan {
	bits := t.Bits()
	if t.Kind() == reflect.Int {
		bits = 64
	}
	n := bits / 8
	narrow := t.Bits() < bits // an int of a 32-bit platform
	return fixed(n, func(buf []byte, v reflect.Value) []byte { return putUint(buf, uint64(v.Int()), n) },
		func(b []byte, v reflect.Value) bool {
			x := int64(getUint(b, n)<<(64-8*n)) >> (64 - 8*n) // sign-extend
			if narrow && v.OverflowInt(x) {
				return false
			}
			v.SetInt(x)
			return true
		}, "an integer")
}

func uintPlan(t reflect.Type) *plan {
	bits := t.Bits()
	if t.Kind() == reflect.Uint || t.Kind() == reflect.Uintptr {
		bits = 64
	}
	n := bits / 8
	narrow := t.Bits() < bits
	return fixed(n, func(buf []byte, v reflect.Value) []byte { return putUint(buf, v.Uint(), n) },
		func(b []byte, v reflect.Value) bool {
			x := getUint(b, n)
			if narrow && v.OverflowUint(x) {
				return false
			}
			v.SetUint(x)
			return true
		}, "an unsigned integer")
}

func putUint(buf []byte, x uint64, n int) []byte {
	switch n {
	case 1:
		return append(buf, byte(x))
	case 2:
		return binary.LittleEndian.AppendUint16(buf, uint16(x))
	case 4:
		return binary.LittleEndian.AppendUint32(buf, uint32(x))
	}
	return binary.LittleEndian.AppendUint64(buf, x)
}

func getUint(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func slicePlan(t reflect.Type, ep *plan) *plan {
	// every element takes at least one byte unless its size is 0; a
	// count of zero-size elements is capped so that a short input
	// cannot ask for a huge slice
	minSize := max(ep.size, 1)
	if ep.size < 0 {
		minSize = 1
	}
	return &plan{size: -1,
		enc: func(buf []byte, v reflect.Value) []byte {
			n := v.Len()
			buf = binary.AppendUvarint(buf, uint64(n))
			for i := 0; i < n; i++ {
				buf = ep.enc(buf, v.Index(i))
			}
			return buf
		},
		dec: func(r reader, v reflect.Value) (reader, error) {
			c, k := binary.Uvarint(r.data[r.at:])
			if k <= 0 {
				return r, r.fail("the length of a %s is cut short or too large", t)
			}
			limit := uint64(len(r.data)-r.at-k) / uint64(minSize)
			if ep.size == 0 {
				limit = MaxPayload
			}
			if c > limit {
				return r, r.fail("a %s of %d elements, more than the input can hold", t, c)
			}
			r.at += k
			n := int(c)
			if v.Cap() < n {
				v.Set(reflect.MakeSlice(t, n, n))
			} else {
				v.SetLen(n)
			}
			for i := 0; i < n; i++ {
				var err error
				if r, err = ep.dec(r, v.Index(i)); err != nil {
					return r, err
				}
			}
			return r, nil
		}}
}

func structPlan(t reflect.Type, path string, open map[reflect.Type]bool) (*plan, error) {
	var fields []int
	var fps []*plan
	size := 0
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Name == "_" {
			continue
		}
		if !f.IsExported() {
			return nil, fmt.Errorf("ci: %s.%s is not exported: %w; export it (the encoding sends every field), or give %s AppendBinary and UnmarshalBinary methods",
				path, f.Name, ErrNotEncoding, t)
		}
		fp, err := makePlan(f.Type, path+"."+f.Name, open)
		if err != nil {
			return nil, err
		}
		fields = append(fields, i)
		fps = append(fps, fp)
		if size >= 0 && fp.size >= 0 {
			size += fp.size
		} else {
			size = -1
		}
	}
	enc := func(buf []byte, v reflect.Value) []byte {
		for k, i := range fields {
			buf = fps[k].enc(buf, v.Field(i))
		}
		return buf
	}
	if size >= 0 {
		// every field has a fixed size: decode from their offsets
		offs := make([]int, len(fps)+1)
		for k, fp := range fps {
			offs[k+1] = offs[k] + fp.size
		}
		return fixed(size, enc, func(b []byte, v reflect.Value) bool {
			ok := true
			for k, i := range fields {
				ok = fps[k].get(b[offs[k]:offs[k+1]], v.Field(i)) && ok
			}
			return ok
		}, "a "+t.String()), nil
	}
	return &plan{size: size, enc: enc,
		dec: func(r reader, v reflect.Value) (reader, error) {
			for k, i := range fields {
				var err error
				if r, err = fps[k].dec(r, v.Field(i)); err != nil {
					return r, err
				}
			}
			return r, nil
		}}, nil
}

// customPlan encodes a type through its own binary methods, behind a
// length.
func customPlan(t reflect.Type) *plan {
	appender := t.Implements(appenderType)
	return &plan{size: -1,
		enc: func(buf []byte, v reflect.Value) []byte {
			var b []byte
			var err error
			if appender {
				// the value's own encoding, after a placeholder length
				// that is fixed up once its size is known
				start := len(buf)
				buf = append(buf, make([]byte, binary.MaxVarintLen32)...)
				buf, err = v.Interface().(encoding.BinaryAppender).AppendBinary(buf)
				if err != nil {
					panic(fmt.Sprintf("ci: %s.AppendBinary: %v", t, err))
				}
				n := len(buf) - start - binary.MaxVarintLen32
				var l [binary.MaxVarintLen64]byte
				k := binary.PutUvarint(l[:], uint64(n))
				copy(buf[start:], l[:k])
				copy(buf[start+k:], buf[start+binary.MaxVarintLen32:])
				return buf[:start+k+n]
			}
			if b, err = v.Interface().(encoding.BinaryMarshaler).MarshalBinary(); err != nil {
				panic(fmt.Sprintf("ci: %s.MarshalBinary: %v", t, err))
			}
			return appendBytes(buf, b)
		},
		dec: func(r reader, v reflect.Value) (reader, error) {
			n, err := r.length(t.String(), MaxPayload)
			if err != nil {
				return r, err
			}
			if err := v.Addr().Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(r.data[r.at : r.at+n]); err != nil {
				return r, fmt.Errorf("ci: %s.UnmarshalBinary: %v: %w", t, err, ErrMalformed)
			}
			r.at += n
			return r, nil
		}}
}
