package space_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// Fits answers as the plain check does (inside the arena, no overlap with
// any placed body whose height range meets), whatever the bodies: long
// turned walls, which the placement keeps apart (big bodies) and skips by
// their bounding boxes, boxes and discs near and across them.
func TestPlacementFitsAgainstEveryBody(t *testing.T) {
	s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 600, Y: 600, Z: 1})
	for _, w := range [][5]float64{
		{0, 0, 500, 0.1, 0}, {0, 100, 500, 0.1, 0.02}, {-100, 0, 0.1, 500, -11}, {150, -150, 300, 0.2, 45},
	} {
		s.Add(wall(w[0], w[1], w[2], w[3], 0.5, w[4]))
	}
	p := space.NewPlacement(s)
	r := rand.New(rand.NewPCG(3, 4))
	fits, refused := 0, 0
	for range 4000 {
		var b space.Body
		x, y := -290+r.Float64()*580, -290+r.Float64()*580
		if r.IntN(3) == 0 {
			b = wall(x, y, 0.05+r.Float64(), 0.05+r.Float64(), 0.2+r.Float64(), 0)
			b.Movable = r.IntN(2) == 0
		} else {
			b = robot(x, y, 0.01+r.Float64()*0.5, 0.05)
		}
		b.SetYaw(r.Float64() * 2 * math.Pi)
		if r.IntN(2) == 0 { // near a wall: the walls' bounding boxes meet
			b.Pos.Y = []float64{0, 100, 40, -20}[r.IntN(4)] + (r.Float64()-0.5)*2
		}
		want := inside(s, &b)
		for i := range s.Bodies {
			o := &s.Bodies[i]
			if o.Z < b.Z+b.Height && b.Z < o.Z+o.Height && space.Gap(&b, o) < 0 {
				want = false
			}
		}
		if got := p.Fits(&b); got != want {
			t.Fatalf("Fits(%+v) = %v, want %v", b, got, want)
		}
		if want {
			fits++
			p.Insert(s.Add(b))
		} else {
			refused++
		}
	}
	if fits < 100 || refused < 100 {
		t.Fatalf("%d bodies fit and %d did not: the test checks too little", fits, refused)
	}
}

// inside reports whether b's footprint lies in the arena.
func inside(s *space.Space, b *space.Body) bool {
	lo, hi := s.Bounds()
	fp := b.Footprint()
	ex, ey := fp.Radius, fp.Radius
	if fp.Shape == space.Box {
		ex = math.Abs(fp.Cos)*fp.Half.X + math.Abs(fp.Sin)*fp.Half.Y
		ey = math.Abs(fp.Sin)*fp.Half.X + math.Abs(fp.Cos)*fp.Half.Y
	}
	const eps = 1e-9
	return fp.Pos.X-ex >= lo.X-eps && fp.Pos.Y-ey >= lo.Y-eps && fp.Pos.X+ex <= hi.X+eps && fp.Pos.Y+ey <= hi.Y+eps
}

// LayoutOrderWith gives the order of one sort by strip, X and drawing
// order, whatever runs its jobs: with many strips and few, bodies outside
// the arena's strips, ties, and a few bodies spread far apart (the sort
// without counting).
func TestLayoutOrderWithIsOneSort(t *testing.T) {
	s := arena(400)
	rng := rand.New(rand.NewPCG(5, 6))
	want := func(pts []ci.Vector2) []int {
		order := make([]int, len(pts))
		for k := range order {
			order[k] = k
		}
		strip := func(p ci.Vector2) int { return int(math.Floor((p.Y + 200) / 0.25)) }
		slices.SortStableFunc(order, func(a, b int) int {
			return cmp.Or(cmp.Compare(strip(pts[a]), strip(pts[b])), cmp.Compare(pts[a].X, pts[b].X))
		})
		return order
	}
	for name, pts := range map[string][]ci.Vector2{
		"none": nil,
		"one":  {v2(3, 4)},
		"far":  {v2(0, 1e12), v2(1, -1e12), v2(0, 0), v2(-1, 0)},
	} {
		if got := s.LayoutOrderWith(goRunner{}, len(pts), func(k int) ci.Vector2 { return pts[k] }); !slices.Equal(got, want(pts)) && len(pts) > 0 {
			t.Errorf("%s: order %v, want %v", name, got, want(pts))
		}
	}
	for _, n := range []int{1000, 200_000} {
		pts := make([]ci.Vector2, n)
		for k := range pts {
			pts[k] = v2(math.Round(rng.Float64()*400-200), rng.Float64()*401-200.5) // ties in X; some below the arena
		}
		at := func(k int) ci.Vector2 { return pts[k] }
		w := want(pts)
		if got := s.LayoutOrderWith(goRunner{}, n, at); !slices.Equal(got, w) {
			t.Errorf("%d bodies on goroutines: not the order of one sort", n)
		}
		if got := s.LayoutOrder(n, at); !slices.Equal(got, w) {
			t.Errorf("%d bodies: not the order of one sort", n)
		}
	}
}
