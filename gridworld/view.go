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
	ix      *index
	t       *topo
	vert    []V
	msgs    []M
	radius  int
	offsets []Offset
	round   int
	k       int // the agent's place in vertex order
	here    int32
	id      int32
	x, y, z int32
	xyz     bool
	inner   bool    // the whole local mapping is on the grid without wrapping
	lin     []int32 // per offset: its vertex minus the agent's, inside the grid
	mapping []int32 // the vertices of the agent's local mapping, when mapped
	mapped  bool
	states  []V // their states, when copied
	copied  bool
}

func (v *View[V, M]) set(k int, here, id int32) {
	v.k, v.here, v.id, v.xyz, v.mapped, v.copied = k, here, id, false, false, false
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

func (v *View[V, M]) coords() {
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
// With VertexOf, CountOf and MessagesOf it is the fast way through the
// whole local mapping.
func (v *View[V, M]) Mapping() []int32 {
	if !v.mapped {
		v.fill()
	}
	return v.mapping
}

// fill computes the vertices of the local mapping.
func (v *View[V, M]) fill() {
	v.coords()
	m := v.mapping
	if v.inner {
		for i, d := range v.lin {
			m[i] = v.here + d
		}
	} else {
		for i, o := range v.offsets {
			u, ok := v.t.offset(v.x, v.y, v.z, int32(o.DX), int32(o.DY), int32(o.DZ))
			if !ok {
				u = -1
			}
			m[i] = u
		}
	}
	v.mapped = true
}

// States returns copies of the states of the vertices of the local
// mapping, in the order of Offsets, the zero V for offsets off a bounded
// grid (Mapping says which). It is the fastest way to scan the local
// mapping.
func (v *View[V, M]) States() []V {
	if !v.copied {
		m := v.Mapping()
		var zero V
		for i, u := range m {
			if u >= 0 {
				v.states[i] = v.vert[u]
			} else {
				v.states[i] = zero
			}
		}
		v.copied = true
	}
	return v.states
}

// VertexOf returns the state of the i-th vertex of the local mapping
// (read only), nil when it is off the grid.
func (v *View[V, M]) VertexOf(i int) *V {
	if u := v.Mapping()[i]; u >= 0 {
		return &v.vert[u]
	}
	return nil
}

// CountOf returns the number of agents on the i-th vertex of the local
// mapping.
func (v *View[V, M]) CountOf(i int) int {
	u := v.Mapping()[i]
	if u < 0 {
		return 0
	}
	lo, hi := v.ix.rangeOf(u)
	return hi - lo
}

// MessagesOf returns the messages posted this round by the agents on the
// i-th vertex of the local mapping.
func (v *View[V, M]) MessagesOf(i int) []M {
	u := v.Mapping()[i]
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
