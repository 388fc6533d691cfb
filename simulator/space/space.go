package space

import (
	"math"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/internal/hugepage"
	"github.com/argosgo/argos/simulator/internal/prefetch"
)

// Space is the arena and every embodied entity in it.
type Space struct {
	// Center and Size of the arena box, in metres.
	Center, Size ci.Vector3
	// Bodies are indexed by a stable handle: removing a body marks it
	// Removed and keeps the others' indices.
	Bodies []Body
	// Drive holds, per body handle, the body's drive (zero for a body
	// just added). It is apart from the bodies, 16 bytes per body, as
	// its readers and writers are: every tick a robot's wheels write it
	// and an engine reads it, and neither then touches the body's cache
	// lines for it.
	Drive []Drive

	lo, hi     ci.Vector2
	static     footGrid
	mobile     Cells
	staticSel  []int32
	mobileSel  []int32
	maxMobileR float64
	// mitem holds, for each item of the mobile grid and in grid order,
	// what neighbour filters need, packed in one array so that a query
	// reads one contiguous run per grid row instead of touching Body.
	// bitem holds the same items in body order (mobileSel's), as the
	// last Reindex found them.
	mitem []mobileItem
	bitem []mobileItem
	// bstill holds bitem's still flags apart, a byte each, for the
	// refresh of the lists (refreshJob)
	bstill []bool
	// The mobile grid (mobile, mitem) is built from bitem only when
	// something reads it: at the Reindexes that build the neighbour
	// lists, and at those after a Reindex whose grid was read; between
	// them (a swarm's sensors and engines read the lists) it is stale
	// until a query asks for it (fresh). gridRead: a query read the grid
	// since the last Reindex. gridMu serializes a build from queries.
	gridStale, gridRead atomic.Bool
	gridMu              sync.Mutex
	staticDirty         bool
	mobileDirty         bool // a mobile body was added or removed: mobileSel is stale
	cell                float64
	reindexJobs         reindexJobs
	// clear holds, per body handle, the clearance of the mobile bodies as
	// of the last build of the clearances, and where each body was at the
	// last Reindex (clearance.go).
	clear []clearance
	// nb holds, per chunk of the mobile bodies (mobileSel, in body
	// order), the neighbour lists of its bodies one after the other (each
	// body's clearance says where its list is), as copies of the
	// neighbours' items as of the last Reindex: a query reads its list in
	// one run instead of items scattered over the index. nbSel holds the
	// neighbours' indices in mobileSel, entry for entry, from which
	// refreshJob copies their items again while the lists hold.
	nb    [][]mobileItem
	nbSel [][]int32
	// drift bounds how far any mobile body moved since the clearances
	// were built (0 when they were built at this Reindex); shrink is what
	// the clearances and lists lose to it (twice the drift and a margin
	// for rounding; 0 with it). driftLimit is the drift beyond which
	// Reindex builds them again: driftLimit (clearance.go) to begin with,
	// halved whenever a query was refused a list for the drift alone
	// (denied), so that it settles where the widest queries of the
	// experiment still read lists. driftSq holds the square of the
	// longest move in each chunk of mobileSel.
	drift, shrink, driftLimit float64
	denied                    atomic.Bool
	driftSq                   []float64
	// epoch counts the Reindexes. settled: this one kept the set of
	// mobile bodies and the static index of the one before, so that
	// RingSettled may compare a ring cast after that one with the same
	// ring now; a ring's neighbour list then holds every body within
	// its reach at both if it covers settleMargin more than the reach.
	epoch        uint32
	settled      bool
	settleMargin float64
}

// Runner runs n independent jobs, maybe in parallel (the simulator's
// thread pool; physics.Runner is the same).
type Runner interface{ Run(n int, job func(i int)) }

type serial struct{}

func (serial) Run(n int, job func(int)) {
	for i := 0; i < n; i++ {
		job(i)
	}
}

// reindexJobs are Reindex's parallel passes, made once so that
// reindexing allocates nothing.
type reindexJobs struct {
	track, cells, items, clearance, refresh func(chunk int)
}

const reindexChunk = 4096

// trackAhead is how many bodies ahead of the one it reads the track pass
// asks for the memory of (a body's first line and its clearance's): the
// pass goes in body order, but a body is three cache lines of which it
// reads one, and the processor's own prefetching lags. At 100,000
// e-pucks, ticks cost 2 % (minute 1) to 4 % (minute 10) less.
const trackAhead = 16

// mobileItem is what a neighbour query needs of a mobile body.
type mobileItem struct {
	pos    ci.Vector2
	r      float64
	z0, z1 float64 // bottom and top
	body   int32
	// plain: a disc without a nub, which a ray meets where it meets the
	// disc of radius r around pos
	plain bool
	// still: a plain disc that this Reindex found as the one before did
	// (the same position, reach and heights, bit for bit), of a set of
	// mobile bodies that did not change in between (RingSettled)
	still bool
}

// minCell is the smallest cell of the mobile index, in metres.
const minCell = 0.25

// New returns an empty arena of the given centre and size.
func New(center, size ci.Vector3) *Space {
	h := ci.Vector2{X: size.X / 2, Y: size.Y / 2}
	c := center.XY()
	s := &Space{Center: center, Size: size, lo: c.Sub(h), hi: c.Add(h), staticDirty: true, mobileDirty: true,
		driftLimit: driftLimit}
	s.reindexJobs.track = func(c int) {
		// in body order: each body's item, and whether it is the last
		// Reindex's (the item it overwrites, when the bodies are those
		// of the last Reindex: settled); where it is, for Clearance; and
		// the longest move since the clearances were built (NaN for a
		// body they do not hold yet: max keeps it)
		sel, bitem, bstill, clr, same := s.mobileSel, s.bitem, s.bstill, s.clear, s.settled
		d2 := 0.0
		end := min((c+1)*reindexChunk, len(sel))
		for k := c * reindexChunk; k < end; k++ {
			if a := k + trackAhead; a < end { // (see trackAhead)
				j := sel[a]
				prefetch.Line(unsafe.Pointer(&s.Bodies[j]))
				prefetch.Line(unsafe.Pointer(&clr[j]))
			}
			i := sel[k]
			b := &s.Bodies[i]
			p := b.Pos
			it := mobileItem{pos: p, r: b.Reach(), z0: b.Z, z1: b.Z + b.Height, body: i,
				plain: b.Shape == Disc && !b.HasNub}
			cl := &clr[i]
			// (the last item is read only for a body found where it was:
			// a moving swarm's pass does not wait for it)
			if same && it.plain && math.Float64bits(p.X) == math.Float64bits(cl.cur.X) && math.Float64bits(p.Y) == math.Float64bits(cl.cur.Y) {
				it.still = it.sameAs(&bitem[k])
			}
			// (a still body's item and clearance hold what would be
			// written but maybe the flag: most of a crowd's lines are
			// then read and not written back)
			if !it.still || !bitem[k].still {
				bitem[k] = it
			}
			bstill[k] = it.still
			if !it.still || !cl.still {
				cl.cur, cl.still = p, it.still
			}
			d := p.Sub(cl.pos)
			d2 = max(d2, d.X*d.X+d.Y*d.Y)
		}
		s.driftSq[c] = d2
	}
	s.reindexJobs.cells = func(c int) {
		// each item's cell
		bitem, keys := s.bitem, s.mobile.pk
		for k := c * reindexChunk; k < min((c+1)*reindexChunk, len(bitem)); k++ {
			keys[k] = s.mobile.Key(bitem[k].pos)
		}
	}
	s.reindexJobs.clearance = s.clearanceJob
	s.reindexJobs.refresh = s.refreshJob
	s.reindexJobs.items = func(c int) {
		// in body order, each item to its place in the index
		bitem, dest := s.bitem, s.mobile.slot
		for k := c * reindexChunk; k < min((c+1)*reindexChunk, len(bitem)); k++ {
			s.mitem[dest[k]] = bitem[k]
		}
	}
	s.Reindex() // queries work (and find nothing) before the first real Reindex
	return s
}

// Add inserts a body and returns its handle. The index sees it after the
// next Reindex.
func (s *Space) Add(b Body) int {
	if b.Cos == 0 && b.Sin == 0 {
		b.SetYaw(b.Yaw)
	}
	b.ownExtra() // body.go
	if !b.Movable {
		b.Engine = -1
		s.staticDirty = true
	} else {
		s.mobileDirty = true
	}
	s.Bodies = append(s.Bodies, b)
	s.Drive = append(s.Drive, Drive{})
	return len(s.Bodies) - 1
}

// Grow makes room for n more bodies, so that adding a known number of
// bodies does not copy the ones added before.
func (s *Space) Grow(n int) {
	s.Bodies = hugepage.Grow(s.Bodies, n)
	s.Drive = hugepage.Grow(s.Drive, n)
}

// Remove hides body i from every query (after the next Reindex).
func (s *Space) Remove(i int) {
	s.Bodies[i].Removed = true
	s.unclear(i)
	if !s.Bodies[i].Movable {
		s.staticDirty = true
	} else {
		s.mobileDirty = true
	}
}

// StaticChanged tells the space that a static body was moved, so that the
// static index is rebuilt at the next Reindex.
func (s *Space) StaticChanged() { s.staticDirty = true }

// Reindex rebuilds the index of the mobile bodies (and of the static ones
// when they changed). Call it on the coordinating goroutine after the
// bodies moved and before anybody queries.
func (s *Space) Reindex() { s.ReindexWith(serial{}) }

// ReindexWith is Reindex with its passes over the bodies run by run. The
// set of mobile bodies and their radii must only change through Add and
// Remove.
func (s *Space) ReindexWith(run Runner) {
	rebuild := s.mobileDirty
	// (the track pass compares each item with the last Reindex's only
	// when the mobile bodies are those of the last Reindex; a build of
	// the static index clears settled below)
	s.epoch++
	s.settled = !s.mobileDirty && len(s.bitem) == len(s.mobileSel)
	lastDrift, lastShrink := s.drift, s.shrink
	if s.mobileDirty {
		s.maxMobileR = 0
		s.mobileSel = s.mobileSel[:0]
		for i := range s.Bodies {
			b := &s.Bodies[i]
			if b.Removed || !b.Movable {
				continue
			}
			s.mobileSel = append(s.mobileSel, int32(i))
			s.maxMobileR = math.Max(s.maxMobileR, b.Reach())
		}
		s.mobileDirty = false
	}
	// Cells of about a robot plus a sensor range keep a sensor's query to
	// 2x2 or 3x3 cells without spreading a big arena over millions of
	// cells; static bodies (walls) are few and long, so their grid is
	// coarser.
	cell := math.Max(2*s.maxMobileR+0.15, minCell)
	if cell != s.cell {
		s.cell = cell
		s.staticDirty = true
	}
	// (grown once: a million bodies appended one by one would copy the
	// list some twenty times)
	s.clear = hugepage.Grow(s.clear, len(s.Bodies)-len(s.clear))
	for k := len(s.clear); k < len(s.Bodies); k++ {
		s.clear = append(s.clear, clearance{})
		s.unclear(k) // static, until the index says otherwise
	}
	// each body's item, in body order, and how far the bodies drifted
	g := &s.mobile
	g.Reset(s.lo, s.hi, cell)
	n := len(s.mobileSel)
	chunks := (n + reindexChunk - 1) / reindexChunk
	s.bitem = hugepage.Grow(s.bitem[:0], n)[:n]
	s.bstill = resize(s.bstill, n)
	s.driftSq = resize(s.driftSq, chunks)
	run.Run(chunks, s.reindexJobs.track)
	// The clearances and neighbour lists are built again only once some
	// body has moved more than driftLimit since they were (or bodies
	// came or went): until then they hold with a margin of twice the
	// drift (clearance.go).
	d2 := 0.0
	for _, v := range s.driftSq {
		d2 = max(d2, v)
	}
	drift := math.Sqrt(d2)
	if s.denied.Load() {
		s.denied.Store(false)
		s.driftLimit /= 2
		if s.driftLimit < minDriftLimit {
			s.driftLimit = 0 // built at every Reindex where a body moved
		}
		rebuild = true
	}
	rebuild = rebuild || !(drift <= s.driftLimit)
	// the mobile grid: now when the lists are built from it, or when
	// the last one was read (queries then find it ready, as they would
	// build it one at a time); otherwise when a query asks for it
	s.gridStale.Store(true)
	if rebuild || s.gridRead.Load() {
		s.buildGrid(run)
	}
	s.gridRead.Store(false)
	if rebuild {
		for len(s.nb) < chunks {
			s.nb = append(s.nb, nil)
			s.nbSel = append(s.nbSel, nil)
		}
		run.Run(chunks, s.reindexJobs.clearance)
		// Since the last Reindex a body moved at most drift (from where
		// the last build found it) plus lastDrift (how far it was from
		// there then; NaN and infinities make RingSettled refuse): a
		// body that was within a ring's reach then and moved is in the
		// ring's new list if the list covers that much beyond the reach.
		s.settleMargin = drift + lastDrift
		drift = 0
	} else {
		// (also when no body is off its place at the build: one may have
		// moved and come back, or risen in place)
		run.Run(chunks, s.reindexJobs.refresh)
	}
	s.drift, s.shrink = drift, 0
	if drift > 0 {
		s.shrink = 2*drift + driftSlack
	}
	if !rebuild {
		// the same lists at both Reindexes, each within its own shrink
		s.settleMargin = max(s.shrink, lastShrink)
	}
	if s.staticDirty {
		s.staticSel = s.staticSel[:0]
		for i := range s.Bodies {
			if b := &s.Bodies[i]; !b.Removed && !b.Movable {
				s.staticSel = append(s.staticSel, int32(i))
			}
		}
		s.static.build(s.lo, s.hi, math.Max(4*cell, 1), s.Bodies, s.staticSel)
		s.staticDirty, s.settled = false, false
	}
}

// buildGrid builds the mobile grid from the items of the last Reindex
// (bitem): the bodies sorted by the cell of their centre (Cells: its
// cost follows the bodies, not the arena's area), then their items in
// grid order. Its passes run by run.
func (s *Space) buildGrid(run Runner) {
	g := &s.mobile
	n := len(s.bitem)
	chunks := (n + reindexChunk - 1) / reindexChunk
	g.Keys(n)
	run.Run(chunks, s.reindexJobs.cells)
	g.IndexWith(run)
	s.mitem = hugepage.Grow(s.mitem[:0], n)[:n]
	run.Run(chunks, s.reindexJobs.items)
	s.gridStale.Store(false)
}

// fresh makes the mobile grid ready for a query (built, if the last
// Reindex left it stale, by the first query to ask, while the others
// wait), and notes that the grid was read. Queries call it before they
// read mobile or mitem; those the neighbour lists answer do not.
func (s *Space) fresh() {
	if !s.gridRead.Load() {
		s.gridRead.Store(true)
	}
	if s.gridStale.Load() {
		s.gridMu.Lock()
		if s.gridStale.Load() {
			s.buildGrid(serial{})
		}
		s.gridMu.Unlock()
	}
}

// Near calls fn for every body whose footprint may intersect the box
// [lo, hi], until fn returns false. Static bodies spanning several cells
// may be visited more than once; removed bodies never are.
func (s *Space) Near(lo, hi ci.Vector2, fn func(i int) bool) {
	if !s.static.visit(lo, hi, fn) {
		return
	}
	s.NearMobile(lo, hi, fn)
}

// NearStatic is Near restricted to static bodies.
func (s *Space) NearStatic(lo, hi ci.Vector2, fn func(i int) bool) {
	s.static.visit(lo, hi, fn)
}

// CastRay returns the first body hit by the segment from->to at height z,
// ignoring body ignore (the robot that casts it; -1 for none): its handle
// and the fraction t in [0, 1] of the segment where it is hit. hit is -1
// when nothing is hit.
func (s *Space) CastRay(from, to ci.Vector2, z float64, ignore int) (t float64, hit int) {
	lo := ci.Vector2{X: math.Min(from.X, to.X), Y: math.Min(from.Y, to.Y)}
	hi := ci.Vector2{X: math.Max(from.X, to.X), Y: math.Max(from.Y, to.Y)}
	t, hit = 2, -1
	s.visit(lo, hi, func(i int) {
		if i == ignore {
			return
		}
		b := &s.Bodies[i]
		if !b.spans(z) {
			return
		}
		if ti, ok := b.rayHit(from, to); ok && (ti < t || ti == t && i < hit) {
			t, hit = ti, i
		}
	})
	if hit < 0 {
		return 1, -1
	}
	return t, hit
}

// visit is Near without early exit; it keeps CastRay's closure simple.
func (s *Space) visit(lo, hi ci.Vector2, fn func(i int)) {
	s.Near(lo, hi, func(i int) bool { fn(i); return true })
}

// Crowded reports whether another body whose height range overlaps body
// i's lies closer than gap to it (or overlaps it). Physics engines use it
// to find the bodies that may touch something during the next step.
func (s *Space) Crowded(i int, gap float64) bool {
	b := &s.Bodies[i]
	lo, hi := b.bounds()
	m := ci.Vector2{X: gap, Y: gap}
	crowded := false
	check := func(j int) bool {
		if j == i {
			return true
		}
		o := &s.Bodies[j]
		if o.Z > b.Top() || b.Z > o.Top() {
			return true
		}
		if Gap(b, o) < gap {
			crowded = true
			return false
		}
		return true
	}
	if clr, ok := s.Clearance(i, b.Pos); ok && clr >= gap {
		// no mobile body within gap (the clearance is a lower bound of
		// every exact gap): only the static ones are left to check
		s.static.visit(lo.Sub(m), hi.Add(m), check)
		return crowded
	}
	// a mobile body closer than gap has a bounding disc closer than gap:
	// within the neighbour list when gap is small enough
	if list, ok := s.neighbours(i, b.Pos, b.Pos, gap+b.Reach()); ok {
		if !s.static.visit(lo.Sub(m), hi.Add(m), check) {
			return crowded
		}
		for k := range list {
			if !check(int(list[k].body)) {
				break
			}
		}
		return crowded
	}
	s.Near(lo.Sub(m), hi.Add(m), check)
	return crowded
}

// Overlapping reports whether the footprint of body i intersects another
// body's (vertical ranges overlapping), with a tolerance tol in metres.
func (s *Space) Overlapping(i int, tol float64) (int, bool) {
	b := &s.Bodies[i]
	lo, hi := b.bounds()
	other := -1
	s.Near(lo, hi, func(j int) bool {
		if j == i {
			return true
		}
		o := &s.Bodies[j]
		if o.Z >= b.Top() || b.Z >= o.Top() {
			return true
		}
		if Gap(b, o) < -tol {
			other = j
			return false
		}
		return true
	})
	return other, other >= 0
}

// Nearby appends to buf the bodies, other than ignore, whose footprint
// comes within r of p and whose height range contains z, and returns it.
// A sensor that casts several short rays from one robot gathers its
// candidates once with Nearby and tests each ray with CastRayAmong.
func (s *Space) Nearby(p ci.Vector2, r, z float64, ignore int, buf []int32) []int32 {
	m := ci.Vector2{X: r, Y: r}
	s.static.visit(p.Sub(m), p.Add(m), func(i int) bool {
		b := &s.Bodies[i]
		if i == ignore || !b.spans(z) || b.Distance(p) > r {
			return true
		}
		for _, j := range buf { // long static bodies sit in several cells
			if int(j) == i {
				return true
			}
		}
		buf = append(buf, int32(i))
		return true
	})
	if ignore >= 0 && s.clearOf(ignore, p, r) {
		return buf // no other mobile body comes within r of the robot at p
	}
	s.fresh()
	g := &s.mobile
	pad := ci.Vector2{X: r + s.maxMobileR, Y: r + s.maxMobileR}
	x0, y0, x1, y1 := g.Span(p.Sub(pad), p.Add(pad))
	for y := y0; y <= y1; y++ {
		var k0, k1 int
		if g.sparse {
			k0, k1 = g.rowSparse(y, x0, x1)
		} else {
			k0, k1 = g.rowDense(y, x0, x1)
		}
		for k := k0; k < k1; k++ {
			m := &s.mitem[k]
			d := m.pos.Sub(p)
			reach := r + m.r
			if d.X*d.X+d.Y*d.Y > reach*reach {
				continue
			}
			i := int(m.body)
			if i == ignore || z < m.z0 || z > m.z1 {
				continue
			}
			buf = append(buf, int32(i))
		}
	}
	return buf
}

// CastRayAmong is CastRay restricted to the candidate bodies (from
// Nearby): the first one the segment from->to hits, and where.
func (s *Space) CastRayAmong(cands []int32, from, to ci.Vector2) (t float64, hit int) {
	t, hit = 2, -1
	for _, i := range cands {
		if ti, ok := s.Bodies[i].rayHit(from, to); ok && (ti < t || ti == t && int(i) < hit) {
			t, hit = ti, int(i)
		}
	}
	if hit < 0 {
		return 1, -1
	}
	return t, hit
}

// NearMobile calls fn for every mobile body (as of the last Reindex) whose
// footprint may meet the box [lo, hi], until fn returns false.
func (s *Space) NearMobile(lo, hi ci.Vector2, fn func(i int) bool) {
	s.fresh()
	r := ci.Vector2{X: s.maxMobileR, Y: s.maxMobileR}
	g := &s.mobile
	x0, y0, x1, y1 := g.Span(lo.Sub(r), hi.Add(r))
	for y := y0; y <= y1; y++ {
		var k0, k1 int
		if g.sparse {
			k0, k1 = g.rowSparse(y, x0, x1)
		} else {
			k0, k1 = g.rowDense(y, x0, x1)
		}
		for k := k0; k < k1; k++ {
			if !fn(int(s.mitem[k].body)) {
				return
			}
		}
	}
}

// NearMobileDisc calls fn for every mobile body (as indexed by the last
// Reindex) whose bounding disc comes within r of p, until fn returns
// false. It filters on the packed index alone, without reading Body.
func (s *Space) NearMobileDisc(p ci.Vector2, r float64, fn func(i int) bool) {
	s.fresh()
	g := &s.mobile
	pad := ci.Vector2{X: r + s.maxMobileR, Y: r + s.maxMobileR}
	x0, y0, x1, y1 := g.Span(p.Sub(pad), p.Add(pad))
	for y := y0; y <= y1; y++ {
		var k0, k1 int
		if g.sparse {
			k0, k1 = g.rowSparse(y, x0, x1)
		} else {
			k0, k1 = g.rowDense(y, x0, x1)
		}
		for k := k0; k < k1; k++ {
			m := &s.mitem[k]
			d := m.pos.Sub(p)
			if reach := r + m.r; d.X*d.X+d.Y*d.Y > reach*reach {
				continue
			}
			if !fn(int(m.body)) {
				return
			}
		}
	}
}

// NearMobileDiscOf appends to buf the mobile bodies other than i whose
// bounding disc (as indexed by the last Reindex) comes within r of q, and
// returns it: the set NearMobileDisc(q, r) visits, less i, in no
// particular order. Body i is mobile and p is its position; when the
// index holds it there and q is near p, the bodies are read from i's
// neighbour list instead of the index's rows.
func (s *Space) NearMobileDiscOf(i int, p, q ci.Vector2, r float64, buf []int32) []int32 {
	add := func(m *mobileItem) {
		d := m.pos.Sub(q)
		if reach := r + m.r; d.X*d.X+d.Y*d.Y > reach*reach || int(m.body) == i {
			return
		}
		buf = append(buf, m.body)
	}
	if list, ok := s.neighbours(i, p, q, r); ok {
		for k := range list {
			add(&list[k])
		}
		return buf
	}
	s.fresh()
	g := &s.mobile
	pad := ci.Vector2{X: r + s.maxMobileR, Y: r + s.maxMobileR}
	x0, y0, x1, y1 := g.Span(q.Sub(pad), q.Add(pad))
	for y := y0; y <= y1; y++ {
		var k0, k1 int
		if g.sparse {
			k0, k1 = g.rowSparse(y, x0, x1)
		} else {
			k0, k1 = g.rowDense(y, x0, x1)
		}
		for k := k0; k < k1; k++ {
			add(&s.mitem[k])
		}
	}
	return buf
}

// AppendStatic appends to buf the static bodies whose footprint may meet
// the box [lo, hi] (NearStatic's, without a callback), and returns it. A
// body spanning several cells of the static index may be appended more
// than once.
func (s *Space) AppendStatic(lo, hi ci.Vector2, buf []int32) []int32 {
	g := &s.static
	if g.none(lo, hi) {
		return buf
	}
	x0, y0, x1, y1 := g.span(lo, hi)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			c := g.local(x, y)
			buf = append(buf, g.items[g.start[c]:g.start[c+1]]...)
		}
	}
	return buf
}
