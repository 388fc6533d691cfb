package traffic

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
)

// A Status is encoded by copying its memory: the fields have no padding,
// and the encoding's size is the struct's. Sending and receiving it then
// costs a copy, not a walk over its fields.
func TestStatusIsRaw(t *testing.T) {
	c, err := ci.NewCodec[Status]()
	if err != nil {
		t.Fatal(err)
	}
	s := Status{Agent: 7, Node: 3, Next: -1, Claim: 4, Since: 99, Plan: [2]int16{5, 6}, Tick: 120, X: 1.5, Y: -2, N: 1,
		Grants: [MaxGrants]Grant{{Agent: 2, Node: 9, Since: 77}}}
	buf := c.Append(nil, &s)
	if len(buf) != int(unsafe.Sizeof(s)) {
		t.Errorf("a Status encodes in %d bytes, its memory is %d: a field has padding", len(buf), unsafe.Sizeof(s))
	}
	var back Status
	if err := c.Decode(buf, &back); err != nil || back != s {
		t.Errorf("decoded %+v, %v; want %+v", back, err, s)
	}
	if a := testing.AllocsPerRun(100, func() { buf = c.Append(buf[:0], &s); _ = c.Decode(buf, &back) }); a != 0 {
		t.Errorf("%v allocations per round trip", a)
	}
}

// mayEnterAll is mayEnter without its blocker: every peer looked at.
func (c *Controller) mayEnterAll() bool {
	nx, ny := c.nodeXY(c.claim)
	for i := range c.peers {
		p := &c.peers[i]
		if c.near(p, nx, ny) && (!p.granted || p.st.Node == c.claim || p.st.Next == c.claim) {
			return false
		}
	}
	return true
}

// mayEnter gives the answer of a look at every peer, at every tick, while
// peers come near and go, grant, hold nodes, are heard late or not for
// longer than forget ticks, and the agent makes new claims: the peer that
// said no last is asked first and believed only while nothing it said
// can have changed.
func TestMayEnterAsEveryPeer(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 14))
	c := &Controller{me: 0, params: params{rows: 4, cols: 4, spacing: 1, speed: 0.5, h: 0.001, period: 50, patience: 400, forget: 60, warm: 0}}
	c.Reset()
	c.node, c.claim, c.since = 0, 1, 0
	blocked, cached, open := 0, 0, 0
	for tick := uint32(1); tick < 40000; tick++ {
		c.tick = tick
		if r.IntN(500) == 0 {
			// a new claim: no grants yet
			c.claim, c.since = int16(r.IntN(16)), tick
			for i := range c.peers {
				c.peers[i].granted = false
			}
		}
		for k := 0; k < r.IntN(2); k++ {
			a := uint16(1 + r.IntN(3))
			if a == 3 && tick/500%2 == 1 {
				continue // agent 3 is silent half of the time: forgotten after 60 ticks
			}
			s := Status{Agent: a, Node: int16(r.IntN(16)), Next: -1, Claim: -1, Tick: tick - uint32(r.IntN(int(min(tick, 20)))), // up to 20 ticks late
				X: float32(r.Float64() * 5), Y: float32(r.Float64() * 5)}
			if r.IntN(20) == 0 {
				s.Next = c.claim
			}
			if a != 3 && r.IntN(10) > 0 { // agent 3 grants nothing
				s.N, s.Grants[0] = 1, Grant{Agent: c.me, Node: c.claim, Since: c.since}
			}
			c.update(&s)
		}
		want := c.mayEnterAll()
		had := c.block.peer > 0 && c.block.since == c.since && int64(tick) <= c.block.till
		if got := c.mayEnter(); got != want {
			t.Fatalf("tick %d: mayEnter %v, every peer says %v (blocker %+v)", tick, got, want, c.block)
		}
		if want {
			open++
		} else {
			blocked++
			if had {
				cached++
			}
		}
	}
	if blocked < 1000 || open < 1000 || cached < blocked/4 {
		t.Errorf("%d ticks blocked, %d of them answered by the blocker, %d open: the test does not exercise it", blocked, cached, open)
	}
}
