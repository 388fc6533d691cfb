package media

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// cells is a uniform grid over a rectangle (space.Cells: its cost follows
// the number of points, not the rectangle's area), with the lattice's
// geometry at hand. Points outside the rectangle fall into the border
// cells. It reuses its memory between builds.
type cells struct {
	space.Cells
	items  []int32 // Items() of the last build
	lo     ci.Vector2
	cell   float64
	nx, ny int
}

// build indexes points 0..n-1 (at returns their position) over [lo, hi]
// in cells of about size cell.
func (g *cells) build(lo, hi ci.Vector2, cell float64, n int, at func(k int) ci.Vector2) {
	g.Build(lo, hi, math.Max(cell, 1e-3), n, at)
	g.items = g.Items()
	g.lo, g.cell, g.nx, g.ny = g.Lattice()
}

func (g *cells) cellXY(p ci.Vector2) (int, int) { return g.CellXY(p) }

// span returns the rectangle of cells that covers [lo, hi] (no row when
// y0 > y1).
func (g *cells) span(lo, hi ci.Vector2) (x0, y0, x1, y1 int) { return g.Span(lo, hi) }

// row returns the items of cells x0..x1 of row y (contiguous in memory).
func (g *cells) row(y, x0, x1 int) []int32 {
	k0, k1 := g.Row(y, x0, x1)
	return g.items[k0:k1]
}
