package space

import (
	"cmp"
	"math"
	"slices"

	"github.com/argosgo/argos/ci"
)

// Placement checks, while an arena is being filled, whether a new body
// fits: inside the arena and overlapping no body placed before. It is
// incremental (unlike the space's index) so that placing N robots costs
// O(N), not O(N^2) as in ARGoS 3's <distribute>.
type Placement struct {
	s      *Space
	g      grid
	cells  [][]int32
	placed []Body // copies of the placed bodies; cells index them
}

// NewPlacement returns a placement over the space, holding the bodies the
// space has now.
func NewPlacement(s *Space) *Placement {
	p := &Placement{s: s}
	p.g.init(s.lo, s.hi, 0.25)
	p.cells = make([][]int32, p.g.nx*p.g.ny)
	for i := range s.Bodies {
		if !s.Bodies[i].Removed {
			p.Insert(i)
		}
	}
	return p
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
	p.placed = append(p.placed, b)
	x0, y0, x1, y1 := p.g.rangeXY(b.bounds())
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := y*p.g.nx + x
			p.cells[c] = append(p.cells[c], k)
		}
	}
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
	x0, y0, x1, y1 := p.g.rangeXY(lo, hi)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, j := range p.cells[y*p.g.nx+x] {
				o := &p.placed[j]
				if o.Z >= b.Top() || b.Z >= o.Top() {
					continue
				}
				if Gap(b, o) < 0 {
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
	type key struct {
		strip int
		x     float64
		k     int
	}
	keys := make([]key, n)
	for k := range keys {
		p := at(k)
		keys[k] = key{strip: int(math.Floor((p.Y - s.lo.Y) / minCell)), x: p.X, k: k}
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.strip, b.strip), cmp.Compare(a.x, b.x), cmp.Compare(a.k, b.k))
	})
	order := make([]int, n)
	for i, k := range keys {
		order[i] = k.k
	}
	return order
}

// Bounds returns the arena's footprint.
func (s *Space) Bounds() (lo, hi ci.Vector2) { return s.lo, s.hi }
