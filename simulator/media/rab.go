package media

import (
	"fmt"
	"math"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// RABDescription is the help text of the <range_and_bearing> medium.
const RABDescription = "The range-and-bearing medium (ARGoS's <range_and_bearing>): at each tick, robot A hears robot B when B lies within B's range " +
	"(the robot's rab_range attribute: 3 m on a foot-bot, 0.8 m on an e-puck), both payloads have the same size (rab_data_size: 10 and 2 bytes), " +
	"and, with check_occlusions, no other body cuts the line between their emitters. Members are indexed on a grid of cells about the largest " +
	"range, and the work is split over the simulator's threads. Attributes: id (required), check_occlusions (default true); index and " +
	"grid_size are accepted for ARGoS compatibility."

// RAB is the range-and-bearing medium. Build it with NewRAB.
type RAB struct {
	world      *entity.World
	occlusions bool
	members    []*RABMember // in robot order
	maxRange   float64
	jobs       struct{ gather, pairs func(chunk int) } // makeJobs

	// by member index, for the sensors: the emitters' positions and a copy
	// of every payload, in contiguous memory
	pos     []ci.Vector3
	payload []byte
	offset  []int32
	alive   []bool
	rng     []float64
	size    []int32
	body    []int32

	// who hears whom, by member index: the senders member i heard are
	// heard[heardAt[i]:heardAt[i+1]]; the pairs of member i are in its
	// chunk's buffer at pairAt[i]
	heard   []int32
	heardAt []int32
	cursor  []int32
	pairAt  [][2]int32 // chunk, start; the end is the next member's start in the chunk
	pairEnd []int32

	// the members whose robot is in the arena, indexed by the grid; the
	// g* arrays hold what the neighbour search reads, in grid order
	live    []int32
	xy      []ci.Vector2
	grid    cells
	gMember []int32
	gPos    []ci.Vector3
	gRange  []float64
	gSize   []int32
	gBody   []int32
	scratch []rabScratch // per chunk of members

	// the mobile bodies that may cut a line of sight, indexed like the
	// members (in grid order, compact), and the largest of their radii
	occ     cells
	occXY   []ci.Vector2
	occ0    []candidate
	occ1    []candidate
	occMaxR float64
	occCell float64
	// the lowest and highest emitters: no line of sight leaves that range
	zlo, zhi float64
}

// rabScratch is one chunk's buffers: the static bodies around a member,
// and the pairs its members found.
type rabScratch struct {
	statics []candidate
	pairs   []pair
}

// candidate is a body that may cut a line of sight, with what the quick
// rejection reads.
type candidate struct {
	i      int32
	x, y   float64
	r      float64 // radius of the circle around the body and its nub
	z0, z1 float64
}

// pair records that two members (the other one of higher index) talk:
// flags hearsOther (this member hears the other) and heardByOther.
type pair struct {
	other int32
	flags uint8
}

const (
	hearsOther uint8 = 1 << iota
	heardByOther
)

// RABMember is a robot's range-and-bearing board as the medium sees it.
// Its devices share it: the actuator writes Payload during the act phase,
// the medium reads it in Update, the sensor reads Heard and the senders'
// payloads during the sense phase.
type RABMember struct {
	Robot *entity.Robot
	// Range is how far its messages carry (metres).
	Range float64
	// Payload is the message it sends, of the robot's rab_data_size.
	Payload []byte
	height  float64
	index   int
	m       *RAB
}

// NewRAB builds the medium from its element under <media>.
func NewRAB(n *config.Node, w *entity.World) (*RAB, error) {
	if err := n.CheckAttrs("id", "check_occlusions", "index", "grid_size"); err != nil {
		return nil, err
	}
	if _, err := n.String("id"); err != nil {
		return nil, err
	}
	occ, err := n.BoolOr("check_occlusions", true)
	if err != nil {
		return nil, err
	}
	return &RAB{world: w, occlusions: occ}, nil
}

// Join returns robot r's member, making it on the first call (from its
// sensor or its actuator, whichever is built first). Its range and payload
// size come from the robot's rab_range and rab_data_size attributes, or
// the model's defaults.
func (m *RAB) Join(r *entity.Robot) (*RABMember, error) {
	k, found := slices.BinarySearchFunc(m.members, r.Index, func(mb *RABMember, i int) int { return mb.Robot.Index - i })
	if found && m.members[k].Robot == r {
		return m.members[k], nil
	}
	board := r.Model.RAB
	if board.Range <= 0 {
		return nil, fmt.Errorf("media: the %s has no range-and-bearing board", r.Model.Type)
	}
	rng, size := board.Range, board.DataSize
	if r.Node != nil {
		var err error
		if rng, err = r.Node.FloatOr("rab_range", rng); err != nil {
			return nil, err
		}
		if size, err = r.Node.IntOr("rab_data_size", size); err != nil {
			return nil, err
		}
		if rng <= 0 || size < 0 {
			return nil, r.Node.Errorf("media: rab_range=%g must be positive and rab_data_size=%d not negative", rng, size)
		}
	}
	mb := &RABMember{Robot: r, Range: rng, Payload: make([]byte, size), height: board.Height, m: m}
	m.members = slices.Insert(m.members, k, mb)
	for i := k; i < len(m.members); i++ {
		m.members[i].index = i
	}
	return mb, nil
}

// Position returns where the member's emitter was at the last Update.
func (mb *RABMember) Position() ci.Vector3 {
	if mb.index >= len(mb.m.pos) {
		return ci.Vector3{}
	}
	return mb.m.pos[mb.index]
}

// Heard returns the members this one received a message from at the
// last Update, in robot order; look them up with Member.
func (mb *RABMember) Heard() []int32 {
	m := mb.m
	if mb.index+1 >= len(m.heardAt) {
		return nil
	}
	return m.heard[m.heardAt[mb.index]:m.heardAt[mb.index+1]]
}

// Member returns member i (from Heard).
func (m *RAB) Member(i int32) *RABMember { return m.members[i] }

// Message returns where member i's emitter was at the last Update and the
// payload it sent (a copy taken then; do not modify it).
func (m *RAB) Message(i int32) (ci.Vector3, []byte) {
	o := m.offset[i]
	return m.pos[i], m.payload[o:m.offset[i+1]:m.offset[i+1]]
}

const rabChunk = 64

// makeJobs makes Update's parallel passes once, so that a tick does not
// allocate them.
func (m *RAB) makeJobs() {
	// what each member's robot looks like now
	m.jobs.gather = func(c int) {
		for k := c * rabChunk; k < min((c+1)*rabChunk, len(m.members)); k++ {
			mb := m.members[k]
			b := mb.Robot.B()
			m.alive[k] = !b.Removed
			m.pos[k] = ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z + mb.height}
			m.rng[k], m.size[k], m.body[k] = mb.Range, int32(len(mb.Payload)), int32(mb.Robot.Body)
		}
	}
	// the pairs each live member of chunk c forms with the others
	m.jobs.pairs = func(c int) {
		sc := &m.scratch[c]
		sc.pairs = sc.pairs[:0]
		for _, k := range m.live[c*rabChunk : min((c+1)*rabChunk, len(m.live))] {
			copy(m.payload[m.offset[k]:m.offset[k+1]], m.members[k].Payload)
			m.pairAt[k] = [2]int32{int32(c), int32(len(sc.pairs))}
			m.pair(m.members[k], sc)
			m.pairEnd[k] = int32(len(sc.pairs))
		}
	}
}

// Update works out who hears whom, in three stages: index the members
// (serial, linear); for each member, find the members of higher index it
// talks with and check the line of sight once per pair (parallel over
// chunks of members); then spread the pairs into each member's list of
// senders (serial, linear), which comes out in robot order.
func (m *RAB) Update(run physics.Runner) {
	nm := len(m.members)
	m.pos, m.alive = resize(m.pos, nm), resize(m.alive, nm)
	m.rng, m.size, m.body = resize(m.rng, nm), resize(m.size, nm), resize(m.body, nm)
	m.offset = resize(m.offset, nm+1)
	if m.jobs.gather == nil {
		m.makeJobs()
	}
	run.Run((nm+rabChunk-1)/rabChunk, m.jobs.gather)
	m.live, m.xy = m.live[:0], m.xy[:0]
	m.maxRange = 0
	m.zlo, m.zhi = math.Inf(1), math.Inf(-1)
	off := int32(0)
	for k := 0; k < nm; k++ {
		m.offset[k] = off
		off += m.size[k]
		if !m.alive[k] {
			continue
		}
		p := m.pos[k]
		m.live = append(m.live, int32(k))
		m.xy = append(m.xy, p.XY())
		m.maxRange = max(m.maxRange, m.rng[k])
		m.zlo, m.zhi = min(m.zlo, p.Z), max(m.zhi, p.Z)
	}
	m.offset[nm] = off
	m.payload = resize(m.payload, int(off))
	lo, hi := m.world.Space.Bounds()
	// cells of half the range: a search covers 5x5 cells, 2.8 times the
	// area of the disc it looks for, where 3x3 cells of the range would
	// cover 3.6 times
	m.grid.build(lo, hi, max(m.maxRange/2, 0.05), len(m.xy), func(k int) ci.Vector2 { return m.xy[k] })
	n := len(m.live)
	m.gMember, m.gPos = resize(m.gMember, n), resize(m.gPos, n)
	m.gRange, m.gSize, m.gBody = resize(m.gRange, n), resize(m.gSize, n), resize(m.gBody, n)
	for k, l := range m.grid.items[:n] {
		j := m.live[l]
		m.gMember[k], m.gPos[k], m.gRange[k], m.gSize[k], m.gBody[k] = j, m.pos[j], m.rng[j], m.size[j], m.body[j]
	}
	if m.occlusions {
		m.indexOccluders(lo, hi)
	}
	chunks := (n + rabChunk - 1) / rabChunk
	m.scratch = resize(m.scratch, chunks)
	m.pairAt = resize(m.pairAt, nm)
	m.pairEnd = resize(m.pairEnd, nm)
	clear(m.pairAt)
	clear(m.pairEnd)
	run.Run(chunks, m.jobs.pairs)
	// count, then fill, the senders each member heard
	m.heardAt = resize(m.heardAt, nm+1)
	clear(m.heardAt)
	for i := 0; i < nm; i++ {
		for _, p := range m.pairsOf(i) {
			if p.flags&hearsOther != 0 {
				m.heardAt[i+1]++
			}
			if p.flags&heardByOther != 0 {
				m.heardAt[p.other+1]++
			}
		}
	}
	for i := 1; i <= nm; i++ {
		m.heardAt[i] += m.heardAt[i-1]
	}
	m.heard = resize(m.heard, int(m.heardAt[nm]))
	m.cursor = resize(m.cursor, nm)
	copy(m.cursor, m.heardAt[:nm])
	// in member order, so that every list comes out in member order: a
	// member's senders of lower index arrive before its own pairs
	for i := 0; i < nm; i++ {
		for _, p := range m.pairsOf(i) {
			if p.flags&hearsOther != 0 {
				m.heard[m.cursor[i]] = p.other
				m.cursor[i]++
			}
			if p.flags&heardByOther != 0 {
				m.heard[m.cursor[p.other]] = int32(i)
				m.cursor[p.other]++
			}
		}
	}
}

// pairsOf returns the pairs member i found at the last Update.
func (m *RAB) pairsOf(i int) []pair {
	at := m.pairAt[i]
	if at[1] == m.pairEnd[i] {
		return nil // none, or a member whose robot left the arena
	}
	return m.scratch[at[0]].pairs[at[1]:m.pairEnd[i]]
}

// pair lists the members of higher index that mb talks with.
func (m *RAB) pair(mb *RABMember, sc *rabScratch) {
	r := ci.Vector2{X: m.maxRange, Y: m.maxRange}
	here := m.pos[mb.index]
	p := here.XY()
	lo, hi := p.Sub(r), p.Add(r)
	sp := m.world.Space
	if m.occlusions {
		sc.gatherStatic(sp, lo, hi)
	}
	x0, y0, x1, y1 := m.grid.span(lo, hi)
	size := m.size[mb.index]
	body := int(m.body[mb.index])
	r2 := m.rng[mb.index] * m.rng[mb.index]
	start := len(sc.pairs)
	for y := y0; y <= y1; y++ {
		k0, k1 := m.grid.Row(y, x0, x1)
		for k := k0; k < k1; k++ {
			j := m.gMember[k]
			if int(j) <= mb.index || m.gSize[k] != size {
				continue
			}
			d := m.gPos[k].Sub(here)
			d2 := d.X*d.X + d.Y*d.Y + d.Z*d.Z
			var f uint8
			if rj := m.gRange[k]; d2 < rj*rj {
				f |= hearsOther
			}
			if d2 < r2 {
				f |= heardByOther
			}
			if f == 0 {
				continue
			}
			if m.occlusions && m.blocked(sc, here, m.gPos[k], body, int(m.gBody[k])) {
				continue
			}
			sc.pairs = append(sc.pairs, pair{other: j, flags: f})
		}
	}
	// the grid lists members cell by cell: put them in member order
	ps := sc.pairs[start:]
	for a := 1; a < len(ps); a++ {
		for b := a; b > 0 && ps[b].other < ps[b-1].other; b-- {
			ps[b], ps[b-1] = ps[b-1], ps[b]
		}
	}
}

// indexOccluders indexes the mobile bodies of the space (robots and
// movable objects, members or not) for the line-of-sight tests.
func (m *RAB) indexOccluders(lo, hi ci.Vector2) {
	sp := m.world.Space
	m.occXY, m.occ0 = m.occXY[:0], m.occ0[:0]
	m.occMaxR = 0
	for i := range sp.Bodies {
		b := &sp.Bodies[i]
		// a body outside the emitters' heights cuts no line (the top
		// face excluded, as Crosses does: e-pucks, whose emitter is on top,
		// hide no e-puck)
		if b.Removed || !b.Movable || b.Z > m.zhi || b.Z+b.Height <= m.zlo {
			continue
		}
		m.occXY = append(m.occXY, b.Pos)
		m.occ0 = append(m.occ0, candidate{i: int32(i), x: b.Pos.X, y: b.Pos.Y, r: b.Reach(), z0: b.Z, z1: b.Z + b.Height})
		m.occMaxR = max(m.occMaxR, b.Reach())
	}
	n := len(m.occXY)
	// cells of about one body each, at least a body wide: a line of sight
	// visits the few cells along it (see blocked)
	area := max((hi.X-lo.X)*(hi.Y-lo.Y), 1e-6)
	m.occCell = max(math.Sqrt(area/max(float64(n), 1)), 2*m.occMaxR+0.05)
	m.occ.build(lo, hi, m.occCell, n, func(k int) ci.Vector2 { return m.occXY[k] })
	m.occ1 = resize(m.occ1, n)
	for k, i := range m.occ.items[:n] {
		m.occ1[k] = m.occ0[i]
	}
}

// gatherStatic collects the static bodies whose footprint may meet the
// box [lo, hi].
func (sc *rabScratch) gatherStatic(sp *space.Space, lo, hi ci.Vector2) {
	sc.statics = sc.statics[:0]
	sp.NearStatic(lo, hi, func(i int) bool {
		for k := range sc.statics { // a long body spans several cells
			if sc.statics[k].i == int32(i) {
				return true
			}
		}
		b := &sp.Bodies[i]
		sc.statics = append(sc.statics, candidate{i: int32(i), x: b.Pos.X, y: b.Pos.Y, r: b.Radius, z0: b.Z, z1: b.Z + b.Height})
		return true
	})
}

// blocked reports whether a body other than a and b cuts the segment
// from->to: one of the static bodies gathered around the member, or a
// mobile body of the cells around the segment.
func (m *RAB) blocked(sc *rabScratch, from, to ci.Vector3, a, b int) bool {
	sp := m.world.Space
	if cuts(sp, sc.statics, from, to, a, b) {
		return true
	}
	if len(m.occXY) == 0 {
		return false
	}
	// the cells along the segment, row by row: in each row, those the
	// segment crosses while within the row's band widened by the largest
	// radius (a body that cuts the segment has its centre there)
	d := to.Sub(from)
	pad := m.occMaxR
	g := &m.occ
	cell := g.cell
	_, y0 := g.cellXY(ci.Vector2{X: from.X, Y: min(from.Y, to.Y) - pad})
	_, y1 := g.cellXY(ci.Vector2{X: from.X, Y: max(from.Y, to.Y) + pad})
	for y := y0; y <= y1; y++ {
		ta, tb := 0.0, 1.0
		if d.Y != 0 {
			// the row's band; the border rows also hold what lies beyond
			blo, bhi := g.lo.Y+float64(y)*cell-pad, g.lo.Y+float64(y+1)*cell+pad
			if y == 0 {
				blo = math.Inf(-1)
			}
			if y == g.ny-1 {
				bhi = math.Inf(1)
			}
			ta, tb = (blo-from.Y)/d.Y, (bhi-from.Y)/d.Y
			if ta > tb {
				ta, tb = tb, ta
			}
			if ta, tb = max(ta, 0), min(tb, 1); ta > tb {
				continue
			}
		}
		xa, xb := from.X+d.X*ta, from.X+d.X*tb
		x0, _ := g.cellXY(ci.Vector2{X: min(xa, xb) - pad, Y: from.Y})
		x1, _ := g.cellXY(ci.Vector2{X: max(xa, xb) + pad, Y: from.Y})
		k0, k1 := g.RowOf(y, x0, x1)
		if k0 < k1 && cuts(sp, m.occ1[k0:k1], from, to, a, b) {
			return true
		}
	}
	return false
}

// cuts reports whether one of the candidates other than a and b cuts the
// segment from->to; a cheap test on the circumscribed circle and the
// height range rejects most of them before the exact one.
func cuts(sp *space.Space, cands []candidate, from, to ci.Vector3, a, b int) bool {
	d := to.Sub(from)
	l2 := d.X*d.X + d.Y*d.Y
	zlo, zhi := min(from.Z, to.Z), max(from.Z, to.Z)
	for k := range cands {
		c := &cands[k]
		if zhi < c.z0 || zlo >= c.z1 {
			continue
		}
		// distance from the centre to the segment, in the ground plane
		cx, cy := c.x-from.X, c.y-from.Y
		t := 0.0
		if l2 > 0 {
			t = max(0, min(1, (cx*d.X+cy*d.Y)/l2))
		}
		ex, ey := cx-t*d.X, cy-t*d.Y
		if ex*ex+ey*ey >= c.r*c.r || int(c.i) == a || int(c.i) == b {
			continue
		}
		if Crosses(&sp.Bodies[c.i], from, d) {
			return true
		}
	}
	return false
}

// Reset forgets who heard whom.
func (m *RAB) Reset() {
	for _, mb := range m.members {
		clear(mb.Payload)
	}
	m.heard, m.heardAt = m.heard[:0], m.heardAt[:0]
}

// Close implements the simulator's Medium.
func (m *RAB) Close() error { return nil }
