package space

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
)

// parallel runs each job on its own goroutine.
type parallel struct{}

func (parallel) Run(n int, job func(int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); job(i) }()
	}
	wg.Wait()
}

// checkReference compares what the last Reindex built with the mobile
// index built from scratch and by brute force, as its first version did:
// the mobile bodies sorted by the cell of their centre (then by their
// place among the mobile bodies), their items, the runs every row query
// returns, and each body's clearance and neighbour list (bit for bit, in
// the same order). Whatever the rebuild keeps from one tick to the next,
// it must build this.
func checkReference(t *testing.T, s *Space, when string) {
	t.Helper()
	freshQuiet(s)
	g := &s.mobile
	var sel []int32
	maxR := 0.0
	for i := range s.Bodies {
		if b := &s.Bodies[i]; !b.Removed && b.Movable {
			sel = append(sel, int32(i))
			maxR = math.Max(maxR, b.Reach())
		}
	}
	if !slices.Equal(sel, s.mobileSel) {
		t.Fatalf("%s: the mobile bodies differ", when)
	}
	key := func(p ci.Vector2) (int, int) { return g.CellXY(p) }
	order := make([]int, len(sel))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ax, ay := key(s.Bodies[sel[a]].Pos)
		bx, by := key(s.Bodies[sel[b]].Pos)
		return cmp.Or(cmp.Compare(ay, by), cmp.Compare(ax, bx))
	})
	items := make([]mobileItem, len(order))
	for j, k := range order {
		b := &s.Bodies[sel[k]]
		items[j] = mobileItem{pos: b.Pos, r: b.Reach(), z0: b.Z, z1: b.Z + b.Height, body: sel[k],
			plain: b.Shape == Disc && !b.HasNub}
	}
	if len(s.mitem) != len(items) || len(g.Items()) != len(items) {
		t.Fatalf("%s: %d items, %d points indexed, want %d", when, len(s.mitem), len(g.Items()), len(items))
	}
	for j, k := range order {
		// (whether an item is still depends on the last Reindex:
		// TestStillItems)
		items[j].still = s.mitem[j].still
		if s.mitem[j] != items[j] {
			t.Fatalf("%s: item %d is %+v, want %+v", when, j, s.mitem[j], items[j])
		}
		if g.Items()[j] != int32(k) || g.Slot(k) != j {
			t.Fatalf("%s: item %d is point %d (slot %d), want point %d", when, j, g.Items()[j], g.Slot(k), k)
		}
	}
	// every row query around the items: the run of the items in its cells
	type cellXY struct{ x, y int }
	bucket := map[cellXY][]int{} // the items of each cell, in order
	for j := range items {
		x, y := key(items[j].pos)
		bucket[cellXY{x, y}] = append(bucket[cellXY{x, y}], j)
	}
	run := func(y, x0, x1 int) (int, int) {
		k0, k1 := -1, 0
		for x := x0; x <= x1; x++ {
			if b := bucket[cellXY{x, y}]; len(b) > 0 {
				if k0 < 0 {
					k0 = b[0]
				}
				k1 = b[len(b)-1] + 1
			}
		}
		return k0, k1
	}
	for j := range items {
		if j%7 != 0 {
			continue
		}
		cx, cy := key(items[j].pos)
		for y := cy - 1; y <= cy+1; y++ {
			for x0 := cx - 2; x0 <= cx; x0++ {
				for x1 := x0; x1 <= cx+2; x1++ {
					k0, k1 := g.RowOf(y, x0, x1)
					w0, w1 := run(y, x0, x1)
					if w0 < 0 {
						if k0 != k1 {
							t.Fatalf("%s: row %d, cells %d..%d: items %d..%d, want none", when, y, x0, x1, k0, k1)
						}
						continue
					}
					if k0 != w0 || k1 != w1 {
						t.Fatalf("%s: row %d, cells %d..%d: items %d..%d, want %d..%d", when, y, x0, x1, k0, k1, w0, w1)
					}
				}
			}
		}
	}
	// clearances and neighbour lists, scanned as the first version did:
	// the items of the cells within maxClearance plus both reaches of
	// each, in grid order
	for j := range items {
		m := &items[j]
		pad := ci.Vector2{X: maxClearance + m.r + maxR, Y: maxClearance + m.r + maxR}
		x0, y0 := key(m.pos.Sub(pad))
		x1, y1 := key(m.pos.Add(pad))
		gap := maxClearance
		var list []mobileItem
		var near []int
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				near = append(near, bucket[cellXY{x, y}]...)
			}
		}
		for _, q := range near {
			if q == j {
				continue
			}
			o := &items[q]
			d := o.pos.Sub(m.pos)
			d2 := d.X*d.X + d.Y*d.Y
			if lim := maxClearance + m.r + o.r; d2 > lim*lim*(1+1e-9) {
				continue
			}
			gq := math.Sqrt(d2) - m.r - o.r
			gap = min(gap, gq)
			if gq <= maxClearance {
				list = append(list, *o)
			}
		}
		c := &s.clear[m.body]
		if c.pos != m.pos || math.Float64bits(c.gap) != math.Float64bits(gap) || c.r != m.r {
			t.Fatalf("%s: body %d: clearance %+v, want pos %v gap %g r %g", when, m.body, *c, m.pos, gap, m.r)
		}
		if got := s.nb[c.chunk][c.start:c.end]; !slices.Equal(got, list) {
			t.Fatalf("%s: body %d: %d neighbours %v, want %d %v", when, m.body, len(got), got, len(list), list)
		}
	}
	checkListsFresh(t, s, when)
	// bodies out of the index have no clearance
	for i := range s.Bodies {
		if b := &s.Bodies[i]; b.Removed || !b.Movable {
			if _, ok := s.Clearance(i, b.Pos); ok {
				t.Fatalf("%s: body %d is out of the mobile index but has a clearance", when, i)
			}
		}
	}
}

// The mobile index is the one built from scratch after every rebuild,
// while bodies move by a few millimetres (most keep their cell), jump,
// leave the arena, rise, are added and removed: whatever the rebuild
// keeps from the last one, it builds the same index, in both forms, with
// a parallel runner, and for a swarm large enough for the index's
// passes to be split (Cells.IndexWith).
func TestReindexMatchesReference(t *testing.T) {
	for _, c := range []struct {
		name  string
		form  int8
		run   Runner
		pucks int
	}{
		{"auto", 0, serial{}, reindexChunk + 600},
		{"dense", 1, parallel{}, reindexChunk + 600},
		{"sparse", 2, serial{}, reindexChunk + 600},
		{"auto_parallel", 0, parallel{}, reindexChunk + 600},
		{"large_parallel", 0, parallel{}, parallelIndex + 5000},
		{"large_serial", 0, serial{}, parallelIndex + 5000},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(41, uint64(c.form)))
			s := randomSpace(r, 400)
			s.mobile.force = c.form
			// clearances and lists built at every Reindex where a body
			// moved, to compare with the reference (TestDriftKeepsQueries
			// checks the queries between builds)
			s.driftLimit = 0
			// a crowd of e-pucks, for neighbour lists, over more than one
			// chunk (the large one over the whole arena)
			side := 6.0
			if c.pucks > 10000 {
				side = 19
			}
			addPuck := func() int {
				b := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
					Pos: ci.Vector2{X: (r.Float64() - 0.5) * side, Y: (r.Float64() - 0.5) * side}}
				b.SetYaw(r.Float64() * 2 * math.Pi)
				return s.Add(b)
			}
			for range c.pucks {
				addPuck()
			}
			s.ReindexWith(c.run)
			checkReference(t, s, "built")
			ticks := 12
			if c.pucks > 10000 {
				ticks = 4
			}
			for tick := range ticks {
				for i := range s.Bodies {
					b := &s.Bodies[i]
					if !b.Movable || b.Removed {
						continue
					}
					switch k := r.IntN(100); {
					case k < 30: // resting
					case k < 95: // a tick's drive
						b.Pos = b.Pos.Add(ci.FromPolar(0.005, b.Yaw))
					case k < 97: // a jump
						b.Pos = ci.Vector2{X: (r.Float64() - 0.5) * side, Y: (r.Float64() - 0.5) * side}
					case k < 98: // out of the arena, or back
						b.Pos = b.Pos.Add(ci.Vector2{X: 15 * (r.Float64() - 0.5), Y: 15 * (r.Float64() - 0.5)})
					default: // lifted
						b.Z += 0.01
					}
				}
				switch tick % 4 {
				case 1:
					for range 30 {
						addPuck()
					}
				case 2:
					for range 40 {
						s.Remove(r.IntN(len(s.Bodies)))
					}
				}
				s.ReindexWith(c.run)
				checkReference(t, s, fmt.Sprintf("tick %d", tick))
			}
			// every body still: the rebuild keeps everything
			s.ReindexWith(c.run)
			checkReference(t, s, "still")
		})
	}
}
