package space

import "math"

// Resting bodies. Late in a crowded run most robots rest against one
// another: they do not move, and neither does anything near them, tick
// after tick. Every Reindex compares each mobile body's pose with the one
// the previous Reindex recorded (its clearance) and marks the body's item
// moved when any bit differs; a body is then quiet when neither it nor
// any body of its neighbour list moved, its list is as long as at the
// previous Reindex, no mobile body was added or removed and the static
// index was not rebuilt. Each body of its list is then where it was, so
// in its previous list too (the same positions give the same gap, bit for
// bit): the two lists hold the same bodies, at the same places, and the
// same static bodies are around. A query that reads nothing else (its
// own pose, its neighbour list or clearance, the static bodies: CastRing,
// Nearby, NearMobileDiscOf, Crowded within the lists' range) answers what
// it answered at the previous Reindex, and its caller may keep that
// answer instead of asking again (Quiet).
//
// The shapes of bodies (radius, height, box sizes, nub size) change only
// through Add and Remove; a nub turns without its body (a gripper), so a
// body with one counts as moved at every Reindex.

// record compares body b, of reach r, with the pose the previous Reindex
// recorded, records its bottom and heading in their place, and reports
// whether it moved. Its position and reach are recorded by storeJob.
func (c *clearance) record(b *Body, r float64) (moved bool) {
	moved = b.HasNub || !samePose(c, b) || math.Float64bits(c.r) != math.Float64bits(r)
	c.z, c.cos, c.sin = b.Z, b.Cos, b.Sin
	return moved
}

// samePose reports whether body b is, bit for bit, at the position, height
// and heading c recorded.
func samePose(c *clearance, b *Body) bool {
	return math.Float64bits(c.pos.X) == math.Float64bits(b.Pos.X) &&
		math.Float64bits(c.pos.Y) == math.Float64bits(b.Pos.Y) &&
		math.Float64bits(c.z) == math.Float64bits(b.Z) &&
		math.Float64bits(c.cos) == math.Float64bits(b.Cos) &&
		math.Float64bits(c.sin) == math.Float64bits(b.Sin)
}

// Generation returns the number of Reindexes so far: a caller that keeps
// an answer about a quiet body (Quiet) notes the generation it was
// computed at.
func (s *Space) Generation() uint64 { return s.gen }

// Quiet reports whether mobile body i is quiet at the last Reindex within
// r metres of its centre: its pose, and every body and static body within
// r of it, are bit for bit what the Reindex before found. A query about
// body i at its position that reads nothing farther than r (CastRing with
// outer <= r, Nearby, NearMobileDiscOf and Crowded about i within r)
// returns what it returned after the previous Reindex, generation
// Generation()-1: a caller that asked it then may keep its answer. False
// when unknown: r beyond the neighbour lists' range (r minus the body's
// reach above maxClearance), the body moved since the Reindex, was added
// or removed, is static, or has a nub.
func (s *Space) Quiet(i int, r float64) bool {
	if i >= len(s.clear) {
		return false
	}
	c := &s.clear[i]
	return c.quiet && r-c.r <= maxClearance-listSlack && samePose(c, &s.Bodies[i])
}
