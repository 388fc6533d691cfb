package space

import (
	"math"

	"github.com/argosgo/argos/ci"
)

// ringCands is how many candidates CastRing keeps on the stack; more
// spill to the heap.
const ringCands = 16

// ringNarrow is how many discs CastRing gathers on the stack at first: a
// robot of a sparse swarm meets a few, and Go clears a stack buffer
// whole at each call. A ring that meets more is cast again by
// castRingWide, with room for ringCands on its stack and more on the
// heap.
const ringNarrow = 6

// CastRing casts the rays of a ring of sensors around body i (a proximity
// ring): ray k leaves along dirs[k], a unit vector in the body's frame,
// and runs from inner to outer metres from the body's centre, at height
// z. It writes to t[k] the fraction of the ray at which it first meets
// another body, or -1 where it meets none, and returns how many rays met
// one. The fractions are bit for bit those of Nearby (with radius outer)
// followed by CastRayAmong for each ray; the bodies in reach are
// gathered once for the ring, without allocating, from the body's
// neighbour list, and a body that the index's clearance shows alone
// reads -1 everywhere without a ray test. It is the proximity sensors'
// query, the hottest of a swarm's ticks.
func (s *Space) CastRing(i int, dirs []ci.Vector2, inner, outer, z float64, t []float64) int {
	return s.CastRingWithin(i, dirs, inner, outer, outer, z, t)
}

// CastRingWithin is CastRing for the bodies that come within reach metres
// of body i's centre only: the rays are the same (inner to outer), and
// each fraction it writes is bit for bit CastRing's, except where a ray
// meets only bodies farther than reach, which reads -1 here. A sensor
// whose response reads nothing beyond some distance (an e-puck's, beyond
// 5 cm of its 10 cm rays) gives the same readings with reach at that
// distance plus a margin, and finds far more robots alone: the bodies
// it gathers, and the clearance it needs, are those of the shorter
// reach. reach at or above outer is CastRing.
func (s *Space) CastRingWithin(i int, dirs []ci.Vector2, inner, outer, reach, z float64, t []float64) int {
	b := &s.Bodies[i]
	p := b.Pos
	reach = min(reach, max(inner, outer))
	// A body alone (most of a sparse swarm) reads -1 everywhere: found
	// before the candidates' buffers are made (and zeroed).
	m := ci.Vector2{X: reach, Y: reach}
	lo, hi := p.Sub(m), p.Add(m)
	noStatic := s.static.none(lo, hi)
	if noStatic && s.clearOf(i, p, reach) {
		return missAll(t[:len(dirs)])
	}
	// A ray misses a disc whose centre lies farther than its radius from
	// the ray's line, or lies behind the ray's start by more than its
	// radius: such pairs are passed over after a cross and a dot
	// product, with a margin (tol) far beyond the rounding of the exact
	// test below, which would find no hit for them either (beside the
	// line its discriminant is negative, and the ray does not start
	// inside; behind the start the ray starts outside and points away).
	// Most pairs of a ring are such: a disc meets one or two rays of
	// eight, and without the dot product the rays pointing away from it
	// pass the cross product too. What of the tests depends on the disc
	// alone is computed once per disc, as ringCands gathers it (the
	// same operations on the same numbers as in the tests).
	tol := 1e-7 * (1 + outer + math.Abs(p.X) + math.Abs(p.Y))
	// (a ray that runs inward, outer below inner, has its start on the
	// far side: there the dot product rejects nothing)
	start := inner
	if outer < inner {
		start = math.Inf(-1)
	}
	f := ringFilter{inner: start, tol: tol}
	var buf [ringCands]int32
	var dbuf [ringNarrow]ringDisc
	cands, discs := s.ringCands(i, p, reach, z, noStatic, buf[:0], dbuf[:0], f)
	if discs == nil {
		return s.castRingWide(i, dirs, inner, outer, reach, z, noStatic, f, t)
	}
	return s.castRays(b, dirs, inner, outer, cands, discs, t)
}

// castRingWide is CastRingWithin's cast of a ring that meets more than
// ringNarrow discs, with larger buffers; apart, so that the others do
// not clear them.
//
//go:noinline
func (s *Space) castRingWide(i int, dirs []ci.Vector2, inner, outer, reach, z float64, noStatic bool, f ringFilter, t []float64) int {
	var buf [ringCands]int32
	var dbuf [ringCands]ringDisc
	cands, discs := s.ringCands(i, s.Bodies[i].Pos, reach, z, noStatic, buf[:0], dbuf[:0], f)
	return s.castRays(&s.Bodies[i], dirs, inner, outer, cands, discs, t)
}

// castRays casts the rays of CastRingWithin against the candidates that
// ringCands gathered, and writes their fractions to t.
func (s *Space) castRays(b *Body, dirs []ci.Vector2, inner, outer float64, cands []int32, discs []ringDisc, t []float64) int {
	if len(cands) == 0 && len(discs) == 0 {
		return missAll(t[:len(dirs)])
	}
	p := b.Pos
	hits := 0
	for k, d := range dirs {
		// the ray's direction turned by the body's heading
		c, sn := b.Cos*d.X-b.Sin*d.Y, b.Sin*d.X+b.Cos*d.Y
		from := ci.Vector2{X: p.X + c*inner, Y: p.Y + sn*inner}
		to := ci.Vector2{X: p.X + c*outer, Y: p.Y + sn*outer}
		// the first hit is the least fraction, whatever the order
		best := 2.0
		// rayDisc for each disc, inlined, with what depends on the ray
		// alone computed once (the same operations in the same order)
		dv := to.Sub(from)
		a := dv.Dot(dv)
		uu := c*c + sn*sn // (1, but for rounding)
		for q := range discs {
			d := &discs[q]
			// the centre's distance to the ray's line, times |(c, sn)|,
			// and how far along the ray it lies, times |(c, sn)| (1, but
			// for rounding, far within the margin)
			if x := c*d.rel.Y - sn*d.rel.X; x*x > d.lim2*uu || c*d.rel.X+sn*d.rel.Y < d.behind {
				continue // (NaN: on to the exact test)
			}
			f := from.Sub(d.pos)
			bb := f.Dot(dv)
			cc := f.Dot(f) - d.r2
			if cc <= 0 {
				best = 0 // starts inside: no hit comes earlier
				continue
			}
			if bb > 0 || a == 0 {
				continue // pointing away
			}
			disc := bb*bb - a*cc
			if disc < 0 {
				continue
			}
			if ti := (-bb - math.Sqrt(disc)) / a; ti <= 1 && ti < best {
				best = ti
			}
		}
		for _, j := range cands {
			if ti, ok := s.Bodies[j].rayHit(from, to); ok && ti < best {
				best = ti
			}
		}
		if best <= 1 {
			t[k] = best
			hits++
		} else {
			t[k] = -1
		}
	}
	return hits
}

// Epoch returns the number of Reindexes so far: RingSettled compares a
// ring cast after one with the same ring after the next.
func (s *Space) Epoch() uint32 { return s.epoch }

// RingSettled reports whether CastRingWithin(i, dirs, inner, outer,
// reach, z, t), cast after the Reindex of epoch since, gives now the same
// fractions, bit for bit, as it gave then, provided that the ring has
// the same parameters and body i the same heading (Cos and Sin, bit for
// bit). It says so only when since is the Reindex before the last one,
// the last one kept the set of mobile bodies and the static index of
// that one, i and every body of its neighbour list are plain discs found,
// at the last Reindex, where that one found them, and the list holds
// every body within reach at both: kept from that Reindex, it answered a
// query of that reach at both; built at the last one, it covers the
// reach by more than a body can have moved since. The bodies within
// reach are then the same, where they were. It is what a robot stuck in
// a cluster of stuck robots, as most robots are late in a long run of a
// dense swarm, may skip its ring for. False says nothing.
func (s *Space) RingSettled(i int, reach float64, since uint32) bool {
	if since+1 != s.epoch || !s.settled || i >= len(s.clear) {
		return false
	}
	c := &s.clear[i]
	if !c.still || c.cur != s.Bodies[i].Pos || !(reach-c.r+s.settleMargin <= maxClearance-listSlack) {
		return false
	}
	list := s.nb[c.chunk][c.start:c.end]
	for k := range list {
		if !list[k].still {
			return false
		}
	}
	return true
}

// sameAs reports whether the item is o, bit for bit but for still.
func (it *mobileItem) sameAs(o *mobileItem) bool {
	// (one test of the bits' differences, not one branch per field;
	// in Go, ^ and | bind alike: the parentheses are needed)
	diff := (math.Float64bits(it.pos.X) ^ math.Float64bits(o.pos.X)) | (math.Float64bits(it.pos.Y) ^ math.Float64bits(o.pos.Y)) |
		(math.Float64bits(it.r) ^ math.Float64bits(o.r)) | (math.Float64bits(it.z0) ^ math.Float64bits(o.z0)) |
		(math.Float64bits(it.z1) ^ math.Float64bits(o.z1))
	return diff == 0 && it.body == o.body && it.plain == o.plain
}

// missAll sets every ray's reading to -1 (nothing in reach) and returns
// the number of hits, 0.
func missAll(t []float64) int {
	for k := range t {
		t[k] = -1
	}
	return 0
}

// ringDisc is a plain disc of the mobile index, as a ray meets it: its
// centre, and what CastRing's tests read of it (the centre less the
// ring's, the square of the radius, the square of the radius plus the
// margin, and the ray's start less the radius and the margin: a disc
// whose centre lies behind that along a ray lies wholly behind its
// start).
type ringDisc struct {
	pos, rel ci.Vector2
	r2, lim2 float64
	behind   float64
}

// ringFilter is what ringCands needs to compute CastRing's per-disc
// terms: the rays' start (inner; -Inf for rays that run inward, which
// the start bound must not cut) and the margin of its prefilters.
type ringFilter struct {
	inner, tol float64
}

// ringCands appends the bodies that Nearby(p, r, z, i) returns: plain
// discs of the mobile index to discs, as their disc, and the others to
// buf, as their handle (without removing the repeats of static bodies
// spanning several cells, which change no minimum). noStatic: the
// caller found no static body within r of p. Nil discs: they filled a
// buffer of fewer than ringCands (see ringNarrow).
func (s *Space) ringCands(i int, p ci.Vector2, r, z float64, noStatic bool, buf []int32, discs []ringDisc, f ringFilter) ([]int32, []ringDisc) {
	m := ci.Vector2{X: r, Y: r}
	g := &s.static
	if lo, hi := p.Sub(m), p.Add(m); !noStatic {
		x0, y0, x1, y1 := g.span(lo, hi)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				c := g.local(x, y)
				for _, j := range g.items[g.start[c]:g.start[c+1]] {
					o := &s.Bodies[j]
					if int(j) == i || !o.spans(z) || o.Distance(p) > r {
						continue
					}
					buf = append(buf, j)
				}
			}
		}
	}
	if s.clearOf(i, p, r) {
		return buf, discs // no other mobile body comes within r of the body at p
	}
	if list, ok := s.neighbours(i, p, p, r); ok {
		return ringAdd(list, i, p, r, z, f, buf, discs)
	}
	s.fresh()
	mg := &s.mobile
	pad := ci.Vector2{X: r + s.maxMobileR, Y: r + s.maxMobileR}
	x0, y0, x1, y1 := mg.Span(p.Sub(pad), p.Add(pad))
	for y := y0; y <= y1; y++ {
		var k0, k1 int
		if mg.sparse {
			k0, k1 = mg.rowSparse(y, x0, x1)
		} else {
			k0, k1 = mg.rowDense(y, x0, x1)
		}
		if buf, discs = ringAdd(s.mitem[k0:k1], i, p, r, z, f, buf, discs); discs == nil {
			return buf, nil
		}
	}
	return buf, discs
}

// ringAdd appends to buf and discs those of items, other than body i,
// whose disc comes within r of p and spans height z, as ringCands
// does; it returns nil discs when they fill a buffer of fewer than
// ringCands, and grows a larger one. A loop of its own, with buf and
// discs in locals: appended to by a closure, they lived in memory, read
// and written again for every item.
func ringAdd(items []mobileItem, i int, p ci.Vector2, r, z float64, f ringFilter, buf []int32, discs []ringDisc) ([]int32, []ringDisc) {
	for k := range items {
		it := &items[k]
		d := it.pos.Sub(p)
		reach := r + it.r
		if d.X*d.X+d.Y*d.Y > reach*reach {
			continue
		}
		if int(it.body) == i || z < it.z0 || z > it.z1 {
			continue
		}
		if !it.plain {
			buf = append(buf, it.body)
			continue
		}
		// written in place, field by field: a literal appended is built
		// on the stack and copied, and the copy's wide loads of its
		// narrow stores stall
		n := len(discs)
		if n == cap(discs) {
			if n < ringCands {
				return buf, nil // (see ringNarrow)
			}
			discs = append(discs, ringDisc{})
		}
		discs = discs[:n+1]
		e, lim := &discs[n], it.r+f.tol
		e.pos, e.rel = it.pos, d
		e.r2, e.lim2, e.behind = it.r*it.r, lim*lim, f.inner-lim
	}
	return buf, discs
}
