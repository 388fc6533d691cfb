package space

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
)

// cellsPoints draws n points: most in a few clusters, some scattered over
// the whole lattice and a few outside it.
func cellsPoints(r *rand.Rand, n int, size float64) []ci.Vector2 {
	pts := make([]ci.Vector2, n)
	centres := []ci.Vector2{{X: -size / 3, Y: size / 4}, {X: size / 5, Y: -size / 3}, {}}
	for k := range pts {
		switch r.IntN(10) {
		case 0, 1: // anywhere, a little beyond the lattice too
			pts[k] = ci.Vector2{X: (r.Float64() - 0.5) * size * 1.1, Y: (r.Float64() - 0.5) * size * 1.1}
		default:
			c := centres[r.IntN(len(centres))]
			pts[k] = c.Add(ci.Vector2{X: r.NormFloat64(), Y: r.NormFloat64()})
		}
	}
	return pts
}

// TestCellsDenseAndSparseAgree builds the same points in both forms and
// checks that they store the same items in the same order, that every
// query returns the same runs, and that a query returns every point
// inside its box (and only points of its cells).
func TestCellsDenseAndSparseAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		n          int
		size, cell float64
	}{{0, 10, 0.3}, {1, 10, 0.3}, {2, 10000, 0.3}, {50, 100, 0.3}, {700, 200, 0.5}, {3000, 40, 0.25}} {
		pts := cellsPoints(r, tc.n, tc.size)
		at := func(k int) ci.Vector2 { return pts[k] }
		lo := ci.Vector2{X: -tc.size / 2, Y: -tc.size / 2}
		hi := ci.Vector2{X: tc.size / 2, Y: tc.size / 2}
		var dense, sparse, auto Cells
		dense.force, sparse.force = 1, 2
		dense.Build(lo, hi, tc.cell, tc.n, at)
		sparse.Build(lo, hi, tc.cell, tc.n, at)
		auto.Build(lo, hi, tc.cell, tc.n, at)
		if tc.n > 0 && (dense.Sparse() || !sparse.Sparse()) {
			t.Fatalf("n=%d: forcing the form did not work", tc.n)
		}
		if !slices.Equal(dense.Items(), sparse.Items()) || !slices.Equal(dense.Items(), auto.Items()) {
			t.Fatalf("n=%d size=%g: the forms store different items", tc.n, tc.size)
		}
		for k := range tc.n {
			if dense.Slot(k) != sparse.Slot(k) || dense.Items()[dense.Slot(k)] != int32(k) {
				t.Fatalf("n=%d: slot of point %d differs", tc.n, k)
			}
		}
		for range 200 {
			var c ci.Vector2
			if tc.n == 0 || r.IntN(3) == 0 {
				c = ci.Vector2{X: (r.Float64() - 0.5) * tc.size * 1.2, Y: (r.Float64() - 0.5) * tc.size * 1.2}
			} else {
				c = pts[r.IntN(tc.n)]
			}
			h := ci.Vector2{X: r.Float64() * 3, Y: r.Float64() * 3}
			qlo, qhi := c.Sub(h), c.Add(h)
			var got [3][]int
			for f, g := range []*Cells{&dense, &sparse, &auto} {
				g.Near(qlo, qhi, func(k int) bool { got[f] = append(got[f], k); return true })
			}
			if !slices.Equal(got[0], got[1]) || !slices.Equal(got[0], got[2]) {
				t.Fatalf("n=%d: the forms answer the query [%v, %v] differently", tc.n, qlo, qhi)
			}
			x0, y0 := dense.CellXY(qlo)
			x1, y1 := dense.CellXY(qhi)
			seen := make([]bool, tc.n)
			for _, k := range got[0] {
				seen[k] = true
			}
			for k, p := range pts {
				in := p.X >= qlo.X && p.X <= qhi.X && p.Y >= qlo.Y && p.Y <= qhi.Y
				found := seen[k]
				if in && !found {
					t.Fatalf("n=%d: point %d at %v inside [%v, %v] not returned", tc.n, k, p, qlo, qhi)
				}
				if x, y := dense.CellXY(p); found && (x < x0 || x > x1 || y < y0 || y > y1) {
					t.Fatalf("n=%d: point %d returned from a cell outside the query", tc.n, k)
				}
			}
		}
	}
}

// TestCellsFormFollowsThePoints: points close together get the dense
// form, however large the lattice; a few points far apart get the sparse
// one, whose memory follows the points.
func TestCellsFormFollowsThePoints(t *testing.T) {
	var g Cells
	lo, hi := ci.Vector2{X: -5000, Y: -5000}, ci.Vector2{X: 5000, Y: 5000}
	near := []ci.Vector2{{X: 1, Y: 1}, {X: 1.5, Y: 0.2}}
	g.Build(lo, hi, 0.3, len(near), func(k int) ci.Vector2 { return near[k] })
	if g.Sparse() || len(g.start) > 100 {
		t.Errorf("two points 1.3 m apart in a 10 km lattice: sparse %v, %d cell starts; want the dense form and a few starts", g.Sparse(), len(g.start))
	}
	far := []ci.Vector2{{X: -4000, Y: -4000}, {X: 4000, Y: 4000}}
	g.Build(lo, hi, 0.3, len(far), func(k int) ci.Vector2 { return far[k] })
	if !g.Sparse() || len(g.start) > 100 {
		t.Errorf("two points 11 km apart: sparse %v, %d cell starts; want the sparse form", g.Sparse(), len(g.start))
	}
	var got []int
	g.Near(far[1], far[1], func(k int) bool { got = append(got, k); return true })
	if !slices.Equal(got, []int{1}) {
		t.Errorf("Near(the second point) = %v, want [1]", got)
	}
}

// TestIndexFollowsTheBodies: in a 10 km arena, one robot and four walls
// make indexes of a few cells, and so do two robots 9 km apart; the
// queries still find them.
func TestIndexFollowsTheBodies(t *testing.T) {
	s := New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10000, Y: 10000, Z: 1})
	for _, w := range [][4]float64{{0, 1, 2, 0.1}, {0, -1, 2, 0.1}, {1, 0, 0.1, 2}, {-1, 0, 0.1, 2}} {
		b := Body{Shape: Box, Half: ci.Vector2{X: w[2] / 2, Y: w[3] / 2}, Height: 0.5, Pos: ci.Vector2{X: w[0], Y: w[1]}}
		b.Radius = b.Half.Length()
		s.Add(b)
	}
	fb := s.Add(Body{Shape: Disc, Radius: 0.085, Height: 0.15, Movable: true})
	s.Reindex()
	if n := len(s.mobile.start) + len(s.mobile.keys); n > 4 {
		t.Errorf("one robot in a 10 km arena: the mobile index has %d entries, want at most 4", n)
	}
	if n := len(s.static.start); n > 64 {
		t.Errorf("four walls around a 2 m square in a 10 km arena: the static index has %d cells, want a few", n)
	}
	if _, hit := s.CastRay(ci.Vector2{X: 0.5}, ci.Vector2{X: 1.5}, 0.1, fb); hit != 2 {
		t.Errorf("a ray toward the east wall hits %d, want 2", hit)
	}
	far := s.Add(Body{Shape: Disc, Radius: 0.085, Height: 0.15, Movable: true, Pos: ci.Vector2{X: 4500, Y: 4500}})
	s.Reindex()
	if n := len(s.mobile.start) + len(s.mobile.keys); n > 4 {
		t.Errorf("two robots 6 km apart: the mobile index has %d entries, want at most 4", n)
	}
	if got := s.Nearby(ci.Vector2{X: 4500.2, Y: 4500}, 0.2, 0.1, -1, nil); !slices.Equal(got, []int32{int32(far)}) {
		t.Errorf("Nearby the far robot = %v, want [%d]", got, far)
	}
	if got := s.Nearby(ci.Vector2{X: 0.2}, 0.2, 0.1, -1, nil); !slices.Equal(got, []int32{int32(fb)}) {
		t.Errorf("Nearby the first robot = %v, want [%d]", got, fb)
	}
	// the sparse form reuses its memory too: a tick allocates nothing
	if !s.mobile.Sparse() {
		t.Fatal("two robots 6 km apart: the mobile index is not sparse")
	}
	if n := testing.AllocsPerRun(20, func() {
		s.Bodies[far].Pos.X += 0.001
		s.Reindex()
	}); n != 0 {
		t.Errorf("Reindex of a sparse index allocates %v times", n)
	}
}

// IndexWith, which splits its passes over the points in two halves run in
// parallel, builds the index Index builds, in the dense form and in the
// sparse one, and allocates nothing once its memory is grown.
func TestCellsIndexWithIsIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{parallelIndex - 1, parallelIndex, parallelIndex + 1, 3*parallelIndex + 7} {
		for _, force := range []int8{0, 1, 2} {
			pts := cellsPoints(r, n, 60)
			lo, hi := ci.Vector2{X: -30, Y: -30}, ci.Vector2{X: 30, Y: 30}
			var want, got Cells
			want.force, got.force = force, force
			want.Build(lo, hi, 0.25, n, func(k int) ci.Vector2 { return pts[k] })
			for round := range 2 {
				got.Reset(lo, hi, 0.25)
				keys := got.Keys(n)
				for k := range keys {
					keys[k] = got.Key(pts[k])
				}
				got.IndexWith(parallel{})
				if !slices.Equal(got.Items(), want.Items()) || !slices.Equal(got.slot, want.slot) ||
					!slices.Equal(got.start, want.start) || !slices.Equal(got.keys, want.keys) || got.Sparse() != want.Sparse() {
					t.Fatalf("n=%d form %d round %d: IndexWith builds another index than Index", n, force, round)
				}
				if round == 0 {
					continue
				}
				if a := testing.AllocsPerRun(3, func() { got.IndexWith(serial{}) }); a != 0 && force != 2 {
					t.Errorf("n=%d form %d: IndexWith allocates %v times", n, force, a)
				}
				// the points moved a little: the index follows
				for k := range pts {
					pts[k] = pts[k].Add(ci.Vector2{X: 0.3 * (r.Float64() - 0.5), Y: 0.3 * (r.Float64() - 0.5)})
				}
				want.Build(lo, hi, 0.25, n, func(k int) ci.Vector2 { return pts[k] })
			}
		}
	}
}

// clampCell must be the floor clamped to the lattice for every number,
// the negative ones, the halves, the integers, the ends of the range, the
// infinities and NaN included.
func TestClampCellIsTheClampedFloor(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 0.5, -0.5, 1, -1, 1.999999, -1.000001, 2.5, -2.5,
		math.Nextafter(1, 0), math.Nextafter(-1, 0), math.Nextafter(3, 4), 1 << 52, -(1 << 52), 1e18, -1e18,
		1 << 63, -(1 << 63), math.Nextafter(1<<63, 0), math.Nextafter(-(1 << 63), 0),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	for k := range 2000 {
		vals = append(vals, float64(k)/7-140)
	}
	for _, n := range []int{1, 2, 3, 100, maxLattice} {
		for _, f := range vals {
			if got, want := clampCell(f, n), min(max(int(math.Floor(f)), 0), n-1); got != want {
				t.Errorf("clampCell(%v, %d) = %d, want %d", f, n, got, want)
			}
		}
	}
}
