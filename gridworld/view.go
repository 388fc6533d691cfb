package gridworld

import "sort"

// index finds the agents on a vertex: agents are sorted by vertex, and
// start holds, for each bucket of 2^shift consecutive vertices, the first
// agent of the bucket.
type index struct {
	shift   uint
	buckets int
	start   []int32 // buckets+1 offsets
	pos     []int32 // the agents' vertices, sorted
}

// rangeOf returns the agents on vertex v, as positions lo to hi in vertex
// order.
func (ix *index) rangeOf(v int32) (lo, hi int) {
	b := v >> ix.shift
	lo, hi = int(ix.start[b]), int(ix.start[b+1])
	if ix.shift == 0 {
		return lo, hi
	}
	for lo < hi && ix.pos[lo] < v {
		lo++
	}
	e := lo
	for e < hi && ix.pos[e] == v {
		e++
	}
	return lo, e
}

// Offset is the position of a vertex relative to an agent's, in edges
// along x, y and z.
type Offset struct{ DX, DY, DZ int }

// Distance returns the number of edges from the agent to the offset.
func (o Offset) Distance() int { return abs(o.DX) + abs(o.DY) + abs(o.DZ) }

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// localMapping lists the offsets of the vertices at most radius edges
// away, nearest first (ties in z, y, x order), the agent's own first.
func localMapping(dims, radius int) []Offset {
	var out []Offset
	rz := radius
	if dims == 2 {
		rz = 0
	}
	for dz := -rz; dz <= rz; dz++ {
		for dy := -radius; dy <= radius; dy++ {
			for dx := -radius; dx <= radius; dx++ {
				o := Offset{dx, dy, dz}
				if o.Distance() <= radius {
					out = append(out, o)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Distance() < out[j].Distance() })
	return out
}

// View is an agent's local mapping during a round: the states of the
// vertices at most Radius edges away, how many agents are on each, and
// the messages they posted. The engine reuses one View per goroutine:
// keep nothing of it after Transition or Message returns, and change
// nothing it points to.
type View[V, M any] struct {
	local
	ix     *index
	vert   []V
	msgs   []M
	round  int
	k      int // the agent's place in vertex order
	id     int32
	states []V // their states, when copied
	copied bool
}

// local is the geometry of an agent's local mapping, apart from the
// program's types so that its methods need no generic dictionary.
type local struct {
	t       *topo
	radius  int
	offsets []Offset
	here    int32
	x, y, z int32
	xyz     bool
	inner   bool    // the whole local mapping is on the grid without wrapping (with xyz)
	lin     []int32 // per offset: its vertex minus the agent's, inside the grid
	mapping []int32 // the vertices of the agent's local mapping, when mapped
	mapped  bool
	// per offset: its coordinates plus the radius, indexes into ax, ay
	// and az, which hold the terms x, X*y and X*Y*z of the vertices at
	// those coordinates from the agent's (offGrid when off a bounded grid)
	cells      [][3]uint8
	ax, ay, az []int32
	// when ready, the i-th vertex of the local mapping is base + rel[i],
	// negative off the grid
	ready bool
	base  int32
	rel   []int32
}

func (v *View[V, M]) set(k int, here, id int32) {
	v.k, v.here, v.id, v.xyz, v.inner, v.mapped, v.ready, v.copied = k, here, id, false, false, false, false, false
}

// own returns the agents on the agent's vertex: the run of equal
// vertices around its own place k.
func (v *View[V, M]) own() (lo, hi int) {
	pos := v.ix.pos
	lo, hi = v.k, v.k+1
	for lo > 0 && pos[lo-1] == v.here {
		lo--
	}
	for hi < len(pos) && pos[hi] == v.here {
		hi++
	}
	return lo, hi
}

// Here returns the agent's vertex.
func (v *View[V, M]) Here() int32 { return v.here }

// ID returns the agent's id.
func (v *View[V, M]) ID() int32 { return v.id }

// Round returns the number of rounds done before this one.
func (v *View[V, M]) Round() int { return v.round }

// Radius returns the radius of the local mapping.
func (v *View[V, M]) Radius() int { return v.radius }

// Grid returns the grid.
func (v *View[V, M]) Grid() Grid { return v.t.g }

// Coords returns the coordinates of the agent's vertex.
func (v *View[V, M]) Coords() (x, y, z int) {
	v.coords()
	return int(v.x), int(v.y), int(v.z)
}

func (v *local) coords() {
	if !v.xyz {
		v.x, v.y, v.z = v.t.coords(v.here)
		v.xyz = true
		r, t := int32(v.radius), v.t
		v.inner = v.x >= r && v.x < t.sx-r && v.y >= r && v.y < t.sy-r && (t.sz == 1 || v.z >= r && v.z < t.sz-r)
	}
}

// Offsets returns the offsets of the local mapping, nearest first (the
// agent's own vertex first). On a bounded grid some of them may be off
// the grid: At says so.
func (v *View[V, M]) Offsets() []Offset { return v.offsets }

// At returns the vertex at offset o, and false when o is farther than
// the radius, off a bounded grid, or off the plane of a 2D grid.
func (v *View[V, M]) At(o Offset) (int32, bool) {
	if o == (Offset{}) {
		return v.here, true
	}
	if o.Distance() > v.radius || o.DZ != 0 && v.t.g.Dims == 2 {
		return 0, false
	}
	v.coords()
	if v.inner {
		return v.here + int32(o.DX) + v.t.sx*int32(o.DY) + v.t.plane*int32(o.DZ), true
	}
	return v.t.offset(v.x, v.y, v.z, int32(o.DX), int32(o.DY), int32(o.DZ))
}

// Mapping returns the vertices of the local mapping, in the order of
// Offsets (the agent's own first), -1 for offsets off a bounded grid.
// VertexOf, CountOf and MessagesOf, which need not fill it, are the fast
// way through the whole local mapping.
func (v *View[V, M]) Mapping() []int32 {
	if !v.mapped {
		v.fill()
	}
	return v.mapping
}

// offGrid makes the sum of an offset's axis terms negative when one of
// them is off a bounded grid: the other two add less than MaxVertices.
const offGrid = -2 * MaxVertices

// fill computes the vertices of the local mapping. Near the border of
// the grid it wraps (or drops) each of the 2*radius+1 coordinates along
// an axis once, and adds the axis terms of each offset.
func (v *local) fill() {
	v.coords()
	m := v.mapping
	if v.inner {
		for i, d := range v.lin {
			m[i] = v.here + d
		}
		v.mapped = true
		return
	}
	t, r := v.t, int32(v.radius)
	ax, ay, az := v.ax, v.ay, v.az
	for d := -r; d <= r; d++ {
		ax[d+r] = t.axisTerm(v.x+d, t.sx, 1)
		ay[d+r] = t.axisTerm(v.y+d, t.sy, t.sx)
	}
	if t.sz > 1 {
		for d := -r; d <= r; d++ {
			az[d+r] = t.axisTerm(v.z+d, t.sz, t.plane)
		}
	} else {
		az[r] = 0
	}
	for i, c := range v.cells {
		u := ax[c[0]] + ay[c[1]] + az[c[2]]
		if u < 0 {
			u = -1
		}
		m[i] = u
	}
	v.mapped = true
}

// States returns copies of the states of the vertices of the local
// mapping, in the order of Offsets, the zero V for offsets off a bounded
// grid (Mapping says which). VertexOf, which copies nothing, is faster
// for a scan that may stop early.
func (v *View[V, M]) States() []V {
	if !v.copied {
		if !v.ready {
			v.prepare()
		}
		var zero V
		for i, d := range v.rel {
			if u := v.base + d; u >= 0 {
				v.states[i] = v.vert[u]
			} else {
				v.states[i] = zero
			}
		}
		v.copied = true
	}
	return v.states
}

// prepare makes the i-th vertex of the local mapping base + rel[i]: the
// agent's vertex plus a linear offset inside the grid (most agents of a
// large one), the filled Mapping near its border.
func (v *local) prepare() {
	v.coords()
	if v.inner {
		v.base, v.rel = v.here, v.lin
	} else {
		if !v.mapped {
			v.fill()
		}
		v.base, v.rel = 0, v.mapping
	}
	v.ready = true
}

// vertexOf returns the i-th vertex of the local mapping, -1 when it is
// off the grid.
func (v *local) vertexOf(i int) int32 {
	if !v.ready {
		v.prepare()
	}
	return max(-1, v.base+v.rel[i])
}

// VertexOf returns the state of the i-th vertex of the local mapping
// (read only), nil when it is off the grid. For a scan of the local
// mapping, LocalStates is faster.
func (v *View[V, M]) VertexOf(i int) *V {
	if u := v.vertexOf(i); u >= 0 {
		return &v.vert[u]
	}
	return nil
}

// LocalStates returns the states of the vertices of the local mapping
// without copying them: the fastest way to scan it.
func (v *View[V, M]) LocalStates() LocalStates[V] {
	if !v.ready {
		v.prepare()
	}
	return LocalStates[V]{vert: v.vert, base: v.base, rel: v.rel}
}

// LocalStates are the states of the vertices of an agent's local
// mapping, in the order of View.Offsets, read in place (keep them no
// longer than the View).
type LocalStates[V any] struct {
	vert []V
	base int32
	rel  []int32
}

// Len returns the number of vertices of the local mapping.
func (l *LocalStates[V]) Len() int { return len(l.rel) }

// At returns the state of the i-th vertex of the local mapping (read
// only), nil when it is off the grid.
func (l *LocalStates[V]) At(i int) *V {
	if u := l.base + l.rel[i]; u >= 0 {
		return &l.vert[u]
	}
	return nil
}

// CountOf returns the number of agents on the i-th vertex of the local
// mapping.
func (v *View[V, M]) CountOf(i int) int {
	u := v.vertexOf(i)
	if u < 0 {
		return 0
	}
	lo, hi := v.ix.rangeOf(u)
	return hi - lo
}

// MessagesOf returns the messages posted this round by the agents on the
// i-th vertex of the local mapping.
func (v *View[V, M]) MessagesOf(i int) []M {
	u := v.vertexOf(i)
	if u < 0 || v.msgs == nil {
		return nil
	}
	lo, hi := v.ix.rangeOf(u)
	return v.msgs[lo:hi:hi]
}

// Vertex returns the state of the agent's own vertex (read only).
func (v *View[V, M]) Vertex() *V { return &v.vert[v.here] }

// VertexAt returns the state of the vertex at offset o (read only), or
// nil when At(o) is false.
func (v *View[V, M]) VertexAt(o Offset) *V {
	u, ok := v.At(o)
	if !ok {
		return nil
	}
	return &v.vert[u]
}

// Count returns the number of agents on the agent's vertex, itself
// included.
func (v *View[V, M]) Count() int {
	lo, hi := v.own()
	return hi - lo
}

// CountAt returns the number of agents on the vertex at offset o, 0 when
// At(o) is false.
func (v *View[V, M]) CountAt(o Offset) int {
	u, ok := v.At(o)
	if !ok {
		return 0
	}
	lo, hi := v.ix.rangeOf(u)
	return hi - lo
}

// Messages returns the messages posted this round by the agents on the
// agent's vertex, its own included, in the order of those agents; nil
// while messages are being generated, and when the program posts none.
func (v *View[V, M]) Messages() []M {
	if v.msgs == nil {
		return nil
	}
	lo, hi := v.own()
	return v.msgs[lo:hi:hi]
}

// MessagesAt returns the messages posted this round by the agents on
// the vertex at offset o (nil when At(o) is false).
func (v *View[V, M]) MessagesAt(o Offset) []M {
	if v.msgs == nil {
		return nil
	}
	u, ok := v.At(o)
	if !ok {
		return nil
	}
	lo, hi := v.ix.rangeOf(u)
	return v.msgs[lo:hi:hi]
}

// CanMove reports whether the agent can move along d: false off the edge
// of a bounded grid and for Up and Down on a 2D grid.
func (v *View[V, M]) CanMove(d Dir) bool {
	if d == Stay {
		return true
	}
	_, ok := v.t.move(v.here, d)
	return ok
}
