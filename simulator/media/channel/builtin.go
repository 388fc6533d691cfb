package channel

import (
	"fmt"
	"math"
	"regexp"
	"slices"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
	"github.com/argosgo/argos/simulator/space"
)

// builtin returns the maker of the built-in stage with the tag, or nil.
func builtin(tag string) func(n *config.Node, w *entity.World) (Model, error) {
	switch tag {
	case "range", "circle":
		return newRange
	case "line_of_sight":
		return newSight
	case "delay":
		return newDelay
	case "loss":
		return newLoss
	case "bandwidth":
		return newBandwidth
	case "graph":
		return newGraph
	}
	return nil
}

// builtinHelp documents the stages for argos -q.
const builtinHelp = "Stages, in file order: " +
	"<range radius=\"R\"/> (or <circle radius=\"R\"/>, ASCARI's circle(R)): only agents within R metres of the sender, in the ground plane, hear it; " +
	"<line_of_sight robots=\"false\"/>: walls and other static bodies between the two agents' mid-heights cut the link (robots=\"true\": robots and movable objects too); " +
	"<delay ticks=\"N\"/>: deliveries arrive N ticks later; " +
	"<loss probability=\"p\"/>: each delivery is lost with probability p, independently, from a stream of the seed; " +
	"<bandwidth bytes=\"B\" overflow=\"drop|queue\" queue=\"Q\"/>: a sender's messages of a tick go out in the order sent while their payloads " +
	"total at most B bytes; overflow=\"drop\" (default) loses the first that does not fit and every later one of that tick, overflow=\"queue\" " +
	"keeps them in order for the next ticks (ahead of newer ones) while at most Q bytes (default 4*B) wait, and loses what does not fit in the queue; " +
	"<graph directed=\"false\"><link from=\"ID\" to=\"ID\"/>...</graph>: only the listed pairs talk (ids are regular expressions over whole ids); " +
	"<model type=\"NAME\" .../>: a model written in Go (channel.Models)."

// rangeModel is circle(R): only receivers within R of the sender.
type rangeModel struct {
	r2     float64
	agents []Agent
}

func newRange(n *config.Node, _ *entity.World) (Model, error) {
	if err := n.CheckAttrs("radius"); err != nil {
		return nil, err
	}
	r, err := n.Float("radius")
	if err != nil {
		return nil, err
	}
	if !(r > 0) {
		return nil, n.AttrErrorf("radius", "channel: the range must be positive (metres), not %g", r)
	}
	return &rangeModel{r2: r * r}, nil
}

func (m *rangeModel) radius() float64 { return math.Sqrt(m.r2) }
func (*rangeModel) receivesAll()      {}

func (m *rangeModel) Update(s *State)          { m.agents = s.Agents }
func (m *rangeModel) Receive(*Message) Verdict { return Pass }
func (m *rangeModel) Forward(msg *Message, to int) Verdict {
	a, b := m.agents[msg.From].Pos, m.agents[to].Pos
	dx, dy := a.X-b.X, a.Y-b.Y
	if dx*dx+dy*dy <= m.r2 {
		return Pass
	}
	return Drop
}

// sight cuts links that a static body (or, with robots, any body) lies
// across.
type sight struct {
	robots bool
	agents []Agent
	sp     *space.Space
}

func newSight(n *config.Node, w *entity.World) (Model, error) {
	if err := n.CheckAttrs("robots"); err != nil {
		return nil, err
	}
	r, err := n.BoolOr("robots", false)
	if err != nil {
		return nil, err
	}
	return &sight{robots: r, sp: w.Space}, nil
}

func (*sight) receivesAll() {}

func (m *sight) Update(s *State)          { m.agents = s.Agents }
func (m *sight) Receive(*Message) Verdict { return Pass }
func (m *sight) Forward(msg *Message, to int) Verdict {
	a, b := &m.agents[msg.From], &m.agents[to]
	if m.robots {
		if media.Occluded(m.sp, a.Pos, b.Pos, a.Body, b.Body) {
			return Drop
		}
		return Pass
	}
	if staticBetween(m.sp, a.Pos, b.Pos) {
		return Drop
	}
	return Pass
}

// staticBetween reports whether a static body cuts the segment from->to,
// looking at the static index piece by piece along it.
func staticBetween(sp *space.Space, from, to ci.Vector3) bool {
	d := to.Sub(from)
	n := max(1, int(math.Ceil(math.Hypot(d.X, d.Y)/0.5)))
	hit := false
	for k := 0; k < n && !hit; k++ {
		t0, t1 := float64(k)/float64(n), float64(k+1)/float64(n)
		p0 := ci.Vector2{X: from.X + d.X*t0, Y: from.Y + d.Y*t0}
		p1 := ci.Vector2{X: from.X + d.X*t1, Y: from.Y + d.Y*t1}
		lo := ci.Vector2{X: min(p0.X, p1.X), Y: min(p0.Y, p1.Y)}
		hi := ci.Vector2{X: max(p0.X, p1.X), Y: max(p0.Y, p1.Y)}
		sp.NearStatic(lo, hi, func(i int) bool {
			if media.Crosses(&sp.Bodies[i], from, d) {
				hit = true
				return false
			}
			return true
		})
	}
	return hit
}

// delay holds every delivery for a fixed number of ticks.
type delay struct{ ticks int }

func newDelay(n *config.Node, _ *entity.World) (Model, error) {
	if err := n.CheckAttrs("ticks"); err != nil {
		return nil, err
	}
	t, err := n.Int("ticks")
	if err != nil {
		return nil, err
	}
	if t < 0 || t > maxHold {
		return nil, n.AttrErrorf("ticks", "channel: a delay of %d ticks: use 0 to %d", t, maxHold)
	}
	return &delay{ticks: t}, nil
}

func (*delay) receivesAll() {}

func (m *delay) Update(*State)                      {}
func (m *delay) Receive(*Message) Verdict           { return Pass }
func (m *delay) Forward(_ *Message, _ int) Verdict  { return Hold(m.ticks) }
func (m *delay) fixedHold() (ticks int, fixed bool) { return m.ticks, true }

// loss drops each delivery with a probability.
type loss struct {
	p    float64
	salt uint64
}

func newLoss(n *config.Node, _ *entity.World) (Model, error) {
	if err := n.CheckAttrs("probability"); err != nil {
		return nil, err
	}
	p, err := n.Float("probability")
	if err != nil {
		return nil, err
	}
	if p < 0 || p > 1 {
		return nil, n.AttrErrorf("probability", "channel: a drop probability is between 0 and 1, not %g", p)
	}
	return &loss{p: p, salt: saltOf(n)}, nil
}

// saltOf gives each stage its own random stream: two loss stages of a
// channel do not drop the same deliveries.
func saltOf(n *config.Node) uint64 { return mix(uint64(n.Line)<<8 ^ 0x6c6f7373) }

func (*loss) receivesAll() {}

func (m *loss) Update(*State)            {}
func (m *loss) Receive(*Message) Verdict { return Pass }
func (m *loss) Forward(msg *Message, to int) Verdict {
	if m.p > 0 && msg.Rand(to, m.salt) < m.p {
		return Drop
	}
	return Pass
}

// bandwidth caps the bytes a sender puts on the channel per tick.
type bandwidth struct {
	bytes, queue int
	queueing     bool
	tick         int64
	used         []int // by sender: bytes sent this tick
	waiting      []int // by sender: bytes held in the queue
}

func newBandwidth(n *config.Node, _ *entity.World) (Model, error) {
	if err := n.CheckAttrs("bytes", "overflow", "queue"); err != nil {
		return nil, err
	}
	b, err := n.Int("bytes")
	if err != nil {
		return nil, err
	}
	if b <= 0 {
		return nil, n.AttrErrorf("bytes", "channel: bandwidth is a positive number of bytes per tick per sender, not %d", b)
	}
	m := &bandwidth{bytes: b}
	switch o := n.StringOr("overflow", "drop"); o {
	case "drop":
	case "queue":
		m.queueing = true
	default:
		return nil, n.AttrErrorf("overflow", "channel: overflow=%q: use drop (lose what exceeds the tick's budget) or queue (send it at the next ticks)", o)
	}
	if m.queue, err = n.IntOr("queue", 4*b); err != nil {
		return nil, err
	}
	if m.queue < 0 || n.Has("queue") && !m.queueing {
		return nil, n.AttrErrorf("queue", "channel: queue=%d applies to overflow=\"queue\" and is a number of bytes", m.queue)
	}
	return m, nil
}

func (m *bandwidth) Update(s *State) {
	m.tick = s.Tick
	m.used = resize(m.used, len(s.Agents))
	m.waiting = resize(m.waiting, len(s.Agents))
	clear(m.used)
}

func (m *bandwidth) Receive(msg *Message) Verdict {
	n := len(msg.Payload)
	if msg.Resumed {
		m.waiting[msg.From] -= n
	} else if m.queueing && m.waiting[msg.From] > 0 {
		// older messages wait: this one queues behind them
		return m.enqueue(msg, n)
	}
	if m.used[msg.From]+n <= m.bytes {
		m.used[msg.From] += n
		return Pass
	}
	if !m.queueing {
		m.used[msg.From] = m.bytes + 1 // the rest of the tick is lost too
		return Drop
	}
	return m.enqueue(msg, n)
}

func (m *bandwidth) enqueue(msg *Message, n int) Verdict {
	if n > m.bytes || m.waiting[msg.From]+n > m.queue {
		return Drop // it would never fit, or the queue is full
	}
	m.waiting[msg.From] += n
	m.used[msg.From] = m.bytes + 1 // keep the order: nothing newer passes this tick
	return Hold(1)
}

func (m *bandwidth) Forward(*Message, int) Verdict { return Pass }

func (m *bandwidth) Reset() {
	clear(m.waiting)
	clear(m.used)
}

// graph lets only listed pairs talk.
type graph struct {
	directed bool
	links    []link
	n        *config.Node
	ids      []string  // the agents' ids at the last match
	adj      [][]int32 // by sender: the receivers it may reach, sorted
}

type link struct {
	from, to *regexp.Regexp
}

func newGraph(n *config.Node, _ *entity.World) (Model, error) {
	if err := n.CheckAttrs("directed"); err != nil {
		return nil, err
	}
	d, err := n.BoolOr("directed", false)
	if err != nil {
		return nil, err
	}
	g := &graph{directed: d, n: n}
	ids := arenaIDs(n)
	for _, c := range n.Children {
		if c.Name != "link" {
			return nil, c.Errorf("channel: unknown element <%s> in <graph>; list the pairs as <link from=\"ID\" to=\"ID\"/>", c.Name)
		}
		if err := c.CheckAttrs("from", "to"); err != nil {
			return nil, err
		}
		var l link
		for _, attr := range []string{"from", "to"} {
			v, err := c.String(attr)
			if err != nil {
				return nil, err
			}
			re, err := regexp.Compile("^(?:" + v + ")$")
			if err != nil {
				return nil, c.AttrErrorf(attr, "channel: %q is not a regular expression: %v", v, err)
			}
			if ids != nil && !anyMatch(re, ids) {
				return nil, c.AttrErrorf(attr, "channel: %q matches no entity of the arena; write the id of a robot", v)
			}
			if attr == "from" {
				l.from = re
			} else {
				l.to = re
			}
		}
		g.links = append(g.links, l)
	}
	if len(g.links) == 0 {
		return nil, n.Errorf("channel: <graph> lists no <link from=\"ID\" to=\"ID\"/>; without links nobody talks")
	}
	return g, nil
}

func anyMatch(re *regexp.Regexp, ids []string) bool {
	for _, id := range ids {
		if re.MatchString(id) {
			return true
		}
	}
	return false
}

// arenaIDs lists the ids the experiment's arena gives its entities (those
// of <distribute> included), or nil when n is not in an experiment.
func arenaIDs(n *config.Node) []string {
	root := n
	for root.Parent() != nil {
		root = root.Parent()
	}
	arena := root.FirstChild("arena")
	if arena == nil {
		return nil
	}
	var ids []string
	for _, c := range arena.Children {
		if c.Name == "distribute" {
			d, err := config.ParseDistribute(c)
			if err != nil {
				return nil
			}
			for k := 0; k < d.Quantity; k++ {
				ids = append(ids, d.ID(k))
			}
			continue
		}
		if id, ok := c.Attr("id"); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

func (*graph) receivesAll() {}

func (g *graph) Update(s *State) {
	same := len(g.ids) == len(s.Agents)
	for i := 0; same && i < len(s.Agents); i++ {
		same = g.ids[i] == s.Agents[i].ID
	}
	if same {
		return
	}
	// the members changed (the first tick, a robot added): match again
	n := len(s.Agents)
	g.ids = g.ids[:0]
	for _, a := range s.Agents {
		g.ids = append(g.ids, a.ID)
	}
	g.adj = make([][]int32, n)
	var from, to []int32
	for _, l := range g.links {
		from, to = from[:0], to[:0]
		for i, id := range g.ids {
			if l.from.MatchString(id) {
				from = append(from, int32(i))
			}
			if l.to.MatchString(id) {
				to = append(to, int32(i))
			}
		}
		for _, i := range from {
			for _, j := range to {
				if i != j {
					g.adj[i] = append(g.adj[i], j)
					if !g.directed {
						g.adj[j] = append(g.adj[j], i)
					}
				}
			}
		}
	}
	for i := range g.adj {
		slices.Sort(g.adj[i])
		g.adj[i] = slices.Compact(g.adj[i])
	}
}

func (g *graph) Receive(*Message) Verdict { return Pass }
func (g *graph) Forward(m *Message, to int) Verdict {
	if _, ok := slices.BinarySearch(g.adj[m.From], int32(to)); ok {
		return Pass
	}
	return Drop
}

// describe names a stage for messages.
func describe(n *config.Node) string {
	if n.Name == "model" {
		t, _ := n.Attr("type")
		return fmt.Sprintf("<model type=%q>", t)
	}
	return "<" + n.Name + ">"
}

// resize returns s with length n; a new slice has room for half as much
// again, so that counts that vary from tick to tick (deliveries,
// messages) stop allocating once they have reached their usual highs.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}
