package channel

import (
	"fmt"
	"slices"
	"strings"
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
	// two losses and no delay (pull), two losses and a delay
	// (forwardPlain), and more than pull draws for
	for _, stages := range []string{`<loss probability="0.3"/><loss probability="0.2"/>`,
		`<loss probability="0.3"/><delay ticks="2"/><loss probability="0.2"/>`,
		strings.Repeat(`<loss probability="0.1"/>`, maxPlainLosses) + `<delay ticks="1"/><loss probability="0.05"/>`} {
		plainAsStages(t, stages, !strings.Contains(stages, "delay"))
	}
}

func plainAsStages(t *testing.T, stages string, pulls bool) {
	run := func(plain bool) ([]string, Stats) {
		root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="1"/>`+stages+`</channel>`))
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
			// some receivers carry topic t only, some another only
			rx = append(rx, c.NewReceiver(r, [][]string{nil, nil, nil, {"t"}, {"u"}}[i%5]))
		}
		var log []string
		for tick := range 12 {
			for i, s := range tx {
				if (i+tick)%3 != 0 {
					s.Send("t", "", []byte{byte(i), byte(tick)})
				}
				if i%4 == 0 { // a second message, after the first
					s.Send("t", "", []byte{byte(i), byte(tick), 1})
				}
			}
			c.Update(serialRun{})
			if plain && pulls != c.pullable() {
				t.Fatalf("%s: pullable is %v", stages, !pulls)
			}
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
		t.Fatalf("%s: inline forwarding: %d deliveries, %+v; through the stages: %d, %+v", stages, len(inline), st1, len(staged), st2)
	}
}

// Pullable tells the external tests whether the last Update pulled.
func (c *Channel) Pullable() bool { return c.pullable() }

// A tick at which no one sends on a plain channel gathers no state: the
// deliveries (held by a delay, some due at quiet ticks) and counts are
// those of the same channel gathering at every tick, while robots move
// between sends, out of and into range, and one is removed during a
// quiet spell; and a quiet tick leaves the gathered positions as the last
// sending tick saw them. InboxQuiet is true exactly when every inbox
// is empty.
func TestQuietTicksGatherNothing(t *testing.T) {
	run := func(plain bool) ([]string, Stats) {
		root, err := config.ParseTree("c.argos", []byte(`<channel id="radio"><range radius="1"/><delay ticks="2"/><loss probability="0.2"/></channel>`))
		if err != nil {
			t.Fatal(err)
		}
		sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
		c, err := New(root, &entity.World{Space: sp, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		c.plain = plain
		var tx []*Sender
		var rx []*Receiver
		var bodies []int
		for i := range 30 {
			b := sp.Add(space.Body{ID: fmt.Sprint("r", i), Shape: space.Disc, Radius: 0.05, Height: 0.1, Movable: true,
				Pos: ci.Vector2{X: float64(i%6) * 0.5, Y: float64(i/6) * 0.5}})
			r := &entity.Robot{ID: fmt.Sprint("r", i), Index: i, Body: b, Space: sp}
			tx, rx, bodies = append(tx, c.NewSender(r, nil)), append(rx, c.NewReceiver(r, nil)), append(bodies, b)
		}
		var log []string
		quiet := 0
		for tick := range 40 {
			// robots 0 to 9 drift along x, 1.5 m in all
			for i := range 10 {
				sp.Bodies[bodies[i]].Pos.X += 0.04
			}
			if tick == 13 {
				sp.Bodies[bodies[20]].Removed = true
			}
			if tick%4 == 0 || tick%7 == 3 {
				for i, s := range tx {
					if (i+tick)%5 == 0 {
						s.Send("t", "", []byte{byte(i), byte(tick)})
					}
				}
			}
			before := c.state.Agents[0].Pos
			c.Update(serialRun{})
			if plain && !(tick%4 == 0 || tick%7 == 3) {
				quiet++
				if c.state.Agents[0].Pos != before {
					t.Fatalf("quiet tick %d gathered the states", tick)
				}
			}
			empty := true
			for i, r := range rx {
				for _, m := range r.Inbox() {
					log = append(log, fmt.Sprintf("%d %d %s %v", tick, i, m.From, m.Payload))
					empty = false
				}
			}
			// the flag the topics read instead of their inboxes
			if q := *rx[0].InboxQuiet(); q != empty {
				t.Fatalf("tick %d: InboxQuiet says %v, every inbox empty: %v", tick, q, empty)
			}
		}
		if plain && quiet == 0 {
			t.Fatal("no quiet tick")
		}
		return log, c.Stats()
	}
	plain, st1 := run(true)
	staged, st2 := run(false)
	if len(plain) == 0 || !slices.Equal(plain, staged) || st1 != st2 {
		t.Fatalf("quiet ticks skipped: %d deliveries, %+v; gathered at every tick: %d, %+v", len(plain), st1, len(staged), st2)
	}
}
