package space

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/internal/hugepage"
)

// footGrid indexes bodies by every cell of a uniform lattice their
// bounding box touches, stored as a compressed cell list (counting sort):
// the bodies of window cell c are items[start[c]:start[c+1]]. Only the
// rectangle of cells the bodies cover (the window) is stored, so that its
// cost follows the bodies, not the arena; points outside the lattice fall
// into its border cells. The static bodies use it: long walls span many
// cells, and it is rebuilt only when they change.
type footGrid struct {
	lo       ci.Vector2
	inv      float64
	nx, ny   int // the lattice
	wx0, wy0 int // the window
	wnx, wny int // 0 when empty
	start    []int32
	items    []int32
	// quiet[c]: window cell c, the cell right of it, the one above it
	// and the one above and right hold no item (as far as they lie in
	// the window), so that a box narrower than half a cell whose lower
	// corner falls in c meets nothing: most queries of a swarm far from
	// the walls end there, without walking their cells.
	quiet []bool
}

// maxFootCells bounds the window's cells; beyond it cells grow.
const maxFootCells = 1 << 22

func (g *footGrid) cellXY(p ci.Vector2) (int, int) {
	return clampCell((p.X-g.lo.X)*g.inv, g.nx), clampCell((p.Y-g.lo.Y)*g.inv, g.ny)
}

// build indexes the selected bodies over the lattice [lo, hi] of cells of
// about the given size.
func (g *footGrid) build(lo, hi ci.Vector2, cell float64, bodies []Body, sel []int32) {
	w, h := math.Max(hi.X-lo.X, 0), math.Max(hi.Y-lo.Y, 0)
	// the bodies' bounding box, in metres
	blo := ci.Vector2{X: math.Inf(1), Y: math.Inf(1)}
	bhi := ci.Vector2{X: math.Inf(-1), Y: math.Inf(-1)}
	for _, i := range sel {
		l, u := bodies[i].bounds()
		blo = ci.Vector2{X: math.Min(blo.X, l.X), Y: math.Min(blo.Y, l.Y)}
		bhi = ci.Vector2{X: math.Max(bhi.X, u.X), Y: math.Max(bhi.Y, u.Y)}
	}
	// the box clamped to the lattice, where the bodies' cells lie
	bw := math.Min(bhi.X, hi.X) - math.Max(blo.X, lo.X)
	bh := math.Min(bhi.Y, hi.Y) - math.Max(blo.Y, lo.Y)
	cell = math.Max(cell, 1e-9)
	for (w/cell >= maxLattice || h/cell >= maxLattice) ||
		(math.Max(bw, 0)/cell+2)*(math.Max(bh, 0)/cell+2) > maxFootCells {
		cell *= 1.5
	}
	g.lo, g.inv = lo, 1/cell
	g.nx = max(1, int(math.Ceil(w/cell)))
	g.ny = max(1, int(math.Ceil(h/cell)))
	g.wnx, g.wny = 0, 0
	if len(sel) == 0 {
		g.start, g.items = g.start[:0], g.items[:0]
		return
	}
	x0, y0 := g.cellXY(blo)
	x1, y1 := g.cellXY(bhi)
	g.wx0, g.wy0, g.wnx, g.wny = x0, y0, x1-x0+1, y1-y0+1
	g.start = resize(g.start, g.wnx*g.wny+1)
	clear(g.start)
	total := 0
	for _, i := range sel {
		x0, y0, x1, y1 := g.span(bodies[i].bounds())
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				g.start[g.local(x, y)+1]++
				total++
			}
		}
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	g.items = resize(g.items, total)
	for _, i := range sel {
		x0, y0, x1, y1 := g.span(bodies[i].bounds())
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				c := g.local(x, y)
				g.items[g.start[c]] = i
				g.start[c]++
			}
		}
	}
	// the cursors ended at the next cell's start: shift them back
	copy(g.start[1:], g.start[:len(g.start)-1])
	g.start[0] = 0
	g.quiet = resize(g.quiet, g.wnx*g.wny)
	empty := func(x, y int) bool {
		if x >= g.wnx || y >= g.wny {
			return true // beyond the window: a span never reaches it
		}
		c := y*g.wnx + x
		return g.start[c] == g.start[c+1]
	}
	for y := range g.wny {
		for x := range g.wnx {
			g.quiet[y*g.wnx+x] = empty(x, y) && empty(x+1, y) && empty(x, y+1) && empty(x+1, y+1)
		}
	}
}

// none reports whether the box [lo, hi] surely meets no item: it is
// narrower than half a cell (so its span is at most two cells wide and
// tall from the cell of lo) and the cells it may span are quiet. False
// says nothing.
func (g *footGrid) none(lo, hi ci.Vector2) bool {
	if g.wnx == 0 {
		return true
	}
	if !((hi.X-lo.X)*g.inv <= 0.5 && (hi.Y-lo.Y)*g.inv <= 0.5) { // (NaN: false)
		return false
	}
	x, y := g.cellXY(lo)
	x, y = x-g.wx0, y-g.wy0
	return x >= 0 && y >= 0 && x < g.wnx && y < g.wny && g.quiet[y*g.wnx+x]
}

func (g *footGrid) local(x, y int) int { return (y-g.wy0)*g.wnx + x - g.wx0 }

// span returns the window cells covering [lo, hi] (no row when y0 > y1).
func (g *footGrid) span(lo, hi ci.Vector2) (x0, y0, x1, y1 int) {
	if g.wnx == 0 {
		return 0, 0, -1, -1
	}
	x0, y0 = g.cellXY(lo)
	x1, y1 = g.cellXY(hi)
	x0, y0 = max(x0, g.wx0), max(y0, g.wy0)
	x1, y1 = min(x1, g.wx0+g.wnx-1), min(y1, g.wy0+g.wny-1)
	if x0 > x1 {
		return 0, 0, -1, -1
	}
	return x0, y0, x1, y1
}

// visit calls fn for the items of the cells covering [lo, hi] until fn
// returns false, and reports whether it went through all of them.
func (g *footGrid) visit(lo, hi ci.Vector2, fn func(i int) bool) bool {
	x0, y0, x1, y1 := g.span(lo, hi)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := g.local(x, y)
			for _, i := range g.items[g.start[c]:g.start[c+1]] {
				if !fn(int(i)) {
					return false
				}
			}
		}
	}
	return true
}

// PointGrid indexes a set of points (for example bodies in an engine's own
// plane coordinates) for neighbour queries. Build it once per use; it
// reuses its memory, and its cost follows the number of points, however
// far apart they lie.
type PointGrid struct {
	c Cells
}

// Build indexes points 0..n-1 at the positions at returns, with cells of
// the given size (about the largest query radius).
func (p *PointGrid) Build(n int, at func(k int) ci.Vector2, cell float64) {
	lo := ci.Vector2{X: math.Inf(1), Y: math.Inf(1)}
	hi := ci.Vector2{X: math.Inf(-1), Y: math.Inf(-1)}
	for k := 0; k < n; k++ {
		q := at(k)
		lo = ci.Vector2{X: math.Min(lo.X, q.X), Y: math.Min(lo.Y, q.Y)}
		hi = ci.Vector2{X: math.Max(hi.X, q.X), Y: math.Max(hi.Y, q.Y)}
	}
	if n == 0 {
		lo, hi = ci.Vector2{}, ci.Vector2{}
	}
	p.c.Build(lo, hi.Add(ci.Vector2{X: 1e-9, Y: 1e-9}), math.Max(cell, 1e-6), n, at)
}

// Near calls fn for every point whose cell meets the box [lo, hi] (a
// superset of the points inside it) until fn returns false.
func (p *PointGrid) Near(lo, hi ci.Vector2, fn func(k int) bool) {
	p.c.Near(lo, hi, fn)
}

// resize returns s with length n, reusing its memory when it has room
// (keeping its first elements; the rest are not zeroed), or else a fresh
// slice.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return hugepage.Make[T](n, n)
}

// AppendNear appends to buf the points whose cell meets the box [lo, hi]
// (Near's, without a callback), in cell order, and returns it.
func (p *PointGrid) AppendNear(lo, hi ci.Vector2, buf []int32) []int32 {
	g := &p.c
	x0, y0, x1, y1 := g.Span(lo, hi)
	for y := y0; y <= y1; y++ {
		k0, k1 := g.Row(y, x0, x1)
		buf = append(buf, g.items[k0:k1]...)
	}
	return buf
}
