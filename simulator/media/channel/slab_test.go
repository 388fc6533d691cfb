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

// The ring of later slots grows with the holds, each pending slot
// keeping its due tick's place.
func TestLaterRingGrows(t *testing.T) {
	c := &Channel{later: make([]*slot, 8), tick: 13}
	pending := map[int64]*slot{}
	for _, d := range []int64{14, 15, 17, 20} {
		s := &slot{}
		c.later[d&7], pending[d] = s, s
	}
	c.growLater(40)
	if len(c.later) != 64 {
		t.Fatalf("ring of %d slots for a hold of 40, want 64", len(c.later))
	}
	for k, s := range c.later {
		var due int64 = -1
		for d, p := range pending {
			if p == s {
				due = d
			}
		}
		if s != nil && due&63 != int64(k) {
			t.Errorf("slot due at %d in place %d", due, k)
		}
	}
	n := 0
	for _, s := range c.later {
		if s != nil {
			n++
		}
	}
	if n != len(pending) {
		t.Errorf("%d slots after growing, want %d", n, len(pending))
	}
}
