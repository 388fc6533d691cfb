package dynamics2d

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
	"github.com/jakecoffman/cp/v2"
)

// A cp body and its shape are lent to an object while it is in the cp
// space only (a few per cent of a swarm's robots at a time), and go back
// to the engine's pool when it leaves. A swarm of a million robots then
// holds some tens of thousands of cp bodies and shapes instead of a
// million, and the ones cp steps lie together in memory instead of one in
// every few hundred kilobytes of the objects: cp's passes over its bodies,
// shapes and tree, ten per tick, read a few megabytes instead of missing
// the cache and the TLB at every body.
//
// A body from the pool ends up in the very state the object's own body
// would have had (enterCP): cp's state of a body that enters the space is
// set from the object's pose and velocities, except that SetPosition adds
// the rotated centre of gravity (zero) to the position, whose signs of
// zero come from the angle the body had when it last left the space; the
// object keeps that angle (cpA). Shapes carry nothing from one stay to the
// next: cp numbers a shape anew when it is added, computes its bounding
// box then, and forgets its contacts when it is removed.
type cpPart struct {
	body  cp.Body
	shape *cp.Shape
	key   partKey
}

// partKey is the geometry of a part's shape: parts are lent to objects of
// the same geometry only.
type partKey struct {
	shape  space.Shape
	radius float64
	half   ci.Vector2
}

func keyOf(b *space.Body) partKey {
	k := partKey{shape: b.Shape}
	if b.Shape == space.Box {
		k.half = b.Half
	} else {
		k.radius = b.Radius
	}
	return k
}

// takePart lends o a part of its geometry, from the pool or new.
func (e *Engine) takePart(o *object) *cpPart {
	k := keyOf(&e.sp.Bodies[o.body])
	if free := e.parts[k]; len(free) > 0 {
		p := free[len(free)-1]
		e.parts[k] = free[:len(free)-1]
		return p
	}
	if len(e.partSlab) == 0 {
		e.partSlab = make([]cpPart, 256)
	}
	p := &e.partSlab[0]
	e.partSlab = e.partSlab[1:]
	p.key = k
	p.body = *newCPBody(1, 1) // enterCP sets the object's mass and moment
	switch k.shape {
	case space.Disc:
		p.shape = cp.NewCircle(&p.body, k.radius, cp.Vector{})
	case space.Box:
		verts := boxVerts(k.half)
		p.shape = cp.NewPolyShape(&p.body, 4, verts[:], cp.NewTransformIdentity(), 0)
	}
	p.shape.SetElasticity(0)
	p.shape.SetFriction(mobileFriction)
	return p
}

// givePart returns a part to the pool.
func (e *Engine) givePart(p *cpPart) {
	p.body.UserData, p.shape.UserData = nil, nil
	if e.parts == nil {
		e.parts = map[partKey][]*cpPart{}
	}
	e.parts[p.key] = append(e.parts[p.key], p)
}
