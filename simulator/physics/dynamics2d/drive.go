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

// The cp.Constrainer methods, for bodies stepped by cp.

func (d *drive) PreStep(dt float64) { d.preStep(dt) }

func (d *drive) ApplyCachedImpulse(coef float64) {
	v, w := d.cached(d.body.Velocity(), d.body.AngularVelocity(), coef)
	d.body.SetVelocityVector(v)
	d.body.SetAngularVelocity(w)
}

func (d *drive) ApplyImpulse(float64) {
	v, w := d.impulse(d.body.Velocity(), d.body.AngularVelocity())
	d.body.SetVelocityVector(v)
	d.body.SetAngularVelocity(w)
}

func (d *drive) GetImpulse() float64 { return d.jAcc.Length() }
