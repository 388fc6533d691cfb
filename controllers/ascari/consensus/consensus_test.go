package consensus

import (
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
)

// A Estimate is encoded by copying its memory: the fields have no padding,
// and the encoding's size is the struct's. Sending and receiving it then
// costs a copy, not a walk over its fields.
func TestEstimateIsRaw(t *testing.T) {
	c, err := ci.NewCodec[Estimate]()
	if err != nil {
		t.Fatal(err)
	}
	s := Estimate{Agent: 7, N: 1, Round: 4, Estimate: 2.5,
		To: [MaxNeighbours]uint16{3}, Flows: [MaxNeighbours]float64{-0.25}}
	buf := c.Append(nil, &s)
	if len(buf) != int(unsafe.Sizeof(s)) {
		t.Errorf("a Estimate encodes in %d bytes, its memory is %d: a field has padding", len(buf), unsafe.Sizeof(s))
	}
	var back Estimate
	if err := c.Decode(buf, &back); err != nil || back != s {
		t.Errorf("decoded %+v, %v; want %+v", back, err, s)
	}
	if a := testing.AllocsPerRun(100, func() { buf = c.Append(buf[:0], &s); _ = c.Decode(buf, &back) }); a != 0 {
		t.Errorf("%v allocations per round trip", a)
	}
}
