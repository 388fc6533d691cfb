package dynamics2d

import (
	"fmt"
	"testing"

	"github.com/jakecoffman/cp/v2"
)

// The solver's direct access to a cp body's velocities reads and writes
// the very fields cp's getters and setters do.
func TestBodyVelocityFields(t *testing.T) {
	b := cp.NewBody(2, 3)
	b.SetVelocity(1.5, -2.25)
	b.SetAngularVelocity(0.75)
	if *velocity(b) != (cp.Vector{X: 1.5, Y: -2.25}) || *angularVelocity(b) != 0.75 {
		t.Fatalf("read %v, %v; cp has %v, %v", *velocity(b), *angularVelocity(b), b.Velocity(), b.AngularVelocity())
	}
	*velocity(b) = cp.Vector{X: -4, Y: 8}
	*angularVelocity(b) = -1.125
	if b.Velocity() != (cp.Vector{X: -4, Y: 8}) || b.AngularVelocity() != -1.125 {
		t.Fatalf("wrote (-4, 8), -1.125; cp reads %v, %v", b.Velocity(), b.AngularVelocity())
	}
	// nothing else changed
	if b.Mass() != 2 || b.Moment() != 3 || b.Position() != (cp.Vector{}) || b.Angle() != 0 {
		t.Fatalf("mass %g, moment %g, position %v, angle %g changed", b.Mass(), b.Moment(), b.Position(), b.Angle())
	}
}

// Removing bodies from the cp space in any order leaves cp's list of
// dynamic bodies holding exactly the others, each where its object says,
// and the removed ones in no space (so that cp lets them be added again).
func TestRemoveCPBody(t *testing.T) {
	e := &Engine{cps: newCPSpace()}
	objs := make([]*object, 6)
	for k := range objs {
		o := &object{body: k}
		o.cpb = cp.NewBody(1, 1)
		o.cpb.UserData = o
		e.addCPBody(o)
		objs[k] = o
	}
	in := map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true, 5: true}
	check := func(when string) {
		t.Helper()
		n := 0
		e.cps.EachBody(func(b *cp.Body) {
			o := b.UserData.(*object)
			if !in[o.body] {
				t.Errorf("%s: body %d still in cp", when, o.body)
			}
			if (*dynamicBodies(e.cps))[o.cpIdx] != b {
				t.Errorf("%s: body %d is not at %d", when, o.body, o.cpIdx)
			}
			n++
		})
		if n != len(in) {
			t.Errorf("%s: %d bodies in cp, want %d", when, n, len(in))
		}
		for k, o := range objs {
			if e.cps.ContainsBody(o.cpb) != in[k] || (*bodySpace(o.cpb) == nil) == in[k] {
				t.Errorf("%s: body %d in cp %v, want %v", when, k, e.cps.ContainsBody(o.cpb), in[k])
			}
		}
	}
	for _, k := range []int{2, 5, 0, 3} {
		e.removeCPBody(objs[k])
		delete(in, k)
		check(fmt.Sprintf("after removing %d", k))
	}
	e.addCPBody(objs[2])
	in[2] = true
	check("after adding 2 back")
	for _, k := range []int{4, 1, 2} {
		e.removeCPBody(objs[k])
		delete(in, k)
		check(fmt.Sprintf("after removing %d", k))
	}
	e.cps.Step(0.01)
}
