package channel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// In steady state, delivering messages allocates nothing. 400 robots,
// each broadcasting 16 bytes per tick on a channel with range, loss and
// delay and reading them through a ci.Topic, stand spread over an 8 m
// square (about 4 neighbours within range), except one group of 20 at a
// time, gathered in a 0.2 m cluster (about 20 neighbours): the groups
// take turns of 25 ticks, so that the swarm's largest inbox is reached
// at the first tick, while most robots meet it for the first time much
// later. After a warm-up of 100 ticks, a tick (moving, sending, Update,
// receiving) must not allocate, although 8 groups reach the cluster for
// the first time while it is measured.
func TestSteadyStateDeliveryAllocatesNothing(t *testing.T) {
	// with a delay (forward and deliver), and without (pull)
	for _, delay := range []string{`<delay ticks="2"/>`, ``} {
		steadyStateAllocations(t, delay)
	}
}

func steadyStateAllocations(t *testing.T, delay string) {
	root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="0.5"/><loss probability="0.1"/>`+delay+`</channel>`))
	if err != nil {
		t.Fatal(err)
	}
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 8, Y: 8, Z: 1})
	c, err := New(root, &entity.World{Space: sp, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	const robots = 400
	rng := rand.New(rand.NewPCG(1, 2))
	var bodies []int
	var topics []*ci.Topic[[16]byte]
	for i := range robots {
		id := fmt.Sprint("r", i)
		b := sp.Add(space.Body{ID: id, Shape: space.Disc, Radius: 0.035, Height: 0.05, Movable: true,
			Pos: ci.Vector2{X: rng.Float64()*8 - 4, Y: rng.Float64()*8 - 4}})
		r := &entity.Robot{ID: id, Index: i, Body: b, Space: sp}
		cr := citest.NewRobot(id, uint64(i)).AddActuator(ci.TagMessaging, c.NewSender(r, nil)).AddSensor(ci.TagMessaging, c.NewReceiver(r, nil))
		tp, err := ci.NewTopic[[16]byte](cr, "hello")
		if err != nil {
			t.Fatal(err)
		}
		bodies, topics = append(bodies, b), append(topics, tp)
	}
	home := make([]ci.Vector2, robots)
	for k, b := range bodies {
		home[k] = sp.Bodies[b].Pos
	}
	heard, now := 0, 0
	tick := func() {
		group := now / 25 % 20
		for k, b := range bodies {
			p := &sp.Bodies[b].Pos
			if k/20 == group {
				a := float64(k%20) * 2 * math.Pi / 20
				*p = ci.Vector2{X: 0.1 * math.Cos(a), Y: 0.1 * math.Sin(a)}
			} else {
				*p = home[k].Add(ci.Vector2{X: 0.02 * (rng.Float64() - 0.5), Y: 0.02 * (rng.Float64() - 0.5)})
			}
			topics[k].Broadcast([16]byte{15: byte(k)})
		}
		c.Update(serialRun{})
		for _, tp := range topics {
			heard += len(tp.Received())
		}
		now++
	}
	for range 100 {
		tick()
	}
	before := heard
	// one tick at a time: AllocsPerRun rounds an average down (and runs
	// its function once more before it counts)
	allocs := 0.0
	for range 100 {
		allocs += testing.AllocsPerRun(1, tick)
	}
	if allocs != 0 {
		t.Errorf("%q: %v allocations in 100 ticks of steady state (%d robots, %.1f deliveries per robot and tick)",
			delay, allocs, robots, float64(heard-before)/200/robots)
	}
	if heard == before {
		t.Fatal("no message delivered: the test measures nothing")
	}
	if pulls := delay == ""; c.pullable() != pulls {
		t.Errorf("%q: pullable is %v", delay, !pulls)
	}
}

// Ticks without messages (nothing sent, nothing due) leave every inbox
// empty, and the ticks after them deliver as usual: the quiet path of
// Update skips the neighbour search and the inboxes' passes.
func TestQuietTicks(t *testing.T) {
	root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="1"/><delay ticks="2"/></channel>`))
	if err != nil {
		t.Fatal(err)
	}
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
	c, err := New(root, &entity.World{Space: sp, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var tx []*Sender
	var rx []*Receiver
	var bodies []int
	for i := range 3 {
		b := sp.Add(space.Body{ID: fmt.Sprint("r", i), Shape: space.Disc, Radius: 0.05, Height: 0.1, Movable: true,
			Pos: ci.Vector2{X: 0.5 * float64(i)}})
		r := &entity.Robot{ID: fmt.Sprint("r", i), Index: i, Body: b, Space: sp}
		tx, rx, bodies = append(tx, c.NewSender(r, nil)), append(rx, c.NewReceiver(r, nil)), append(bodies, b)
	}
	sends := map[int]bool{1: true, 6: true, 7: true, 20: true}
	for tick := 1; tick <= 25; tick++ {
		if tick == 12 {
			// moved apart while nothing flows: r2 out of r0's range
			sp.Bodies[bodies[2]].Pos.X = 3
		}
		if sends[tick] {
			tx[0].Send("t", "", []byte{byte(tick)})
		}
		c.Update(serialRun{})
		// what was sent at tick k arrives at tick k+2 (delay 2, read at
		// the Update of the tick it is due)
		want := 0
		if sends[tick-2] {
			want = 1
		}
		for i, r := range rx[1:] {
			got := r.Inbox()
			w := want
			if i+1 == 2 && tick >= 12 {
				w = 0
			}
			if len(got) != w || w == 1 && got[0].Payload[0] != byte(tick-2) {
				t.Fatalf("tick %d, robot %d: inbox %v, want %d message(s) sent at tick %d", tick, i+1, got, w, tick-2)
			}
		}
		if len(rx[0].Inbox()) != 0 {
			t.Fatalf("tick %d: the sender hears itself", tick)
		}
	}
}

// An inbox entry fills one cache line.
func TestInboxEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(ci.InboxEntry{}); s != 64 {
		t.Errorf("a ci.InboxEntry takes %d bytes, want 64: adjust ci.InboxSmall", s)
	}
}
