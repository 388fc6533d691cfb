package space

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
)

// NearMobileDiscOf finds the bodies NearMobileDisc visits, less the body
// itself, whether it reads the neighbour list (queries near the body) or
// the index (queries farther out, or of a body the index does not hold
// where it is said to be); AppendStatic the bodies NearStatic visits.
func TestNearMobileDiscOfAndAppendStatic(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	lists, rows := 0, 0
	for round := range 2 {
		s := randomSpace(r, 2000)
		s.mobile.force = int8(2 * round)
		for range 800 {
			b := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
				Pos: ci.Vector2{X: r.Float64() * 2, Y: r.Float64() * 2}}
			b.SetYaw(r.Float64() * 2 * math.Pi)
			s.Add(b)
		}
		s.Reindex()
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if b.Removed || !b.Movable {
				continue
			}
			p := b.Pos
			for _, c := range []struct {
				q ci.Vector2
				r float64
			}{
				{p, b.Reach() + 0.1},
				{p.Add(ci.FromPolar(0.005, r.Float64()*7)), b.Reach() + 0.01},
				{p.Add(ci.FromPolar(0.05, r.Float64()*7)), 0.3},
				{p, 0.5},
			} {
				var want []int32
				s.NearMobileDisc(c.q, c.r, func(j int) bool {
					if j != i {
						want = append(want, int32(j))
					}
					return true
				})
				got := s.NearMobileDiscOf(i, p, c.q, c.r, nil)
				if _, ok := s.neighbours(i, p, c.q, c.r); ok {
					lists++
				} else {
					rows++
				}
				slices.Sort(want)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("body %d, within %g of %v: NearMobileDiscOf %v, NearMobileDisc %v", i, c.r, c.q, got, want)
				}
			}
			// a position the index does not hold i at: the rows
			q := p.Add(ci.Vector2{X: 0.01})
			var want []int32
			s.NearMobileDisc(q, 0.1, func(j int) bool {
				if j != i {
					want = append(want, int32(j))
				}
				return true
			})
			got := s.NearMobileDiscOf(i, q, q, 0.1, nil)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("body %d said to be at %v: NearMobileDiscOf %v, NearMobileDisc %v", i, q, got, want)
			}
			lo, hi := p.Sub(ci.Vector2{X: 0.3, Y: 0.2}), p.Add(ci.Vector2{X: 0.1, Y: 0.4})
			var wantS []int32
			s.NearStatic(lo, hi, func(j int) bool { wantS = append(wantS, int32(j)); return true })
			if gotS := s.AppendStatic(lo, hi, nil); !slices.Equal(gotS, wantS) {
				t.Fatalf("around body %d: AppendStatic %v, NearStatic %v", i, gotS, wantS)
			}
		}
	}
	if lists == 0 || rows == 0 {
		t.Errorf("%d queries read a neighbour list and %d the rows: both must be tested", lists, rows)
	}
}

// The neighbour lists lie in body order whatever the bodies' order in
// space, so that queries made in body order read them in one forward
// sweep: body after body, each list starts where the previous one ended.
func TestNeighbourListsInBodyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	s := New(ci.Vector3{}, ci.Vector3{X: 40, Y: 40, Z: 1})
	// enough bodies for several chunks, added in random order of place
	for range 3*reindexChunk + 100 {
		b := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
			Pos: ci.Vector2{X: r.Float64()*38 - 19, Y: r.Float64()*38 - 19}}
		b.SetYaw(r.Float64() * 2 * math.Pi)
		s.Add(b)
	}
	s.Reindex()
	withList := 0
	for k, i := range s.mobileSel {
		c := &s.clear[i]
		if int(c.chunk) != k/reindexChunk {
			t.Fatalf("body %d (mobile %d): list in chunk %d, want %d", i, k, c.chunk, k/reindexChunk)
		}
		if k%reindexChunk == 0 {
			if c.start != 0 {
				t.Fatalf("body %d opens chunk %d at %d, want 0", i, c.chunk, c.start)
			}
		} else if prev := &s.clear[s.mobileSel[k-1]]; c.start != prev.end {
			t.Fatalf("body %d: list starts at %d, the previous body's ended at %d", i, c.start, prev.end)
		}
		if c.end > c.start {
			withList++
		}
	}
	if withList < 100 {
		t.Errorf("only %d bodies have neighbours: the test proves little", withList)
	}
}

// The prefetch hint accepts any body, in the index or not (static,
// removed, out of range, before the first Reindex), and changes no
// answer.
func TestPrefetchChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	s := randomSpace(r, 300)
	for i := -1; i <= len(s.Bodies)+1; i++ {
		s.PrefetchClearance(i)
	}
	for range 300 {
		b := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
			Pos: ci.Vector2{X: r.Float64() * 2, Y: r.Float64() * 2}}
		s.Add(b)
	}
	s.Reindex()
	type answer struct {
		gap  float64
		ok   bool
		near []int32
	}
	ask := func() []answer {
		var out []answer
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if b.Removed || !b.Movable {
				continue
			}
			gap, ok := s.Clearance(i, b.Pos)
			out = append(out, answer{gap, ok, s.NearMobileDiscOf(i, b.Pos, b.Pos, b.Reach()+0.05, nil)})
		}
		return out
	}
	before := ask()
	for i := -1; i <= len(s.Bodies)+1; i++ {
		s.PrefetchClearance(i)
	}
	if after := ask(); !slices.EqualFunc(before, after, func(a, b answer) bool {
		return math.Float64bits(a.gap) == math.Float64bits(b.gap) && a.ok == b.ok && slices.Equal(a.near, b.near)
	}) {
		t.Error("the answers changed after the hints")
	}
}
