package kinematics2d

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/physicstest"
	"github.com/argosgo/argos/simulator/space"
)

// A round after the first rechecks only the kept proposals that touch a
// moving neighbour's start pose: two e-pucks driving into each other are
// withdrawn, and neither they nor a third standing beside one of them is
// checked again.
func TestRecheckSkipsBodiesThatDoNotMove(t *testing.T) {
	sp := space.New(ci.Vector3{Z: 2}, ci.Vector3{X: 10, Y: 10, Z: 4})
	add := func(x, y, yaw, v float64) int {
		b := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Movable: true, Mass: 0.4, Pos: ci.Vector2{X: x, Y: y}}
		b.SetYaw(yaw)
		i := sp.Add(b)
		sp.Drive[i].V = v
		return i
	}
	a := add(0, 0, 0, 0.1)           // east, into b
	b := add(0.075, 0, 3.14159, 0.1) // west, into a
	add(0, 0.075, 0, 0)              // beside a, still
	sp.Reindex()
	e := newTestEngine(t, sp)
	for i := range sp.Bodies {
		if err := e.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	e.Step(0.1, physics.Serial{})
	e.Commit(physics.Serial{})
	if pa, pb := sp.Bodies[a].Pos, sp.Bodies[b].Pos; pa != (ci.Vector2{}) || pb != (ci.Vector2{X: 0.075}) {
		t.Fatalf("the two e-pucks moved into each other: %v, %v", pa, pb)
	}
	for c, kept := range e.keep {
		if len(kept) != 0 {
			t.Errorf("chunk %d: rechecked %v, which do not move", c, kept)
		}
	}
}

// A train of e-pucks nose to tail drives into a standing one: the front
// proposal is withdrawn in the first round, and each withdrawal makes the
// proposal behind collide with the start pose it touches, one round
// later, down the train (the bodies in an order that puts neighbours in
// different chunks). A round after the first checks only the proposals
// that touch a withdrawn neighbour, with the results of plain Jacobi
// rounds.
func TestWithdrawalsRunDownATrain(t *testing.T) {
	const n = 20
	for _, run := range []physics.Runner{physics.Serial{}, physicstest.Goroutines{}} {
		var bodies []driven
		for k := range n {
			// body k at place perm(k): 0 is the front, n the standing one
			x := -0.075 * float64((7*k)%n)
			bodies = append(bodies, epuck(x, 0, 0, 0.1))
		}
		bodies = append(bodies, epuck(0.075, 0, math.Pi, 0))
		w := newWorld(t, bodies, run)
		w.e.Step(0.1, w.run)
		if w.e.round != n {
			t.Errorf("the rounds ended after round %d, want %d (one withdrawal each)", w.e.round, n)
		}
		w.e.Commit(w.run)
		for i := range bodies {
			if w.sp.Bodies[i].Pos != bodies[i].Pos {
				t.Errorf("e-puck %d moved from %v to %v", i, bodies[i].Pos, w.sp.Bodies[i].Pos)
			}
		}
		w.sp.Reindex()
		// the same again, compared with plain rounds (the reference's
		// first step too)
		w.refE.Step(0.1, w.run)
		w.refE.Commit(w.run)
		w.ref.Reindex()
		for range 3 {
			w.tick(t)
		}
	}
}

// near maps body handles to object indices by arithmetic while the
// objects are a run of bodies in order, and through slot once a removal
// in the middle breaks the run; both give the objects slot gives.
func TestNearMapsBodiesToObjects(t *testing.T) {
	sp := space.New(ci.Vector3{Z: 2}, ci.Vector3{X: 10, Y: 10, Z: 4})
	wall := space.Body{Shape: space.Box, Half: ci.Vector2{X: 0.1, Y: 0.1}, Radius: 0.15, Height: 0.5, Pos: ci.Vector2{X: 3, Y: 3}}
	wall.SetYaw(0)
	sp.Add(wall)
	for k := range 5 {
		b := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Movable: true, Pos: ci.Vector2{X: 0.05 * float64(k)}}
		b.SetYaw(0)
		sp.Add(b)
	}
	sp.Reindex()
	e := newTestEngine(t, sp)
	for i := 1; i < len(sp.Bodies); i++ {
		if err := e.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	check := func(run bool) {
		t.Helper()
		if e.run != run {
			t.Fatalf("run %v, want %v", e.run, run)
		}
		sp.Reindex()
		e.useSpace, e.maxReach = true, 0.01
		for k := range e.objs {
			o := &e.objs[k]
			got := e.near(k, o.p, 0.1, nil)
			want := 0
			for _, j := range got {
				if int(e.slot[e.objs[j].body]) != int(j) {
					t.Errorf("object %d: near gave object %d for body %d, slot says %d", k, j, e.objs[j].body, e.slot[e.objs[j].body])
				}
			}
			for _, i := range sp.NearMobileDiscOf(int(o.body), o.p, o.p, 0.1+e.maxReach, nil) {
				if e.slot[i] >= 0 {
					want++
				}
			}
			if len(got) != want {
				t.Errorf("object %d: %d neighbours, want %d", k, len(got), want)
			}
		}
	}
	check(true)
	e.Remove(5) // the last: still a run
	check(true)
	e.Remove(2) // body 4 takes its place
	check(false)
	if err := e.Add(5); err != nil {
		t.Fatal(err)
	}
	check(false)
}

// newTestEngine returns a kinematics2d engine on the floor of sp, from a
// <kinematics2d id="k"> element with the attributes attrs, stepping
// 0.1 s ticks; it owns no body yet.
func newTestEngine(t *testing.T, sp *space.Space, attrs ...string) *Engine {
	t.Helper()
	exp, err := config.Parse("k.argos", []byte(`<?xml version="1.0"?><argos-configuration>
  <framework><experiment length="1" ticks_per_second="10"/></framework><controllers/><arena size="10,10,4"/>
  <physics_engines><kinematics2d id="k" `+strings.Join(attrs, " ")+`/></physics_engines></argos-configuration>`))
	if err != nil {
		t.Fatal(err)
	}
	pe, err := New(exp.PhysicsEngines[0], physics.Env{Space: sp, TickLength: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	return pe.(*Engine)
}
