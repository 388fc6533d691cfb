package gridworld

import (
	"fmt"
	"math/bits"
)

// Limits of a grid world: far above the largest shipped experiment
// (10^7 agents on 10^6 vertices), low enough that a typo in a file
// cannot ask for tens of gigabytes.
const (
	// MaxVertices is the largest number of vertices of a grid.
	MaxVertices = 1 << 28
	// MaxAgents is the largest number of agents of a world.
	MaxAgents = 1 << 28
	// MaxRadius is the largest radius of the local mapping.
	MaxRadius = 64
)

// Grid is the graph the agents live on: a 2D or 3D lattice whose
// vertices are numbered x + X*(y + Y*z), with edges between vertices one
// step apart along an axis. On a torus the edges wrap around; on a
// bounded grid a vertex on a border has fewer edges.
type Grid struct {
	// Size is the number of vertices along x, y and z; Size[2] is 1 for
	// a 2D grid.
	Size [3]int
	// Dims is 2 or 3.
	Dims int
	// Torus makes every axis wrap around.
	Torus bool
}

// Grid2D returns an x by y grid.
func Grid2D(x, y int, torus bool) Grid { return Grid{Size: [3]int{x, y, 1}, Dims: 2, Torus: torus} }

// Grid3D returns an x by y by z grid.
func Grid3D(x, y, z int, torus bool) Grid { return Grid{Size: [3]int{x, y, z}, Dims: 3, Torus: torus} }

// Vertices returns the number of vertices.
func (g Grid) Vertices() int { return g.Size[0] * g.Size[1] * g.Size[2] }

// Check returns an error when the grid is not usable: a dimension other
// than 2 or 3, a size below 1, or more than MaxVertices vertices.
func (g Grid) Check() error {
	if g.Dims != 2 && g.Dims != 3 {
		return &ConfigError{Field: "size", Msg: fmt.Sprintf("a grid has 2 or 3 dimensions, not %d; write two sizes \"x,y\" or three \"x,y,z\"", g.Dims)}
	}
	if g.Dims == 2 && g.Size[2] != 1 {
		return &ConfigError{Field: "size", Msg: "a 2D grid has a z size of 1"}
	}
	total := 1
	for i := 0; i < g.Dims; i++ {
		if g.Size[i] < 1 {
			return &ConfigError{Field: "size", Msg: fmt.Sprintf("the grid has %d vertices along %c; give every axis at least 1 vertex", g.Size[i], "xyz"[i])}
		}
		if g.Size[i] > MaxVertices || total > MaxVertices/g.Size[i] {
			return &ConfigError{Field: "size", Msg: fmt.Sprintf("the grid has more than %d vertices; make it smaller", MaxVertices)}
		}
		total *= g.Size[i]
	}
	return nil
}

// String returns "50x50 torus" or "10x10x10 bounded".
func (g Grid) String() string {
	s := fmt.Sprintf("%dx%d", g.Size[0], g.Size[1])
	if g.Dims == 3 {
		s += fmt.Sprintf("x%d", g.Size[2])
	}
	if g.Torus {
		return s + " torus"
	}
	return s + " bounded"
}

// Vertex returns the index of the vertex at x, y, z (z is 0 on a 2D
// grid). The coordinates must be on the grid.
func (g Grid) Vertex(x, y, z int) int32 {
	return int32(x + g.Size[0]*(y+g.Size[1]*z))
}

// Coords returns the coordinates of vertex v.
func (g Grid) Coords(v int32) (x, y, z int) {
	i := int(v)
	x = i % g.Size[0]
	i /= g.Size[0]
	return x, i % g.Size[1], i / g.Size[1]
}

// Dir is an edge out of a vertex, or Stay.
type Dir uint8

// The edges of a vertex: along +x (East), -x (West), +y (North), -y
// (South), +z (Up), -z (Down). Up and Down exist on 3D grids only.
const (
	Stay Dir = iota
	East
	West
	North
	South
	Up
	Down
)

// Moves returns the number of edges of a vertex in the interior of the
// grid: 4 in 2D, 6 in 3D. The directions are Dir(1) to Dir(Moves()).
func (g Grid) Moves() int { return 2 * g.Dims }

func (d Dir) String() string {
	switch d {
	case Stay:
		return "stay"
	case East:
		return "east"
	case West:
		return "west"
	case North:
		return "north"
	case South:
		return "south"
	case Up:
		return "up"
	case Down:
		return "down"
	}
	return fmt.Sprintf("Dir(%d)", uint8(d))
}

// Delta returns the step d makes along x, y and z.
func (d Dir) Delta() (dx, dy, dz int) {
	switch d {
	case East:
		return 1, 0, 0
	case West:
		return -1, 0, 0
	case North:
		return 0, 1, 0
	case South:
		return 0, -1, 0
	case Up:
		return 0, 0, 1
	case Down:
		return 0, 0, -1
	}
	return 0, 0, 0
}

// Toward returns a direction that brings an agent one step closer to the
// vertex at offset dx, dy, dz (x first, then y, then z), or Stay at
// offset 0. Offsets of a local mapping are shortest paths, also on a
// torus.
func Toward(dx, dy, dz int) Dir {
	switch {
	case dx > 0:
		return East
	case dx < 0:
		return West
	case dy > 0:
		return North
	case dy < 0:
		return South
	case dz > 0:
		return Up
	case dz < 0:
		return Down
	}
	return Stay
}

// Move returns the vertex one step from v along d, and false when that
// step leaves a bounded grid (v is then returned) or d is not a
// direction of the grid.
func (g Grid) Move(v int32, d Dir) (int32, bool) {
	t := newTopo(g)
	return t.move(v, d)
}

// Distance returns the number of edges on a shortest path between a and
// b: the Manhattan distance, measured around the torus when it is shorter.
func (g Grid) Distance(a, b int32) int {
	ax, ay, az := g.Coords(a)
	bx, by, bz := g.Coords(b)
	d := 0
	for i, c := range [3][2]int{{ax, bx}, {ay, by}, {az, bz}} {
		s := c[0] - c[1]
		if s < 0 {
			s = -s
		}
		if g.Torus && g.Size[i]-s < s {
			s = g.Size[i] - s
		}
		d += s
	}
	return d
}

// topo is the grid with the constants the hot loops need: strides and
// fast division by the sizes.
type topo struct {
	g        Grid
	sx, sy   int32 // sizes along x and y
	sz       int32
	plane    int32 // sx*sy
	n        int32 // vertices
	divX     divider
	divPlane divider
	step     [7][3]int32 // the step of each Dir
}

func newTopo(g Grid) topo {
	t := topo{g: g, sx: int32(g.Size[0]), sy: int32(g.Size[1]), sz: int32(g.Size[2])}
	t.plane = t.sx * t.sy
	t.n = t.plane * t.sz
	t.divX = newDivider(uint32(t.sx))
	t.divPlane = newDivider(uint32(t.plane))
	for d := Stay; d <= Down; d++ {
		dx, dy, dz := d.Delta()
		t.step[d] = [3]int32{int32(dx), int32(dy), int32(dz)}
	}
	return t
}

// coords returns the coordinates of v.
func (t *topo) coords(v int32) (x, y, z int32) {
	r := v
	if t.sz > 1 {
		z = int32(t.divPlane.div(uint32(v)))
		r = v - z*t.plane
	}
	y = int32(t.divX.div(uint32(r)))
	return r - y*t.sx, y, z
}

// move steps v along d; false when the step leaves a bounded grid. It
// goes through coordinates and a table of steps rather than a switch on
// d, so that random directions cost no mispredicted branches.
func (t *topo) move(v int32, d Dir) (int32, bool) {
	if d == Stay {
		return v, true
	}
	if int(d) > 2*t.g.Dims {
		return v, false
	}
	s := t.step[d]
	if t.sz == 1 { // 2D: one division, a rarely taken branch
		y := int32(t.divX.div(uint32(v)))
		x := v - y*t.sx + s[0]
		y += s[1]
		if x < 0 || x >= t.sx || y < 0 || y >= t.sy {
			if !t.g.Torus {
				return v, false
			}
			x, y = wrap(x, t.sx), wrap(y, t.sy)
		}
		return x + t.sx*y, true
	}
	x, y, z := t.coords(v)
	if u, ok := t.offset(x, y, z, s[0], s[1], s[2]); ok {
		return u, true
	}
	return v, false
}

// offset returns the vertex at x+dx, y+dy, z+dz, wrapping on a torus;
// false when it is off a bounded grid. |dx| < sx etc.
func (t *topo) offset(x, y, z, dx, dy, dz int32) (int32, bool) {
	x, y, z = x+dx, y+dy, z+dz
	if t.g.Torus {
		x = wrap(x, t.sx)
		y = wrap(y, t.sy)
		z = wrap(z, t.sz)
	} else if x < 0 || x >= t.sx || y < 0 || y >= t.sy || z < 0 || z >= t.sz {
		return 0, false
	}
	return x + t.sx*y + t.plane*z, true
}

// axisTerm returns coordinate c's term of a vertex number, c*stride,
// wrapped on a torus, offGrid when off a bounded grid. |c| < 2n.
func (t *topo) axisTerm(c, n, stride int32) int32 {
	if c < 0 || c >= n {
		if !t.g.Torus {
			return offGrid
		}
		c = wrap(c, n)
	}
	return c * stride
}

func wrap(c, n int32) int32 {
	if c < 0 {
		return c + n
	}
	if c >= n {
		return c - n
	}
	return c
}

// divider divides 32-bit numbers by a constant with a multiplication
// (Lemire, Kaser and Kurz, "Faster remainder by direct computation").
type divider struct{ m uint64 }

func newDivider(d uint32) divider {
	if d <= 1 {
		return divider{} // div returns n for d == 1, see below
	}
	return divider{m: ^uint64(0)/uint64(d) + 1}
}

func (q divider) div(n uint32) uint32 {
	if q.m == 0 {
		return n
	}
	hi, _ := bits.Mul64(q.m, uint64(n))
	return uint32(hi)
}
