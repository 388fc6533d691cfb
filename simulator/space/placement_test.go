package space_test

import (
	"math"
	"math/rand/v2"
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
