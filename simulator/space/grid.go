package space

import (
	"math"

	"github.com/argosgo/argos/ci"
)

// grid is a uniform grid over the arena, stored as a compressed cell list
// (counting sort): the bodies of cell c are items[start[c]:start[c+1]].
// Points outside the arena fall into the border cells.
type grid struct {
	origin ci.Vector2
	cell   float64
	inv    float64
	nx, ny int
	start  []int32
	items  []int32
	cursor []int32 // scratch: insertion cursors
	cells  []int32 // scratch: cell of each selected body
}

func (g *grid) init(lo, hi ci.Vector2, cell float64) {
	const maxCells = 1 << 22
	w, h := hi.X-lo.X, hi.Y-lo.Y
	for math.Ceil(w/cell)*math.Ceil(h/cell) > maxCells {
		cell *= 1.5
	}
	g.origin, g.cell, g.inv = lo, cell, 1/cell
	g.nx = max(1, int(math.Ceil(w/cell)))
	g.ny = max(1, int(math.Ceil(h/cell)))
	n := g.nx*g.ny + 1
	if cap(g.start) >= n {
		g.start = g.start[:n]
	} else {
		g.start = make([]int32, n)
	}
}

func (g *grid) cellXY(p ci.Vector2) (int, int) {
	x := int(math.Floor((p.X - g.origin.X) * g.inv))
	y := int(math.Floor((p.Y - g.origin.Y) * g.inv))
	return min(max(x, 0), g.nx-1), min(max(y, 0), g.ny-1)
}

// rangeXY returns the cell rectangle covering [lo, hi].
func (g *grid) rangeXY(lo, hi ci.Vector2) (x0, y0, x1, y1 int) {
	x0, y0 = g.cellXY(lo)
	x1, y1 = g.cellXY(hi)
	return
}

// buildPoints indexes points 0..n-1 by the cell they fall in.
func (g *grid) buildPoints(n int, at func(k int) ci.Vector2) {
	clear(g.start)
	cells := g.scratchCells(n)
	for k := 0; k < n; k++ {
		x, y := g.cellXY(at(k))
		c := int32(y*g.nx + x)
		cells[k] = c
		g.start[c+1]++
	}
	g.prefix()
	g.items = resize(g.items, n)
	fill := g.fillCursor()
	for k := 0; k < n; k++ {
		c := cells[k]
		g.items[fill[c]] = int32(k)
		fill[c]++
	}
}

// visit calls fn for the items of the cells covering [lo, hi] until fn
// returns false, and reports whether it went through all of them.
func (g *grid) visit(lo, hi ci.Vector2, fn func(i int) bool) bool {
	x0, y0, x1, y1 := g.rangeXY(lo, hi)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := y*g.nx + x
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
// reuses its memory.
type PointGrid struct {
	g      grid
	maxPad float64
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
	p.g.init(lo, hi.Add(ci.Vector2{X: 1e-9, Y: 1e-9}), math.Max(cell, 1e-6))
	p.g.buildPoints(n, at)
}

// Near calls fn for every point whose cell meets the box [lo, hi] (a
// superset of the points inside it) until fn returns false.
func (p *PointGrid) Near(lo, hi ci.Vector2, fn func(k int) bool) {
	p.g.visit(lo, hi, fn)
}

// buildFootprints indexes the selected bodies in every cell their bounding
// box touches.
func (g *grid) buildFootprints(bodies []Body, sel []int32) {
	clear(g.start)
	total := 0
	for _, i := range sel {
		x0, y0, x1, y1 := g.rangeXY(bodies[i].bounds())
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				g.start[y*g.nx+x+1]++
				total++
			}
		}
	}
	g.prefix()
	g.items = resize(g.items, total)
	fill := g.fillCursor()
	for _, i := range sel {
		x0, y0, x1, y1 := g.rangeXY(bodies[i].bounds())
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				c := y*g.nx + x
				g.items[fill[c]] = i
				fill[c]++
			}
		}
	}
}

func (g *grid) prefix() {
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
}

// fillCursor returns the cell starts copied into a reused buffer, used as
// insertion cursors.
func (g *grid) fillCursor() []int32 {
	g.cursor = resize(g.cursor, len(g.start)-1)
	copy(g.cursor, g.start)
	return g.cursor
}

func (g *grid) scratchCells(n int) []int32 {
	g.cells = resize(g.cells, n)
	return g.cells
}

func resize(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}
