package space

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
)

// quietRange is an e-puck's proximity ring's reach from its centre.
const quietRange = 0.035 + 0.1

// Which bodies are quiet after each kind of change: one whose neighbour
// moved, whose own pose changed (also only its heading, or only its
// height), a neighbour entering or leaving its list's range, a static
// body changed, a body added or removed; a body with a nub never is.
func TestQuiet(t *testing.T) {
	s := New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 1})
	add := func(x, y float64) int {
		return s.Add(Body{Shape: Disc, Radius: 0.035, Height: 0.05, Movable: true, Pos: ci.Vector2{X: x, Y: y}})
	}
	a, b, c, d := add(0, 0), add(0.1, 0), add(1, 1), add(0.3, 0)
	nub := Body{Shape: Disc, Radius: 0.035, Height: 0.05, Movable: true, Pos: ci.Vector2{X: 3, Y: 3}}
	nub.SetNub(0.01, 0.035, 0)
	e := s.Add(nub)
	f := add(3.1, 3)
	s.Add(Body{Shape: Box, Half: ci.Vector2{X: 0.1, Y: 0.1}, Radius: math.Sqrt2 * 0.1, Height: 0.1, Pos: ci.Vector2{X: -2, Y: -2}})
	names := map[int]string{a: "a", b: "b", c: "c", d: "d", e: "e (nub)", f: "f (next to e)"}
	// want lists the quiet bodies among a..f after a Reindex
	want := func(when string, quiet ...int) {
		t.Helper()
		for i, name := range names {
			if got := s.Quiet(i, quietRange); got != slices.Contains(quiet, i) {
				t.Errorf("%s: Quiet(%s) = %v", when, name, got)
			}
		}
	}
	s.Reindex()
	want("after the bodies were added")
	s.Reindex()
	want("nothing moved", a, b, c, d)
	if s.Quiet(a, 0.035+maxClearance+0.01) {
		t.Errorf("quiet beyond the neighbour list's range")
	}
	if s.Quiet(1000, quietRange) {
		t.Errorf("a body that does not exist is quiet")
	}

	s.Bodies[b].Pos.X = math.Nextafter(0.1, 1)
	s.Reindex()
	want("b moved by one ulp", c, d)
	s.Reindex()
	want("nothing moved again", a, b, c, d)

	s.Bodies[a].SetYaw(0.5)
	s.Reindex()
	want("a turned", c, d)
	s.Reindex()
	s.Bodies[a].Z = 0.001
	s.Reindex()
	want("a rose", c, d)
	s.Reindex()
	s.Bodies[a].Pos.Y = 0.001
	if s.Quiet(a, quietRange) {
		t.Errorf("a moved after the Reindex and is still quiet")
	}
	s.Bodies[a].Pos.Y = 0
	s.Reindex()
	want("a moved there and back between two Reindexes", a, b, c, d)

	s.Bodies[d].Pos = ci.Vector2{X: -0.1, Y: 0.1} // within a's list's range, not b's
	s.Reindex()
	want("d came within range of a", b, c)
	s.Reindex()
	want("d stayed", a, b, c, d)
	s.Bodies[d].Pos = ci.Vector2{X: 0, Y: 0.5}
	s.Reindex()
	// a's list lost d: nothing of what it holds moved, but it is shorter
	want("d left", b, c)

	s.Reindex()
	s.StaticChanged()
	s.Reindex()
	want("a static body changed")
	s.Reindex()
	s.Add(Body{Shape: Disc, Radius: 0.1, Height: 0.1, Pos: ci.Vector2{X: 4, Y: -4}})
	s.Reindex()
	want("a static body was added")
	s.Reindex()
	g := add(-4, 4)
	s.Reindex()
	want("a mobile body was added")
	s.Reindex()
	want("nothing moved at last", a, b, c, d)
	if !s.Quiet(g, quietRange) {
		t.Errorf("the added body is not quiet once it stayed")
	}
	s.Remove(g)
	s.Reindex()
	want("a mobile body was removed")
	s.Reindex()
	if s.Quiet(g, quietRange) {
		t.Errorf("a removed body is quiet")
	}
}

// Every query about a quiet body answers what it answered at the
// previous Reindex, bit for bit, in a crowd where some bodies move a
// little (or only turn, or rise) every tick, with robots with nubs,
// movable boxes, walls and raised static bodies; and some bodies are
// quiet.
func TestQuietAnswersAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	s := New(ci.Vector3{}, ci.Vector3{X: 4, Y: 4, Z: 1})
	for range 1000 {
		b := randomBody(r)
		b.Pos = ci.Vector2{X: r.Float64()*3.6 - 1.8, Y: r.Float64()*3.6 - 1.8}
		if b.Movable && b.Shape == Disc && (b.HasNub && r.IntN(8) != 0 || b.Radius > 0.04) {
			// mostly e-pucks, touching one another, a few with a nub
			b = Body{Shape: Disc, Radius: 0.035, Height: 0.05, Movable: true, Pos: b.Pos}
			b.SetYaw(r.Float64() * 7)
		}
		if !b.Movable && b.Radius > 0.5 {
			continue
		}
		s.Add(b)
	}
	dirs := make([]ci.Vector2, 8)
	for k := range dirs {
		dirs[k] = ci.FromPolar(1, float64(k)*math.Pi/4+0.1)
	}
	type answer struct {
		ring   [8]float64
		hits   int
		nearby []int32
		disc   []int32
		crowd  bool
	}
	ask := func(i int) answer {
		b := &s.Bodies[i]
		var a answer
		inner, outer := b.Radius, b.Radius+0.1
		z := b.Z + b.Height/2
		a.hits = s.CastRing(i, dirs, inner, outer, z, a.ring[:])
		a.nearby = s.Nearby(b.Pos, outer, z, i, nil)
		slices.Sort(a.nearby)
		a.disc = s.NearMobileDiscOf(i, b.Pos, b.Pos, outer, nil)
		slices.Sort(a.disc)
		a.crowd = s.Crowded(i, 0.01)
		return a
	}
	same := func(x, y answer) bool {
		for k := range x.ring {
			if math.Float64bits(x.ring[k]) != math.Float64bits(y.ring[k]) {
				return false
			}
		}
		return x.hits == y.hits && slices.Equal(x.nearby, y.nearby) && slices.Equal(x.disc, y.disc) && x.crowd == y.crowd
	}
	prev := make([]answer, len(s.Bodies))
	quiet, checked := 0, 0
	for tick := range 30 {
		s.Reindex()
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if b.Removed || !b.Movable {
				continue
			}
			a := ask(i)
			if s.Quiet(i, b.Radius+0.1) {
				quiet++
				if !same(a, prev[i]) {
					t.Fatalf("tick %d: body %d is quiet, but its answers changed: %+v, then %+v", tick, i, prev[i], a)
				}
			}
			checked++
			prev[i] = a
		}
		// one mobile body in thirty moves: most a little, some only turn
		// or rise
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if b.Removed || !b.Movable || r.IntN(30) != 0 {
				continue
			}
			switch r.IntN(4) {
			case 0:
				b.SetYaw(b.Yaw + 0.01)
			case 1:
				b.Z += 1e-3
			default:
				b.Pos = b.Pos.Add(ci.FromPolar(0.002, r.Float64()*7))
			}
		}
	}
	if quiet < checked/4 || quiet == checked {
		t.Errorf("%d quiet bodies of %d checked: the test checks too little", quiet, checked)
	}
}
