package space

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
)

// The mobile grid is built at a Reindex only when the neighbour lists are
// built from it or the grid before was read; otherwise the first query
// that reads it builds it. Either way queries find what they find in a
// twin scene whose grid is built at every Reindex (its lists are): the
// same bodies in the same order, also when many goroutines ask a stale
// grid at once.
func TestGridBuiltWhenRead(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	a, b := driftTwins(73)
	a.Reindex()
	b.Reindex()
	near := func(s *Space, p ci.Vector2) []int32 {
		var got []int32
		s.NearMobileDisc(p, 0.3, func(i int) bool { got = append(got, int32(i)); return true })
		return got
	}
	stale, eager, built, lazy := 0, 0, 0, 0
	read := false // a's grid was read since its last Reindex
	for tick := range 40 {
		driftStep(r, a, b, tick%9 == 4, tick == 13)
		a.Reindex()
		b.Reindex()
		lists := a.drift == 0 // the lists were built at this Reindex
		switch {
		case lists || read:
			if a.gridStale.Load() {
				t.Fatalf("tick %d: the grid is stale after a Reindex that built the lists (%v) or followed a read (%v)",
					tick, lists, read)
			}
			if lists {
				built++
			} else {
				eager++
			}
		default:
			if !a.gridStale.Load() {
				t.Fatalf("tick %d: the grid was built though nothing read the last one and the lists held", tick)
			}
			stale++
		}
		read = false
		if tick%3 == 0 {
			continue // nothing reads the grid
		}
		wasStale := a.gridStale.Load()
		points := make([]ci.Vector2, 16)
		for k := range points {
			points[k] = ci.Vector2{X: (r.Float64() - 0.5) * 7, Y: (r.Float64() - 0.5) * 7}
		}
		got := make([][]int32, len(points))
		var wg sync.WaitGroup
		for k := range points {
			wg.Go(func() { got[k] = near(a, points[k]) })
		}
		wg.Wait()
		read = true
		if wasStale {
			lazy++
			if a.gridStale.Load() {
				t.Fatalf("tick %d: a query left the grid stale", tick)
			}
		}
		found := 0
		for k, p := range points {
			if want := near(b, p); !slices.Equal(got[k], want) {
				t.Fatalf("tick %d, query %d: %v, want %v", tick, k, got[k], want)
			}
			found += len(got[k])
		}
		if found == 0 {
			t.Fatalf("tick %d: the queries found nothing: the test proves little", tick)
		}
		if !slices.Equal(a.mitem, b.mitem) || !slices.Equal(a.mobile.items, b.mobile.items) {
			t.Fatalf("tick %d: the grid built for the queries is not the twin's", tick)
		}
		checkListsFresh(t, a, "after the queries")
	}
	t.Logf("%d Reindexes left the grid stale, %d built it for the lists, %d for the reads before; %d queries built it",
		stale, built, eager, lazy)
	if stale < 5 || built < 3 || eager < 5 || lazy < 3 {
		t.Errorf("stale %d, built %d, eager %d, lazy %d: the test proves little", stale, built, eager, lazy)
	}
}
