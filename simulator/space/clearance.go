package space

import (
	"math"

	"github.com/argosgo/argos/ci"
)

// clearance is how far a mobile body was from every other mobile body
// when the index was built: the gap between its bounding disc and the
// nearest other one, or a lower bound of it.
type clearance struct {
	pos ci.Vector2 // the body's position then
	gap float64
}

// clearanceJob computes the clearance of the items of chunk c of the
// mobile index. Items are in grid order, so consecutive items scan the
// same index rows; a body's neighbourhood is scanned once here, in that
// order, instead of once per query in whatever order queries come, and
// most queries of an uncrowded swarm (sensors, kinematics2d's contacts)
// then end at the clearance.
func (s *Space) clearanceJob(c int) {
	g := &s.mobile
	for k := c * reindexChunk; k < min((c+1)*reindexChunk, len(s.mitem)); k++ {
		m := &s.mitem[k]
		// Only the cells within maxClearance of the disc are scanned:
		// beyond them every body is farther, so the bound holds.
		gap := maxClearance
		pad := ci.Vector2{X: maxClearance + m.r + s.maxMobileR, Y: maxClearance + m.r + s.maxMobileR}
		x0, y0, x1, y1 := g.Span(m.pos.Sub(pad), m.pos.Add(pad))
		for y := y0; y <= y1; y++ {
			var q0, q1 int
			if g.sparse {
				q0, q1 = g.rowSparse(y, x0, x1)
			} else {
				q0, q1 = g.rowDense(y, x0, x1)
			}
			for q := q0; q < q1; q++ {
				if int(q) == k {
					continue
				}
				o := &s.mitem[q]
				d := o.pos.Sub(m.pos)
				gap = math.Min(gap, math.Sqrt(d.X*d.X+d.Y*d.Y)-m.r-o.r)
			}
		}
		s.clear[m.body] = clearance{pos: m.pos, gap: gap}
	}
}

// maxClearance caps the clearance the index computes, in metres: about a
// proximity sensor's range, the largest gap queries ask about.
const maxClearance = 0.125

// Clearance returns, for mobile body i at position p, a lower bound of
// the gap between its bounding disc and every other mobile body's (at
// most maxClearance), as of the last Reindex; ok is false when the index
// does not hold i at p (it moved, was removed, or is static).
func (s *Space) Clearance(i int, p ci.Vector2) (gap float64, ok bool) {
	if i >= len(s.clear) {
		return 0, false
	}
	c := s.clear[i]
	return c.gap, c.pos == p // NaN for bodies out of the index
}

// unclear marks body i as out of the index.
func (s *Space) unclear(i int) {
	if i < len(s.clear) {
		s.clear[i].pos = ci.Vector2{X: math.NaN(), Y: math.NaN()}
	}
}

// clearOf reports whether no other mobile body's footprint comes within
// r of p, mobile body i's position, according to its clearance.
func (s *Space) clearOf(i int, p ci.Vector2, r float64) bool {
	gap, ok := s.Clearance(i, p)
	return ok && gap+s.Bodies[i].Reach() > r
}
