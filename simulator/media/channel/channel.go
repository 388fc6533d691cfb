package channel

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// Description is the help text of the <channel> medium.
const Description = "A communication channel for the messaging devices (ASCARI's simulated communication): the robots that declare <messaging> " +
	"send typed messages (ci.Topic) that the channel delivers at the next control step, through the stages its element lists. " +
	"Without stages every message reaches every other member. A robot's inbox holds, in this order, what earlier ticks held for it " +
	"(by the tick it was forwarded, then by sender), then this tick's deliveries by sender (arena order) and in the order sent: the same for " +
	"the same seed whatever the number of threads. Attributes: id (required). " + builtinHelp

// maxHold is the longest a delivery may be held in all, in ticks.
const maxHold = 1 << 20

// Channel is the <channel> medium. Build it with New.
type Channel struct {
	world  *entity.World
	stages []Model
	rng    *rangeModel // the tightest range stage: the neighbour search's radius
	// receives[s] is false for the built-in stages whose Receive passes
	// everything; forwards are the stages whose Forward runs for the
	// candidates in the tightest range (all but that range's)
	receives []bool
	forwards []Model
	// plain: the forwards are losses and delays only, which forward
	// decides inline: the drops from losses, the sum of the delays
	plain     bool
	losses    []loss
	plainHold int32
	tick      int64

	members []*Member
	byID    map[string]int32
	state   State
	jobs    struct{ gather, forward, pull func(c int) }

	// this tick's messages: the resumed ones first, then the new ones in
	// member order, whose payloads are in payload; passed lists those the
	// Receive stages let through
	msgs []Message
	// the outboxes, by the parity of the tick whose Update reads them:
	// box[p][i] is member i's first message, with its payload at
	// small[p][i*smallPayload:] when it fits
	box    [2][]outBox
	small  [2][]byte
	passed []int32
	// messages a Receive stage holds, with their payloads in heldB
	held  []heldMsg
	heldB [2][]byte
	// flags holds, by agent, what forwarding checks first
	flags []uint8
	// the neighbour search: member i's candidates, the live members
	// within the tightest range plus skin at the last build, are
	// nbr[nbrAt[i]:nbrAt[i+1]] (Verlet lists); the lists hold while no
	// member moved more than skin/2 from where it was then (builtAt)
	pos     []ci.Vector2 // by member, now
	builtAt []ci.Vector2
	nbr     []int32
	nbrAt   []int32
	skin    float64
	listN   int // the members at the last build; 0: none yet
	grid    space.Cells
	xy      []ci.Vector2
	live    []int32
	gxy     []ci.Vector2
	gidx    []int32
	// forwarding, by chunk of passed messages
	chunks [][]fwd
	// pulling (see pullable): msgAt[i] is member i's first message of
	// the tick in msgs (its last is before msgAt[i+1]), unicasts counts
	// the tick's unicasts; seeds[k*pullN+l] is message k's stream for
	// its l-th drawing loss, which drops draws below pullLoss[l]
	msgAt    []int32
	unicasts int
	seeds    []uint64
	pullN    int
	pullLoss [maxPlainLosses]uint64
	pulled   []pulled
	// deliveries for later ticks: the slot due at tick d is
	// later[d&(len(later)-1)], a ring longer than any hold pending (it
	// grows with the holds), so that a tick finds its slot without a map
	later []*slot
	// the slot schedule used last and its due tick (nil after deliver
	// and Reset, which take slots out of later)
	lastSlot *slot
	lastDue  int64
	free     []*slot
	now      *slot // the slot of this tick: the inbox reads its arena
	// the deliveries of this tick, by receiver: member i's are
	// refs[at[i]:at[i+1]], each an index in msgs (with unicastRef set
	// for a unicast) or -1-k for nowOut[k], a message held until now
	// (one for all its receivers)
	refs   []int32
	at     []int32
	count  []int32
	nowOut []ci.Message
	// the same deliveries as compact entries (ci.InboxLister): ent[p]
	// is delivery refs[p], made from tab (this tick's messages, as
	// msgs) and nowTab (those held until now, as nowOut), so that a
	// robot reads its inbox as one run of memory. Payloads too long for
	// an entry are copied to big, message k's at bigAt[k] (the overflow
	// they were sent from is reused by the next control step)
	ent    []ci.InboxEntry
	tab    []ci.InboxEntry
	nowTab []ci.InboxEntry
	big    []byte
	bigAt  []int32
	stats  Stats
	// inboxMax is the largest inbox delivered since the start
	// (ci.InboxSizer)
	inboxMax int
	// quiet says that the last deliver filled no inbox
	quiet bool
	// slabs hold the members and their devices, made robot after robot,
	// side by side: a tick that visits every robot's devices in order
	// reads them as one run of memory
	slabs struct {
		members   []Member
		senders   []Sender
		receivers []Receiver
	}
}

// slabNew returns a new zero T from the slab, which grows by blocks so
// that the pointers it returned stay valid.
func slabNew[T any](slab *[]T) *T {
	if len(*slab) == cap(*slab) {
		*slab = make([]T, 0, 256)
	}
	*slab = (*slab)[:len(*slab)+1]
	return &(*slab)[len(*slab)-1]
}

// Stats count what passed through a channel since the start (or the
// last Reset).
type Stats struct {
	// Sent counts messages sent; Delivered counts deliveries (a broadcast
	// delivered to five robots counts five); Dropped counts messages and
	// deliveries a stage dropped.
	Sent, Delivered, Dropped int64
}

// heldMsg is a message a Receive stage holds until tick due.
type heldMsg struct {
	m      Message
	due    int64
	off, n int
}

// fwd is one delivery: receiver, message (with unicastRef set for a
// unicast), and how long it is held (-1: dropped).
type fwd struct {
	to, msg, hold int32
}

// slot holds the deliveries due at one later tick: the messages, with
// copies of their payloads, and who gets which.
type slot struct {
	items []pending
	msgs  []slotMsg
	arena []byte
	// the message listed last, as tick<<32 | key: a broadcast's
	// deliveries share one entry and one copy of the payload
	last int64
}

// pending is a delivery of message msg of its slot to member to.
type pending struct {
	to, msg int32
}

// slotMsg is a message held in a slot, its payload at arena[off:off+n];
// to is the receiver of a unicast, -1 for a broadcast.
type slotMsg struct {
	topic    string
	from, to int32
	off, n   int32
}

const (
	agentLive uint8 = 1 << iota
	agentFilters
)

// unicastRef marks the delivery ref of a unicast.
const unicastRef = 1 << 30

// New builds a channel from its element under <media>.
func New(n *config.Node, w *entity.World) (*Channel, error) {
	if err := n.CheckAttrs("id"); err != nil {
		return nil, err
	}
	if _, err := n.String("id"); err != nil {
		return nil, err
	}
	c := &Channel{world: w, byID: map[string]int32{}, later: make([]*slot, 8)}
	for _, s := range n.Children {
		var m Model
		var err error
		if make := builtin(s.Name); make != nil {
			m, err = make(s, w)
		} else if s.Name == "model" {
			m, err = userModel(s, w)
		} else {
			return nil, s.Errorf("channel: unknown stage <%s>; use range, circle, line_of_sight, delay, loss, bandwidth, graph or <model type=\"NAME\"/>", s.Name)
		}
		if err != nil {
			return nil, err
		}
		if r, ok := m.(*rangeModel); ok && (c.rng == nil || r.r2 < c.rng.r2) {
			c.rng = r
		}
		c.stages = append(c.stages, m)
	}
	for _, m := range c.stages {
		_, passes := m.(interface{ receivesAll() })
		c.receives = append(c.receives, !passes)
		if m != Model(c.rng) {
			c.forwards = append(c.forwards, m)
		}
	}
	c.plainForwards()
	c.state.World = w
	c.state.Seed = w.Seed
	c.makeJobs()
	return c, nil
}

func userModel(n *config.Node, w *entity.World) (Model, error) {
	t, err := n.String("type")
	if err != nil {
		return nil, err
	}
	f, err := Models.Lookup(t)
	if err != nil {
		return nil, n.AttrErrorf("type", "channel: %v", err)
	}
	m, err := f(n, w)
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, n.Errorf("channel: model %q made nothing", t)
	}
	return m, nil
}

// Member is a robot's place on a channel, shared by its messaging
// devices. What a robot sends and receives at each tick lives in the
// channel's arrays, indexed by the member: a tick of a robot's messaging
// touches little memory of its own.
type Member struct {
	Robot  *entity.Robot
	index  int
	ch     *Channel
	send   *Sender
	recv   *Receiver
	topics []string // what its receiver accepts; nil: everything
	more   []outMsg // its messages after the first of a tick, read at the next Update
	moreB  []byte
}

// outBox is a member's first message of a tick: its payload is in the
// channel's small array when it fits (n >= 0), else in the member's
// overflow with the others (n < 0); more says that others follow there.
type outBox struct {
	tick      int64 // the tick whose Update reads it
	topic, to string
	n         int32
	more      bool
}

// outMsg is a message of the overflow, its payload at moreB[off:off+n].
type outMsg struct {
	topic, to string
	off, n    int32
}

// smallPayload is the room each member has for the payload of its first
// message of a tick in the channel's contiguous array.
const smallPayload = 32

// Join returns robot r's member, making it on the first call (from its
// sender or its receiver, whichever is built first).
func (c *Channel) Join(r *entity.Robot) *Member {
	k, found := slices.BinarySearchFunc(c.members, r.Index, func(m *Member, i int) int { return m.Robot.Index - i })
	if found && c.members[k].Robot == r {
		return c.members[k]
	}
	mb := slabNew(&c.slabs.members)
	*mb = Member{Robot: r, ch: c}
	c.members = slices.Insert(c.members, k, mb)
	c.state.Agents = slices.Insert(c.state.Agents, k, Agent{ID: r.ID, Robot: r, Body: r.Body})
	if k < len(c.flags) {
		c.flags = slices.Insert(c.flags, k, 0)
	}
	for p := range c.box {
		c.box[p] = slices.Insert(c.box[p], k, outBox{})
		c.small[p] = slices.Insert(c.small[p], k*smallPayload, make([]byte, smallPayload)...)
	}
	for i := k; i < len(c.members); i++ {
		m := c.members[i]
		m.index = i
		c.byID[m.Robot.ID] = int32(i)
		if m.send != nil {
			m.send.index = i
		}
		if m.recv != nil {
			m.recv.index = i
		}
	}
	return mb
}

// Members returns the members in robot order.
func (c *Channel) Members() []*Member { return c.members }

// Stats returns the counts since the start.
func (c *Channel) Stats() Stats { return c.stats }

// Inbox appends what the member received at the last Update to buf:
// views of the channel's deliveries, whose payloads are the channel's
// until its next Update.
func (m *Member) Inbox(buf []ci.Message) []ci.Message {
	c := m.ch
	if m.index+1 >= len(c.at) {
		return buf
	}
	for p := c.at[m.index]; p < c.at[m.index+1]; p++ {
		e := &c.ent[p]
		msg := ci.Message{Topic: e.Topic, From: e.From}
		if e.Unicast {
			msg.To = m.Robot.ID
		}
		if int(e.N) <= len(e.Small) {
			msg.Payload = e.Small[:e.N:e.N]
		} else {
			msg.Payload = c.payload(int(p))
		}
		buf = append(buf, msg)
	}
	return buf
}

const (
	gatherChunk  = 256
	forwardChunk = 128
)

func (c *Channel) makeJobs() {
	c.jobs.gather = func(ch int) {
		bodies := c.world.Space.Bodies
		for k := ch * gatherChunk; k < min((ch+1)*gatherChunk, len(c.members)); k++ {
			a := &c.state.Agents[k]
			b := &bodies[a.Body]
			a.Live = !b.Removed
			a.Pos = ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z + b.Height/2}
			a.Yaw = b.Yaw
			f := c.flags[k] &^ agentLive
			if a.Live {
				f |= agentLive
			}
			c.flags[k] = f
		}
	}
	c.jobs.pull = func(ch int) {
		c.pullFor(&c.pulled[ch], ch*pullChunk, min((ch+1)*pullChunk, len(c.members)))
	}
	c.jobs.forward = func(ch int) {
		buf := c.chunks[ch][:0]
		for _, k := range c.passed[ch*forwardChunk : min((ch+1)*forwardChunk, len(c.passed))] {
			buf = c.forward(&c.msgs[k], buf)
		}
		if len(buf) > cap(buf)*2/3 {
			// room for twice the deliveries once they fill two thirds
			// of it: a tick with a few more deliveries than any before
			// does not allocate, only one with a third more
			buf = slices.Grow(buf, len(buf))
		}
		c.chunks[ch] = buf
	}
}

// Update runs the tick's messages through the stages: see Model.
func (c *Channel) Update(run physics.Runner) {
	c.tick++
	n := len(c.members)
	c.state.Tick = c.tick
	c.flags = resize(c.flags, n)
	if c.plain && len(c.held) == 0 && !c.anySent() {
		// nothing enters the channel: the plain stages' Update reads
		// nothing (a range keeps the agents' slice, which stays), so
		// the agents' states are not gathered, there is nothing to
		// collect or forward, and what earlier ticks held is delivered
		// (the next tick that sends gathers them again)
		c.msgs, c.passed, c.unicasts = c.msgs[:0], c.passed[:0], 0
		c.deliver(0)
		return
	}
	run.Run((n+gatherChunk-1)/gatherChunk, c.jobs.gather)
	for _, s := range c.stages {
		s.Update(&c.state) // step 1
	}
	c.collect()
	c.receive() // step 2
	if len(c.passed) > 0 {
		// the neighbour search serves forwarding only: a tick with
		// nothing to forward leaves it to the next that has something
		c.index()
	}
	if c.pullable() {
		c.pull(run) // step 3, by receiver
		return
	}
	chunks := (len(c.passed) + forwardChunk - 1) / forwardChunk
	for len(c.chunks) < chunks {
		c.chunks = append(c.chunks, nil)
	}
	run.Run(chunks, c.jobs.forward) // step 3
	c.deliver(chunks)
}

// anySent reports whether a member sent a message that this tick's
// Update reads (removed or not).
func (c *Channel) anySent() bool {
	box := c.box[c.tick&1]
	for i := range box {
		if box[i].tick == c.tick {
			return true
		}
	}
	return false
}

// pullable says whether this tick's deliveries may be made receiver by
// receiver (pull): a channel of one range, losses and no delay, whose
// messages this tick are all broadcasts sent now (none held), and
// nothing held for this tick. Those deliveries are the ones forward
// and deliver make, in the same order: a receiver hears the senders in
// its (symmetric) candidate list, sorted by member, each sender's
// messages in the order sent, with the same draws.
func (c *Channel) pullable() bool {
	return c.plain && c.rng != nil && c.plainHold == 0 && len(c.losses) <= maxPlainLosses &&
		len(c.passed) > 0 && len(c.passed) == len(c.msgs) && c.unicasts == 0 && !c.msgs[0].Resumed &&
		c.later[c.tick&int64(len(c.later)-1)] == nil && len(c.nbrAt) == len(c.members)+1
}

// pull makes the tick's deliveries by receiver, in chunks of receivers
// (in parallel), each chunk's as refs in pulled, then the inboxes.
func (c *Channel) pull(run physics.Runner) {
	n := len(c.members)
	// where each member's messages start: they are in member order
	c.msgAt = resize(c.msgAt, n+1)
	clear(c.msgAt)
	for k := range c.msgs {
		c.msgAt[c.msgs[k].From+1]++
	}
	for i := 1; i <= n; i++ {
		c.msgAt[i] += c.msgAt[i-1]
	}
	nl := 0
	for k := range c.losses {
		if c.losses[k].p > 0 {
			c.pullLoss[nl] = drawBelow(c.losses[k].p)
			nl++
		}
	}
	c.pullN = nl
	c.seeds = resize(c.seeds, len(c.msgs)*nl)
	for k := range c.msgs {
		l := 0
		for _, ls := range c.losses {
			if ls.p > 0 {
				c.seeds[k*nl+l] = mix(c.msgs[k].base ^ ls.salt)
				l++
			}
		}
	}
	c.count = resize(c.count, n+1)
	c.count[0] = 0
	chunks := (n + pullChunk - 1) / pullChunk
	for len(c.pulled) < chunks {
		c.pulled = append(c.pulled, pulled{})
	}
	run.Run(chunks, c.jobs.pull)
	delivered := 0
	var dropped int64
	for _, pc := range c.pulled[:chunks] {
		delivered += len(pc.refs)
		dropped += pc.dropped
	}
	c.inboxStarts(n)
	c.refs = resize(c.refs, delivered)
	c.ent = resize(c.ent, delivered)
	p := 0
	for _, pc := range c.pulled[:chunks] {
		copy(c.refs[p:], pc.refs)
		for _, ref := range pc.refs {
			c.ent[p] = c.tab[ref]
			p++
		}
	}
	if c.now != nil {
		c.free = append(c.free, c.now)
		c.now = nil
	}
	c.lastSlot = nil
	c.nowOut = c.nowOut[:0]
	c.stats.Delivered += int64(delivered)
	c.stats.Dropped += dropped
	c.quiet = delivered == 0
}

// pullChunk is the receivers a job of pull makes the deliveries of.
const pullChunk = 256

// pulled is a chunk's deliveries in pull: the messages its receivers
// get, receiver after receiver, and the deliveries the losses dropped.
type pulled struct {
	refs    []int32
	dropped int64
	near    []int32 // a receiver's candidates in range
}

// pullFor makes the deliveries to receivers [lo, hi): see pullable.
func (c *Channel) pullFor(pc *pulled, lo, hi int) {
	buf := pc.refs[:0]
	var dropped int64
	nl := c.pullN
	below := c.pullLoss
	r2 := c.rng.r2
	near := pc.near
	for i := lo; i < hi; i++ {
		start := len(buf)
		f := c.flags[i]
		if f&agentLive != 0 {
			q := c.pos[i]
			// the candidates in range first, without a branch on the
			// range (a third fail it, at random): each is written, and
			// kept by moving on
			nb := c.nbr[c.nbrAt[i]:c.nbrAt[i+1]]
			near = slices.Grow(near[:0], len(nb))[:len(nb)]
			n := 0
			for _, j := range nb {
				p := c.pos[j]
				dx, dy := q.X-p.X, q.Y-p.Y
				near[n] = j
				in := 0
				if dx*dx+dy*dy <= r2 {
					in = 1
				}
				n += in
			}
			for _, j := range near[:n] {
				k0, k1 := c.msgAt[j], c.msgAt[j+1]
			msgs:
				for k := k0; k < k1; k++ {
					if f&agentFilters != 0 && !slices.Contains(c.members[i].topics, c.msgs[k].Topic) {
						continue
					}
					for l := 0; l < nl; l++ {
						if mix(c.seeds[int(k)*nl+l]+uint64(i))>>11 < below[l] {
							dropped++
							continue msgs
						}
					}
					buf = append(buf, k)
				}
			}
		}
		c.count[i+1] = int32(len(buf) - start)
	}
	if len(buf) > cap(buf)*2/3 {
		buf = slices.Grow(buf, len(buf)) // as the forward chunks
	}
	pc.refs, pc.dropped, pc.near = buf, dropped, near
}

// collect gathers the messages entering the channel: those held by a
// Receive stage that are due, then what every live member sent.
func (c *Channel) collect() {
	c.msgs = c.msgs[:0]
	// held messages due now, in the order they were held
	cur := c.heldB[c.tick&1][:0] // the arena of those still held after this tick
	prev := c.heldB[(c.tick-1)&1]
	kept := c.held[:0]
	for _, h := range c.held {
		h.m.Payload = prev[h.off : h.off+h.n : h.off+h.n]
		if h.due <= c.tick {
			h.m.Resumed = true
			c.msgs = append(c.msgs, h.m)
			continue
		}
		h.off = len(cur)
		cur = append(cur, h.m.Payload...)
		h.m.Payload = nil
		kept = append(kept, h)
	}
	c.held = kept
	c.heldB[c.tick&1] = cur
	p := c.tick & 1
	box, small := c.box[p], c.small[p]
	c.unicasts = 0
	for i := range c.members {
		b := &box[i]
		if b.tick != c.tick || c.flags[i]&agentLive == 0 {
			continue
		}
		if b.n >= 0 {
			c.add(i, 0, b.topic, b.to, small[i*smallPayload:i*smallPayload+int(b.n):i*smallPayload+int(b.n)])
		}
		if b.n < 0 || b.more {
			mb := c.members[i]
			for k, o := range mb.more {
				seq := k
				if b.n >= 0 {
					seq++
				}
				c.add(i, seq, o.topic, o.to, mb.moreB[o.off:o.off+o.n:o.off+o.n])
			}
		}
	}
}

// add lists a message sent by member i.
func (c *Channel) add(i, seq int, topic, to string, payload []byte) {
	c.stats.Sent++
	dest := -1
	if to != "" {
		k, ok := c.byID[to]
		if !ok {
			c.stats.Dropped++ // no such robot on this channel
			return
		}
		dest = int(k)
		c.unicasts++
	}
	// field by field, in place (see setEntry)
	c.msgs = slices.Grow(c.msgs, 1)
	c.msgs = c.msgs[:len(c.msgs)+1]
	m := &c.msgs[len(c.msgs)-1]
	m.From, m.To, m.Topic, m.Payload, m.Sent, m.Seq = i, dest, topic, payload, c.tick, seq
	m.Resumed, m.stage, m.key, m.base = false, 0, 0, streamOf(c.world.Seed, c.tick, i, seq)
}

// receive runs step 2, in message order, and lists the messages that
// pass every Receive stage.
func (c *Channel) receive() {
	c.passed = c.passed[:0]
	for k := range c.msgs {
		m := &c.msgs[k]
		m.key = int32(k)
		ok := true
		for s := m.stage; s < len(c.stages); s++ {
			if !c.receives[s] {
				continue
			}
			if s > m.stage {
				m.Resumed = false
			}
			v := c.stages[s].Receive(m)
			if v == Pass {
				continue
			}
			if v < 0 {
				c.stats.Dropped++
			} else {
				c.hold(m, s, int64(v))
			}
			ok = false
			break
		}
		if ok {
			c.passed = append(c.passed, int32(k))
		}
	}
	c.tab = resize(c.tab, len(c.msgs))
	c.bigAt = resize(c.bigAt, len(c.msgs))
	c.big = c.big[:0]
	if c.plain && c.plainHold > 0 {
		// every delivery of this tick's messages is held: they reach
		// the inboxes from their slots, not from tab
		return
	}
	for _, k := range c.passed {
		m := &c.msgs[k]
		if setEntry(&c.tab[k], m.Topic, c.state.Agents[m.From].ID, m.Payload, m.To >= 0) {
			// at an offset aligned for any value, which a Topic then
			// loads without copying byte by byte
			off := (len(c.big) + 7) &^ 7
			c.big = append(c.big, make([]byte, off-len(c.big))...)
			c.bigAt[k] = int32(off)
			c.big = append(c.big, m.Payload...)
		}
	}
}

// setEntry makes e the compact entry of a message and says whether its
// payload is too long for it.
func setEntry(e *ci.InboxEntry, topic, from string, payload []byte, unicast bool) bool {
	// field by field: a composite literal is built on the stack with
	// narrow stores and copied with wide loads, which wait for them
	e.Topic, e.From, e.N, e.Unicast = topic, from, int32(len(payload)), unicast
	e.Small = [ci.InboxSmall]byte{}
	if len(payload) > len(e.Small) {
		return true
	}
	copy(e.Small[:], payload)
	return false
}

// hold keeps message m at stage s for n ticks, with a copy of its
// payload.
func (c *Channel) hold(m *Message, s int, n int64) {
	cur := c.heldB[c.tick&1]
	h := heldMsg{m: *m, due: c.tick + min(n, maxHold), off: len(cur), n: len(m.Payload)}
	c.heldB[c.tick&1] = append(cur, m.Payload...)
	h.m.Payload, h.m.stage, h.m.Resumed = nil, s, false
	c.held = append(c.held, h)
}

// index updates the neighbour search: the lists of candidates are built
// again when a member joined or one moved more than half the skin since
// the last build (robots cover a small part of a range per tick, so a
// build serves several ticks).
func (c *Channel) index() {
	if c.rng == nil {
		return
	}
	n := len(c.members)
	c.pos = resize(c.pos, n)
	for i := range c.state.Agents {
		c.pos[i] = c.state.Agents[i].Pos.XY()
	}
	rebuild := c.listN != n
	if !rebuild {
		lim := c.skin * c.skin / 4
		for i, p := range c.pos {
			if c.flags[i]&agentLive == 0 {
				continue
			}
			q := c.builtAt[i]
			if dx, dy := p.X-q.X, p.Y-q.Y; dx*dx+dy*dy > lim {
				rebuild = true
				break
			}
		}
	}
	if rebuild {
		c.buildLists()
	}
}

// buildLists lists, for every live member, the live members within the
// tightest range plus the skin.
func (c *Channel) buildLists() {
	n := len(c.members)
	c.skin = max(0.2*c.rng.radius(), 0.01)
	c.live, c.xy = c.live[:0], c.xy[:0]
	for i, p := range c.pos {
		if c.flags[i]&agentLive != 0 {
			c.live = append(c.live, int32(i))
			c.xy = append(c.xy, p)
		}
	}
	r := c.rng.radius() + c.skin
	lo, hi := c.world.Space.Bounds()
	c.grid.Build(lo, hi, r, len(c.xy), func(k int) ci.Vector2 { return c.xy[k] })
	c.gxy, c.gidx = resize(c.gxy, len(c.xy)), resize(c.gidx, len(c.xy))
	for k, l := range c.grid.Items()[:len(c.xy)] {
		c.gxy[k], c.gidx[k] = c.xy[l], c.live[l]
	}
	c.nbrAt = resize(c.nbrAt, n+1)
	// the list in a local slice: appended to through c, its length
	// would be stored and loaded again at each append
	nbr, at := c.nbr[:0], c.nbrAt
	r2 := r * r
	for i, p := range c.pos {
		at[i] = int32(len(nbr))
		if c.flags[i]&agentLive == 0 {
			continue
		}
		x0, y0, x1, y1 := c.grid.Span(ci.Vector2{X: p.X - r, Y: p.Y - r}, ci.Vector2{X: p.X + r, Y: p.Y + r})
		for y := y0; y <= y1; y++ {
			k0, k1 := c.grid.Row(y, x0, x1)
			gidx := c.gidx[k0:k1]
			for k, q := range c.gxy[k0:k1] {
				if j := gidx[k]; int(j) != i {
					if dx, dy := q.X-p.X, q.Y-p.Y; dx*dx+dy*dy <= r2 {
						nbr = append(nbr, j)
					}
				}
			}
		}
		// by member, the order in which pull hears the candidates
		slices.Sort(nbr[at[i]:])
	}
	at[n] = int32(len(nbr))
	c.nbr = nbr
	c.builtAt = append(c.builtAt[:0], c.pos...)
	c.listN = n
}

// plainForwards finds whether the forward stages are losses and delays
// only, and then their losses and the sum of their delays as forwardTo
// adds them up.
func (c *Channel) plainForwards() {
	c.plain, c.losses, c.plainHold = true, nil, 0
	for _, m := range c.forwards {
		switch s := m.(type) {
		case *loss:
			c.losses = append(c.losses, *s)
		case *delay:
			c.plainHold += int32(min(s.ticks, maxHold))
		default:
			c.plain = false
		}
	}
	c.plainHold = min(c.plainHold, maxHold)
}

// forward runs step 3 for one message and appends the deliveries it
// makes (read only, so that messages forward in parallel).
func (c *Channel) forward(m *Message, buf []fwd) []fwd {
	if m.To >= 0 {
		return c.forwardTo(m, m.To, buf, false)
	}
	if c.rng == nil {
		for j := range c.state.Agents {
			buf = c.forwardTo(m, j, buf, false)
		}
		return buf
	}
	// the candidates within the tightest range; the range stage would
	// drop the others
	p := c.pos[m.From]
	r2 := c.rng.r2
	if c.plain {
		for _, j := range c.nbr[c.nbrAt[m.From]:c.nbrAt[m.From+1]] {
			q := c.pos[j]
			if dx, dy := q.X-p.X, q.Y-p.Y; dx*dx+dy*dy <= r2 {
				buf = c.forwardPlain(m, int(j), buf)
			}
		}
		return buf
	}
	for _, j := range c.nbr[c.nbrAt[m.From]:c.nbrAt[m.From+1]] {
		q := c.pos[j]
		if dx, dy := q.X-p.X, q.Y-p.Y; dx*dx+dy*dy <= r2 {
			buf = c.forwardTo(m, int(j), buf, true)
		}
	}
	return buf
}

// forwardTo runs the Forward stages for one receiver; inRange says that
// the search checked the tightest range already.
func (c *Channel) forwardTo(m *Message, to int, buf []fwd, inRange bool) []fwd {
	f := c.flags[to]
	if to == m.From || f&agentLive == 0 {
		return buf
	}
	if f&agentFilters != 0 && !slices.Contains(c.members[to].topics, m.Topic) {
		return buf
	}
	stages := c.stages
	if inRange {
		stages = c.forwards
	}
	hold := int32(0)
	for _, s := range stages {
		v := s.Forward(m, to)
		if v < 0 {
			return append(buf, fwd{to: int32(to), msg: m.key, hold: -1})
		}
		hold += int32(min(v, maxHold))
	}
	ref := m.key
	if m.To >= 0 {
		ref |= unicastRef
	}
	return append(buf, fwd{to: int32(to), msg: ref, hold: min(hold, maxHold)})
}

// maxPlainLosses is the most loss stages pull draws for.
const maxPlainLosses = 4

// drawBelow returns the integer b for which a draw of Rand, made of
// the top 53 bits x of a hash as x/2^53, is below p exactly when x < b.
func drawBelow(p float64) uint64 {
	return uint64(math.Ceil(p * (1 << 53)))
}

// forwardPlain is forwardTo for a broadcast within the tightest range
// when the other forward stages are plain (losses and delays): the same
// deliveries, without a call per stage.
func (c *Channel) forwardPlain(m *Message, to int, buf []fwd) []fwd {
	f := c.flags[to]
	if to == m.From || f&agentLive == 0 {
		return buf
	}
	if f&agentFilters != 0 && !slices.Contains(c.members[to].topics, m.Topic) {
		return buf
	}
	for k := range c.losses {
		if l := &c.losses[k]; l.p > 0 && m.Rand(to, l.salt) < l.p {
			return append(buf, fwd{to: int32(to), msg: m.key, hold: -1})
		}
	}
	return append(buf, fwd{to: int32(to), msg: m.key, hold: c.plainHold})
}

// deliver turns the tick's deliveries into the inboxes: those held from
// earlier ticks that are due, then this tick's in message order; the
// held ones of this tick wait in their due tick's slot.
func (c *Channel) deliver(chunks int) {
	if c.now != nil {
		// the inboxes of the last tick are gone: recycle their slot
		c.free = append(c.free, c.now)
	}
	k := c.tick & int64(len(c.later)-1)
	c.now, c.later[k] = c.later[k], nil
	c.lastSlot = nil
	n := len(c.members)
	if c.now == nil && chunks == 0 && c.quiet && len(c.at) == n+1 {
		// nothing due, nothing forwarded, and every inbox empty since
		// the last tick: they stay empty
		return
	}
	c.count = resize(c.count, n+1)
	clear(c.count)
	// count by receiver, holding back what is held; the messages due now
	// are made once each, whatever the number of their receivers
	c.nowOut = c.nowOut[:0]
	delivered := 0
	if c.now != nil {
		for _, sm := range c.now.msgs {
			// in place (see setEntry)
			c.nowOut = slices.Grow(c.nowOut, 1)
			c.nowOut = c.nowOut[:len(c.nowOut)+1]
			m := &c.nowOut[len(c.nowOut)-1]
			m.Topic, m.From, m.To, m.Payload = sm.topic, c.state.Agents[sm.from].ID, "", c.now.arena[sm.off:sm.off+sm.n:sm.off+sm.n]
			if sm.to >= 0 {
				m.To = c.state.Agents[sm.to].ID
			}
		}
		c.nowTab = resize(c.nowTab, len(c.nowOut))
		for k, m := range c.nowOut {
			setEntry(&c.nowTab[k], m.Topic, m.From, m.Payload, m.To != "")
		}
		for _, p := range c.now.items {
			c.count[p.to+1]++
		}
		delivered = len(c.now.items)
	}
	for _, buf := range c.chunks[:chunks] {
		for _, f := range buf {
			switch {
			case f.hold < 0:
				c.stats.Dropped++
			case f.hold == 0:
				c.count[f.to+1]++
				delivered++
			default:
				c.schedule(f)
			}
		}
	}
	c.inboxStarts(n)
	// then place them, in the same order (a stable counting sort), and
	// their entries with them: each robot's in one run
	c.refs = resize(c.refs, delivered)
	c.ent = resize(c.ent, delivered)
	if c.now != nil {
		for _, p := range c.now.items {
			q := c.count[p.to]
			c.refs[q] = -1 - p.msg
			c.ent[q] = c.nowTab[p.msg]
			c.count[p.to] = q + 1
		}
	}
	for _, buf := range c.chunks[:chunks] {
		for _, f := range buf {
			if f.hold == 0 {
				q := c.count[f.to]
				c.refs[q] = f.msg
				c.ent[q] = c.tab[f.msg&^unicastRef]
				c.count[f.to] = q + 1
			}
		}
	}
	c.stats.Delivered += int64(delivered)
	c.quiet = delivered == 0
}

// schedule keeps a delivery for its due tick, copying the payload into
// that tick's slot (once per message and slot).
func (c *Channel) schedule(f fwd) {
	due := c.tick + int64(f.hold)
	// the slot of the last delivery held, when due the same tick (all
	// of a tick's are on a channel of plain delays): one map look-up
	// per tick and hold rather than per delivery
	if int64(f.hold) >= int64(len(c.later)) {
		c.growLater(int64(f.hold))
	}
	s := c.lastSlot
	if s == nil || c.lastDue != due {
		s = c.later[due&int64(len(c.later)-1)]
	}
	if s == nil {
		// slots are freed at the Update after their tick's, when their
		// inboxes are gone: any free slot will do
		if k := len(c.free) - 1; k >= 0 {
			s, c.free = c.free[k], c.free[:k]
			s.items, s.msgs, s.arena = s.items[:0], s.msgs[:0], s.arena[:0]
		} else {
			s = &slot{}
		}
		s.last = -1
		c.later[due&int64(len(c.later)-1)] = s
	}
	c.lastDue, c.lastSlot = due, s
	k := f.msg &^ unicastRef
	m := &c.msgs[k]
	if key := c.tick<<32 | int64(k); s.last != key {
		s.last = key
		// in place (see setEntry)
		s.msgs = slices.Grow(s.msgs, 1)
		s.msgs = s.msgs[:len(s.msgs)+1]
		sm := &s.msgs[len(s.msgs)-1]
		sm.topic, sm.from, sm.to, sm.off, sm.n = m.Topic, int32(m.From), int32(m.To), int32(len(s.arena)), int32(len(m.Payload))
		s.arena = append(s.arena, m.Payload...)
	}
	s.items = append(s.items, pending{to: f.to, msg: int32(len(s.msgs) - 1)})
}

// growLater makes the ring of later slots longer than hold ticks. The
// slots pending are due within the old length from now: each keeps its
// due tick's place.
func (c *Channel) growLater(hold int64) {
	n := len(c.later)
	for int64(n) <= hold {
		n *= 2
	}
	ring := make([]*slot, n)
	for d := c.tick + 1; d < c.tick+int64(len(c.later)); d++ {
		ring[d&int64(n-1)] = c.later[d&int64(len(c.later)-1)]
	}
	c.later = ring
}

// Reset forgets what is in transit and the counts.
func (c *Channel) Reset() {
	c.tick = 0
	c.held = c.held[:0]
	c.lastSlot = nil
	for t, s := range c.later {
		if s != nil {
			c.later[t] = nil
			c.free = append(c.free, s)
		}
	}
	if c.now != nil {
		c.free = append(c.free, c.now)
		c.now = nil
	}
	c.refs = c.refs[:0]
	clear(c.at)
	c.quiet = false
	c.listN = 0
	for p := range c.box {
		clear(c.box[p])
	}
	for _, mb := range c.members {
		mb.more, mb.moreB = mb.more[:0], mb.moreB[:0]
	}
	for _, s := range c.stages {
		if r, ok := s.(Resetter); ok {
			r.Reset()
		}
	}
	c.stats = Stats{}
}

// Close implements the simulator's Medium.
func (c *Channel) Close() error { return nil }

// Sender is the messaging actuator of a simulated robot
// (ci.MessagingActuator): what it sends during ControlStep goes into the
// channel's outboxes, which the next Update reads.
type Sender struct {
	ch     *Channel
	index  int
	topics []string
}

// Receiver is the messaging sensor (ci.MessagingSensor and
// ci.InboxReader): its inbox is what the channel delivered to its robot
// at its last Update. Topics read the channel's messages in place;
// Inbox copies them, once per tick.
type Receiver struct {
	ch     *Channel
	index  int
	topics []string
	copy   *inboxCopy // made by the first Inbox
}

type inboxCopy struct {
	msgs []ci.Message
	tick int64
}

// NewSender returns the messaging actuator of robot r on the channel;
// topics, when not empty, are the only ones it may send.
func (c *Channel) NewSender(r *entity.Robot, topics []string) *Sender {
	mb := c.Join(r)
	if mb.send == nil {
		mb.send = slabNew(&c.slabs.senders)
		*mb.send = Sender{ch: c, index: mb.index}
	}
	mb.send.topics = topics
	return mb.send
}

// NewReceiver returns the messaging sensor of robot r on the channel;
// topics, when not empty, are the only ones it receives.
func (c *Channel) NewReceiver(r *entity.Robot, topics []string) *Receiver {
	mb := c.Join(r)
	if len(topics) > 0 {
		mb.topics = topics
		for len(c.flags) < len(c.members) {
			c.flags = append(c.flags, 0)
		}
		c.flags[mb.index] |= agentFilters
	}
	if mb.recv == nil {
		mb.recv = slabNew(&c.slabs.receivers)
		*mb.recv = Receiver{ch: c, index: mb.index}
	}
	mb.recv.topics = topics
	return mb.recv
}

// Send implements ci.MessagingActuator.
func (s *Sender) Send(topic, to string, payload []byte) {
	c := s.ch
	if len(payload) > ci.MaxPayload || len(topic) > ci.MaxName || len(to) > ci.MaxName || len(s.topics) > 0 && !slices.Contains(s.topics, topic) {
		s.refuse(topic, to, payload)
	}
	// the messages of this control step are read by the next Update
	next := c.tick + 1
	p := next & 1
	b := &c.box[p][s.index]
	if b.tick != next {
		// in place (see setEntry)
		b.tick, b.topic, b.to, b.n, b.more = next, topic, to, int32(len(payload)), false
		if len(payload) <= smallPayload {
			copy(c.small[p][s.index*smallPayload:], payload)
			return
		}
		b.n = -1 // too long for the small array: in the overflow
		mb := c.members[s.index]
		mb.more, mb.moreB = mb.more[:0], mb.moreB[:0]
	}
	mb := c.members[s.index]
	if !b.more && b.n >= 0 {
		mb.more, mb.moreB = mb.more[:0], mb.moreB[:0]
	}
	b.more = true
	// in place (see setEntry)
	mb.more = slices.Grow(mb.more, 1)
	mb.more = mb.more[:len(mb.more)+1]
	o := &mb.more[len(mb.more)-1]
	o.topic, o.to, o.off, o.n = topic, to, int32(len(mb.moreB)), int32(len(payload))
	mb.moreB = append(mb.moreB, payload...)
}

// refuse panics with what is wrong with a message.
func (s *Sender) refuse(topic, to string, payload []byte) {
	id := s.ch.members[s.index].Robot.ID
	switch {
	case len(payload) > ci.MaxPayload:
		panic(fmt.Sprintf("channel: robot %q sent a payload of %d bytes on topic %q, more than the %d a message may carry", id, len(payload), topic, ci.MaxPayload))
	case len(topic) > ci.MaxName || len(to) > ci.MaxName:
		panic(fmt.Sprintf("channel: robot %q: a topic and a receiver's id are at most %d bytes", id, ci.MaxName))
	}
	panic(fmt.Sprintf("channel: robot %q sent on topic %q, which its <messaging topic=%q> does not list", id, topic, strings.Join(s.topics, ",")))
}

// Apply implements the simulator's Actuator: the messages are in the
// channel's outboxes already.
func (s *Sender) Apply() {}

// Tickless tells the simulator that Apply has nothing to do: it need not
// call it at each tick.
func (s *Sender) Tickless() bool { return true }

// Reset drops what was queued.
func (s *Sender) Reset() {
	for p := range s.ch.box {
		s.ch.box[p][s.index] = outBox{}
	}
}

// Topics implements ci.TopicLister.
func (s *Sender) Topics() []string { return s.topics }

// Inbox implements ci.MessagingSensor.
func (r *Receiver) Inbox() []ci.Message {
	if r.copy == nil {
		r.copy = &inboxCopy{tick: -1}
	}
	if t := r.ch.tick; r.copy.tick != t {
		r.copy.msgs, r.copy.tick = r.ch.members[r.index].Inbox(r.copy.msgs[:0]), t
	}
	return r.copy.msgs
}

// InboxLen implements ci.InboxReader.
func (r *Receiver) InboxLen() int {
	n, _ := r.InboxSize()
	return n
}

// InboxSize implements ci.InboxSizer: the robot's inbox length, and the
// largest inbox the channel has delivered to any of its robots.
func (r *Receiver) InboxSize() (n, most int) {
	c := r.ch
	if i := r.index; i+1 < len(c.at) {
		n = int(c.at[i+1] - c.at[i])
	}
	return n, c.inboxMax
}

// InboxEntries implements ci.InboxLister: the robot's inbox as compact
// entries, and the largest inbox the channel has delivered.
func (r *Receiver) InboxEntries() ([]ci.InboxEntry, int) {
	c := r.ch
	if i := r.index; i+1 < len(c.at) {
		return c.ent[c.at[i]:c.at[i+1]], c.inboxMax
	}
	return nil, c.inboxMax
}

// InboxQuiet implements ci.InboxQuieter: the channel's flag that its
// last Update filled no inbox (every robot's is empty).
func (r *Receiver) InboxQuiet() *bool { return &r.ch.quiet }

// InboxPayload implements ci.InboxLister: the payload of message i of
// the inbox, when too long for its entry.
func (r *Receiver) InboxPayload(i int) []byte {
	return r.ch.payload(int(r.ch.at[r.index]) + i)
}

// payload returns the payload of delivery p.
func (c *Channel) payload(p int) []byte {
	n := c.ent[p].N
	if ref := c.refs[p]; ref < 0 {
		return c.nowOut[-1-ref].Payload
	} else if int(n) <= len(c.ent[p].Small) {
		return c.ent[p].Small[:n:n]
	} else {
		off := c.bigAt[ref&^unicastRef]
		return c.big[off : off+n : off+n]
	}
}

// InboxMessage implements ci.InboxReader: message i of the inbox's
// copy (Inbox), made at the first call of the tick. A Topic reads its
// messages from InboxEntries and asks here only for payloads too long
// for an entry.
func (r *Receiver) InboxMessage(i int) (*ci.Message, bool) {
	m := &r.Inbox()[i]
	return m, m.To != ""
}

// Update implements the simulator's Sensor: the channel has delivered
// already.
func (r *Receiver) Update() {}

// Tickless tells the simulator that Update has nothing to do: it need
// not call it at each tick.
func (r *Receiver) Tickless() bool { return true }

// Reset forgets the copied inbox.
func (r *Receiver) Reset() {
	if r.copy != nil {
		r.copy.tick = -1
	}
}

// Topics implements ci.TopicLister.
func (r *Receiver) Topics() []string { return r.topics }

var (
	_ ci.MessagingActuator = (*Sender)(nil)
	_ ci.MessagingSensor   = (*Receiver)(nil)
	_ ci.InboxReader       = (*Receiver)(nil)
	_ ci.InboxSizer        = (*Receiver)(nil)
	_ ci.InboxLister       = (*Receiver)(nil)
	_ ci.InboxQuieter      = (*Receiver)(nil)
)

// UsesMobileIndex tells the simulator whether the channel queries the
// space's index of mobile bodies: only a line of sight that robots cut
// does (and user models, which may do anything). The range search has
// its own grid.
func (c *Channel) UsesMobileIndex() bool {
	for _, m := range c.stages {
		switch s := m.(type) {
		case *rangeModel, *delay, *loss, *bandwidth, *graph:
		case *sight:
			if s.robots {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// UsesMobileIndex: the messaging devices read and write the channel's
// arrays only.
func (s *Sender) UsesMobileIndex() bool   { return false }
func (r *Receiver) UsesMobileIndex() bool { return false }

// inboxStarts turns count, the number of deliveries to each of the n
// members (count[i+1] for member i), into where each member's inbox
// starts, notes the largest inbox yet, and keeps the starts in at.
func (c *Channel) inboxStarts(n int) {
	// the running sum in a register: summing in place, each element
	// waits for the store of the one before (a chain through memory)
	most, count := c.inboxMax, c.count[:n+1]
	sum := count[0]
	for i := 1; i < len(count); i++ {
		k := count[i]
		most = max(most, int(k))
		sum += k
		count[i] = sum
	}
	c.inboxMax = most
	c.at = resize(c.at, n+1)
	copy(c.at, c.count)
}
