package dynamics2d

import (
	"fmt"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/jakecoffman/cp/v2"
)

// Grip joint settings of ARGoS's dynamics2d gripper: a pivot joint that
// corrects overlap at 0.95 m/s with at most 10000 N.
const (
	gripMaxBias  = 0.95
	gripMaxForce = 10000
)

// grip is a gripper's hold on an object: a pivot joint between both
// bodies at the grip point. The object turns freely about it but still
// collides with the gripper's body, as with ARGoS's gripper, whose joint
// links the object to a separate gripper body.
type grip struct {
	object int
	joint  *cp.Constraint
	pivot  *cp.PivotJoint
}

var _ physics.Gripping = (*Engine)(nil)

// Grip implements physics.Gripping. Both bodies are stepped by cp while
// the grip lasts. Call it on the coordinating goroutine only.
func (e *Engine) Grip(gripper, object int, anchor ci.Vector2) error {
	if gripper == object {
		return fmt.Errorf("dynamics2d: body %q cannot grip itself", e.sp.Bodies[gripper].ID)
	}
	kg, okg := e.objOf(gripper)
	ko, oko := e.objOf(object)
	if !okg || !oko {
		who := gripper
		if okg {
			who = object
		}
		return fmt.Errorf("dynamics2d: engine %q does not own body %q; gripper and object must be in the same engine", e.id, e.sp.Bodies[who].ID)
	}
	og, oo := e.objs[kg], e.objs[ko]
	a := cp.Vector{X: anchor.X, Y: anchor.Y}
	if g := e.grips[gripper]; g != nil {
		if g.object == object {
			g.pivot.AnchorA = og.cpb.WorldToLocal(a)
			return nil
		}
		e.Release(gripper)
	}
	if !og.inCP {
		e.enterCP(og)
	}
	if !oo.inCP {
		e.enterCP(oo)
	}
	c := cp.NewPivotJoint(og.cpb, oo.cpb, a)
	c.SetMaxBias(gripMaxBias)
	c.SetMaxForce(gripMaxForce)
	e.cps.AddConstraint(c)
	og.joints++
	oo.joints++
	if e.grips == nil {
		e.grips = map[int]*grip{}
	}
	e.grips[gripper] = &grip{object: object, joint: c, pivot: c.Class.(*cp.PivotJoint)}
	return nil
}

// Release implements physics.Gripping.
func (e *Engine) Release(gripper int) {
	g := e.grips[gripper]
	if g == nil {
		return
	}
	e.cps.RemoveConstraint(g.joint)
	for _, b := range [2]int{gripper, g.object} {
		if k, ok := e.objOf(b); ok {
			e.objs[k].joints--
		}
	}
	delete(e.grips, gripper)
}

// Gripped implements physics.Gripping.
func (e *Engine) Gripped(gripper int) int {
	if g := e.grips[gripper]; g != nil {
		return g.object
	}
	return -1
}

// releaseBody releases every grip body i takes part in, in gripper order
// (the order of cp's constraint list is part of the result).
func (e *Engine) releaseBody(i int) {
	e.Release(i)
	for _, g := range e.grippers() {
		if e.grips[g].object == i {
			e.Release(g)
		}
	}
}

func (e *Engine) releaseAll() {
	for _, g := range e.grippers() {
		e.Release(g)
	}
}

// grippers returns the gripping bodies in increasing order.
func (e *Engine) grippers() []int {
	if len(e.grips) == 0 {
		return nil
	}
	gs := make([]int, 0, len(e.grips))
	for g := range e.grips {
		gs = append(gs, g)
	}
	slices.Sort(gs)
	return gs
}
