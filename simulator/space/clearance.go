package space

import (
	"math"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/internal/prefetch"
)

// clearance is how far a mobile body was from every other mobile body
// when the clearances were last built: the gap between its bounding disc
// and the nearest other one, or a lower bound of it; and, with its reach,
// where its neighbour list is, so that a query reads one entry (in body
// order) before the list itself. It also holds where the body was at the
// last Reindex, which may be later: the clearances and lists are built
// again only once some body has moved driftLimit from where it was then
// (Reindex), and hold until then with a margin (Space.shrink). One cache
// line per body.
type clearance struct {
	pos        ci.Vector2 // the body's position when the clearances were built
	cur        ci.Vector2 // its position at the last Reindex (NaN: out of the index)
	gap        float64
	r          float64 // its reach then
	chunk      int32   // its neighbour list is nb[chunk][start:end] (scan[chunk] during Reindex)
	start, end int32
	still      bool // its item at the last Reindex is still (mobileItem)
}

// driftLimit is how far a mobile body may move from where it was when the
// clearances and neighbour lists were built before Reindex builds them
// again, in metres, to begin with: six ticks of an e-puck driving at
// 5 cm/s. Until then a clearance loses twice the drift (the body and its
// nearest neighbour may both have moved closer), and a list serves the
// queries within maxClearance less twice the drift: an e-puck's ring
// (5 cm beyond its body) and kinematics2d's contact checks (a move) stay
// within it. Wider queries (a foot-bot's 10 cm rays) lower the limit
// (Space.denied).
const driftLimit = 0.03

// minDriftLimit is the least drift limit Reindex halves its limit to;
// below it, it builds the clearances at every Reindex.
const minDriftLimit = 1e-3

// driftSlack covers the rounding of the drift and of the bounds made
// from it (positions of a few hundred metres round at about 1e-13).
const driftSlack = 1e-9

// clearanceJob computes the clearance and the neighbour list of each
// body of chunk c of the mobile bodies (mobileSel, in body order), from
// a scan of the cells of the mobile grid within maxClearance of it, and
// writes them in body order, as the sensors and engines read them. Most
// queries of an uncrowded swarm (sensors, kinematics2d's contacts) then
// end at the clearance, and the others read the body's neighbour list:
// copies of the items whose bounding disc comes within maxClearance of
// its own, in grid order. Bodies stored in space order (as set-up
// stores them) scan the same rows one after the other; once they have
// drifted, each body's scan reads rows elsewhere, but the scans do not
// wait for one another. (Scanning in grid order and then copying the
// lists and gaps to body order, as this did before, cost some 20 % more
// at a million e-pucks, and some 14 % more at 100,000 drifted for five
// minutes.)
func (s *Space) clearanceJob(c int) {
	g := &s.mobile
	sel, slot, bitem, items, pts := s.mobileSel, g.slot, s.bitem, s.mitem, g.items
	nb, nbSel := s.nb[c][:0], s.nbSel[c][:0]
	lo, inv, nx, ny := g.lo, g.inv, g.nx, g.ny
	wx0, wy0, wx1, wy1 := g.wx0, g.wy0, g.wx0+g.wnx-1, g.wy0+g.wny-1
	sparse, start, wnx, off := g.sparse, g.start, g.wnx, g.off
	for k := c * reindexChunk; k < min((c+1)*reindexChunk, len(sel)); k++ {
		m := &bitem[k]
		own := int(slot[k])
		mp, mr := m.pos, m.r
		// Only the cells within maxClearance of the disc are scanned:
		// beyond them every body is farther, so the bound holds. They are
		// g.Span(mp-pad, mp+pad), computed here as Span does, operation
		// for operation (with what Span reads of the index in locals:
		// the appends would otherwise make the compiler read them again
		// for every body and row).
		gap := maxClearance
		pad := maxClearance + mr + s.maxMobileR
		x0 := max(clampCell((mp.X-pad-lo.X)*inv, nx), wx0)
		y0 := max(clampCell((mp.Y-pad-lo.Y)*inv, ny), wy0)
		x1 := min(clampCell((mp.X+pad-lo.X)*inv, nx), wx1)
		y1 := min(clampCell((mp.Y+pad-lo.Y)*inv, ny), wy1)
		if x0 > x1 {
			y1 = y0 - 1 // no cell (Span's empty answer)
		}
		first := int32(len(nb))
		for y := y0; y <= y1; y++ {
			var q0, q1 int
			if sparse {
				q0, q1 = g.rowSparse(y, x0, x1)
			} else {
				r := y*wnx - off
				q0, q1 = int(start[r+x0]), int(start[r+x1+1])
			}
			for i := range items[q0:q1] {
				o := &items[q0+i]
				if q0+i == own {
					continue
				}
				d := o.pos.Sub(mp)
				d2 := d.X*d.X + d.Y*d.Y
				// a pair whose gap is surely beyond maxClearance changes
				// neither the bound nor the list: no square root for it
				if lim := maxClearance + mr + o.r; d2 > lim*lim*(1+1e-9) {
					continue
				}
				gq := math.Sqrt(d2) - mr - o.r
				gap = min(gap, gq)
				if gq <= maxClearance {
					nb = append(nb, *o)
					nbSel = append(nbSel, pts[q0+i])
				}
			}
		}
		s.clear[sel[k]] = clearance{pos: mp, cur: mp, gap: gap, r: mr,
			chunk: int32(c), start: first, end: int32(len(nb)), still: m.still}
	}
	s.nb[c], s.nbSel[c] = nb, nbSel
}

// refreshJob copies again, into the neighbour lists of chunk c of the
// mobile bodies, the items of the neighbours they name, as this Reindex
// made them (the lists were built at an earlier one): the queries read
// where the bodies are now. One pass over the lists, whose scattered
// reads do not wait for one another. A still neighbour's item is the
// last Reindex's, bit for bit but for the flag, which its entry holds
// (every Reindex refreshes or builds the lists): late in a crowded run,
// when most neighbours are jammed, the pass reads a byte of each, apart,
// instead of its item, and sets the flag in the entry, read in order.
func (s *Space) refreshJob(c int) {
	nb, items, still := s.nb[c], s.bitem, s.bstill
	for e, k := range s.nbSel[c] {
		switch {
		case !still[k]:
			nb[e] = items[k]
		case !nb[e].still:
			nb[e].still = true
		}
	}
}

// maxClearance caps the clearance the index computes, in metres: about a
// proximity sensor's range, the largest gap queries ask about. The
// neighbour lists hold the bodies within it.
const maxClearance = 0.125

// listSlack is how far inside maxClearance a query must stay to be
// answered from a neighbour list (far more than any rounding).
const listSlack = 1e-6

// Clearance returns, for mobile body i at position p, a lower bound of
// the gap between its bounding disc and every other mobile body's (at
// most maxClearance), as of the last Reindex; ok is false when the index
// does not hold i at p (it moved, was removed, or is static).
func (s *Space) Clearance(i int, p ci.Vector2) (gap float64, ok bool) {
	if i >= len(s.clear) {
		return 0, false
	}
	c := &s.clear[i]
	// (both bodies may have come closer by the drift since it was built)
	return c.gap - s.shrink, c.cur == p // NaN for bodies out of the index
}

// PrefetchClearance asks for the memory of mobile body i's clearance
// (Clearance, and the first thing every query about i reads), without
// waiting for it: a caller that queries a scattered few of the bodies
// asks for those a few queries ahead. It changes nothing.
func (s *Space) PrefetchClearance(i int) {
	if uint(i) < uint(len(s.clear)) {
		prefetch.Line(unsafe.Pointer(&s.clear[i]))
	}
}

// unclear marks body i as out of the index.
func (s *Space) unclear(i int) {
	if i < len(s.clear) {
		nan := ci.Vector2{X: math.NaN(), Y: math.NaN()}
		s.clear[i].pos, s.clear[i].cur = nan, nan
	}
}

// clearOf reports whether no other mobile body's footprint comes within
// r of p, mobile body i's position, according to its clearance.
func (s *Space) clearOf(i int, p ci.Vector2, r float64) bool {
	gap, ok := s.Clearance(i, p)
	return ok && gap+s.Bodies[i].Reach() > r
}

// neighbours returns the items of the mobile bodies (as of the last
// Reindex) whose bounding disc came within
// maxClearance of body i's when the clearances were built, if the index
// holds i at p and every body whose bounding disc comes within r of q is
// among them: |q-p| + r, plus twice the drift (i and the other body may
// both have moved), stays within maxClearance of i's disc.
func (s *Space) neighbours(i int, p, q ci.Vector2, r float64) ([]mobileItem, bool) {
	if i >= len(s.clear) {
		return nil, false
	}
	c := &s.clear[i]
	if c.cur != p {
		return nil, false
	}
	if q != p {
		d := q.Sub(p)
		r += math.Sqrt(d.X*d.X + d.Y*d.Y)
	}
	if need := r - c.r; need+s.shrink > maxClearance-listSlack {
		if s.shrink > 0 && need <= maxClearance-listSlack && !s.denied.Load() {
			s.denied.Store(true) // refused for the drift alone (Reindex)
		}
		return nil, false
	}
	return s.nb[c.chunk][c.start:c.end], true
}
