package epuck

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Advanced sercom's ASCII mode (docs/robots.md), which the driver speaks:
// one command per line, ended by '\r' ("D,388,388\r"), answered by one
// line that starts with the command's letter in lower case and ends with
// "\r\n" ("e,388,388\r\n"). Unlike the binary mode's bare values, every
// reply says which command it answers, where it ends and how many values
// it holds, so that a late or shifted reply is rejected by its framing
// rather than read as values of another command.

// MaxReplyLen bounds a reply line, delimiter included: the longest the
// firmware sends is "n," or "o," with eight values of up to six
// characters.
const MaxReplyLen = 64

// AppendASCII appends an ASCII command: the letter, its integer
// arguments separated by commas, and '\r'.
func AppendASCII(b []byte, letter byte, args ...int) []byte {
	b = append(b, letter)
	for _, a := range args {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(a), 10)
	}
	return append(b, '\r')
}

// Reply is one line of the firmware's ASCII answer.
type Reply struct {
	// Letter is the lower-case letter of the command answered.
	Letter byte
	// Values are the integers after it.
	Values []int
}

// CutLine cuts the first line, up to and including its '\n', from b. ok
// is false when b holds no whole line yet.
func CutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return nil, b, false
	}
	return b[:i+1], b[i+1:], true
}

// ParseReply parses one reply line, "\r\n" included: a lower-case
// letter, then nothing or a comma and comma-separated decimal int16
// values. Anything else (a cut line, noise, a missing delimiter) is an
// error wrapping ErrGarbage.
func ParseReply(line []byte) (Reply, error) {
	var r Reply
	if len(line) > MaxReplyLen {
		return r, fmt.Errorf("%w: a reply line of %d bytes (at most %d)", ErrGarbage, len(line), MaxReplyLen)
	}
	body, ok := bytes.CutSuffix(line, []byte("\r\n"))
	if !ok {
		return r, fmt.Errorf("%w: a reply line %q that does not end with \\r\\n", ErrGarbage, line)
	}
	if len(body) == 0 || body[0] < 'a' || body[0] > 'z' {
		return r, fmt.Errorf("%w: a reply line %q that does not start with a command's letter", ErrGarbage, line)
	}
	r.Letter = body[0]
	if len(body) == 1 {
		return r, nil
	}
	if body[1] != ',' {
		return r, fmt.Errorf("%w: a reply line %q without a comma after its letter", ErrGarbage, line)
	}
	r.Values = make([]int, 0, bytes.Count(body, []byte(","))) // one allocation
	for f := range bytes.SplitSeq(body[2:], []byte(",")) {
		v, ok := parseInt16(f)
		if !ok {
			return Reply{}, fmt.Errorf("%w: %q in reply line %q is not an int16", ErrGarbage, f, line)
		}
		r.Values = append(r.Values, v)
	}
	return r, nil
}

// parseInt16 parses an optional '-' and decimal digits within int16.
func parseInt16(f []byte) (int, bool) {
	neg := len(f) > 0 && f[0] == '-'
	if neg {
		f = f[1:]
	}
	if len(f) == 0 || len(f) > 6 {
		return 0, false
	}
	v := 0
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int(c-'0')
	}
	if neg {
		v = -v
	}
	return v, v >= math.MinInt16 && v <= math.MaxInt16
}

// Format returns the reply as the firmware sends it.
func (r Reply) Format() []byte {
	b := []byte{r.Letter}
	for _, v := range r.Values {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, '\r', '\n')
}

// Expect is one reply line an exchange waits for: the letter of the
// command and the number of values.
type Expect struct {
	Letter byte
	Values int
}

// Check reports whether r is the reply e waits for.
func (e Expect) Check(r Reply) error {
	if r.Letter != e.Letter {
		return fmt.Errorf("%w: a reply to %q where the answer to %q was due (a late or stray reply)", ErrGarbage, r.Letter-'a'+'A', e.Letter-'a'+'A')
	}
	if len(r.Values) != e.Values {
		return fmt.Errorf("%w: %q answered with %d values, want %d", ErrGarbage, e.Letter-'a'+'A', len(r.Values), e.Values)
	}
	return nil
}

// SenseASCII is the body of the driver's sense request in ASCII mode:
// proximity, ambient light, wheel speeds and step counters.
var SenseASCII = [...]byte{'N', '\r', 'O', '\r', 'E', '\r', 'Q', '\r'}

// SenseExpect are the replies to SenseASCII.
var SenseExpect = [...]Expect{{'n', 8}, {'o', 8}, {'e', 2}, {'q', 2}}

// SenseFromReplies decodes the replies to SenseASCII, checking their
// framing and the sensors' ranges (errors wrap ErrGarbage).
func SenseFromReplies(rs []Reply) (SerComSensors, error) {
	var s SerComSensors
	if len(rs) != len(SenseExpect) {
		return s, fmt.Errorf("%w: %d reply lines to the sense request, want %d", ErrGarbage, len(rs), len(SenseExpect))
	}
	for i, e := range SenseExpect {
		if err := e.Check(rs[i]); err != nil {
			return s, err
		}
	}
	for i := range 8 {
		p, a := rs[0].Values[i], rs[1].Values[i]
		if p < -ADCMax || p > ADCMax {
			return s, fmt.Errorf("%w: proximity %d = %d is outside the ADC's range", ErrGarbage, i, p)
		}
		if a < 0 || a > ADCMax {
			return s, fmt.Errorf("%w: ambient light %d = %d is outside the ADC's range", ErrGarbage, i, a)
		}
		s.Proximity[i], s.Ambient[i] = int16(p), uint16(a)
	}
	for w := range 2 {
		v := rs[2].Values[w]
		if v < -maxSpeedEcho || v > maxSpeedEcho {
			return s, fmt.Errorf("%w: wheel speed %d steps/s is impossible", ErrGarbage, v)
		}
		s.Speed[w], s.Steps[w] = int16(v), int16(rs[3].Values[w])
	}
	return s, nil
}

// Tags are the commands that tag an attempt of an exchange: each sets a
// LED the sercom board does not offer (body, front) to off, and is
// answered by its own letter. An attempt starts with TagLen of them,
// chosen by the attempt's number, so that the replies to the attempts
// before it (a retry's predecessor answering late) differ in their first
// lines and are rejected.
var (
	tagCommands = [2][4]byte{{'B', ',', '0', '\r'}, {'F', ',', '0', '\r'}}
	tagReplies  = [2]byte{'b', 'f'}
)

// TagLen is the number of tag lines of an attempt: 2^TagLen attempts in
// a row differ.
const TagLen = 3

// AppendTag appends the tag commands of attempt n to b and their
// replies to want.
func AppendTag(b []byte, want []Expect, n uint64) ([]byte, []Expect) {
	for i := range TagLen {
		bit := (n >> i) & 1
		b = append(b, tagCommands[bit][:]...)
		want = append(want, Expect{tagReplies[bit], 0})
	}
	return b, want
}
