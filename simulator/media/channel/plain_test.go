package channel

import (
	"fmt"
	"slices"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

type serialRun struct{}

func (serialRun) Run(n int, job func(int)) {
	for i := 0; i < n; i++ {
		job(i)
	}
}

// The inline forwarding of plain stages (losses and delays) delivers
// exactly what the stages' Forward calls deliver: the same inboxes, tick
// after tick, and the same counts.
func TestPlainForwardingAsStages(t *testing.T) {
	run := func(plain bool) ([]string, Stats) {
		root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="1"/><loss probability="0.3"/><delay ticks="2"/><loss probability="0.2"/></channel>`))
		if err != nil {
			t.Fatal(err)
		}
		sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
		w := &entity.World{Space: sp, Seed: 42}
		c, err := New(root, w)
		if err != nil {
			t.Fatal(err)
		}
		if !c.plain {
			t.Fatal("losses and delays are not found plain")
		}
		c.plain = plain
		var tx []*Sender
		var rx []*Receiver
		for i := range 40 {
			b := sp.Add(space.Body{ID: fmt.Sprint("r", i), Shape: space.Disc, Radius: 0.05, Height: 0.1, Movable: true,
				Pos: ci.Vector2{X: float64(i%8) * 0.4, Y: float64(i/8) * 0.4}})
			r := &entity.Robot{ID: fmt.Sprint("r", i), Index: i, Body: b, Space: sp}
			tx = append(tx, c.NewSender(r, nil))
			rx = append(rx, c.NewReceiver(r, nil))
		}
		var log []string
		for tick := range 12 {
			for i, s := range tx {
				if (i+tick)%3 != 0 {
					s.Send("t", "", []byte{byte(i), byte(tick)})
				}
			}
			c.Update(serialRun{})
			for i, r := range rx {
				for _, m := range r.Inbox() {
					log = append(log, fmt.Sprintf("%d %d %s %s %v", tick, i, m.From, m.To, m.Payload))
				}
			}
		}
		return log, c.Stats()
	}
	inline, st1 := run(true)
	staged, st2 := run(false)
	if len(inline) == 0 || !slices.Equal(inline, staged) || st1 != st2 {
		t.Fatalf("inline forwarding: %d deliveries, %+v; through the stages: %d, %+v", len(inline), st1, len(staged), st2)
	}
}

// A channel of ranges, delays and losses reads the agents' states only on
// ticks with something to forward (lazy); it delivers what a channel that
// reads them at every tick delivers, although robots move while nobody
// talks, one walks into range during a quiet spell, and one is removed.
func TestLazyGatherAsEager(t *testing.T) {
	run := func(lazy bool) ([]string, Stats) {
		root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="1"/><delay ticks="1"/><loss probability="0.2"/></channel>`))
		if err != nil {
			t.Fatal(err)
		}
		sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 20, Y: 20, Z: 1})
		c, err := New(root, &entity.World{Space: sp, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if !c.lazy {
			t.Fatal("ranges, delays and losses are not found lazy")
		}
		c.lazy = lazy
		var tx []*Sender
		var rx []*Receiver
		var bodies []int
		for i := range 12 {
			b := sp.Add(space.Body{ID: fmt.Sprint("r", i), Shape: space.Disc, Radius: 0.05, Height: 0.1, Movable: true,
				Pos: ci.Vector2{X: float64(i) * 0.5}})
			r := &entity.Robot{ID: fmt.Sprint("r", i), Index: i, Body: b, Space: sp}
			tx, rx, bodies = append(tx, c.NewSender(r, nil)), append(rx, c.NewReceiver(r, nil)), append(bodies, b)
		}
		var log []string
		for tick := range 60 {
			// robot 0 walks along the line, far past the others and back
			sp.Bodies[bodies[0]].Pos.X = float64(tick%30) * 0.3
			if tick == 40 {
				sp.Bodies[bodies[5]].Removed = true
			}
			if tick%7 < 2 { // talk in bursts, quiet in between
				for i, s := range tx {
					s.Send("t", "", []byte{byte(i), byte(tick)})
				}
			}
			c.Update(serialRun{})
			for i, r := range rx {
				for _, m := range r.Inbox() {
					log = append(log, fmt.Sprintf("%d %d %s %v", tick, i, m.From, m.Payload))
				}
			}
		}
		return log, c.Stats()
	}
	lazy, st1 := run(true)
	eager, st2 := run(false)
	if len(lazy) == 0 || !slices.Equal(lazy, eager) || st1 != st2 {
		t.Fatalf("lazy: %d deliveries, %+v; eager: %d, %+v", len(lazy), st1, len(eager), st2)
	}
}
