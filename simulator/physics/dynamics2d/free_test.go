package dynamics2d_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// The tests below hold the free integrator to its promise (doc.go): a body
// that touches nothing moves bit for bit as cp would move it. Each runs a
// scene twice, once as the engine chooses and once with every body forced
// through cp, and compares every body's pose and velocity with !=.

// pair is a scene in two worlds: as the engine chooses, and all in cp.
type pair struct {
	free, forced *world
}

func newPair(t *testing.T, size float64) pair {
	p := pair{newWorld(t, size, ""), newWorld(t, size, "")}
	dynamics2d.ForceCP(p.forced.eng, true)
	return p
}

func (p pair) each(f func(w *world)) {
	f(p.free)
	f(p.forced)
}

// step runs a tick in both worlds and fails unless bodies are identical.
func (p pair) step(t *testing.T, k int, bodies ...int) {
	t.Helper()
	p.each(func(w *world) { w.tick() })
	for _, i := range bodies {
		if a, b := p.free.state(i), p.forced.state(i); a != b {
			t.Fatalf("tick %d, %s:\nfree/cp %v\ncp only %v", k, p.free.body(i).ID, a, b)
		}
	}
}

// TestFreeMatchesCPObjects lets movable boxes and cylinders slide and spin
// to rest from a start velocity, alone: their floor friction (a drive
// toward rest, at its limits most of the time) must give the same
// arithmetic in both paths.
func TestFreeMatchesCPObjects(t *testing.T) {
	p := newPair(t, 10)
	var ids []int
	p.each(func(w *world) {
		ids = ids[:0]
		for k, o := range []struct {
			box        bool
			mass       float64
			vel        ci.Vector2
			angVel, at float64
		}{
			{true, 1, ci.Vector2{X: 0.3, Y: -0.1}, 2, 0},
			{true, 5, ci.Vector2{X: -0.2}, -1, 0.7},
			{false, 1, ci.Vector2{Y: 0.4}, 3, 0},
			{false, 8, ci.Vector2{X: 0.1, Y: 0.1}, -0.5, 0},
		} {
			x, y := -3+2*float64(k), 2.0
			var i int
			if o.box {
				i = w.box("box"+string(rune('a'+k)), x, y, 0.1, 0.05, o.at, o.mass)
			} else {
				i = w.cylinder("cyl"+string(rune('a'+k)), x, y, 0.08, o.mass)
			}
			// Objects join the engine at rest; start them moving as a
			// push would leave them.
			w.eng.Remove(i)
			w.body(i).Vel, w.body(i).AngVel = o.vel, o.angVel
			if err := w.eng.Add(i); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, i)
		}
		w.sp.Reindex()
	})
	moved := 0.0
	sliding := 0
	for k := 1; k <= 40; k++ {
		p.step(t, k, ids...)
		if p.free.eng.InCP() != 0 {
			t.Fatalf("tick %d: %d bodies in cp, want every object free", k, p.free.eng.InCP())
		}
		for _, i := range ids {
			if p.free.body(i).Vel != (ci.Vector2{}) {
				sliding++
			}
		}
	}
	t.Logf("%d object-ticks of sliding", sliding)
	if sliding < 10 {
		t.Errorf("the objects slid for %d object-ticks only; the test needs longer slides", sliding)
	}
	for _, i := range ids {
		b := p.free.body(i)
		moved += math.Abs(b.Yaw)
		if b.Vel != (ci.Vector2{}) || b.AngVel != 0 {
			t.Errorf("%s still moves after 4 s: %v", b.ID, p.free.state(i))
		}
	}
	if moved == 0 {
		t.Error("no object turned; the test needs spinning objects")
	}
}

// TestFreeCPTransitionObjects has robots push a box and a cylinder, off
// centre, then back away: robots and objects go from the free integrator
// to cp and back.
func TestFreeCPTransitionObjects(t *testing.T) {
	p := newPair(t, 10)
	var fb, ep, box, cyl int
	p.each(func(w *world) {
		fb = w.add(footBot, "fb", -1, 0, 0)
		box = w.box("box", -0.5, 0.05, 0.1, 0.1, 0.2, 4)
		ep = w.add(ePuck, "ep", 1, -1, math.Pi/2)
		cyl = w.cylinder("cyl", 1.02, -0.6, 0.05, 2)
		w.box("wall", 0, 2, 3, 0.05, 0, 0)
		w.sp.Reindex()
	})
	inCP, freeAgain := false, false
	for k := 1; k <= 160; k++ {
		switch k {
		case 1:
			p.each(func(w *world) { w.wheels(fb, 15, 15, footBotAxle); w.wheels(ep, 12, 12, 0.053) })
		case 60:
			p.each(func(w *world) { w.wheels(fb, -30, -30, footBotAxle); w.wheels(ep, -15, -10, 0.053) })
		case 100:
			p.each(func(w *world) { w.wheels(fb, 0, 0, footBotAxle); w.wheels(ep, 0, 0, 0.053) })
		}
		p.step(t, k, fb, ep, box, cyl)
		if p.free.eng.InCP() >= 2 {
			inCP = true
		} else if inCP && p.free.eng.InCP() == 0 {
			freeAgain = true
		}
	}
	if !inCP || !freeAgain {
		t.Errorf("the bodies did not go from free to cp and back (in cp: %t, free again: %t)", inCP, freeAgain)
	}
	for _, o := range []struct {
		i    int
		from ci.Vector2
	}{{box, ci.Vector2{X: -0.5, Y: 0.05}}, {cyl, ci.Vector2{X: 1.02, Y: -0.6}}} {
		if b := p.free.body(o.i); b.Pos.Sub(o.from).Length() < 0.05 {
			t.Errorf("%s was not pushed: %v", b.ID, p.free.state(o.i))
		}
	}
}

// TestFreeCPGrip grips a cylinder, drags it along an arc, releases it and
// backs away: across the grip (both bodies in cp) and after the release
// (both free again) the bodies match the all-cp run.
func TestFreeCPGrip(t *testing.T) {
	p := newPair(t, 10)
	var fb, prey, other int
	const r = 0.05
	p.each(func(w *world) {
		fb = w.add(footBot, "fb", 0, 0, 0)
		prey = w.cylinder("prey", footBot.Radius+0.005+r, 0, r, 0.5)
		other = w.add(ePuck, "other", 2, 2, 1) // drives alone all along
		w.sp.Reindex()
		w.wheels(other, 5, 7, 0.053)
	})
	anchor := ci.Vector2{X: footBot.Radius + 0.0025}
	gripped, released := false, false
	for k := 1; k <= 120; k++ {
		switch k {
		case 3:
			p.each(func(w *world) {
				if err := w.eng.Grip(fb, prey, anchor); err != nil {
					t.Fatal(err)
				}
				w.wheels(fb, -8, -4, footBotAxle)
			})
			gripped = true
		case 60:
			p.each(func(w *world) { w.eng.Release(fb); w.wheels(fb, -10, -10, footBotAxle) })
			released = true
		}
		p.step(t, k, fb, prey, other)
		if gripped && !released && p.free.eng.InCP() != 2 {
			t.Fatalf("tick %d: %d bodies in cp while gripping, want the robot and the prey", k, p.free.eng.InCP())
		}
		if released && k > 80 && p.free.eng.InCP() != 0 {
			t.Fatalf("tick %d: %d bodies still in cp 2 s after the release", k, p.free.eng.InCP())
		}
	}
	if !gripped || p.free.body(prey).Pos.X > 0 {
		t.Errorf("the prey was not dragged: %v", p.free.state(prey))
	}
}
