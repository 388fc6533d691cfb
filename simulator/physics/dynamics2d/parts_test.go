package dynamics2d

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
	"github.com/jakecoffman/cp/v2"
)

// A body entering cp on a part another object used before ends up, bit for
// bit, in the state its own cp body would have had: one made with the
// object, left in the angle and velocities it had when it last left cp,
// then set as enterCP sets it. Positions of -0 and angles in every
// quadrant bring out the signs of zero that SetPosition takes from the
// old angle.
func TestPartLikeOwnBody(t *testing.T) {
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
	model := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Movable: true, Mass: 0.4}
	model.ID = "a"
	a := sp.Add(model)
	model.ID = "b"
	b := sp.Add(model)
	e := &Engine{sp: sp, cps: newCPSpace()}
	const mass, moment = 0.4, 0.001
	negZero := math.Copysign(0, -1)
	for _, cpA := range []float64{0, negZero, 2.5, -2.5, -0.5, 3, 1} {
		for _, pos := range []cp.Vector{{X: negZero, Y: negZero}, {X: negZero, Y: 1}, {X: 0.3, Y: negZero}, {X: 0, Y: 0}} {
			// the previous borrower leaves the part at another angle
			// and speed
			prev := &object{body: a, cpIdx: -1, drive: drive{mass: 0.7, inert: 0.02}}
			prev.a, prev.v, prev.w = -cpA+0.25, cp.Vector{X: 0.1, Y: -0.2}, 0.3
			e.enterCP(prev)
			e.leaveCP(prev)

			o := &object{body: b, cpIdx: -1, drive: drive{mass: mass, inert: moment}, cpA: cpA}
			o.p, o.a, o.v, o.w = pos, 0.7, cp.Vector{X: -0.05, Y: negZero}, negZero
			e.enterCP(o)

			own := cp.NewBody(mass, moment)
			own.SetPosition(cp.Vector{X: 4, Y: -3})
			own.SetAngle(cpA)
			own.SetVelocity(0.2, 0.1)
			own.SetAngularVelocity(-0.4)
			cp.BodyUpdatePosition(own, 0)
			own.SetPosition(o.p)
			own.SetAngle(o.a)
			own.SetVelocityVector(o.v)
			own.SetAngularVelocity(o.w)

			got, want := bodyBits(o.cpb), bodyBits(own)
			if got != want {
				t.Errorf("cpA %g, position %v: part %s, own body %s", cpA, pos, got, want)
			}
			e.leaveCP(o)
		}
	}
}

// bodyBits prints the bits of every number in a cp body (its position,
// velocities, biases, transform, mass properties, forces), read by
// reflection since most are not exported.
func bodyBits(b *cp.Body) string {
	var out strings.Builder
	var walk func(v reflect.Value, name string)
	walk = func(v reflect.Value, name string) {
		switch v.Kind() {
		case reflect.Float64:
			fmt.Fprintf(&out, "%s=%#x ", name, math.Float64bits(v.Float()))
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), name+"."+v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(b).Elem(), "body")
	return out.String()
}
