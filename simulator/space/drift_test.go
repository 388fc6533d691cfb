package space

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
)

// driftTwins returns two copies of one scene (walls, static and movable
// bodies of every shape, some with nubs, and a crowd of e-pucks over
// more than one chunk): a keeps its clearances while the bodies drift,
// b builds them at every Reindex where a body moved.
func driftTwins(seed uint64) (a, b *Space) {
	make1 := func() *Space {
		r := rand.New(rand.NewPCG(seed, 1))
		s := randomSpace(r, 600)
		for range reindexChunk + 1500 {
			p := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
				Pos: ci.Vector2{X: (r.Float64() - 0.5) * 7, Y: (r.Float64() - 0.5) * 7}}
			p.SetYaw(r.Float64() * 2 * math.Pi)
			s.Add(p)
		}
		return s
	}
	a, b = make1(), make1()
	b.driftLimit = 0
	return a, b
}

// driftStep moves the mobile bodies of both spaces alike: most drive a
// tick (5 mm) and turn a little, some rest; every jump tick one of them
// jumps a metre, and on an add tick an e-puck is added.
func driftStep(r *rand.Rand, a, b *Space, jump, add bool) {
	for i := range a.Bodies {
		ba := &a.Bodies[i]
		if !ba.Movable || ba.Removed {
			continue
		}
		if r.IntN(10) < 3 {
			continue // resting
		}
		yaw := ba.Yaw + (r.Float64()-0.5)*0.2
		p := ba.Pos.Add(ci.FromPolar(0.005*r.Float64(), yaw))
		for _, s := range []*Space{a, b} {
			s.Bodies[i].Pos = p
			s.Bodies[i].SetYaw(yaw)
		}
	}
	if jump {
		i := a.mobileSel[r.IntN(len(a.mobileSel))]
		p := a.Bodies[i].Pos.Add(ci.FromPolar(1, r.Float64()*7))
		a.Bodies[i].Pos, b.Bodies[i].Pos = p, p
	}
	if add {
		p := Body{Shape: Disc, Radius: 0.035, Height: 0.08, Movable: true,
			Pos: ci.Vector2{X: (r.Float64() - 0.5) * 7, Y: (r.Float64() - 0.5) * 7}}
		p.SetYaw(1)
		a.Add(p)
		b.Add(p)
	}
}

// Between two builds of the clearances and neighbour lists, while the
// bodies drift, every query gives what it gives when they are built at
// every Reindex (a twin scene, moved alike): the rings' fractions bit
// for bit, the same bodies near a body, crowded or not; the clearance is
// a lower bound of the exact one; and each list holds its neighbours'
// items as this Reindex made them.
func TestDriftKeepsQueriesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(53, 54))
	a, b := driftTwins(55)
	dirs := make([]ci.Vector2, 8)
	for k := range dirs {
		dirs[k] = ci.FromPolar(1, float64(k)*math.Pi/4)
	}
	reused, drifting, listed := 0, 0, 0
	for tick := range 24 {
		driftStep(r, a, b, tick%9 == 8, tick == 13)
		a.ReindexWith(parallel{})
		b.Reindex()
		if a.drift > 0 {
			reused++
		}
		if b.drift != 0 {
			t.Fatalf("tick %d: the twin that builds at every Reindex has drift %g", tick, b.drift)
		}
		checkListsFresh(t, a, fmt.Sprintf("tick %d", tick))
		ta, tb := make([]float64, len(dirs)), make([]float64, len(dirs))
		for _, i32 := range a.mobileSel {
			i := int(i32)
			bd := &a.Bodies[i]
			p := bd.Pos
			where := func() string { return fmt.Sprintf("tick %d (drift %g), body %d", tick, a.drift, i) }
			ga, oka := a.Clearance(i, p)
			gb, okb := b.Clearance(i, p)
			if oka != okb || !oka || ga > gb {
				t.Fatalf("%s: Clearance %g, %v; built now %g, %v", where(), ga, oka, gb, okb)
			}
			if a.shrink > 0 {
				drifting++
				if _, ok := a.neighbours(i, p, p, bd.Reach()+0.05); ok {
					listed++
				}
			}
			if bd.Shape == Disc {
				ha := a.CastRingWithin(i, dirs, bd.Radius, bd.Radius+0.1, bd.Radius+0.05, bd.Z+0.01, ta)
				hb := b.CastRingWithin(i, dirs, bd.Radius, bd.Radius+0.1, bd.Radius+0.05, bd.Z+0.01, tb)
				for k := range ta {
					if math.Float64bits(ta[k]) != math.Float64bits(tb[k]) || ha != hb {
						t.Fatalf("%s, ray %d: %v (%d hits), built now %v (%d)", where(), k, ta[k], ha, tb[k], hb)
					}
				}
			}
			for _, c := range []struct {
				q ci.Vector2
				r float64
			}{
				{p, bd.Reach() + 0.01},
				{p.Add(ci.FromPolar(0.005, float64(i))), bd.Reach() + 0.005},
				{p, bd.Reach() + 0.06},
			} {
				na := a.NearMobileDiscOf(i, p, c.q, c.r, nil)
				nb := b.NearMobileDiscOf(i, p, c.q, c.r, nil)
				slices.Sort(na)
				slices.Sort(nb)
				if !slices.Equal(na, nb) {
					t.Fatalf("%s: within %g of %v: %v, built now %v", where(), c.r, c.q, na, nb)
				}
			}
			for _, rr := range []float64{0.03, 0.06} {
				na := a.Nearby(p, bd.Reach()+rr, bd.Z+0.01, i, nil)
				nb := b.Nearby(p, bd.Reach()+rr, bd.Z+0.01, i, nil)
				slices.Sort(na)
				slices.Sort(nb)
				if !slices.Equal(na, nb) {
					t.Fatalf("%s: Nearby within %g: %v, built now %v", where(), rr, na, nb)
				}
				if ca, cb := a.Crowded(i, rr), b.Crowded(i, rr); ca != cb {
					t.Fatalf("%s: Crowded(%g) %v, built now %v", where(), rr, ca, cb)
				}
			}
		}
	}
	// the lists were kept for ticks on end, and read
	if reused < 12 || listed < 1000 {
		t.Errorf("%d of 24 ticks kept the lists; %d queries of %d in them read a list: the test proves little",
			reused, listed, drifting)
	}
}

// checkListsFresh checks that every entry of the neighbour lists is the
// item, as the last Reindex made it, of the body it names.
func checkListsFresh(t *testing.T, s *Space, when string) {
	t.Helper()
	freshQuiet(s)
	for c := range s.nbSel {
		if c*reindexChunk >= len(s.mobileSel) {
			break
		}
		if len(s.nb[c]) != len(s.nbSel[c]) {
			t.Fatalf("%s: chunk %d: %d items for %d neighbours", when, c, len(s.nb[c]), len(s.nbSel[c]))
		}
		for e, k := range s.nbSel[c] {
			if want := s.mitem[s.mobile.slot[k]]; s.nb[c][e] != want {
				t.Fatalf("%s: chunk %d, entry %d: %+v, the body's item is %+v", when, c, e, s.nb[c][e], want)
			}
		}
	}
}

// A query refused a neighbour list for the drift alone (it would read
// one were the clearances built now) halves the drift limit, and the
// next Reindex builds them: an experiment's widest queries keep reading
// lists.
func TestWideQueryLowersTheDriftLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(57, 58))
	a, b := driftTwins(59)
	a.Reindex()
	b.Reindex()
	driftStep(r, a, b, false, false)
	a.Reindex()
	if a.drift == 0 || a.driftLimit != driftLimit {
		t.Fatalf("drift %g, limit %g after a tick's drive: want the lists kept, limit %g", a.drift, a.driftLimit, driftLimit)
	}
	i := int(a.mobileSel[0])
	p := a.Bodies[i].Pos
	reach := a.clear[i].r
	// a query within the lists' reach but for the drift
	wide := reach + maxClearance - 2*listSlack - a.shrink/2
	if _, ok := a.neighbours(i, p, p, reach+0.01); !ok {
		t.Fatal("a narrow query was refused its list")
	}
	if a.denied.Load() {
		t.Fatal("a narrow query lowered the drift limit")
	}
	if _, ok := a.neighbours(i, p, p, reach+maxClearance); ok || a.denied.Load() {
		t.Fatalf("a query beyond the lists' reach read a list (%v) or lowered the limit (%v)", ok, a.denied.Load())
	}
	if _, ok := a.neighbours(i, p, p, wide); ok || !a.denied.Load() {
		t.Fatalf("a query refused for the drift alone: read a list %v, noted %v", ok, a.denied.Load())
	}
	a.Reindex()
	if a.drift != 0 || a.driftLimit != driftLimit/2 || a.denied.Load() {
		t.Fatalf("after the refusal: drift %g, limit %g, noted %v; want 0, %g, false", a.drift, a.driftLimit, a.denied.Load(), driftLimit/2)
	}
	// the limit halves down to none: then every Reindex builds
	for range 20 {
		a.denied.Store(true)
		a.Reindex()
	}
	driftStep(r, a, b, false, false)
	a.Reindex()
	if a.driftLimit != 0 || a.drift != 0 {
		t.Fatalf("limit %g, drift %g after refusals without end: want 0, 0", a.driftLimit, a.drift)
	}
}

// The lists follow the bodies' items even when no body is off its place
// at the last build, so that the drift is 0 and nothing is built again:
// a body that rises in place, or moves and comes back.
func TestListsFollowBodiesBackInPlace(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	a, b := driftTwins(63)
	a.Reindex()
	b.Reindex()
	home := make([]ci.Vector2, len(a.Bodies))
	for i := range a.Bodies {
		home[i] = a.Bodies[i].Pos
	}
	driftStep(r, a, b, false, false)
	a.Reindex()
	checkListsFresh(t, a, "after a tick's drive")
	for i := range a.Bodies {
		if bd := &a.Bodies[i]; bd.Movable && !bd.Removed {
			bd.Pos = home[i] // back where the lists were built
			bd.Z += 0.02     // and a little higher
		}
	}
	a.Reindex()
	if a.drift != 0 {
		t.Fatalf("drift %g with every body back in place", a.drift)
	}
	checkListsFresh(t, a, "back in place, risen")
}

// freshQuiet makes the mobile grid ready, as a query would, without
// noting a read: a check of what Reindex built leaves the next Reindex
// to build its grid as the experiment's own queries would have it.
func freshQuiet(s *Space) {
	read := s.gridRead.Load()
	s.fresh()
	s.gridRead.Store(read)
}
