package dynamics2d

import "github.com/jakecoffman/cp/v2"

// drive drags a body toward a target velocity with a bounded impulse. It is
// ARGoS's pivot joint plus gear joint (anchors at the centre of mass, max
// bias 0, max force and max torque) between the body and an infinitely
// massive control body moving at the target velocity, folded into one
// constraint. Its arithmetic is shared by the cp constraint (bodies in the
// cp space) and by the free-body integrator, so both move a lone body the
// same way.
type drive struct {
	body *cp.Body

	// target velocity in world coordinates and angular velocity
	tv cp.Vector
	tw float64
	// limits and inverse mass properties
	maxF, maxT  float64
	mInv, iInv  float64
	mass, inert float64
	// accumulated impulses (warm start) and their bounds for this step
	jAcc  cp.Vector
	jAccW float64
	jMax  float64
	jMaxW float64
}

func (d *drive) preStep(dt float64) {
	d.jMax = d.maxF * dt
	d.jMaxW = d.maxT * dt
}

// cached applies the accumulated impulses of the previous step, scaled.
func (d *drive) cached(v cp.Vector, w, coef float64) (cp.Vector, float64) {
	v = v.Add(d.jAcc.Mult(coef * d.mInv))
	w += d.jAccW * coef * d.iInv
	return v, w
}

// impulse runs one solver iteration on velocity v, w.
func (d *drive) impulse(v cp.Vector, w float64) (cp.Vector, float64) {
	j := d.tv.Sub(v).Mult(d.mass)
	old := d.jAcc
	d.jAcc = old.Add(j).Clamp(d.jMax)
	v = v.Add(d.jAcc.Sub(old).Mult(d.mInv))

	jw := (d.tw - w) * d.inert
	oldW := d.jAccW
	d.jAccW = max(-d.jMaxW, min(d.jMaxW, oldW+jw))
	w += (d.jAccW - oldW) * d.iInv
	return v, w
}

// driveSet is the one cp constraint that solves the drives of every body
// the engine has in the cp space (the engine's cpList), in place of a
// constraint per body. cp solves its constraints one after the other, in
// list order, each phase (pre-step, warm start, each iteration) over all
// of them, after the contacts. A drive changes the velocity of its own
// body only (its other body, the control body, is infinitely massive), so
// drives of different bodies commute and solving them together, in any
// order, gives the results of one constraint each. The only other
// constraints, grips, share bodies with drives; they are added after the
// set and so come after the drives of their bodies, as they did when each
// drive entered the list before the grip of its body (a gripped body never
// leaves the cp space).
//
// One constraint instead of one per body saves a cp.Constraint and a
// control body (about 430 bytes) per robot, and the solver walks the
// drives in the engine's order, which is the order of the bodies in
// memory, instead of following a pointer and an interface per body.
//
// Most bodies cp steps touch nothing in a given sub-step: they are near
// something, not against it. Nothing but its drive changes the velocity
// of a body without a contact (an arbiter of this sub-step) or a grip
// during the solver's iterations, so its drive can be solved whole, warm
// start and every iteration, at once: the same operations on the same
// numbers in the same order, interleaved differently with those of other
// bodies, which do not touch it. PreStep sorts the bodies into those
// (alone) and the others (crowd); ApplyCachedImpulse solves the former
// and ApplyImpulse walks the latter only, so that the solver's ten passes
// per sub-step read the memory of the bodies in contact alone.
type driveSet struct {
	e            *Engine
	alone, crowd []*object
}

// The cp.Constrainer methods.

func (s *driveSet) PreStep(dt float64) {
	alone, crowd := s.alone[:0], s.crowd[:0]
	for _, o := range s.e.cpList {
		o.drive.preStep(dt)
		if o.joints > 0 || touching(o.cpb) {
			crowd = append(crowd, o)
		} else {
			alone = append(alone, o)
		}
	}
	s.alone, s.crowd = alone, crowd
}

func (s *driveSet) ApplyCachedImpulse(coef float64) {
	for _, o := range s.crowd {
		d := &o.drive
		v, w := velocity(d.body), angularVelocity(d.body)
		*v, *w = d.cached(*v, *w, coef)
	}
	iterations := int(s.e.cps.Iterations)
	for _, o := range s.alone {
		d := &o.drive
		pv, pw := velocity(d.body), angularVelocity(d.body)
		v, w := d.cached(*pv, *pw, coef)
		for range iterations {
			j, jw := d.jAcc, d.jAccW
			nv, nw := d.impulse(v, w)
			if sameVec(nv, v) && same(nw, w) && sameVec(d.jAcc, j) && same(d.jAccW, jw) {
				// A fixed point, bit for bit: every further
				// iteration would compute exactly this again.
				break
			}
			v, w = nv, nw
		}
		*pv, *pw = v, w
	}
}

func (s *driveSet) ApplyImpulse(float64) {
	for _, o := range s.crowd {
		d := &o.drive
		v, w := velocity(d.body), angularVelocity(d.body)
		*v, *w = d.impulse(*v, *w)
	}
}

// GetImpulse is not used: nothing breaks a drive.
func (s *driveSet) GetImpulse() float64 { return 0 }
