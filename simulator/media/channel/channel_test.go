package channel_test

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media/channel"

	_ "github.com/argosgo/argos/simulator/physics/kinematics2d"
)

// talker sends on topic "t" at every control step: a broadcast of
// `bytes` bytes (its tick and index first) and, when `to` is set, a
// unicast; it logs what it receives.
type talker struct {
	topic *ci.Topic[[]byte]
	log   []heard
	tick  int
	idx   uint32
	size  int
	count int
	to    string
	every int
	buf   []byte
}

type heard struct {
	tick, sent int
	from       string
	unicast    bool
	size       int
	// intact: the payload holds what the talker put past its first 8
	// bytes
	intact bool
}

// intact says whether payload p holds byte(i) at each index i >= 8, as
// talkers send.
func intact(p []byte) bool {
	for i := 8; i < len(p); i++ {
		if p[i] != byte(i) {
			return false
		}
	}
	return true
}

func (c *talker) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.topic, err = ci.NewTopic[[]byte](r, "t"); err != nil {
		return err
	}
	if c.size, err = p.IntOr("bytes", 8); err != nil {
		return err
	}
	if c.count, err = p.IntOr("count", 1); err != nil {
		return err
	}
	if c.every, err = p.IntOr("every", 1); err != nil {
		return err
	}
	c.to = p.StringOr("to", "")
	fmt.Sscanf(strings.TrimLeft(r.ID(), "abcdefghijklmnopqrstuvwxyz_"), "%d", &c.idx)
	return nil
}

func (c *talker) ControlStep() {
	c.tick++
	for _, m := range c.topic.Received() {
		c.log = append(c.log, heard{tick: c.tick, sent: int(binary.LittleEndian.Uint32(m.Value)), from: m.From, unicast: m.Unicast, size: len(m.Value), intact: intact(m.Value)})
	}
	if c.tick%c.every != 0 {
		return
	}
	for k := 0; k < c.count; k++ {
		c.buf = binary.LittleEndian.AppendUint32(c.buf[:0], uint32(c.tick))
		c.buf = binary.LittleEndian.AppendUint32(c.buf, uint32(k))
		for len(c.buf) < c.size {
			c.buf = append(c.buf, byte(len(c.buf)))
		}
		c.topic.Broadcast(c.buf[:c.size])
		if c.to != "" {
			c.topic.SendTo(c.to, c.buf[:c.size])
		}
	}
}

func (c *talker) Reset()         { c.tick, c.log = 0, nil }
func (c *talker) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("channel_test_talker", "test", func() ci.Controller { return &talker{} })
}

// experiment builds an arena of e-pucks (id -> x,y) with a channel of
// the given stages.
func experiment(t testing.TB, stages string, params string, robots map[string][2]float64, extra string, threads int) *simulator.Simulator {
	t.Helper()
	var arena strings.Builder
	ids := make([]string, 0, len(robots))
	for id := range robots {
		ids = append(ids, id)
	}
	for _, id := range sorted(ids) {
		p := robots[id]
		fmt.Fprintf(&arena, `<e-puck id="%s"><body position="%g,%g,0" orientation="0,0,0"/><controller config="c"/></e-puck>`+"\n", id, p[0], p[1])
	}
	xml := fmt.Sprintf(`<argos-configuration>
  <framework><system threads="%d"/><experiment length="0" ticks_per_second="10" random_seed="5"/></framework>
  <controllers><channel_test_talker id="c">
    <actuators><messaging implementation="default"/></actuators>
    <sensors><messaging implementation="default"/></sensors>
    <params %s/>
  </channel_test_talker></controllers>
  <arena size="30,30,1" center="0,0,0.5">
%s%s
  </arena>
  <physics_engines><kinematics2d id="k"/></physics_engines>
  <media><channel id="radio">%s</channel></media>
</argos-configuration>`, threads, params, arena.String(), extra, stages)
	exp, err := config.Parse("test.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

func sorted(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func run(t testing.TB, sim *simulator.Simulator, ticks int) {
	t.Helper()
	for i := 0; i < ticks; i++ {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

func logOf(sim *simulator.Simulator, id string) []heard {
	for i := 0; i < sim.NumRobots(); i++ {
		if sim.Robot(i).ID == id {
			return sim.Controller(i).(*talker).log
		}
	}
	return nil
}

func senders(log []heard) map[string]int {
	m := map[string]int{}
	for _, h := range log {
		m[h.from]++
	}
	return m
}

func theChannel(t testing.TB, sim *simulator.Simulator) *channel.Channel {
	c, err := entity.Medium[*channel.Channel](sim.World(), "radio")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Without stages everyone hears everyone, from the next control step on:
// what a robot sends in control step k arrives in its neighbours' step
// k+1.
func TestEveryoneHearsEveryoneAtTheNextStep(t *testing.T) {
	sim := experiment(t, "", "", map[string][2]float64{"ep0": {0, 0}, "ep1": {5, 0}, "ep2": {-10, 10}}, "", 0)
	run(t, sim, 5)
	for _, id := range []string{"ep0", "ep1", "ep2"} {
		log := logOf(sim, id)
		if got := senders(log); len(got) != 2 || got[id] != 0 {
			t.Errorf("%s heard %v; want the two others", id, got)
		}
		for _, h := range log {
			if h.tick != h.sent+1 {
				t.Errorf("%s: a message sent at step %d arrived at step %d, want %d", id, h.sent, h.tick, h.sent+1)
			}
		}
		if len(log) != 8 { // steps 2..5, two senders
			t.Errorf("%s received %d messages in 5 steps, want 8", id, len(log))
		}
	}
}

// circle(R): only robots within R of the sender, in the ground plane.
func TestRange(t *testing.T) {
	for _, tag := range []string{"range", "circle"} {
		sim := experiment(t, `<`+tag+` radius="0.5"/>`, "", map[string][2]float64{"ep0": {0, 0}, "ep1": {0.45, 0}, "ep2": {0.3, 0.39}, "ep3": {1.2, 0}}, "", 0)
		run(t, sim, 3)
		want := map[string][]string{"ep0": {"ep1", "ep2"}, "ep1": {"ep0", "ep2"}, "ep2": {"ep0", "ep1"}, "ep3": nil}
		for id, w := range want {
			got := senders(logOf(sim, id))
			if len(got) != len(w) {
				t.Errorf("<%s>: %s heard %v, want %v", tag, id, got, w)
			}
			for _, s := range w {
				if got[s] == 0 {
					t.Errorf("<%s>: %s did not hear %s (%v)", tag, id, s, got)
				}
			}
		}
	}
}

// A wall between two robots cuts their link; robots cut it only with
// robots="true".
func TestLineOfSight(t *testing.T) {
	wall := `<box id="wall" size="0.1,2,0.5" movable="false"><body position="1,0,0" orientation="0,0,0"/></box>`
	robots := map[string][2]float64{"ep0": {0, 0}, "ep1": {2, 0}, "ep2": {0, 3}, "ep3": {0, 0.75}, "ep4": {0, -3}}
	sim := experiment(t, `<line_of_sight/>`, "", robots, wall, 0)
	run(t, sim, 3)
	got := senders(logOf(sim, "ep0"))
	if got["ep1"] != 0 || got["ep2"] == 0 || got["ep4"] == 0 {
		t.Errorf("ep0 heard %v: want ep2 and ep4 (ep3 between ep0 and ep2 does not count), not ep1 behind the wall", got)
	}
	if got := senders(logOf(sim, "ep1")); got["ep0"] != 0 || got["ep2"] == 0 {
		t.Errorf("ep1 heard %v: want ep2 (the wall ends at y=1.05), not ep0", got)
	}
	sim = experiment(t, `<line_of_sight robots="true"/>`, "", robots, wall, 0)
	run(t, sim, 3)
	if got := senders(logOf(sim, "ep0")); got["ep2"] != 0 || got["ep3"] == 0 || got["ep4"] == 0 {
		t.Errorf("robots=true: ep0 heard %v: ep3 stands between ep0 and ep2", got)
	}
}

// A delay of d ticks: sent at step k, received at step k+1+d.
func TestDelay(t *testing.T) {
	// 9 and 40: longer than the ring of later slots starts
	for _, d := range []int{1, 3, 9, 40} {
		sim := experiment(t, fmt.Sprintf(`<delay ticks="%d"/>`, d), "", map[string][2]float64{"ep0": {0, 0}, "ep1": {1, 0}}, "", 0)
		steps := max(10, d+12)
		run(t, sim, steps)
		log := logOf(sim, "ep1")
		if len(log) != steps-1-d {
			t.Errorf("delay %d: %d messages in %d steps, want %d", d, len(log), steps, steps-1-d)
		}
		for _, h := range log {
			if h.tick != h.sent+1+d {
				t.Errorf("delay %d: sent at %d, received at %d", d, h.sent, h.tick)
			}
		}
	}
}

// Payloads of every size arrive whole, held or not, broadcast or
// unicast, pulled or not: short ones in the inbox entries, longer ones
// beside them, alike through a Topic and through the sensor's Inbox.
func TestPayloadSizes(t *testing.T) {
	robots := map[string][2]float64{"ep0": {0, 0}, "ep1": {0.3, 0}}
	codec, _ := ci.NewCodec[[]byte]()
	// a range and no unicast: pulled
	for _, stages := range []string{``, `<delay ticks="2"/>`, `<range radius="1"/>`} {
		to := `to="ep1"`
		if strings.Contains(stages, "range") {
			to = ""
		}
		// the wire encoding of a []byte adds its length (a byte here)
		for _, size := range []int{8, ci.InboxSmall - 1, ci.InboxSmall, 32, 200} {
			sim := experiment(t, stages, fmt.Sprintf(`bytes="%d" %s count="2"`, size, to), robots, "", 0)
			ep1 := theChannel(t, sim).Members()[1]
			for step := 1; step <= 6; step++ {
				run(t, sim, 1)
				for _, m := range ep1.Inbox(nil) {
					var v []byte
					err := codec.Decode(m.Payload, &v)
					if err != nil || len(v) != size || !intact(v) || m.From != "ep0" || m.Topic != "t" {
						t.Fatalf("%q, %d bytes, step %d: Inbox holds %q from %q, %d bytes (intact: %v, %v)", stages, size, step, m.Topic, m.From, len(v), intact(v), err)
					}
				}
			}
			log := logOf(sim, "ep1")
			uni := 0
			for _, h := range log {
				if h.size != size || !h.intact || h.from != "ep0" {
					t.Fatalf("%q, %d bytes: received %+v", stages, size, h)
				}
				if h.unicast {
					uni++
				}
			}
			want, wantUni := 4*5, 2*5 // a broadcast and a unicast, twice, from steps 1-5
			switch {
			case to == "":
				want, wantUni = 2*5, 0
				if !theChannel(t, sim).Pullable() {
					t.Errorf("%q: not pulled", stages)
				}
			case stages != "":
				want, wantUni = 4*3, 2*3 // from steps 1-3
			}
			if len(log) != want || uni != wantUni {
				t.Errorf("%q, %d bytes: %d messages (%d unicast) in 6 steps, want %d (%d unicast)", stages, size, len(log), uni, want, wantUni)
			}
		}
	}
}

// Losses: the share of deliveries lost is the probability, within the
// 99.99 % confidence interval of a binomial count, and two seeds lose
// different deliveries.
func TestLossRate(t *testing.T) {
	robots := map[string][2]float64{}
	for i := 0; i < 20; i++ {
		robots[fmt.Sprintf("ep%d", i)] = [2]float64{float64(i%5) * 0.3, float64(i/5) * 0.3}
	}
	for _, p := range []float64{0.1, 0.3} {
		sim := experiment(t, fmt.Sprintf(`<loss probability="%g"/>`, p), "", robots, "", 0)
		run(t, sim, 101)
		st := theChannel(t, sim).Stats()
		tries := float64(st.Sent) * 19 // every message, to 19 receivers
		lost := tries - float64(st.Delivered)
		sd := math.Sqrt(tries * p * (1 - p))
		if math.Abs(lost-tries*p) > 4*sd {
			t.Errorf("p=%g: %g of %g deliveries lost (%.4f), want %g ± %.4f", p, lost, tries, lost/tries, p, 4*sd/tries)
		}
		if st.Dropped != int64(lost) {
			t.Errorf("p=%g: %d counted as dropped, %g lost", p, st.Dropped, lost)
		}
	}
}

// Bandwidth: drop loses what exceeds a tick's budget; queue sends it at
// the next ticks, in order, and drops what the queue cannot hold.
func TestBandwidth(t *testing.T) {
	robots := map[string][2]float64{"ep0": {0, 0}, "ep1": {1, 0}}
	// 3 messages of 10 bytes per step, 25 bytes per tick
	sim := experiment(t, `<bandwidth bytes="25"/>`, `bytes="10" count="3"`, robots, "", 0)
	run(t, sim, 6)
	log := logOf(sim, "ep1")
	if len(log) != 10 { // 2 per step, steps 2..6
		t.Errorf("drop: %d messages in 6 steps, want 10", len(log))
	}
	// queue: 3 messages of 10 bytes every 2 steps, 25 bytes per tick: two
	// go at once, the third at the next tick
	sim = experiment(t, `<bandwidth bytes="25" overflow="queue"/>`, `bytes="10" count="3" every="2"`, robots, "", 0)
	run(t, sim, 12)
	log = logOf(sim, "ep1")
	if len(log) != 15 { // steps 2,4,...,10 sent 15; the last arrives at step 12
		t.Errorf("queue: %d messages, want 15: %+v", len(log), log)
	}
	perTick := map[int]int{}
	for i, h := range log {
		perTick[h.tick]++
		if i > 0 && h.sent < log[i-1].sent {
			t.Errorf("queue: out of order: %+v after %+v", h, log[i-1])
		}
	}
	for tick, n := range perTick {
		if n > 2 {
			t.Errorf("queue: %d messages of 10 bytes arrived at step %d with 25 bytes per tick", n, tick)
		}
	}
	// a full queue drops: 3 messages of 10 bytes per tick, 25 per tick,
	// a queue of 20 bytes
	sim = experiment(t, `<bandwidth bytes="25" overflow="queue" queue="20"/>`, `bytes="10" count="3"`, robots, "", 0)
	run(t, sim, 30)
	st := theChannel(t, sim).Stats()
	if st.Dropped == 0 || len(logOf(sim, "ep1")) > 2*29 {
		t.Errorf("a full queue: %+v, %d delivered", st, len(logOf(sim, "ep1")))
	}
}

// The graph: only listed pairs talk; a directed link one way.
func TestGraph(t *testing.T) {
	robots := map[string][2]float64{"ep0": {0, 0}, "ep1": {1, 0}, "ep2": {2, 0}, "ep3": {3, 0}}
	sim := experiment(t, `<graph><link from="ep0" to="ep1"/><link from="ep2|ep3" to="ep3"/></graph>`, "", robots, "", 0)
	run(t, sim, 3)
	want := map[string]string{"ep0": "ep1", "ep1": "ep0", "ep2": "ep3", "ep3": "ep2"}
	for id, w := range want {
		if got := senders(logOf(sim, id)); len(got) != 1 || got[w] == 0 {
			t.Errorf("%s heard %v, want only %s", id, got, w)
		}
	}
	sim = experiment(t, `<graph directed="true"><link from="ep0" to="ep1|ep2"/></graph>`, "", robots, "", 0)
	run(t, sim, 3)
	if got := senders(logOf(sim, "ep0")); len(got) != 0 {
		t.Errorf("directed: ep0 heard %v", got)
	}
	if got := senders(logOf(sim, "ep2")); len(got) != 1 || got["ep0"] == 0 {
		t.Errorf("directed: ep2 heard %v", got)
	}
}

// Unicasts reach their addressee only, through the same stages.
func TestUnicast(t *testing.T) {
	robots := map[string][2]float64{"ep0": {0, 0}, "ep1": {0.3, 0}, "ep2": {0.6, 0}}
	sim := experiment(t, `<range radius="0.4"/>`, `to="ep1"`, robots, "", 0)
	run(t, sim, 3)
	for id, want := range map[string]int{"ep0": 0, "ep1": 2, "ep2": 0} {
		n := 0
		for _, h := range logOf(sim, id) {
			if h.unicast {
				n++
			}
		}
		if n != want*2 { // steps 2 and 3
			t.Errorf("%s received %d unicasts, want %d", id, n, want*2)
		}
	}
}

// Stages compose: range, then loss, then delay.
func TestComposition(t *testing.T) {
	robots := map[string][2]float64{}
	for i := 0; i < 10; i++ {
		robots[fmt.Sprintf("ep%d", i)] = [2]float64{float64(i) * 0.25, 0}
	}
	sim := experiment(t, `<range radius="0.6"/><loss probability="0.2"/><delay ticks="2"/>`, "", robots, "", 0)
	run(t, sim, 200)
	st := theChannel(t, sim).Stats()
	lost, tries := 0.0, 0.0
	for i := 0; i < 10; i++ {
		id := fmt.Sprintf("ep%d", i)
		log := logOf(sim, id)
		for _, h := range log {
			var k int
			fmt.Sscanf(h.from, "ep%d", &k)
			if d := math.Abs(float64(k-i)) * 0.25; d > 0.6 {
				t.Fatalf("%s heard %s, %g m away", id, h.from, d)
			}
			if h.tick != h.sent+3 {
				t.Fatalf("%s: sent at %d, received at %d with a delay of 2", id, h.sent, h.tick)
			}
		}
		neighbours := 0.0
		for k := 0; k < 10; k++ {
			if k != i && math.Abs(float64(k-i))*0.25 <= 0.6 {
				neighbours++
			}
		}
		tries += neighbours * (200 - 3) // the messages sent at steps 1..197 arrive within 200
		lost += neighbours*(200-3) - float64(len(log))
	}
	if sd := math.Sqrt(tries * 0.2 * 0.8); math.Abs(lost-0.2*tries) > 4*sd {
		t.Errorf("%g of %g deliveries in range lost, want 20 %% ± %.1f %%", lost, tries, 400*sd/tries)
	}
	_ = st
}

// The same seed gives the same deliveries in the same order whatever the
// number of threads.
func TestDeterministicAcrossThreads(t *testing.T) {
	robots := map[string][2]float64{}
	for i := 0; i < 300; i++ {
		robots[fmt.Sprintf("ep%d", i)] = [2]float64{float64(i%20)*0.2 - 2, float64(i/20)*0.2 - 2}
	}
	stages := `<range radius="0.5"/><loss probability="0.3"/><delay ticks="1"/><bandwidth bytes="20" overflow="queue"/>`
	var want uint64
	for _, threads := range []int{0, 1, 2, 4} {
		sim := experiment(t, stages, `bytes="12" count="2" to="ep7"`, robots, "", threads)
		run(t, sim, 30)
		h := fnv.New64a()
		for i := 0; i < sim.NumRobots(); i++ {
			for _, x := range sim.Controller(i).(*talker).log {
				fmt.Fprintf(h, "%s<%s:%d@%d/%v;", sim.Robot(i).ID, x.from, x.sent, x.tick, x.unicast)
			}
		}
		got := h.Sum64()
		if threads == 0 {
			want = got
			if st := theChannel(t, sim).Stats(); st.Delivered < 1000 {
				t.Fatalf("only %d deliveries: the test would prove little", st.Delivered)
			}
		} else if got != want {
			t.Errorf("threads=%d: deliveries hash to %x, threads=0 to %x", threads, got, want)
		}
	}
}

// A user model in ASCARI's three steps: it tags every payload with the
// tick (Receive changes it), holds messages of odd ticks by one tick,
// and lets a receiver hear only senders to its left (Forward, from the
// states Update saw).
type leftOnly struct {
	agents []channel.Agent
	buf    [][]byte
	k      int
}

func (m *leftOnly) Update(s *channel.State) { m.agents, m.k = s.Agents, 0 }
func (m *leftOnly) Receive(msg *channel.Message) channel.Verdict {
	if msg.Sent%2 == 1 && !msg.Resumed {
		return channel.Hold(1)
	}
	if m.k >= len(m.buf) {
		m.buf = append(m.buf, nil)
	}
	b := append(m.buf[m.k][:0], msg.Payload...)
	b[len(b)-1] = 0xEE
	m.buf[m.k] = b
	m.k++
	msg.Payload = b
	return channel.Pass
}
func (m *leftOnly) Forward(msg *channel.Message, to int) channel.Verdict {
	if m.agents[msg.From].Pos.X < m.agents[to].Pos.X {
		return channel.Pass
	}
	return channel.Drop
}

func init() {
	channel.Models.MustRegister("test_left_only", "test", func(n *config.Node, w *entity.World) (channel.Model, error) {
		if err := n.CheckAttrs("type"); err != nil {
			return nil, err
		}
		return &leftOnly{}, nil
	})
}

func TestUserModel(t *testing.T) {
	robots := map[string][2]float64{"ep0": {0, 0}, "ep1": {1, 0}, "ep2": {2, 0}}
	sim := experiment(t, `<model type="test_left_only"/>`, `bytes="9"`, robots, "", 0)
	run(t, sim, 6)
	if got := senders(logOf(sim, "ep0")); len(got) != 0 {
		t.Errorf("ep0 heard %v; nobody is to its left", got)
	}
	log := logOf(sim, "ep2")
	if got := senders(log); got["ep0"] == 0 || got["ep1"] == 0 {
		t.Errorf("ep2 heard %v", got)
	}
	for _, h := range log {
		want := h.sent + 1
		if h.sent%2 == 1 {
			want++ // held one tick
		}
		if h.tick != want {
			t.Errorf("sent at %d, received at %d, want %d", h.sent, h.tick, want)
		}
	}
	// the payload was changed on the way: the talker logs the size only,
	// so read the inbox directly
	ep2 := sim.Robot(2)
	c := theChannel(t, sim)
	for _, mb := range c.Members() {
		if mb.Robot == ep2 {
			for _, m := range mb.Inbox(nil) {
				if m.Payload[len(m.Payload)-1] != 0xEE {
					t.Errorf("payload % x not changed by the model", m.Payload)
				}
			}
		}
	}
}

func TestFileErrors(t *testing.T) {
	for _, tc := range []struct{ stages, want string }{
		{`<loss probability="1.5"/>`, "test.argos:19: <loss> in <channel id=\"radio\">: attribute probability=\"1.5\""},
		{`<range radius="-1"/>`, "range must be positive"},
		{`<echo/>`, "unknown stage <echo>"},
		{`<bandwidth bytes="10" overflow="spill"/>`, "use drop"},
		{`<graph><link from="ep0" to="fb9"/></graph>`, "matches no entity"},
		{`<model type="nope"/>`, "unknown channel model"},
		{`<delay ticks="-2"/>`, "a delay of -2 ticks"},
	} {
		xml := fmt.Sprintf(`<argos-configuration>
  <framework><experiment length="0" ticks_per_second="10" random_seed="5"/></framework>
  <controllers><channel_test_talker id="c">
    <actuators><messaging implementation="default"/></actuators>
    <sensors><messaging implementation="default"/></sensors>
    <params/>
  </channel_test_talker></controllers>
  <arena size="3,3,1" center="0,0,0.5">
    <e-puck id="ep0"><body position="0,0,0" orientation="0,0,0"/><controller config="c"/></e-puck>
  </arena>
  <physics_engines><kinematics2d id="k"/></physics_engines>
  <media>
  
  
  
  
  
  
  <channel id="radio">%s</channel></media>
</argos-configuration>`, tc.stages)
		exp, err := config.Parse("test.argos", []byte(xml))
		if err != nil {
			t.Fatal(err)
		}
		_, err = simulator.New(exp, simulator.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to say %q", tc.stages, err, tc.want)
		}
	}
}
