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
