package space

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
)

// randomSpace fills a 20 m arena with n bodies: robots of assorted sizes
// (some just outside the arena, as pushed robots may be), movable
// cylinders and boxes, static walls up to 6 m long at any angle, low
// obstacles and raised ones. A tenth of them are removed.
func randomSpace(r *rand.Rand, n int) *Space {
	s := New(ci.Vector3{X: 1, Y: -1, Z: 0.5}, ci.Vector3{X: 20, Y: 20, Z: 1})
	for range n {
		s.Add(randomBody(r))
	}
	for range n / 10 {
		s.Remove(r.IntN(len(s.Bodies)))
	}
	return s
}

func randomBody(r *rand.Rand) Body {
	u := func(lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }
	b := Body{Pos: ci.Vector2{X: u(-9.5, 11.5), Y: u(-11.5, 9.5)}, Height: u(0.02, 0.3)}
	switch k := r.IntN(20); {
	case k < 12: // robots, a third of them with a gripper's nub
		b.Shape, b.Radius, b.Movable = Disc, u(0.02, 0.1), true
		if k < 4 {
			b.SetNub(u(0.005, 0.03), b.Radius*u(0.8, 1.1), u(-math.Pi, math.Pi))
		}
	case k < 14: // movable boxes
		b.Shape, b.Movable = Box, true
		b.Half = ci.Vector2{X: u(0.01, 0.1), Y: u(0.01, 0.1)}
	case k < 15: // walls
		b.Shape = Box
		b.Half = ci.Vector2{X: u(0.02, 3), Y: u(0.02, 0.1)}
	case k < 18: // static cylinders, some raised
		b.Shape, b.Radius = Disc, u(0.02, 0.3)
		if r.IntN(2) == 0 {
			b.Z = u(0, 0.2)
		}
	default: // static blocks
		b.Shape = Box
		b.Half = ci.Vector2{X: u(0.05, 0.3), Y: u(0.05, 0.3)}
	}
	if b.Shape == Box {
		b.Radius = b.Half.Length()
	}
	b.SetYaw(u(-math.Pi, math.Pi))
	return b
}

// bruteRay is CastRay without the index.
func bruteRay(s *Space, from, to ci.Vector2, z float64, ignore int) (float64, int) {
	t, hit := 1.0, -1
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if i == ignore || b.Removed || !b.spans(z) {
			continue
		}
		if ti, ok := b.rayHit(from, to); ok && (hit < 0 || ti < t) {
			t, hit = ti, i
		}
	}
	return t, hit
}

// bruteCrowded is Crowded without the index.
func bruteCrowded(s *Space, i int, gap float64) bool {
	b := &s.Bodies[i]
	for j := range s.Bodies {
		o := &s.Bodies[j]
		if j == i || o.Removed || o.Z > b.Top() || b.Z > o.Top() {
			continue
		}
		if Gap(b, o) < gap {
			return true
		}
	}
	return false
}

// bruteOverlapping is Overlapping without the index.
func bruteOverlapping(s *Space, i int, tol float64) bool {
	b := &s.Bodies[i]
	for j := range s.Bodies {
		o := &s.Bodies[j]
		if j == i || o.Removed || o.Z >= b.Top() || b.Z >= o.Top() {
			continue
		}
		if Gap(b, o) < -tol {
			return true
		}
	}
	return false
}

// TestQueriesMatchBruteForce checks the index against a scan of every
// body, over several rounds in which the mobile bodies move, some bodies
// are added and removed, and a wall is moved; with the mobile index in the
// form it chooses (dense here) and in its sparse form.
func TestQueriesMatchBruteForce(t *testing.T) {
	for _, form := range []int8{0, 2} {
		t.Run(map[int8]string{0: "auto", 2: "sparse"}[form], func(t *testing.T) { queriesMatchBruteForce(t, form) })
	}
}

func queriesMatchBruteForce(t *testing.T, form int8) {
	const (
		bodies = 3000
		rays   = 2000
		probes = 600
		rounds = 3
	)
	r := rand.New(rand.NewPCG(1, 2))
	s := randomSpace(r, bodies)
	s.mobile.force = form
	hits, crowded, overlapping := 0, 0, 0
	for round := range rounds {
		s.Reindex()
		for k := range rays {
			from := ci.Vector2{X: -10 + r.Float64()*22, Y: -12 + r.Float64()*22}
			length := 0.1
			switch k % 4 {
			case 1:
				length = r.Float64() * 2
			case 2:
				length = r.Float64() * 15
			}
			to := from.Add(ci.FromPolar(length, r.Float64()*2*math.Pi))
			z := r.Float64() * 0.3
			ignore := -1
			if k%2 == 0 {
				ignore = r.IntN(len(s.Bodies))
				if k%8 == 0 { // a robot's own ray starts at its edge
					b := &s.Bodies[ignore]
					a := r.Float64() * 2 * math.Pi
					from = b.Pos.Add(ci.FromPolar(b.Radius, a))
					to = b.Pos.Add(ci.FromPolar(b.Radius+0.1, a))
				}
			}
			gotT, gotHit := s.CastRay(from, to, z, ignore)
			wantT, wantHit := bruteRay(s, from, to, z, ignore)
			if gotT != wantT || gotHit != wantHit {
				t.Fatalf("round %d, ray %d from %v to %v at z=%g ignoring %d: CastRay = (%v, %d), brute force (%v, %d)",
					round, k, from, to, z, ignore, gotT, gotHit, wantT, wantHit)
			}
			if gotHit >= 0 {
				hits++
			}
		}
		for k := range probes {
			i := r.IntN(len(s.Bodies))
			if s.Bodies[i].Removed {
				continue
			}
			gap := r.Float64() * 0.05
			if got, want := s.Crowded(i, gap), bruteCrowded(s, i, gap); got != want {
				t.Fatalf("round %d, probe %d: Crowded(%d, %g) = %v, brute force %v", round, k, i, gap, got, want)
			} else if got {
				crowded++
			}
			tol := r.Float64() * 0.01
			j, got := s.Overlapping(i, tol)
			if want := bruteOverlapping(s, i, tol); got != want {
				t.Fatalf("round %d, probe %d: Overlapping(%d, %g) = %d, %v; brute force %v", round, k, i, tol, j, got, want)
			}
			if got {
				overlapping++
				if o := &s.Bodies[j]; j == i || o.Removed || Gap(&s.Bodies[i], o) >= -tol {
					t.Fatalf("Overlapping(%d, %g) returned body %d, which does not overlap it", i, tol, j)
				}
			}
		}
		// Next tick: robots move (some leave the arena), the world changes.
		for i := range s.Bodies {
			if b := &s.Bodies[i]; b.Movable {
				b.Pos = b.Pos.Add(ci.Vector2{X: r.NormFloat64() * 0.5, Y: r.NormFloat64() * 0.5})
				b.SetYaw(b.Yaw + r.NormFloat64())
			}
		}
		for range 50 {
			s.Add(randomBody(r))
			s.Remove(r.IntN(len(s.Bodies)))
		}
		for i := range s.Bodies {
			if b := &s.Bodies[i]; !b.Movable && !b.Removed && b.Shape == Box {
				b.Pos = b.Pos.Add(ci.Vector2{X: 1})
				s.StaticChanged()
				break
			}
		}
	}
	// The random world must exercise both outcomes of every query.
	t.Logf("%d ray hits of %d, %d crowded, %d overlapping", hits, rounds*rays, crowded, overlapping)
	if hits < rays/10 || hits > rounds*rays*9/10 || crowded == 0 || overlapping == 0 {
		t.Errorf("degenerate random world: %d ray hits of %d, %d crowded, %d overlapping", hits, rounds*rays, crowded, overlapping)
	}
}

// Gap must agree with a sampled distance for random pairs of shapes: no
// sampled pair of boundary points is closer than Gap, and when Gap is
// positive some pair is nearly that close.
func TestGapMatchesSampling(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	boundary := func(b *Body, k, n int) ci.Vector2 {
		f := float64(k) / float64(n)
		if b.Shape == Disc {
			return b.Pos.Add(ci.FromPolar(b.Radius, 2*math.Pi*f))
		}
		// Walk the perimeter of the rectangle.
		w, h := 2*b.Half.X, 2*b.Half.Y
		d := f * 2 * (w + h)
		var l ci.Vector2
		switch {
		case d < w:
			l = ci.Vector2{X: -b.Half.X + d, Y: -b.Half.Y}
		case d < w+h:
			l = ci.Vector2{X: b.Half.X, Y: -b.Half.Y + d - w}
		case d < 2*w+h:
			l = ci.Vector2{X: b.Half.X - (d - w - h), Y: b.Half.Y}
		default:
			l = ci.Vector2{X: -b.Half.X, Y: b.Half.Y - (d - 2*w - h)}
		}
		return b.Pos.Add(l.Rotate(b.Yaw))
	}
	const n = 400
	for k := range 300 {
		a, b := randomBody(r), randomBody(r)
		b.Pos = a.Pos.Add(ci.FromPolar(r.Float64()*(a.Radius+b.Radius)*1.5, r.Float64()*2*math.Pi))
		g := Gap(&a, &b)
		if g2 := Gap(&b, &a); math.Abs(g-g2) > 1e-12 {
			t.Fatalf("pair %d: Gap not symmetric: %v, %v", k, g, g2)
		}
		if g < 0 {
			// Overlapping: some point of one lies in the other.
			in := false
			for i := range n {
				in = in || a.Contains(boundary(&b, i, n)) || b.Contains(boundary(&a, i, n))
			}
			if !in && a.Distance(b.Pos) > 0 && b.Distance(a.Pos) > 0 {
				t.Fatalf("pair %d: Gap = %v, but no sampled point of one lies in the other", k, g)
			}
			continue
		}
		best := math.Inf(1)
		for i := range n {
			best = math.Min(best, b.Distance(boundary(&a, i, n)))
			best = math.Min(best, a.Distance(boundary(&b, i, n)))
		}
		perim := 2 * math.Pi * math.Max(a.Radius, b.Radius)
		if best < g-1e-9 || best > g+perim/n {
			t.Fatalf("pair %d (%v vs %v): Gap = %v, sampled distance %v", k, a.Shape, b.Shape, g, best)
		}
	}
}

// The clearance of every mobile body is a lower bound of its gap to every
// other mobile body, and Nearby around a body's own position, which
// stops at the clearance, finds what a brute-force search finds.
func TestClearanceIsALowerBound(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for round := 0; round < 2; round++ {
		s := randomSpace(r, 3000)
		s.mobile.force = int8(2 * round) // the dense form, then the sparse one
		// a crowd, so that some clearances are small
		for range 500 {
			b := Body{Shape: Disc, Radius: 0.035, Height: 0.05, Movable: true,
				Pos: ci.Vector2{X: r.Float64() * 2, Y: r.Float64() * 2}}
			s.Add(b)
		}
		s.Reindex()
		small := 0
		for i := range s.Bodies {
			b := &s.Bodies[i]
			gap, ok := s.Clearance(i, b.Pos)
			if want := b.Movable && !b.Removed; ok != want {
				t.Fatalf("body %d (movable %v, removed %v): Clearance ok = %v", i, b.Movable, b.Removed, ok)
			}
			if !ok {
				continue
			}
			if gap < 0.02 {
				small++
			}
			for j := range s.Bodies {
				o := &s.Bodies[j]
				if j == i || o.Removed || !o.Movable {
					continue
				}
				if d := o.Pos.Sub(b.Pos).Length() - b.Radius - o.Radius; d < gap-1e-12 {
					t.Fatalf("body %d: clearance %g, but body %d is %g away", i, gap, j, d)
				}
			}
			if _, ok := s.Clearance(i, b.Pos.Add(ci.Vector2{X: 1e-9})); ok {
				t.Fatalf("body %d: Clearance holds for a position it was not indexed at", i)
			}
			for _, rr := range []float64{0.05, 0.1, 0.2} {
				if i%3 != 0 {
					break
				}
				got := s.Nearby(b.Pos, b.Radius+rr, b.Z+0.01, i, nil)
				want := bruteNearby(s, b.Pos, b.Radius+rr, b.Z+0.01, i)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Fatalf("Nearby around body %d within %g: %v, brute force %v", i, rr, got, want)
				}
			}
		}
		if small == 0 {
			t.Fatal("no body has a small clearance: the test proves little")
		}
	}
}

// bruteNearby is Nearby without the index, sorted. Like Nearby, it
// takes mobile bodies by their bounding disc.
func bruteNearby(s *Space, p ci.Vector2, r, z float64, ignore int) []int32 {
	var out []int32
	for i := range s.Bodies {
		b := &s.Bodies[i]
		d := b.Distance(p)
		if b.Movable {
			d = p.Sub(b.Pos).Length() - b.Reach()
		}
		if i == ignore || b.Removed || !b.spans(z) || d > r {
			continue
		}
		out = append(out, int32(i))
	}
	return out
}

// TestQuietStaticCellsHoldNothing checks the shortcut of the static
// index's queries: wherever none says a box meets no static body, the
// cells the box spans hold none, for boxes up to 0.6 cell wide, inside and
// outside the arena, among few and many walls; and the shortcut is taken
// (the arena is not all walls).
func TestQuietStaticCellsHoldNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	quiet := 0
	for _, n := range []int{1, 20, 200} {
		s := New(ci.Vector3{X: 1, Y: -1, Z: 0.5}, ci.Vector3{X: 20, Y: 20, Z: 1})
		for s.static.wnx == 0 || len(s.staticSel) < n/8 {
			s.Add(randomBody(r))
			s.Reindex()
		}
		g := &s.static
		cell := 1 / g.inv
		for range 20000 {
			lo := ci.Vector2{X: -11 + 24*r.Float64(), Y: -13 + 24*r.Float64()}
			hi := lo.Add(ci.Vector2{X: 0.6 * cell * r.Float64(), Y: 0.6 * cell * r.Float64()})
			if !g.none(lo, hi) {
				continue
			}
			quiet++
			x0, y0, x1, y1 := g.span(lo, hi)
			for y := y0; y <= y1; y++ {
				for x := x0; x <= x1; x++ {
					if c := g.local(x, y); g.start[c] != g.start[c+1] {
						t.Fatalf("%d bodies: none(%v, %v) but cell (%d, %d) holds %v", n, lo, hi, x, y, g.items[g.start[c]:g.start[c+1]])
					}
				}
			}
			if got := s.AppendStatic(lo, hi, nil); len(got) != 0 {
				t.Fatalf("AppendStatic(%v, %v) = %v, want none", lo, hi, got)
			}
		}
	}
	if quiet == 0 {
		t.Fatal("none never took the shortcut")
	}
}
