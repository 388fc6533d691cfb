package space_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
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

// Bodies stored by Extend and Put, on several goroutines, are those Add
// stores: the cached yaw, an extra part of their own, a static body's
// engine, and the index sees them.
func TestExtendPutIsAdd(t *testing.T) {
	proto := []space.Body{robot(1, 1, epuckR, epuckH), wall(-1, 0, 0.1, 1, 0.5, 30)}
	proto[0].Yaw = 1.25 // not cached: Add caches it
	proto[1].SetTilt(0.1, 0)
	for _, b := range proto {
		plain, put := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1}), space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
		plain.Add(robot(-3, -3, epuckR, epuckH))
		put.Add(robot(-3, -3, epuckR, epuckH))
		plain.Reindex()
		put.Reindex()
		const n = 64
		copies := make([]space.Body, n)
		for k := range copies {
			copies[k] = b
			copies[k].Pos.X += float64(k) * 0.05
			plain.Add(copies[k])
		}
		put.Extend(n, b.Movable)
		var wg sync.WaitGroup
		for k := range n {
			wg.Go(func() { put.Put(1+k, &copies[k]) })
		}
		wg.Wait()
		if len(put.Bodies) != len(plain.Bodies) {
			t.Fatalf("%d bodies, want %d", len(put.Bodies), len(plain.Bodies))
		}
		for i := range plain.Bodies {
			a, c := plain.Bodies[i], put.Bodies[i]
			if a.Pos != c.Pos || a.Cos != c.Cos || a.Sin != c.Sin || a.Engine != c.Engine || a.Movable != c.Movable {
				t.Errorf("body %d: %+v, want %+v", i, c, a)
			}
			p1, r1 := a.Tilt()
			p2, r2 := c.Tilt()
			if p1 != p2 || r1 != r2 {
				t.Errorf("body %d: tilt %v %v, want %v %v", i, p2, r2, p1, r1)
			}
		}
		if p, _ := b.Tilt(); p != 0 {
			i := len(put.Bodies) - 1
			put.Bodies[i].SetTilt(0.2, 0) // its own extra part: the others keep theirs
			if p, _ := put.Bodies[i-1].Tilt(); p != 0.1 {
				t.Errorf("a Put body shares its extra part: pitch %v, want 0.1", p)
			}
			put.Bodies[i].SetTilt(0.1, 0)
		}
		plain.Reindex()
		put.Reindex()
		near := func(s *space.Space) (out []int) {
			s.Near(ci.Vector2{X: -2, Y: -1}, ci.Vector2{X: 5, Y: 3}, func(i int) bool { out = append(out, i); return true })
			slices.Sort(out)
			return out
		}
		if got, want := near(put), near(plain); !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("%d bodies near, want %d (not 0)", len(got), len(want))
		}
	}
}

// Every body has a drive, zero when it is added, whichever way it is
// added (Add, Extend and Put), and a drive set stays with its body.
func TestDriveFollowsBodies(t *testing.T) {
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
	sp.Grow(2)
	a := sp.Add(robot(0, 0, epuckR, epuckH))
	sp.Drive[a] = space.Drive{V: 0.1, W: -0.2}
	b := sp.Add(robot(1, 0, epuckR, epuckH))
	sp.Extend(3, true)
	c := robot(2, 0, epuckR, epuckH)
	for h := b + 1; h < len(sp.Bodies); h++ {
		sp.Put(h, &c)
	}
	if len(sp.Drive) != len(sp.Bodies) || len(sp.Bodies) != 5 {
		t.Fatalf("%d drives for %d bodies, want 5 each", len(sp.Drive), len(sp.Bodies))
	}
	if sp.Drive[a] != (space.Drive{V: 0.1, W: -0.2}) {
		t.Errorf("body %d's drive became %+v", a, sp.Drive[a])
	}
	for h := b; h < len(sp.Drive); h++ {
		if sp.Drive[h] != (space.Drive{}) {
			t.Errorf("body %d starts driven at %+v", h, sp.Drive[h])
		}
	}
	// a batch cut short (set-up drops the bodies of a failed one) leaves
	// its drives in the slices' memory: the next batch starts at zero
	sp.Drive[4] = space.Drive{V: 1}
	sp.Bodies, sp.Drive = sp.Bodies[:3], sp.Drive[:3]
	sp.Extend(2, true)
	if d := sp.Drive[4]; d != (space.Drive{}) {
		t.Errorf("a body of a new batch starts driven at %+v", d)
	}
}
