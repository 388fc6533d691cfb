package media

import (
	"math"

	"github.com/argosgo/argos/ci"
)

// cells is a uniform grid over a rectangle, stored as a compressed cell
// list: the items of cell c are items[start[c]:start[c+1]]. Points
// outside the rectangle fall into the border cells. It reuses its memory
// between builds.
type cells struct {
	lo     ci.Vector2
	inv    float64
	nx, ny int
	start  []int32
	items  []int32
	cellOf []int32
}

// maxCells bounds the grid's memory for huge arenas: cells grow instead.
const maxCells = 1 << 20

// build indexes points 0..n-1 (at returns their position) over [lo, hi]
// in cells of about size cell.
func (g *cells) build(lo, hi ci.Vector2, cell float64, n int, at func(k int) ci.Vector2) {
	w, h := math.Max(hi.X-lo.X, 1e-6), math.Max(hi.Y-lo.Y, 1e-6)
	cell = math.Max(cell, 1e-3)
	for math.Ceil(w/cell)*math.Ceil(h/cell) > maxCells {
		cell *= 1.5
	}
	g.lo, g.inv = lo, 1/cell
	g.nx, g.ny = max(1, int(math.Ceil(w/cell))), max(1, int(math.Ceil(h/cell)))
	g.start = grow(g.start, g.nx*g.ny+1)
	clear(g.start)
	g.cellOf = grow(g.cellOf, n)
	for k := 0; k < n; k++ {
		x, y := g.cellXY(at(k))
		c := int32(y*g.nx + x)
		g.cellOf[k] = c
		g.start[c+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	g.items = grow(g.items, n)
	// fill in reverse with decreasing cursors, so that each cell lists its
	// points in increasing order
	for k := n - 1; k >= 0; k-- {
		c := g.cellOf[k]
		g.start[c+1]--
		g.items[g.start[c+1]] = int32(k)
	}
	// start[c+1] now holds the start of cell c; shift back
	copy(g.start, g.start[1:])
	g.start[len(g.start)-1] = int32(n)
}

func (g *cells) cellXY(p ci.Vector2) (int, int) {
	x := int(math.Floor((p.X - g.lo.X) * g.inv))
	y := int(math.Floor((p.Y - g.lo.Y) * g.inv))
	return min(max(x, 0), g.nx-1), min(max(y, 0), g.ny-1)
}

// span returns the rectangle of cells that covers [lo, hi].
func (g *cells) span(lo, hi ci.Vector2) (x0, y0, x1, y1 int) {
	if g.nx == 0 { // never built: nothing
		return 0, 0, -1, -1
	}
	x0, y0 = g.cellXY(lo)
	x1, y1 = g.cellXY(hi)
	return
}

// row returns the items of cells x0..x1 of row y (contiguous in memory).
func (g *cells) row(y, x0, x1 int) []int32 {
	return g.items[g.start[y*g.nx+x0]:g.start[y*g.nx+x1+1]]
}

func grow(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}
