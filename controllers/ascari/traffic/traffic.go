package traffic

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/controllers/ascari/unicycle"
)

// Label is the name under which .argos files use the controller.
const Label = "ascari_traffic_controller"

// Topic is the topic of the Status messages.
const Topic = "traffic"

func init() {
	ci.Controllers.MustRegister(Label,
		"ASCARI's traffic control: unicycle agents on a grid graph lock the next node through messages (topic \"traffic\") "+
			"so that no two are ever on one node; params rows, cols, spacing, x0, y0, speed, turn, period, patience, forget, warmup, tick, locking; "+
			"devices dynamics_state, dynamics_control, messaging (see the package documentation for the protocol)",
		func() ci.Controller { return New() })
}

// MaxGrants is the number of grants a Status carries; further claims are
// granted in later messages.
const MaxGrants = 8

// Grant is the permission an agent gives to a claim.
type Grant struct {
	Agent uint16
	Node  int16
	Since uint32
}

// Status is what an agent broadcasts.
type Status struct {
	Agent uint16
	Node  int16 // the node it holds, where it stands or which it leaves
	Next  int16 // the node it drives to and holds, or -1
	Claim int16 // the node it claims, or -1
	Since uint32
	Plan  [2]int16 // the nodes it plans to cross after the claim, -1 for none
	Tick  uint32   // its tick when it sent this
	X, Y  float32
	N     uint32 // grants in Grants
	// the fields have no padding between them, so that a Status's memory
	// is its wire encoding (ci.Codec copies it)
	Grants [MaxGrants]Grant
}

// peer is what an agent knows of another: its last Status but the
// grants, which are read as they come (36 bytes: the loops over every
// peer read little memory).
type peer struct {
	st      peerStatus
	heard   bool
	granted bool // st grants this agent's current claim
}

// peerStatus is a Status without its grants.
type peerStatus struct {
	Agent             uint16
	Node, Next, Claim int16
	Since             uint32
	Plan              [2]int16
	Tick              uint32
	X, Y              float32
}

// Controller is ascari_traffic_controller. Make one with New.
//
// What ControlStep reads at every tick comes first, the unicycle body
// right after it: a swarm's controllers run one after the other, and the
// tick of one should touch few cache lines.
type Controller struct {
	topic   *ci.Topic[Status]
	tick    uint32
	node    int16
	next    int16
	claim   int16
	goal    int16 // the node whose position gx, gy are, or -1
	heard   bool  // a Status came at this tick
	locking bool  // params.locking
	period  uint32
	// the next ticks at which (tick+me) and (tick-since) are multiples
	// of the period: the periodic Status, and asking again for a claim
	// without news
	sendAt, askAt uint32
	since         uint32
	waitTill      uint32  // give up the claim at this tick
	h             float64 // params.h
	gx, gy        float64 // the position of the node driven to
	block         blocker // the peer that kept the claim out last
	body          unicycle.Body

	robot  ci.Robot // its Rand is asked at each use: the runtime makes a new stream at Reset
	me     uint16
	plan   [3]int16 // plan[0] is the node claimed next
	avoid  int16    // the node of the claim given up last
	moved  int      // arcs driven since Init
	params params
	peers  []peer
	out    Status
}

// blocker is the peer whose last Status kept the claim made at tick
// since (an agent makes one claim a tick at most) out at the last
// mayEnter: 1+ its index in peers, 0 for none. Until a new Status of it
// comes or tick till has passed, it keeps that claim out: a peer not
// heard from stays near (the distance it may have driven only grows)
// until forget ticks after its Status, and what it grants and holds
// changes only with a new Status.
type blocker struct {
	peer  int
	since uint32
	till  int64
}

type params struct {
	rows, cols                      int
	spacing, x0, y0, speed, turn, h float64
	period, patience, forget, warm  int
	locking                         bool
}

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	var err error
	get := func(attr string, def float64) float64 {
		if err != nil {
			return 0
		}
		var v float64
		v, err = p.FloatOr(attr, def)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = fmt.Errorf("traffic: %s: %s must be a finite number", p.Location(), attr)
		}
		return v
	}
	q := params{rows: int(get("rows", 5)), cols: int(get("cols", 5)), spacing: get("spacing", 1), x0: get("x0", 0), y0: get("y0", 0),
		speed: get("speed", 0.5), turn: get("turn", 6), period: int(get("period", 50)), patience: int(get("patience", 400)),
		forget: int(get("forget", 2000)), warm: int(get("warmup", 1000)), h: get("tick", 0.001)}
	if err == nil {
		q.locking, err = p.BoolOr("locking", true)
	}
	if err != nil {
		return fmt.Errorf("traffic: %w", err)
	}
	if q.rows < 1 || q.cols < 1 || q.rows*q.cols < 2 || q.rows*q.cols > math.MaxInt16 || !(q.spacing > 0) || !(q.h > 0) ||
		q.period < 1 || q.patience < 1 || q.forget < 1 || q.warm < 0 {
		return fmt.Errorf("traffic: %s: rows and cols must give 2 to 32767 nodes, spacing and tick must be positive and period, patience and forget at least 1", p.Location())
	}
	c.params = q
	id := r.ID()
	k := len(id)
	for k > 0 && id[k-1] >= '0' && id[k-1] <= '9' {
		k--
	}
	n, err := strconv.ParseUint(id[k:], 10, 16)
	if err != nil {
		return fmt.Errorf("traffic: robot %q: agents are told apart by the number that ends their ids (t0, t1, ...); give this one such an id", id)
	}
	c.me = uint16(n)
	b, err := unicycle.New(r, q.speed, q.turn)
	if err != nil {
		return fmt.Errorf("traffic: %w", err)
	}
	c.body = *b // in the controller, next to what it reads at every tick
	c.h, c.period, c.locking = q.h, uint32(q.period), q.locking
	if c.topic, err = ci.NewTopic[Status](r, Topic); err != nil {
		return fmt.Errorf("traffic: %w", err)
	}
	c.robot = r
	c.Reset()
	return nil
}

// Reset forgets every other agent and starts again from the node the
// agent stands on.
func (c *Controller) Reset() {
	c.tick, c.next, c.claim, c.avoid, c.moved, c.goal = 0, -1, -1, -1, 0, -1
	if c.params.period > 0 {
		// the first tick from 1 on with (tick+me) a multiple of the period
		c.sendAt = uint32(c.params.period - int(c.me)%c.params.period)
	}
	c.plan = [3]int16{-1, -1, -1}
	clear(c.peers)
	c.block = blocker{}
	c.node = -1
	c.body.Reset()
}

func (c *Controller) Destroy() error { return nil }

// nodeXY returns the position of node n.
func (c *Controller) nodeXY(n int16) (float64, float64) {
	q := &c.params
	// a 32-bit division (cols < 2^15), quicker than a 64-bit one, with
	// the same quotient and remainder
	k, cols := int32(n), int32(q.cols)
	return q.x0 + float64(k%cols)*q.spacing, q.y0 + float64(k/cols)*q.spacing
}

// nearest returns the node closest to (x, y).
func (c *Controller) nearest(x, y float64) int16 {
	q := &c.params
	col := min(q.cols-1, max(0, int(math.Round((x-q.x0)/q.spacing))))
	row := min(q.rows-1, max(0, int(math.Round((y-q.y0)/q.spacing))))
	return int16(row*q.cols + col)
}

// Held returns the nodes the agent holds: where it stands or which it
// leaves, and the one it drives to (-1 when it drives nowhere).
func (c *Controller) Held() (node, next int16) { return c.node, c.next }

// Claim returns the node the agent claims, or -1.
func (c *Controller) Claim() int16 { return c.claim }

// Arcs returns the number of arcs the agent has driven along.
func (c *Controller) Arcs() int { return c.moved }

// Number returns the agent's number (the digits that end its id).
func (c *Controller) Number() uint16 { return c.me }

func (c *Controller) ControlStep() {
	c.tick++
	if c.node < 0 {
		x, y, _ := c.body.Pose()
		c.node = c.nearest(x, y)
	}
	newClaim := c.hear()
	switch {
	case c.next >= 0:
		if c.goal != c.next {
			c.goal = c.next
			c.gx, c.gy = c.nodeXY(c.next)
		}
		if c.body.FollowLeg(c.gx, c.gy, 0.01, c.h) {
			c.body.Stop()
			c.node, c.next = c.next, -1
			c.moved++
		}
	case c.claim >= 0:
		c.body.Stop()
		// the answer changes only with what it hears, and with time for
		// agents not heard for a while: ask again when a message came or
		// once per period (the claim state lasts from tick since+1 on,
		// tick after tick, so that askAt meets every multiple)
		ask := c.heard
		if c.tick == c.askAt {
			c.askAt += c.period
			ask = true
		}
		if !c.locking || ask && c.mayEnter() {
			c.next, c.claim = c.claim, -1
			copy(c.plan[:], c.plan[1:])
			c.plan[2] = -1
			newClaim = true // say at once that it holds the node
		} else if c.tick >= c.waitTill {
			c.avoid, c.claim = c.claim, -1
			c.plan = [3]int16{-1, -1, -1}
		}
	default:
		c.body.Stop()
		if int(c.tick) > c.params.warm {
			c.makePlan()
			c.claim, c.since = c.plan[0], c.tick
			c.askAt = c.tick + uint32(c.params.period)
			c.waitTill = c.tick + uint32(c.params.patience+c.robot.Rand().IntN(c.params.patience))
			for i := range c.peers {
				c.peers[i].granted = false
			}
			newClaim = true
		}
	}
	periodic := c.tick == c.sendAt
	if periodic {
		c.sendAt += c.period
	}
	if newClaim || periodic {
		// where it was at the start of the tick: the commands set
		// above move it at the next physics step
		x, y, _ := c.body.Pose()
		c.send(x, y)
	}
}

// hear reads the Status messages of this tick; it returns whether a
// message asked for something this agent should answer at once (never:
// grants wait for the periodic Status, which keeps the traffic bounded).
func (c *Controller) hear() bool {
	got := c.topic.Received()
	c.heard = len(got) > 0
	for i := range got {
		c.update(&got[i].Value) // not a copy of the value
	}
	return false
}

// update takes in a Status heard.
func (c *Controller) update(s *Status) {
	if s.Agent == c.me {
		return
	}
	for int(s.Agent) >= len(c.peers) {
		c.peers = append(c.peers, peer{})
	}
	p := &c.peers[s.Agent]
	if p.heard && s.Tick < p.st.Tick {
		return // older than what it knows (a delayed message)
	}
	if c.block.peer == int(s.Agent)+1 {
		c.block.peer = 0
	}
	p.heard = true
	// field by field: a composite literal is built on the stack with
	// small stores and copied with wide loads, which wait for them
	st := &p.st
	st.Agent, st.Node, st.Next, st.Claim, st.Since = s.Agent, s.Node, s.Next, s.Claim, s.Since
	st.Plan, st.Tick, st.X, st.Y = s.Plan, s.Tick, s.X, s.Y
	p.granted = false
	if c.claim < 0 {
		// no claim to grant: granted is read only while one is made,
		// and a new claim clears it
		return
	}
	for _, g := range s.Grants[:min(int(s.N), MaxGrants)] {
		if g.Agent == c.me && g.Node == c.claim && g.Since == c.since {
			p.granted = true
		}
	}
}

// near reports whether agent p might be within 1.5 spacings of the node
// at (nx, ny) by now, judging from its last Status.
func (c *Controller) near(p *peer, nx, ny float64) bool {
	if !p.heard {
		return false
	}
	age := int64(c.tick) - int64(p.st.Tick)
	if age > int64(c.params.forget) {
		return false
	}
	reach := 1.5*c.params.spacing + c.params.speed*float64(max(age, 0)+1)*c.params.h
	dx, dy := float64(p.st.X)-nx, float64(p.st.Y)-ny
	return dx*dx+dy*dy <= reach*reach
}

// mayEnter reports whether every agent that might be near the claimed
// node has granted the claim and none holds the node. The peer that said
// no last says no again until it is heard from or forgotten (see
// blocker): an agent waiting for a claim asks at every message it hears,
// most of them from agents that have nothing to do with the claim.
func (c *Controller) mayEnter() bool {
	if b := &c.block; b.peer > 0 && b.since == c.since && int64(c.tick) <= b.till {
		return false
	}
	nx, ny := c.nodeXY(c.claim)
	for i := range c.peers {
		p := &c.peers[i]
		if !c.near(p, nx, ny) {
			continue
		}
		if !p.granted || p.st.Node == c.claim || p.st.Next == c.claim {
			c.block = blocker{peer: i + 1, since: c.since, till: int64(p.st.Tick) + int64(c.params.forget)}
			return false
		}
	}
	return true
}

// before reports whether a claim made at tick s by agent a has priority
// over one made at tick s2 by agent b.
func before(s uint32, a uint16, s2 uint32, b uint16) bool {
	return s < s2 || s == s2 && a < b
}

// grants reports whether the agent grants p's claim.
func (c *Controller) grants(p *peer) bool {
	n := p.st.Claim
	if n < 0 || n == c.node || n == c.next {
		return false
	}
	return !(c.claim == n && before(c.since, c.me, p.st.Since, p.st.Agent))
}

// neighbours appends the nodes next to n on the grid.
func (c *Controller) neighbours(dst []int16, n int16) []int16 {
	q := &c.params
	r, col := int(n)/q.cols, int(n)%q.cols
	if col > 0 {
		dst = append(dst, n-1)
	}
	if col < q.cols-1 {
		dst = append(dst, n+1)
	}
	if r > 0 {
		dst = append(dst, n-int16(q.cols))
	}
	if r < q.rows-1 {
		dst = append(dst, n+int16(q.cols))
	}
	return dst
}

// busy reports whether another agent says it holds, claims or plans to
// cross node n.
func (c *Controller) busy(n int16) bool {
	for i := range c.peers {
		p := &c.peers[i]
		if !p.heard {
			continue
		}
		s := &p.st
		if s.Node == n || s.Next == n || s.Claim == n || s.Plan[0] == n {
			return true
		}
	}
	return false
}

// makePlan extends the plan to three nodes: random steps that do not
// turn back, preferring nodes no one else says it uses, and avoiding the
// node of the claim given up last.
func (c *Controller) makePlan() {
	prev, at := int16(-1), c.node
	for k := 0; k < len(c.plan); k++ {
		if c.plan[k] >= 0 {
			prev, at = at, c.plan[k]
			continue
		}
		var buf [4]int16
		all := c.neighbours(buf[:0], at)
		var pick [4]int16
		free := pick[:0]
		for _, n := range all {
			if n != prev && !(k == 0 && n == c.avoid) && !c.busy(n) {
				free = append(free, n)
			}
		}
		if len(free) == 0 {
			for _, n := range all {
				if n != prev && !(k == 0 && n == c.avoid) {
					free = append(free, n)
				}
			}
		}
		if len(free) == 0 {
			free = all
		}
		c.plan[k] = free[c.robot.Rand().IntN(len(free))]
		prev, at = at, c.plan[k]
	}
	c.avoid = -1
}

// send broadcasts the agent's Status.
func (c *Controller) send(x, y float64) {
	// field by field, as update reads a Status
	s := &c.out
	s.Agent, s.Node, s.Next, s.Claim, s.Since, s.Tick = c.me, c.node, c.next, c.claim, c.since, c.tick
	s.X, s.Y, s.Plan[0], s.Plan[1] = float32(x), float32(y), c.plan[1], c.plan[2]
	if c.claim < 0 {
		s.Plan[0], s.Plan[1] = -1, -1
	}
	s.N = 0
	clear(s.Grants[:])
	// grant the claims on the nodes closest to this agent first: those
	// are the claims that need its grant
	type cand struct {
		d2 float64
		k  int
	}
	var best [MaxGrants]cand
	n := 0
	for i := range c.peers {
		p := &c.peers[i]
		if !p.heard || p.st.Claim < 0 || int64(c.tick)-int64(p.st.Tick) > int64(c.params.forget) || !c.grants(p) {
			continue
		}
		nx, ny := c.nodeXY(p.st.Claim)
		d2 := (nx-x)*(nx-x) + (ny-y)*(ny-y)
		if n == MaxGrants && d2 >= best[n-1].d2 {
			continue
		}
		// insert in order of distance (the first of equals stays first)
		j := min(n, MaxGrants-1)
		for j > 0 && best[j-1].d2 > d2 {
			best[j] = best[j-1]
			j--
		}
		best[j] = cand{d2, i}
		n = min(n+1, MaxGrants)
	}
	for _, b := range best[:n] {
		p := &c.peers[b.k]
		s.Grants[s.N] = Grant{Agent: p.st.Agent, Node: p.st.Claim, Since: p.st.Since}
		s.N++
	}
	// from where it was written: a copy of the value, whose wide loads
	// would wait for the narrow stores above, is left out
	c.topic.BroadcastFrom(s)
}

// String describes the agent's state, for logs.
func (c *Controller) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent %d: node %d next %d claim %d since %d", c.me, c.node, c.next, c.claim, c.since)
	return b.String()
}
