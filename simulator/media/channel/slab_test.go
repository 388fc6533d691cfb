package channel

import "testing"

// slabNew hands out distinct zero values whose pointers stay valid as the
// slab grows, block after block.
func TestSlabPointersStay(t *testing.T) {
	var slab []Receiver
	var got []*Receiver
	for i := range 1000 {
		r := slabNew(&slab)
		if r.index != 0 || r.ch != nil {
			t.Fatalf("value %d is not zero: %+v", i, *r)
		}
		r.index = i
		got = append(got, r)
	}
	for i, r := range got {
		if r.index != i {
			t.Fatalf("value %d now holds %d: a pointer moved", i, r.index)
		}
	}
}
