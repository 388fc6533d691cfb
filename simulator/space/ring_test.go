package space

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
)

// CastRing must give, bit for bit, what the proximity sensors computed
// before it: Nearby with the ring's outer radius, then CastRayAmong for
// each ray. Random worlds with a crowd (so that clearances are small and
// many rays hit), nubs, boxes, raised bodies and long walls; the dense
// and the sparse index; rings of a few and of many rays.
func TestCastRingMatchesNearbyAndCastRayAmong(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	hits, rays, wide, spilled := 0, 0, 0, 0
	for round := range 4 {
		s := randomSpace(r, 2000)
		s.mobile.force = int8(2 * (round % 2)) // auto, then sparse
		addRingCrowd(r, s)
		s.Reindex()
		for _, n := range []int{8, 24, 40} {
			dirs := make([]ci.Vector2, n)
			for k := range dirs {
				dirs[k] = ci.FromPolar(1, r.Float64()*2*math.Pi)
			}
			for i := range s.Bodies {
				b := &s.Bodies[i]
				if b.Removed || !b.Movable || i%3 != round%3 {
					continue
				}
				inner := b.Radius
				if n == 40 {
					inner = b.Radius * 0.5 // rays that start inside the body
				}
				outer := inner + 0.1
				z := b.Z + b.Height*r.Float64()
				rays += n
				// the plain mobile discs the ring gathers (ringCands):
				// what fills its buffers
				near := 0
				for _, j := range s.Nearby(b.Pos, outer, z, i, nil) {
					if o := &s.Bodies[j]; o.Movable && o.Shape == Disc && !o.HasNub {
						near++
					}
				}
				switch {
				case near > ringCands:
					spilled++
				case near > ringNarrow:
					wide++
				}
				hits += ringAsRays(t, s, i, dirs, inner, outer, z, func() string { return fmt.Sprintf("round %d, body %d", round, i) })
			}
		}
	}
	t.Logf("%d of %d rays hit; %d rings met more than %d discs, %d more than %d", hits, rays, wide+spilled, ringNarrow, spilled, ringCands)
	if hits < rays/50 {
		t.Errorf("only %d of %d rays hit: the test proves little", hits, rays)
	}
	if wide == 0 || spilled == 0 {
		t.Errorf("%d rings met more than %d discs and %d more than %d: castRingWide and its spill untested", wide+spilled, ringNarrow, spilled, ringCands)
	}
}

// ringAsRays compares, bit for bit, CastRing's fractions for body i with
// what the proximity sensors computed before it, Nearby (radius outer)
// followed by CastRayAmong for each ray, and CastRing's count of hits
// with theirs; it returns how many rays hit. where names the case in a
// failure.
func ringAsRays(t *testing.T, s *Space, i int, dirs []ci.Vector2, inner, outer, z float64, where func() string) int {
	t.Helper()
	b := &s.Bodies[i]
	got := make([]float64, len(dirs))
	hit := s.CastRing(i, dirs, inner, outer, z, got)
	cands := s.Nearby(b.Pos, outer, z, i, nil)
	want := 0
	for k, d := range dirs {
		c, sn := b.Cos*d.X-b.Sin*d.Y, b.Sin*d.X+b.Cos*d.Y
		from := ci.Vector2{X: b.Pos.X + c*inner, Y: b.Pos.Y + sn*inner}
		to := ci.Vector2{X: b.Pos.X + c*outer, Y: b.Pos.Y + sn*outer}
		tt, j := s.CastRayAmong(cands, from, to)
		if j < 0 {
			tt = -1
		} else {
			want++
		}
		if math.Float64bits(got[k]) != math.Float64bits(tt) {
			t.Fatalf("%s, ray %d of %d: CastRing %v, Nearby and CastRayAmong %v", where(), k, len(dirs), got[k], tt)
		}
	}
	if hit != want {
		t.Fatalf("%s: CastRing says %d rays hit, %d did", where(), hit, want)
	}
	return want
}

// CastRing allocates nothing for rings whose candidates fit its buffer.
func TestCastRingDoesNotAllocate(t *testing.T) {
	s := randomSpace(rand.New(rand.NewPCG(5, 6)), 1000)
	s.Reindex()
	dirs := []ci.Vector2{{X: 1}, {Y: 1}, {X: -1}, {Y: -1}}
	out := make([]float64, len(dirs))
	i := 0
	for s.Bodies[i].Removed || !s.Bodies[i].Movable {
		i++
	}
	if a := testing.AllocsPerRun(100, func() { s.CastRing(i, dirs, 0.05, 0.15, 0.01, out) }); a != 0 {
		t.Errorf("CastRing allocates %v times", a)
	}
}

// CastRing passes over the discs that lie beyond a ray's line by more
// than their radius, with a margin: discs that graze a ray (their centre
// at their radius from its line, give or take a few roundings or a few
// margins), far from the origin too, must still read what CastRayAmong
// reads, bit for bit.
func TestCastRingGrazingDiscs(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	const R, inner, outer = 0.035, 0.035, 0.135
	offsets := []float64{0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7, 1e-5, -1e-5}
	hits, rays := 0, 0
	for _, far := range []float64{0, 1, 150, 4000} {
		for range 400 {
			s := New(ci.Vector3{X: far, Y: -far}, ci.Vector3{X: 20, Y: 20, Z: 1})
			p := ci.Vector2{X: far + r.Float64() - 0.5, Y: -far + r.Float64() - 0.5}
			b := Body{Shape: Disc, Radius: R, Height: 0.08, Movable: true, Pos: p}
			b.SetYaw(r.Float64() * 2 * math.Pi)
			i := s.Add(b)
			dirs := make([]ci.Vector2, 8)
			for k := range dirs {
				dirs[k] = ci.FromPolar(1, float64(k)*math.Pi/4+r.Float64()*0.1)
			}
			// a disc grazing ray 0, its centre along the ray between
			// inner-R and outer+R, on either side of its line
			c, sn := b.Cos*dirs[0].X-b.Sin*dirs[0].Y, b.Sin*dirs[0].X+b.Cos*dirs[0].Y
			along := inner - R + r.Float64()*(outer-inner+2*R)
			side := R + offsets[r.IntN(len(offsets))]
			if r.IntN(2) == 0 {
				side = -side
			}
			q := ci.Vector2{X: p.X + c*along - sn*side, Y: p.Y + sn*along + c*side}
			o := Body{Shape: Disc, Radius: R, Height: 0.08, Movable: true, Pos: q}
			o.SetYaw(0)
			s.Add(o)
			s.Reindex()
			rays += len(dirs)
			hits += ringAsRays(t, s, i, dirs, inner, outer, 0.04, func() string { return fmt.Sprintf("disc at %v from a ring at %v", q.Sub(p), p) })
		}
	}
	t.Logf("%d of %d rays hit", hits, rays)
	if hits < rays/40 {
		t.Errorf("only %d of %d rays hit a grazing disc: the test proves little", hits, rays)
	}
}

// CastRing passes over the discs that lie behind a ray's start by more
// than their radius, with a margin: discs whose far side touches the
// start (their centre behind it by their radius, give or take a few
// roundings or a few margins), beside the ray's line or on it, far from
// the origin too, must still read what CastRayAmong reads, bit for bit
// (a ray that starts on a disc's edge reads 0 or passes it by). Rays
// that run inward (outer below inner) have nothing behind their start
// in that sense: a disc there lies on the ray.
func TestCastRingDiscsBehindTheStart(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	const R = 0.035
	offsets := []float64{0, 1e-15, -1e-15, 1e-12, -1e-12, 1e-9, -1e-9, 1e-7, -1e-7, 1e-5, -1e-5}
	hits, rays := 0, 0
	for _, far := range []float64{0, 1, 150, 4000} {
		for _, ends := range [][2]float64{{R, R + 0.1}, {0.08, 0.18}, {R + 0.1, R}} {
			inner, outer := ends[0], ends[1]
			for range 300 {
				s := New(ci.Vector3{X: far, Y: -far}, ci.Vector3{X: 20, Y: 20, Z: 1})
				p := ci.Vector2{X: far + r.Float64() - 0.5, Y: -far + r.Float64() - 0.5}
				b := Body{Shape: Disc, Radius: R, Height: 0.08, Movable: true, Pos: p}
				b.SetYaw(r.Float64() * 2 * math.Pi)
				i := s.Add(b)
				dirs := make([]ci.Vector2, 8)
				for k := range dirs {
					dirs[k] = ci.FromPolar(1, float64(k)*math.Pi/4+r.Float64()*0.1)
				}
				// a disc behind the start of ray 0 by its radius, on the
				// ray's line or beside it (within its radius); for rays
				// that run inward, one behind the start in the sense of
				// outward rays
				c, sn := b.Cos*dirs[0].X-b.Sin*dirs[0].Y, b.Sin*dirs[0].X+b.Cos*dirs[0].Y
				along := inner - R + offsets[r.IntN(len(offsets))]
				if outer < inner {
					// an inward ray: a disc in reach, at its end
					along = outer + (2*r.Float64()-1)*R
				}
				side := 0.0
				if r.IntN(2) == 0 {
					side = (2*r.Float64() - 1) * R
				}
				q := ci.Vector2{X: p.X + c*along - sn*side, Y: p.Y + sn*along + c*side}
				o := Body{Shape: Disc, Radius: R, Height: 0.08, Movable: true, Pos: q}
				o.SetYaw(0)
				s.Add(o)
				s.Reindex()
				rays += len(dirs)
				hits += ringAsRays(t, s, i, dirs, inner, outer, 0.04, func() string {
					return fmt.Sprintf("disc at %v from a ring at %v (rays from %v)", q.Sub(p), p, inner)
				})
			}
		}
	}
	t.Logf("%d of %d rays hit", hits, rays)
	if hits < rays/100 {
		t.Errorf("only %d of %d rays hit a disc behind a start: the test proves little", hits, rays)
	}
}

// CastRingWithin is CastRing for the bodies within reach: with reach at
// or above outer it writes CastRing's fractions bit for bit; below, each
// ray reads CastRing's fraction wherever CastRing's hit lies within reach
// of the body's centre (the ray's start at inner, then a fraction of its
// length). Elsewhere it may read -1 or a later hit (a body of which
// another part comes within reach: a wall, a nub), never an earlier one.
func TestCastRingWithin(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	s := randomSpace(r, 2000)
	addRingCrowd(r, s)
	s.Reindex()
	dirs := make([]ci.Vector2, 8)
	for k := range dirs {
		dirs[k] = ci.FromPolar(1, r.Float64()*2*math.Pi)
	}
	full, within := make([]float64, len(dirs)), make([]float64, len(dirs))
	kept, dropped := 0, 0
	for i := range s.Bodies {
		b := &s.Bodies[i]
		if b.Removed || !b.Movable {
			continue
		}
		inner, z := b.Radius, b.Z+b.Height/2
		outer := inner + 0.1
		s.CastRing(i, dirs, inner, outer, z, full)
		for _, reach := range []float64{outer, outer + 1, inner + 0.05, inner + 0.02, inner} {
			s.CastRingWithin(i, dirs, inner, outer, reach, z, within)
			for k := range dirs {
				f, w := full[k], within[k]
				switch {
				case math.Float64bits(w) == math.Float64bits(f):
					if f >= 0 && reach < outer {
						kept++
					}
				case reach >= outer || f < 0 || w >= 0 && w < f:
					t.Fatalf("body %d, reach %v, ray %d: CastRingWithin %v, CastRing %v", i, reach, k, w, f)
				case inner+f*(outer-inner) <= reach-1e-9:
					t.Fatalf("body %d, reach %v, ray %d: CastRingWithin %v, CastRing a hit %v from the centre",
						i, reach, k, w, inner+f*(outer-inner))
				default:
					dropped++
				}
			}
		}
	}
	t.Logf("below outer: %d hits kept, %d beyond reach dropped", kept, dropped)
	if kept == 0 || dropped == 0 {
		t.Error("the test proves little")
	}
}

// addRingCrowd adds 800 e-pucks, at random in a 2 m square, a quarter of
// them with a gripper's nub: the crowd the ring tests cast among.
func addRingCrowd(r *rand.Rand, s *Space) {
	for range 800 {
		b := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
			Pos: ci.Vector2{X: r.Float64() * 2, Y: r.Float64() * 2}}
		if r.IntN(4) == 0 {
			b.SetNub(0.01, 0.035, r.Float64()*2*math.Pi)
		}
		b.SetYaw(r.Float64() * 2 * math.Pi)
		s.Add(b)
	}
}
