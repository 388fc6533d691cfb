package media

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// pieceLength is the length of the pieces a long segment is split into
// for the space's index: each piece asks only for the few cells it
// crosses, so a query costs in proportion to the segment's length rather
// than to the area of its bounding box.
const pieceLength = 0.5

// Occluded reports whether the segment from->to (metres, in 3D) passes
// through a body of the space other than a and b (pass -1 for none): the
// line-of-sight test of ARGoS's occlusion checks, for bodies that are
// vertical prisms (a disc or a box from Z to Z+Height). A segment that
// only grazes a body (touching its side or running along its top face)
// is not occluded. It only reads the space and does not allocate.
func Occluded(sp *space.Space, from, to ci.Vector3, a, b int) bool {
	d := to.Sub(from)
	n := max(1, int(math.Ceil(math.Hypot(d.X, d.Y)/pieceLength)))
	blocked := false
	test := func(i int) bool {
		if i == a || i == b {
			return true
		}
		if Crosses(&sp.Bodies[i], from, d) {
			blocked = true
			return false
		}
		return true
	}
	for k := 0; k < n && !blocked; k++ {
		t0, t1 := float64(k)/float64(n), float64(k+1)/float64(n)
		p0 := ci.Vector2{X: from.X + d.X*t0, Y: from.Y + d.Y*t0}
		p1 := ci.Vector2{X: from.X + d.X*t1, Y: from.Y + d.Y*t1}
		lo := ci.Vector2{X: min(p0.X, p1.X), Y: min(p0.Y, p1.Y)}
		hi := ci.Vector2{X: max(p0.X, p1.X), Y: max(p0.Y, p1.Y)}
		sp.Near(lo, hi, test)
	}
	return blocked
}

// Crosses reports whether the segment from from to from+d passes through
// the inside of body b (a non-empty stretch of it lies in b's prism, or in
// the prism of its nub over the same heights).
func Crosses(b *space.Body, from, d ci.Vector3) bool {
	if t0, t1, ok := xyInterval(b, from, d); ok && crossesHeights(b, from, d, t0, t1) {
		return true
	}
	if b.HasNub {
		if t0, t1, ok := discInterval(b.NubCenter(), b.Nub().R, from, d); ok && crossesHeights(b, from, d, t0, t1) {
			return true
		}
	}
	return false
}

// crossesHeights reports whether the stretch t0..t1 of the segment, inside
// b's footprint, lies partly within b's heights and within the segment.
func crossesHeights(b *space.Body, from, d ci.Vector3, t0, t1 float64) bool {
	// the height range [Z, Z+Height), top face excluded
	if d.Z == 0 {
		if from.Z < b.Z || from.Z >= b.Z+b.Height {
			return false
		}
	} else {
		za, zb := (b.Z-from.Z)/d.Z, (b.Z+b.Height-from.Z)/d.Z
		if za > zb {
			za, zb = zb, za
		}
		t0, t1 = max(t0, za), min(t1, zb)
	}
	return max(t0, 0) < min(t1, 1)
}

// xyInterval returns the parameters t0 < t1 between which the line
// from+t*d lies inside b's footprint, ignoring heights.
func xyInterval(b *space.Body, from, d ci.Vector3) (t0, t1 float64, ok bool) {
	if b.Shape == space.Disc {
		return discInterval(b.Pos, b.Radius, from, d)
	}
	// box: slabs in the box's frame
	px, py := from.X-b.Pos.X, from.Y-b.Pos.Y
	lx, ly := px*b.Cos+py*b.Sin, -px*b.Sin+py*b.Cos
	dx, dy := d.X*b.Cos+d.Y*b.Sin, -d.X*b.Sin+d.Y*b.Cos
	t0, t1 = math.Inf(-1), math.Inf(1)
	if !slab(lx, dx, b.Half.X, &t0, &t1) || !slab(ly, dy, b.Half.Y, &t0, &t1) {
		return 0, 0, false
	}
	return t0, t1, t0 < t1
}

func slab(p, d, h float64, t0, t1 *float64) bool {
	if d == 0 {
		return p > -h && p < h
	}
	a, b := (-h-p)/d, (h-p)/d
	if a > b {
		a, b = b, a
	}
	*t0 = max(*t0, a)
	*t1 = min(*t1, b)
	return *t0 < *t1
}

// discInterval is xyInterval for a disc of radius r centred at c.
func discInterval(c ci.Vector2, r float64, from, d ci.Vector3) (t0, t1 float64, ok bool) {
	fx, fy := from.X-c.X, from.Y-c.Y
	aa := d.X*d.X + d.Y*d.Y
	bb := fx*d.X + fy*d.Y
	cc := fx*fx + fy*fy - r*r
	if aa == 0 {
		return math.Inf(-1), math.Inf(1), cc < 0
	}
	disc := bb*bb - aa*cc
	if disc <= 0 {
		return 0, 0, false
	}
	s := math.Sqrt(disc)
	return (-bb - s) / aa, (-bb + s) / aa, true
}
