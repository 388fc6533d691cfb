package space

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/argosgo/argos/ci"
)

// Cells indexes points by the square cell of a uniform lattice they fall
// in, so that the points near a place are a few runs of one array: the
// items of the cells x0..x1 of row y are Items()[Row(y, x0, x1)].
//
// Its cost follows the number of points, not the area of the lattice:
// only the rectangle of cells the points occupy (the window) is stored,
// as an array of cell starts when the window holds few cells per point
// (dense), or else as the sorted cell of every item (sparse), where a row
// is found by bisection. Both store the items in the same order (by row,
// then by column, then by point index), so a query gives the same result
// whichever is used. Points outside the lattice fall into its border
// cells.
//
// A Cells reuses its memory from one Build to the next; queries may run
// from many goroutines at once, but not during Build.
type Cells struct {
	lo       ci.Vector2 // the lattice's corner
	cell     float64
	inv      float64
	nx, ny   int // the lattice's size in cells
	wx0, wy0 int // the window's first cell
	wnx, wny int // the window's size in cells; 0 when there is no point
	off      int // wy0*wnx + wx0: row y of the dense starts begins at y*wnx - off
	sparse   bool
	start    []int32  // dense: the first item of each window cell, then the end
	keys     []uint64 // sparse: the cell key (row<<32 | column) of each item
	items    []int32
	slot     []int32  // slot[k]: where point k is in items
	pk       []uint64 // scratch: the cell key of each point
	tk       []uint64 // scratch for the radix sort
	ti       []int32
	force    int8 // tests: 1 forces the dense form, 2 the sparse one
	// IndexWith's halves: the window of each half of the points; the
	// window cell where the second half of the cells begins, and the
	// lattice row where the last build's points were halved (0 before
	// the first: the second job then does all the work once)
	half   [2][4]uint32
	mid    int
	midRow int
	halfJ  struct {
		bounds, dense func(h int)
		of            *Cells // the Cells they work on (a copy makes its own)
	}
}

// maxLattice bounds the lattice's size along each axis, so that cell
// keys fit in 32 bits per axis; beyond it cells grow.
const maxLattice = 1 << 28

// maxDense bounds the cells a dense window may have (the memory of its
// array of starts).
const maxDense = 1 << 22

// denseCells is how many cells a dense window of n points may have: about
// what bisecting the rows of a sparse one costs the queries of a tick
// (each point's sensors and engines query a few rows around it), so that
// the dense form is chosen only where it is the cheaper.
func denseCells(n int) int {
	return min(4096+16*n*bits.Len(uint(n)), maxDense)
}

// Build indexes the points 0..n-1 that at returns, on a lattice of cells
// of about the given size whose corner is lo and which covers hi.
func (g *Cells) Build(lo, hi ci.Vector2, cell float64, n int, at func(k int) ci.Vector2) {
	g.Reset(lo, hi, cell)
	keys := g.Keys(n)
	for k := range keys {
		keys[k] = g.Key(at(k))
	}
	g.Index()
}

// Reset starts a build in three steps, for callers that compute the keys
// of their points in parallel: Reset sets the lattice, the caller fills
// Keys(n) with the Key of each point, and Index sorts them.
func (g *Cells) Reset(lo, hi ci.Vector2, cell float64) { g.setLattice(lo, hi, cell) }

// Keys returns room for the keys of n points, to fill with Key.
func (g *Cells) Keys(n int) []uint64 {
	g.pk = resize(g.pk, n)
	return g.pk
}

// Key returns the key of the lattice cell of p.
func (g *Cells) Key(p ci.Vector2) uint64 {
	x, y := g.CellXY(p)
	return uint64(y)<<32 | uint64(x)
}

// Index indexes the points whose keys fill Keys.
func (g *Cells) Index() { g.index(nil, len(g.pk)) }

// IndexWith is Index with its passes over the points run by run, in two
// halves, when there are many points: it builds the same index.
func (g *Cells) IndexWith(run Runner) { g.index(run, len(g.pk)) }

// parallelIndex is how many points IndexWith needs before it splits its
// passes: below it, waking another thread costs more than it saves.
const parallelIndex = 1 << 15

func (g *Cells) setLattice(lo, hi ci.Vector2, cell float64) {
	w, h := math.Max(hi.X-lo.X, 0), math.Max(hi.Y-lo.Y, 0)
	cell = math.Max(cell, 1e-9)
	for w/cell >= maxLattice || h/cell >= maxLattice {
		cell *= 2
	}
	g.lo, g.cell, g.inv = lo, cell, 1/cell
	g.nx = max(1, int(math.Ceil(w/cell)))
	g.ny = max(1, int(math.Ceil(h/cell)))
}

// index sorts the points by their keys (pk) into items, its passes run
// by run in two halves when it is not nil and there are many points.
func (g *Cells) index(run Runner, n int) {
	g.items = resize(g.items, n)
	g.slot = resize(g.slot, n)
	g.wnx, g.wny = 0, 0
	g.sparse = false
	g.start = g.start[:0]
	if n == 0 {
		return
	}
	halves := run != nil && n >= parallelIndex
	if halves && g.halfJ.of != g {
		g.halfJobs()
	}
	var b [4]uint32
	if halves {
		run.Run(2, g.halfJ.bounds)
		b = g.half[0]
		b[0], b[1] = min(b[0], g.half[1][0]), min(b[1], g.half[1][1])
		b[2], b[3] = max(b[2], g.half[1][2]), max(b[3], g.half[1][3])
	} else {
		b = keyBounds(g.pk)
	}
	x0, y0, x1, y1 := b[0], b[1], b[2], b[3]
	g.wx0, g.wy0 = int(x0), int(y0)
	g.wnx, g.wny = int(x1-x0)+1, int(y1-y0)+1
	g.off = g.wy0*g.wnx + g.wx0
	if g.force == 1 || g.force == 0 && g.wnx <= denseCells(n)/g.wny {
		if halves {
			g.indexDenseHalves(run, n)
		} else {
			g.indexDense(n)
		}
	} else {
		g.indexSparse(n)
	}
}

// keyBounds returns the smallest column and row of the keys, then the
// largest.
func keyBounds(keys []uint64) [4]uint32 {
	x0, y0, x1, y1 := uint32(math.MaxUint32), uint32(math.MaxUint32), uint32(0), uint32(0)
	for _, key := range keys {
		x, y := uint32(key), uint32(key>>32)
		x0, x1 = min(x0, x), max(x1, x)
		y0, y1 = min(y0, y), max(y1, y)
	}
	return [4]uint32{x0, y0, x1, y1}
}

// halfPoints returns the points of half h.
func (g *Cells) halfPoints(h int) (k0, k1 int) {
	mid := len(g.pk) / 2
	if h == 0 {
		return 0, mid
	}
	return mid, len(g.pk)
}

// halfJobs makes IndexWith's jobs once, so that indexing allocates
// nothing.
func (g *Cells) halfJobs() {
	g.halfJ.bounds = func(h int) {
		k0, k1 := g.halfPoints(h)
		g.half[h] = keyBounds(g.pk[k0:k1])
	}
	g.halfJ.dense = g.indexDenseHalf
	g.halfJ.of = g
}

// indexDenseHalves is indexDense by two jobs at once, one for each half
// of the window's cells (split at the row that halved the last build's
// points). Each goes over every point, in point order, and counts, then
// places, only those of its own cells, after the points of the cells
// before them (which it counts too): the cells hold the points
// indexDense puts there, in the same order, and the jobs write apart.
func (g *Cells) indexDenseHalves(run Runner, n int) {
	cells := g.wnx * g.wny
	if cap(g.start) >= cells+1 {
		g.start = g.start[:cells+1]
	} else {
		g.start = make([]int32, cells+1)
	}
	g.start[0] = 0
	g.mid = min(max(g.midRow-g.wy0, 0), g.wny) * g.wnx
	run.Run(2, g.halfJ.dense)
	// the row where the points are halved, for the next build (keys move
	// little from one build to the next): the first whose start reaches
	// half the points
	r, _ := slices.BinarySearchFunc(g.start[:cells:cells], int32(n/2), func(s, half int32) int {
		return cmp.Compare(s, half)
	})
	g.midRow = g.wy0 + r/g.wnx
}

// indexDenseHalf is half h of indexDenseHalves. start[c+1] counts the
// points of cell c, then holds where the cell's next point goes (its
// start to begin with, the next cell's once it is filled): so the jobs
// never write to the other's part of start, and no pass shifts it back.
func (g *Cells) indexDenseHalf(h int) {
	cells := g.wnx * g.wny
	lo, hi := 0, g.mid
	if h == 1 {
		lo, hi = g.mid, cells
	}
	at := g.start[lo+1 : hi+1] // cell c's at c-lo
	clear(at)
	before := int32(0) // the points of the cells before lo
	for _, key := range g.pk {
		c := g.local(key)
		if u := uint(c - lo); u < uint(len(at)) {
			at[u]++
		} else if c < lo {
			before++
		}
	}
	sum := before
	for i, cnt := range at {
		at[i] = sum
		sum += cnt
	}
	for k, key := range g.pk {
		if u := uint(g.local(key) - lo); u < uint(len(at)) {
			j := at[u]
			g.items[j] = int32(k)
			g.slot[k] = j
			at[u]++
		}
	}
}

// indexDense is a counting sort over the window's cells.
func (g *Cells) indexDense(n int) {
	cells := g.wnx * g.wny
	if cap(g.start) >= cells+1 {
		g.start = g.start[:cells+1]
	} else {
		g.start = make([]int32, cells+1)
	}
	clear(g.start)
	for k, key := range g.pk {
		c := g.local(key)
		g.pk[k] = uint64(c) // from now on the point's window cell
		g.start[c+1]++
	}
	for c := 1; c <= cells; c++ {
		g.start[c] += g.start[c-1]
	}
	// g.start[c] is now the start of cell c; fill with moving cursors kept
	// in slot, then shift nothing: each point's place is start[c] plus the
	// points of its cell before it
	for k := range n {
		c := g.pk[k]
		at := g.start[c]
		g.items[at] = int32(k)
		g.slot[k] = at
		g.start[c]++
	}
	// the cursors ended at the next cell's start: shift them back
	copy(g.start[1:], g.start[:cells])
	g.start[0] = 0
}

func (g *Cells) local(key uint64) int {
	return (int(key>>32)-g.wy0)*g.wnx + int(uint32(key)) - g.wx0
}

// indexSparse sorts the points by key with a stable radix sort (one pass
// per byte in which the keys differ), which keeps the points of a cell in
// index order.
func (g *Cells) indexSparse(n int) {
	g.sparse = true
	g.keys = resize(g.keys, n)
	g.tk, g.ti = resize(g.tk, n), resize(g.ti, n)
	copy(g.keys, g.pk)
	for k := range n {
		g.items[k] = int32(k)
	}
	var differ uint64
	for _, key := range g.keys {
		differ |= key ^ g.keys[0]
	}
	src, srcI, dst, dstI := g.keys, g.items, g.tk, g.ti
	for shift := 0; shift < 64; shift += 8 {
		if (differ>>shift)&0xff == 0 {
			continue
		}
		var count [257]int32
		for _, key := range src {
			count[(key>>shift)&0xff+1]++
		}
		for d := 1; d < 257; d++ {
			count[d] += count[d-1]
		}
		for k, key := range src {
			d := (key >> shift) & 0xff
			dst[count[d]], dstI[count[d]] = key, srcI[k]
			count[d]++
		}
		src, srcI, dst, dstI = dst, dstI, src, srcI
	}
	if &src[0] != &g.keys[0] {
		copy(g.keys, src)
		copy(g.items, srcI)
	}
	for j, k := range g.items {
		g.slot[k] = int32(j)
	}
}

// CellXY returns the lattice cell of p, clamped to the lattice.
func (g *Cells) CellXY(p ci.Vector2) (x, y int) {
	return clampCell((p.X-g.lo.X)*g.inv, g.nx), clampCell((p.Y-g.lo.Y)*g.inv, g.ny)
}

// clampCell returns min(max(int(math.Floor(f)), 0), n-1), bit for bit,
// without a floor: the conversion truncates, which floors the
// non-negative numbers, and turns a negative one into 0 or less, as the
// floor does (-1 or less), which the clamp makes 0 either way; beyond
// the range of int both convert the same number. No branch and no call
// (the build's GOAMD64=v1 does not inline math.Floor), on every cell
// lookup of a tick.
func clampCell(f float64, n int) int {
	return min(max(int(f), 0), n-1)
}

// Span returns the cells that cover the box [lo, hi] and may hold points:
// columns x0..x1 of rows y0..y1 (no row when y0 > y1).
func (g *Cells) Span(lo, hi ci.Vector2) (x0, y0, x1, y1 int) {
	if g.wnx == 0 {
		return 0, 0, -1, -1
	}
	x0, y0 = g.CellXY(lo)
	x1, y1 = g.CellXY(hi)
	x0, y0 = max(x0, g.wx0), max(y0, g.wy0)
	x1, y1 = min(x1, g.wx0+g.wnx-1), min(y1, g.wy0+g.wny-1)
	if x0 > x1 {
		return 0, 0, -1, -1
	}
	return x0, y0, x1, y1
}

// Row returns the range of Items() that holds the points of cells x0..x1
// of row y, which must come from Span (RowOf takes any lattice cells).
func (g *Cells) Row(y, x0, x1 int) (k0, k1 int) {
	if g.sparse {
		return g.rowSparse(y, x0, x1)
	}
	return g.rowDense(y, x0, x1)
}

// rowDense is Row in the dense form; the space's hot loops call it
// directly (Row is over the inlining budget).
func (g *Cells) rowDense(y, x0, x1 int) (k0, k1 int) {
	r := y*g.wnx - g.off
	return int(g.start[r+x0]), int(g.start[r+x1+1])
}

// RowOf is Row for any cells of the lattice (as CellXY gives them).
func (g *Cells) RowOf(y, x0, x1 int) (k0, k1 int) {
	x0, x1 = max(x0, g.wx0), min(x1, g.wx0+g.wnx-1)
	if y < g.wy0 || y >= g.wy0+g.wny || x0 > x1 {
		return 0, 0
	}
	return g.Row(y, x0, x1)
}

func (g *Cells) rowSparse(y, x0, x1 int) (k0, k1 int) {
	row := uint64(y) << 32
	k0, _ = slices.BinarySearch(g.keys, row|uint64(x0))
	k1, _ = slices.BinarySearch(g.keys[k0:], row|uint64(x1+1))
	return k0, k0 + k1
}

// Items returns the indexed points in cell order.
func (g *Cells) Items() []int32 { return g.items }

// Slot returns where point k lies in Items().
func (g *Cells) Slot(k int) int { return int(g.slot[k]) }

// Lattice returns the lattice's corner, cell size and size in cells.
func (g *Cells) Lattice() (lo ci.Vector2, cell float64, nx, ny int) {
	return g.lo, g.cell, g.nx, g.ny
}

// Sparse reports whether the last Build chose the sparse form.
func (g *Cells) Sparse() bool { return g.sparse }

// Near calls fn for the points of the cells that cover the box [lo, hi]
// (a superset of the points inside it), in cell order, until fn returns
// false, and reports whether it went through all of them.
func (g *Cells) Near(lo, hi ci.Vector2, fn func(k int) bool) bool {
	x0, y0, x1, y1 := g.Span(lo, hi)
	for y := y0; y <= y1; y++ {
		k0, k1 := g.Row(y, x0, x1)
		for _, k := range g.items[k0:k1] {
			if !fn(int(k)) {
				return false
			}
		}
	}
	return true
}
