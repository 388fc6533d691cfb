package space

import (
	"math"

	"github.com/argosgo/argos/ci"
)

// Shape is the cross-section of a body's vertical prism.
type Shape uint8

const (
	// Disc is a vertical cylinder of the body's Radius.
	Disc Shape = iota
	// Box is a rectangle of half sizes Half, rotated by the body's yaw.
	Box
)

// Body is the embodiment of one entity. Poses are in metres and radians;
// Pos is the centre of the footprint and Z the height of the bottom face.
//
// The fields are grouped by use: what every neighbour query reads comes
// first and fits in one 64-byte cache line (a swarm's sensors read it for
// every robot every tick), then what engines write or read at each step,
// then the rest; what few bodies have (a flight, a tilt, a nub) is
// apart, behind one pointer, and what the body is driven at is apart in
// the space (Space.Drive). The size is 192 bytes, a multiple of 64, so
// that in a slice the first group of every body stays on one line
// (TestBodySize).
type Body struct {
	// read by every query
	Pos      ci.Vector2
	Cos, Sin float64 // of Yaw; kept in sync by SetYaw
	Z        float64
	Radius   float64 // Disc: radius. Box: radius of the circumscribed circle.
	Height   float64
	Shape    Shape
	// Movable bodies are moved by a physics engine; the others never move.
	Movable bool
	// Removed bodies stay in the slice (indices are stable) but are
	// invisible to queries.
	Removed bool
	// HasNub tells, in the first cache line, that the body has a nub
	// (SetNub).
	HasNub bool
	// Engine is the index of the physics engine that owns the body, -1
	// for none (static bodies).
	Engine int32

	// written or read by engines at each step
	Yaw float64
	// Vel and AngVel are the body's velocity after the last physics step.
	Vel    ci.Vector2
	AngVel float64
	Half   ci.Vector2 // Box: half sizes along its local X and Y
	// MaxForce and MaxTorque bound the force and torque that drag the
	// body toward its drive (Space.Drive).
	MaxForce, MaxTorque float64

	Mass float64
	_    [16]byte // (the size stays a multiple of 64)
	ID   string
	Type string // entity tag: "foot-bot", "e-puck", "box", "cylinder", ...
	// extra is what few bodies have; nil for the others. Space.Add gives
	// each body its own copy.
	extra *bodyExtra
}

// Drive is the velocity a body is dragged toward: its forward speed along
// its heading (V, m/s) and its angular speed (W, rad/s), with at most
// the body's MaxForce and MaxTorque. Robots set it from their wheels;
// passive movable objects keep it at zero, which models their friction
// on the floor.
type Drive struct {
	V, W float64
}

// bodyExtra is what a body has only in some scenes: a flight, a tilt, a
// nub.
type bodyExtra struct {
	flight      *Flight
	pitch, roll float64
	nub         Nub
}

// change gives the body a new extra part: its own one changed by fn,
// none if that leaves it empty. A copy of the body (a snapshot) keeps
// the part it had.
func (b *Body) change(fn func(e *bodyExtra)) {
	var e bodyExtra
	if b.extra != nil {
		e = *b.extra
	}
	fn(&e)
	if e == (bodyExtra{}) {
		b.extra = nil
	} else {
		b.extra = &e
	}
}

// ownExtra gives the body its own copy of its extra part, so that bodies
// added from one template (a <distribute>'s) do not share a nub or a
// tilt. The flight itself stays shared, as a pointer field of the body
// was.
func (b *Body) ownExtra() {
	if b.extra != nil {
		e := *b.extra
		b.extra = &e
	}
}

// Flight returns the flight command and state of a body flown by a 3D
// engine (flight.go); nil for the others.
func (b *Body) Flight() *Flight {
	if b.extra == nil {
		return nil
	}
	return b.extra.flight
}

// SetFlight sets the body's flight (nil for none).
func (b *Body) SetFlight(f *Flight) {
	b.change(func(e *bodyExtra) { e.flight = f })
}

// Tilt returns the body's pitch and roll (radians): only static bodies may
// be tilted (kept for output).
func (b *Body) Tilt() (pitch, roll float64) {
	if b.extra == nil {
		return 0, 0
	}
	return b.extra.pitch, b.extra.roll
}

// SetTilt sets the body's pitch and roll (radians).
func (b *Body) SetTilt(pitch, roll float64) {
	if pitch == 0 && roll == 0 && b.extra == nil {
		return // no tilt to keep (change would make and drop one)
	}
	b.change(func(e *bodyExtra) { e.pitch, e.roll = pitch, roll })
}

// Nub returns the body's nub; its R is 0 for a body without one.
func (b *Body) Nub() Nub {
	if b.extra == nil {
		return Nub{}
	}
	return b.extra.nub
}

// Nub is a small disc that sticks out of a disc body, as the jaws of a
// foot-bot's gripper do from its base in ARGoS's dynamics2d: rays and
// lines of sight meet it, over the body's height range, but nothing
// collides with it (engines and placement use the body's own shape).
type Nub struct {
	R        float64 // radius; 0: the body has none
	Dist     float64 // from the body's centre to the nub's
	Cos, Sin float64 // of the nub's direction, relative to the body's heading
}

// SetNub gives the body a nub of radius r whose centre lies dist from the
// body's centre, angle radians counter-clockwise from its front.
func (b *Body) SetNub(r, dist, angle float64) {
	b.HasNub = r > 0
	b.change(func(e *bodyExtra) {
		e.nub.R, e.nub.Dist = r, dist
		e.nub.Sin, e.nub.Cos = math.Sincos(angle)
	})
}

// SetNubAngle turns the nub to angle radians from the body's front (a
// foot-bot's turret carries its gripper).
//
// It writes the body's extra part in place (a turret turns it every
// tick): a copy of the body made before shares the change.
func (b *Body) SetNubAngle(angle float64) {
	if b.extra == nil {
		b.extra = &bodyExtra{}
	}
	b.extra.nub.Sin, b.extra.nub.Cos = math.Sincos(angle)
}

// NubCenter returns where the nub's centre is.
func (b *Body) NubCenter() ci.Vector2 {
	if b.extra == nil {
		return b.Pos
	}
	n := &b.extra.nub
	c, s := b.Cos*n.Cos-b.Sin*n.Sin, b.Sin*n.Cos+b.Cos*n.Sin
	return ci.Vector2{X: b.Pos.X + n.Dist*c, Y: b.Pos.Y + n.Dist*s}
}

// Reach returns the radius of the disc around Pos that holds the body and
// its nub.
func (b *Body) Reach() float64 {
	if !b.HasNub {
		return b.Radius
	}
	return max(b.Radius, b.extra.nub.Dist+b.extra.nub.R)
}

// SetYaw sets the heading and its cached sine and cosine.
func (b *Body) SetYaw(a float64) {
	b.Yaw = a
	b.Sin, b.Cos = math.Sincos(a)
}

// Heading returns the unit vector of the body's front.
func (b *Body) Heading() ci.Vector2 { return ci.Vector2{X: b.Cos, Y: b.Sin} }

// Top returns the height of the top face.
func (b *Body) Top() float64 { return b.Z + b.Height }

// Footprint is the cross-section of a body: its shape, placed and turned.
// Engines use it to test poses a body does not have yet.
type Footprint struct {
	Shape    Shape
	Radius   float64
	Half     ci.Vector2
	Pos      ci.Vector2
	Cos, Sin float64
}

// Footprint returns the body's cross-section at its current pose.
func (b *Body) Footprint() Footprint {
	return Footprint{Shape: b.Shape, Radius: b.Radius, Half: b.Half, Pos: b.Pos, Cos: b.Cos, Sin: b.Sin}
}

func (b *Body) bounds() (lo, hi ci.Vector2) {
	f := b.Footprint()
	return f.bounds()
}

func (b *Body) toLocal(p ci.Vector2) ci.Vector2 {
	f := b.Footprint()
	return f.toLocal(p)
}

// Distance returns the distance from p to the body's footprint (0 inside).
func (b *Body) Distance(p ci.Vector2) float64 {
	f := b.Footprint()
	return f.Distance(p)
}

// Contains reports whether p lies in the body's footprint.
func (b *Body) Contains(p ci.Vector2) bool { return b.Distance(p) == 0 }

// Gap is FootprintGap of the bodies' footprints.
func Gap(a, b *Body) float64 {
	fa, fb := a.Footprint(), b.Footprint()
	return FootprintGap(&fa, &fb)
}

// bounds returns the axis-aligned bounding box of the footprint.
func (b *Footprint) bounds() (lo, hi ci.Vector2) {
	if b.Shape == Disc {
		r := ci.Vector2{X: b.Radius, Y: b.Radius}
		return b.Pos.Sub(r), b.Pos.Add(r)
	}
	ex := math.Abs(b.Cos)*b.Half.X + math.Abs(b.Sin)*b.Half.Y
	ey := math.Abs(b.Sin)*b.Half.X + math.Abs(b.Cos)*b.Half.Y
	e := ci.Vector2{X: ex, Y: ey}
	return b.Pos.Sub(e), b.Pos.Add(e)
}

// toLocal maps a world point into the body's frame.
func (b *Footprint) toLocal(p ci.Vector2) ci.Vector2 {
	d := p.Sub(b.Pos)
	return ci.Vector2{X: d.X*b.Cos + d.Y*b.Sin, Y: -d.X*b.Sin + d.Y*b.Cos}
}

// Distance returns the distance from p to the body's footprint (0 inside).
func (b *Footprint) Distance(p ci.Vector2) float64 {
	if b.Shape == Disc {
		return max(0, p.Sub(b.Pos).Length()-b.Radius)
	}
	l := b.toLocal(p)
	dx := max(0, math.Abs(l.X)-b.Half.X)
	dy := max(0, math.Abs(l.Y)-b.Half.Y)
	return math.Hypot(dx, dy)
}

// Contains reports whether p lies in the footprint.
func (b *Footprint) Contains(p ci.Vector2) bool { return b.Distance(p) == 0 }

// FootprintGap returns the distance between two footprints, or, when
// they overlap, minus the depth of the overlap (how far one must move to
// part them; zero when they touch). It is exact for every pair of shapes.
func FootprintGap(a, b *Footprint) float64 {
	switch {
	case a.Shape == Disc && b.Shape == Disc:
		return a.Pos.Sub(b.Pos).Length() - a.Radius - b.Radius
	case a.Shape == Disc:
		return boxDiscGap(b, a.Pos, a.Radius)
	case b.Shape == Disc:
		return boxDiscGap(a, b.Pos, b.Radius)
	}
	return boxBoxGap(a, b)
}

// boxBoxGap separates two rectangles along the four axes of their sides.
// When an axis separates them, the distance is that of the nearest corner
// of one to the other (true of any two convex polygons); when none does,
// the smallest overlap along an axis is the depth.
func boxBoxGap(a, b *Footprint) float64 {
	axes := [4]ci.Vector2{{X: a.Cos, Y: a.Sin}, {X: -a.Sin, Y: a.Cos}, {X: b.Cos, Y: b.Sin}, {X: -b.Sin, Y: b.Cos}}
	depth := math.Inf(1)
	for _, u := range axes {
		d := a.extent(u) + b.extent(u) - math.Abs(a.Pos.Sub(b.Pos).Dot(u))
		if d < 0 {
			return min(cornerDistance(a, b), cornerDistance(b, a))
		}
		depth = min(depth, d)
	}
	return -depth
}

// extent returns the half length of a box's projection on the unit axis u.
func (b *Footprint) extent(u ci.Vector2) float64 {
	return math.Abs(u.X*b.Cos+u.Y*b.Sin)*b.Half.X + math.Abs(-u.X*b.Sin+u.Y*b.Cos)*b.Half.Y
}

// cornerDistance returns the distance from the nearest corner of box b to
// a's footprint.
func cornerDistance(a, b *Footprint) float64 {
	hx := ci.Vector2{X: b.Cos * b.Half.X, Y: b.Sin * b.Half.X}
	hy := ci.Vector2{X: -b.Sin * b.Half.Y, Y: b.Cos * b.Half.Y}
	return min(
		min(a.Distance(b.Pos.Add(hx).Add(hy)), a.Distance(b.Pos.Add(hx).Sub(hy))),
		min(a.Distance(b.Pos.Sub(hx).Add(hy)), a.Distance(b.Pos.Sub(hx).Sub(hy))))
}

func boxDiscGap(box *Footprint, c ci.Vector2, r float64) float64 {
	l := box.toLocal(c)
	dx := math.Abs(l.X) - box.Half.X
	dy := math.Abs(l.Y) - box.Half.Y
	if dx <= 0 && dy <= 0 {
		return max(dx, dy) - r // inside: negative depth
	}
	return math.Hypot(max(dx, 0), max(dy, 0)) - r
}

// verticalOverlap reports whether the body spans height z.
func (b *Body) spans(z float64) bool { return z >= b.Z && z <= b.Z+b.Height }

// rayHit returns the smallest t in [0, 1] at which the segment from->to
// enters the footprint or the nub, or false.
func (b *Body) rayHit(from, to ci.Vector2) (float64, bool) {
	var t float64
	var ok bool
	if b.Shape == Disc {
		t, ok = rayDisc(from, to, b.Pos, b.Radius)
	} else {
		t, ok = rayBox(b.toLocal(from), b.toLocal(to), b.Half)
	}
	if b.HasNub {
		if tn, hit := rayDisc(from, to, b.NubCenter(), b.extra.nub.R); hit && (!ok || tn < t) {
			t, ok = tn, true
		}
	}
	return t, ok
}

func rayDisc(from, to, c ci.Vector2, r float64) (float64, bool) {
	d := to.Sub(from)
	f := from.Sub(c)
	a := d.Dot(d)
	bb := f.Dot(d)
	cc := f.Dot(f) - r*r
	if cc <= 0 {
		return 0, true // starts inside
	}
	if bb > 0 || a == 0 {
		return 0, false // pointing away
	}
	disc := bb*bb - a*cc
	if disc < 0 {
		return 0, false
	}
	t := (-bb - math.Sqrt(disc)) / a
	if t > 1 {
		return 0, false
	}
	return t, true
}

func rayBox(from, to, half ci.Vector2) (float64, bool) {
	d := to.Sub(from)
	t0, t1 := 0.0, 1.0
	if !slab(from.X, d.X, half.X, &t0, &t1) || !slab(from.Y, d.Y, half.Y, &t0, &t1) {
		return 0, false
	}
	return t0, true
}

func slab(p, d, h float64, t0, t1 *float64) bool {
	if d == 0 {
		return p >= -h && p <= h
	}
	inv := 1 / d
	a, b := (-h-p)*inv, (h-p)*inv
	if a > b {
		a, b = b, a
	}
	if a > *t0 {
		*t0 = a
	}
	if b < *t1 {
		*t1 = b
	}
	return *t0 <= *t1
}
