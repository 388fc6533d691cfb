package traffic

import (
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
)

// A Status is encoded by copying its memory: the fields have no padding,
// and the encoding's size is the struct's. Sending and receiving it then
// costs a copy, not a walk over its fields.
func TestStatusIsRaw(t *testing.T) {
	c, err := ci.NewCodec[Status]()
	if err != nil {
		t.Fatal(err)
	}
	s := Status{Agent: 7, Node: 3, Next: -1, Claim: 4, Since: 99, Plan: [2]int16{5, 6}, Tick: 120, X: 1.5, Y: -2, N: 1,
		Grants: [MaxGrants]Grant{{Agent: 2, Node: 9, Since: 77}}}
	buf := c.Append(nil, &s)
	if len(buf) != int(unsafe.Sizeof(s)) {
		t.Errorf("a Status encodes in %d bytes, its memory is %d: a field has padding", len(buf), unsafe.Sizeof(s))
	}
	var back Status
	if err := c.Decode(buf, &back); err != nil || back != s {
		t.Errorf("decoded %+v, %v; want %+v", back, err, s)
	}
	if a := testing.AllocsPerRun(100, func() { buf = c.Append(buf[:0], &s); _ = c.Decode(buf, &back) }); a != 0 {
		t.Errorf("%v allocations per round trip", a)
	}
}
