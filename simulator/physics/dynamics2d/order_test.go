package dynamics2d_test

import (
	"fmt"
	"slices"
	"testing"
)

// Bodies keeps the order of Add through any Remove (the order in which
// bodies enter cp, and so the order of cp's contacts, follows it), and a
// removed body that comes back is last. Removing is O(1): a million
// bodies migrating would otherwise cost a copy of the list each.
func TestBodiesKeepTheirOrderThroughRemove(t *testing.T) {
	w := newWorld(t, 10, "")
	var want []int
	for k := range 40 {
		want = append(want, w.add(ePuck, fmt.Sprint("ep", k), -4+float64(k%8), -4+float64(k/8), 0))
	}
	remove := func(i int) {
		w.eng.Remove(i)
		want = slices.DeleteFunc(want, func(b int) bool { return b == i })
	}
	for _, i := range []int{want[3], want[0], want[17], want[36]} {
		remove(i)
	}
	if got := w.eng.Bodies(); !slices.Equal(got, want) {
		t.Fatalf("after removals: Bodies %v, want %v", got, want)
	}
	// removed bodies come back at the end; more removals before the
	// engine compacts its list
	back := 17
	remove(want[5])
	if err := w.eng.Add(back); err != nil {
		t.Fatal(err)
	}
	want = append(want, back)
	remove(want[10])
	if got := w.eng.Bodies(); !slices.Equal(got, want) {
		t.Fatalf("after a body came back: Bodies %v, want %v", got, want)
	}
	// and the engine still steps them all, removed ones staying put
	for _, i := range want {
		w.sp.Drive[i].V = 0.05
	}
	start := w.sp.Bodies[want[0]].Pos
	gone := w.sp.Bodies[3].Pos
	for range 10 {
		w.eng.Step(tick, w.run)
		w.eng.Commit(w.run)
		w.sp.Reindex()
	}
	if moved := w.sp.Bodies[want[0]].Pos.Sub(start).Length(); moved < 0.04 {
		t.Errorf("an owned body moved %g m in 1 s at 5 cm/s", moved)
	}
	if w.sp.Bodies[3].Pos != gone {
		t.Errorf("a removed body moved from %v to %v", gone, w.sp.Bodies[3].Pos)
	}
	if err := w.eng.Add(want[0]); err == nil {
		t.Error("adding an owned body again succeeded")
	}
}
