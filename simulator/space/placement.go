package space

import (
	"cmp"
	"math"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/internal/hugepage"
)

// Placement checks, while an arena is being filled, whether a new body
// fits: inside the arena and overlapping no body placed before. It is
// incremental (unlike the space's index) so that placing N robots costs
// O(N), not O(N^2) as in ARGoS 3's <distribute>.
//
// It keeps what the overlap test needs of each placed body (its centre,
// radius and height range, 48 bytes; a box's footprint in a list of its
// own) in one array, and the bodies of each cell of
// a lattice in linked lists: an array of list heads over the lattice when
// the arena has few enough cells, a map of them otherwise, so that its
// memory follows the bodies placed, not the arena's area.
type Placement struct {
	s     *Space
	g     Cells            // only its lattice: cells hold the placed bodies
	heads []int32          // dense: per lattice cell, its first node + 1 (0: none)
	hmap  map[uint64]int32 // sparse: the same, by cell key
	nodes []placeNode
	big   []int32 // bodies over more than bigCells cells, checked always
	// bigBox is the bounding box of each of big, so that the walls of a
	// large arena cost a comparison, not a gap, for most bodies
	bigBox [][2]ci.Vector2
	placed []placed
	boxes  []Footprint // of the placed boxes (placed.box)
}

// placed is what Fits needs of a placed body: a disc's footprint, or the
// index of a box's in boxes.
type placed struct {
	pos    ci.Vector2
	r      float64 // a disc's radius
	z0, z1 float64 // bottom and top
	box    int32   // -1: a disc
}

// footprint returns o's footprint.
func (p *Placement) footprint(o *placed) Footprint {
	if o.box >= 0 {
		return p.boxes[o.box]
	}
	return Footprint{Shape: Disc, Radius: o.r, Pos: o.pos}
}

// placeNode is one cell's membership of a placed body.
type placeNode struct {
	item, next int32 // next: the cell's next node + 1 (0: none)
}

// bigCells is how many cells a placed body may cover before it is kept
// apart (long walls of a huge arena would fill the map).
const bigCells = 1024

// placeCell is the size of the placement's cells, in metres.
const placeCell = 0.25

// maxPlaceHeads bounds the dense array of list heads (16 MiB).
const maxPlaceHeads = 1 << 22

// NewPlacement returns a placement over the space, holding the bodies the
// space has now. Its memory follows the bodies placed, not the arena's
// area.
func NewPlacement(s *Space) *Placement {
	p := &Placement{s: s}
	p.g.Reset(s.lo, s.hi, placeCell)
	if p.g.nx*p.g.ny <= maxPlaceHeads {
		p.heads = hugepage.Make[int32](p.g.nx*p.g.ny, 0)
	} else {
		p.hmap = map[uint64]int32{}
	}
	for i := range s.Bodies {
		if !s.Bodies[i].Removed {
			p.Insert(i)
		}
	}
	return p
}

// Grow makes room for n more bodies, so that placing a known number of
// bodies does not copy what was placed before.
func (p *Placement) Grow(n int) {
	p.placed = hugepage.Grow(p.placed, n)
	p.nodes = hugepage.Grow(p.nodes, n)
}

// Insert records body i of the space as placed.
func (p *Placement) Insert(i int) { p.Reserve(p.s.Bodies[i]) }

// Reserve records b as placed without adding it to the space yet, so that
// a batch of bodies can be placed first and added in another order.
func (p *Placement) Reserve(b Body) {
	if b.Cos == 0 && b.Sin == 0 {
		b.SetYaw(b.Yaw)
	}
	k := int32(len(p.placed))
	o := placed{pos: b.Pos, r: b.Radius, z0: b.Z, z1: b.Top(), box: -1}
	if b.Shape != Disc {
		o.box = int32(len(p.boxes))
		p.boxes = append(p.boxes, b.Footprint())
	}
	p.placed = append(p.placed, o)
	lo, hi := b.bounds()
	x0, y0 := p.g.CellXY(lo)
	x1, y1 := p.g.CellXY(hi)
	if (x1-x0+1)*(y1-y0+1) > bigCells {
		p.big = append(p.big, k)
		p.bigBox = append(p.bigBox, [2]ci.Vector2{lo, hi})
		return
	}
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			p.nodes = append(p.nodes, placeNode{item: k, next: p.head(x, y)})
			p.setHead(x, y, int32(len(p.nodes)))
		}
	}
}

func (p *Placement) head(x, y int) int32 {
	if p.heads != nil {
		return p.heads[y*p.g.nx+x]
	}
	return p.hmap[uint64(y)<<32|uint64(x)]
}

func (p *Placement) setHead(x, y int, n int32) {
	if p.heads != nil {
		p.heads[y*p.g.nx+x] = n
		return
	}
	p.hmap[uint64(y)<<32|uint64(x)] = n
}

// Fits reports whether b lies inside the arena and overlaps no placed
// body whose height range meets its own.
func (p *Placement) Fits(b *Body) bool {
	if b.Cos == 0 && b.Sin == 0 {
		// A body not yet added may lack its cached yaw, as Add allows.
		c := *b
		c.SetYaw(c.Yaw)
		b = &c
	}
	lo, hi := b.bounds()
	const eps = 1e-9
	if lo.X < p.s.lo.X-eps || lo.Y < p.s.lo.Y-eps || hi.X > p.s.hi.X+eps || hi.Y > p.s.hi.Y+eps {
		return false
	}
	fp, top := b.Footprint(), b.Top()
	overlaps := func(o *placed) bool {
		if !(o.z0 < top && b.Z < o.z1) {
			return false
		}
		if o.box < 0 && fp.Shape == Disc {
			// FootprintGap's arithmetic for two discs
			return fp.Pos.Sub(o.pos).Length()-fp.Radius-o.r < 0
		}
		ofp := p.footprint(o)
		return FootprintGap(&fp, &ofp) < 0
	}
	// Bounding boxes apart by more than a micrometre hold footprints
	// that cannot overlap (the boxes are exact to rounding).
	const apart = 1e-6
	for i, j := range p.big {
		if bb := &p.bigBox[i]; lo.X > bb[1].X+apart || hi.X < bb[0].X-apart || lo.Y > bb[1].Y+apart || hi.Y < bb[0].Y-apart {
			continue
		}
		if overlaps(&p.placed[j]) {
			return false
		}
	}
	x0, y0 := p.g.CellXY(lo)
	x1, y1 := p.g.CellXY(hi)
	if (x1-x0+1)*(y1-y0+1) > bigCells {
		// a big body: against every placed one
		for j := range p.placed {
			if overlaps(&p.placed[j]) {
				return false
			}
		}
		return true
	}
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for n := p.head(x, y); n != 0; n = p.nodes[n-1].next {
				if overlaps(&p.placed[p.nodes[n-1].item]) {
					return false
				}
			}
		}
	}
	return true
}

// LayoutOrder returns the order in which to store n bodies at the
// positions at gives so that bodies near each other in the arena are near
// each other in memory: by horizontal strips a grid cell high, then by X
// (ties keep their order). Sensors and engines query each body's
// neighbourhood in storage order; stored this way, consecutive queries
// read the same few index rows instead of jumping across the arena, which
// is what bounds the speed of large swarms.
func (s *Space) LayoutOrder(n int, at func(k int) ci.Vector2) []int {
	return s.LayoutOrderWith(serial{}, n, at)
}

// LayoutOrderWith is LayoutOrder with the strips sorted by run, in
// parallel: the bodies are first put in their strips (a counting sort,
// which keeps their order), then each strip is sorted by X on its own.
// The order is LayoutOrder's, whatever run does; at is called on the
// caller's goroutine.
func (s *Space) LayoutOrderWith(run Runner, n int, at func(k int) ci.Vector2) []int {
	type key struct {
		strip int
		x     float64
		k     int
	}
	keys := hugepage.Make[key](n, n)
	lo, hi := math.MaxInt, math.MinInt
	for k := range keys {
		p := at(k)
		keys[k] = key{strip: int(math.Floor((p.Y - s.lo.Y) / minCell)), x: p.X, k: k}
		lo, hi = min(lo, keys[k].strip), max(hi, keys[k].strip)
	}
	order := hugepage.Make[int](n, n)
	if n == 0 {
		return order
	}
	byX := func(a, b key) int { return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(a.k, b.k)) }
	if strips := uint64(hi) - uint64(lo) + 1; strips > uint64(4*n+1024) {
		// far more strips than bodies (a few bodies over a huge arena)
		slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.strip, b.strip), byX(a, b)) })
		for i, k := range keys {
			order[i] = k.k
		}
		return order
	}
	// start[j] is where strip lo+j begins in sorted; start[j+1] where it
	// ends
	start := make([]int, hi-lo+2)
	for _, k := range keys {
		start[k.strip-lo+1]++
	}
	for j := 1; j < len(start); j++ {
		start[j] += start[j-1]
	}
	sorted := hugepage.Make[key](n, n)
	next := slices.Clone(start[:len(start)-1])
	for _, k := range keys {
		sorted[next[k.strip-lo]] = k
		next[k.strip-lo]++
	}
	// jobs of about layoutJob bodies, each whole strips
	var jobs []int // the first strip of each job, then len(start)-1
	for j := 0; j < len(start)-1; j++ {
		if len(jobs) == 0 || start[j]-start[jobs[len(jobs)-1]] >= layoutJob {
			jobs = append(jobs, j)
		}
	}
	jobs = append(jobs, len(start)-1)
	run.Run(len(jobs)-1, func(i int) {
		for j := jobs[i]; j < jobs[i+1]; j++ {
			slices.SortFunc(sorted[start[j]:start[j+1]], byX)
		}
	})
	for i, k := range sorted {
		order[i] = k.k
	}
	return order
}

// layoutJob is about how many bodies one job of LayoutOrderWith sorts.
const layoutJob = 16384

// Bounds returns the arena's footprint.
func (s *Space) Bounds() (lo, hi ci.Vector2) { return s.lo, s.hi }

// Extend adds n bodies at the end of Bodies for Put to fill, so that a
// batch of bodies (a <distribute>'s copies) can be stored on several
// goroutines, each body by one of them. The bodies are movable or not as
// movable says, and mark the index as Add does; until Put, they are
// zero.
func (s *Space) Extend(n int, movable bool) {
	s.Bodies = hugepage.Grow(s.Bodies, n)
	s.Bodies = s.Bodies[:len(s.Bodies)+n]
	s.Drive = hugepage.Grow(s.Drive, n)
	s.Drive = s.Drive[:len(s.Drive)+n]
	clear(s.Drive[len(s.Drive)-n:]) // (Put does not write them; a batch cut short may have)
	if movable {
		s.mobileDirty = true
	} else {
		s.staticDirty = true
	}
}

// Put stores b as body h, one of those Extend added, as Add stores a
// body (b's Movable must be the one given to Extend). Puts of different
// bodies may run at once.
func (s *Space) Put(h int, b *Body) {
	s.Bodies[h] = *b
	c := &s.Bodies[h]
	if c.Cos == 0 && c.Sin == 0 {
		c.SetYaw(c.Yaw)
	}
	c.ownExtra() // body.go
	if !c.Movable {
		c.Engine = -1
	}
}
