package ci_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
)

type estimate struct {
	Value float64
	Round uint32
}

func TestTopicSendsAndReceivesTypedValues(t *testing.T) {
	var net citest.Network
	a, b, c := citest.NewRobot("a", 1), citest.NewRobot("b", 1), citest.NewRobot("c", 1)
	net.Attach(a)
	net.Attach(b)
	net.Attach(c)
	ta, err := ci.NewTopic[estimate](a, "estimate")
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := ci.NewTopic[estimate](b, "estimate")
	tc, _ := ci.NewTopic[estimate](c, "estimate")
	other, _ := ci.NewTopic[string](c, "chat")
	ta.Broadcast(estimate{Value: 1.5, Round: 1})
	tb.SendTo("c", estimate{Value: -2, Round: 1})
	other.Broadcast("hello")
	net.Deliver()
	got := tc.Received()
	if len(got) != 2 || got[0].From != "a" || got[0].Value.Value != 1.5 || got[0].Unicast ||
		got[1].From != "b" || got[1].Value.Value != -2 || !got[1].Unicast {
		t.Errorf("c received %+v", got)
	}
	if got := tb.Received(); len(got) != 1 || got[0].From != "a" {
		t.Errorf("b received %+v; want only a's broadcast (c's unicast to c, the chat topic)", got)
	}
	if got := ta.Received(); len(got) != 0 {
		t.Errorf("a received %+v on estimate; want nothing (chat is another topic)", got)
	}
	// another type on the same topic is skipped and counted
	bad, _ := ci.NewTopic[string](a, "estimate")
	bad.Broadcast("not an estimate, a string of another length")
	net.Deliver()
	if got := tb.Received(); len(got) != 0 || tb.Malformed() != 1 {
		t.Errorf("b received %+v, %d malformed; want 0 and 1", got, tb.Malformed())
	}
}

// Receiving a fixed-size value allocates nothing once the topic's slice
// has grown.
func TestTopicReceivesWithoutAllocating(t *testing.T) {
	net, a, b := attachedPair()
	ta, _ := ci.NewTopic[estimate](a, "e")
	tb, _ := ci.NewTopic[estimate](b, "e")
	for i := 0; i < 3; i++ {
		ta.Broadcast(estimate{Value: float64(i)})
	}
	net.Deliver()
	tb.Received()
	if n := testing.AllocsPerRun(100, func() {
		if len(tb.Received()) != 3 {
			t.Fatal("lost a message")
		}
	}); n != 0 {
		t.Errorf("%v allocations per Received, want 0", n)
	}
}

func TestNewTopicErrors(t *testing.T) {
	var net citest.Network
	bare := citest.NewRobot("bare", 1)
	if _, err := ci.NewTopic[int](bare, "x"); !errors.Is(err, ci.ErrNotDeclared) || !strings.Contains(err.Error(), "<messaging") {
		t.Errorf("no messaging device: %v", err)
	}
	r := citest.NewRobot("r", 1)
	net.Attach(r, "pose", "plan")
	if _, err := ci.NewTopic[int](r, "other"); err == nil || !strings.Contains(err.Error(), "pose, plan") {
		t.Errorf("a topic the device does not carry: %v", err)
	}
	if _, err := ci.NewTopic[map[int]int](r, "pose"); !errors.Is(err, ci.ErrNotEncoding) {
		t.Errorf("a type without encoding: %v", err)
	}
	wrong := citest.NewRobot("w", 1).AddSensor(ci.TagMessaging, 42)
	if _, err := ci.NewTopic[int](wrong, "x"); !errors.Is(err, ci.ErrWrongType) {
		t.Errorf("a sensor of another kind: %v", err)
	}
	// receive only: sending panics with a message that says what to declare
	wantSendPanics(t, &net, func(tp *ci.Topic[int]) { tp.Broadcast(1) })
}

// wantSendPanics checks that send, on a topic of a robot of net that
// only receives, panics with a message that says what to declare.
func wantSendPanics(t *testing.T, net *citest.Network, send func(*ci.Topic[int])) {
	t.Helper()
	rx := citest.NewRobot("rx", 1).AddSensor(ci.TagMessaging, net.Join("rx"))
	tp, err := ci.NewTopic[int](rx, "x")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(string), "<actuators>") {
			t.Errorf("send without an actuator: panic %v", p)
		}
	}()
	send(tp)
}

type rawPoint struct {
	X, Y float64
	N    uint64
}

// A type whose memory is its encoding is received by copying (the
// shortcut of Received): values intact, in order, and a payload of
// another length on the topic still counted as malformed.
func TestTopicReceivesRawValues(t *testing.T) {
	net, a, b := attachedPair()
	ta, _ := ci.NewTopic[rawPoint](a, "p")
	tb, _ := ci.NewTopic[rawPoint](b, "p")
	short, _ := ci.NewTopic[[3]byte](a, "p")
	ta.Broadcast(rawPoint{X: 1.5, Y: -2, N: 7})
	short.Broadcast([3]byte{1, 2, 3})
	ta.Broadcast(rawPoint{X: 3, Y: 4, N: 1 << 60})
	net.Deliver()
	got := tb.Received()
	if len(got) != 2 || got[0].Value != (rawPoint{X: 1.5, Y: -2, N: 7}) || got[1].Value != (rawPoint{X: 3, Y: 4, N: 1 << 60}) ||
		got[0].From != "a" || got[0].Unicast || tb.Malformed() != 1 {
		t.Errorf("b received %+v, %d malformed; want both points and 1 malformed", got, tb.Malformed())
	}
}

// BroadcastFrom sends what Broadcast sends, for a type whose memory is
// its encoding (read in place) and for one encoded (a string), and a
// change to the value once it returns does not reach the receivers.
func TestBroadcastFromSendsAsBroadcast(t *testing.T) {
	net, a, b := attachedPair()
	ta, _ := ci.NewTopic[rawPoint](a, "p")
	tb, _ := ci.NewTopic[rawPoint](b, "p")
	sa, _ := ci.NewTopic[string](a, "s")
	sb, _ := ci.NewTopic[string](b, "s")
	p, s := rawPoint{X: 1.5, Y: -2, N: 7}, "hello"
	ta.BroadcastFrom(&p)
	sa.BroadcastFrom(&s)
	p, s = rawPoint{X: 9}, "changed"
	ta.Broadcast(rawPoint{X: 3, Y: 4, N: 1 << 60})
	net.Deliver()
	if got := tb.Received(); len(got) != 2 || got[0].Value != (rawPoint{X: 1.5, Y: -2, N: 7}) || got[1].Value != (rawPoint{X: 3, Y: 4, N: 1 << 60}) ||
		got[0].From != "a" || got[0].Unicast {
		t.Errorf("b received %+v; want the first point as sent, then the second", got)
	}
	if got := sb.Received(); len(got) != 1 || got[0].Value != "hello" || got[0].From != "a" || got[0].Unicast {
		t.Errorf("b received %+v on s; want hello from a", got)
	}
	wantSendPanics(t, net, func(tp *ci.Topic[int]) {
		v := 1
		tp.BroadcastFrom(&v)
	})
}

// inboxAt is an InboxReader over fixed messages.
type inboxAt []ci.Message

func (in inboxAt) Inbox() []ci.Message { return in }
func (in inboxAt) InboxLen() int       { return len(in) }
func (in inboxAt) InboxMessage(i int) (*ci.Message, bool) {
	return &in[i], false
}

// Raw payloads decode alike whether they are aligned for the type
// (loaded as a value) or not (copied byte by byte).
func TestTopicRawPayloadsAnyAlignment(t *testing.T) {
	want := rawPoint{X: 0.25, Y: -8, N: 12345}
	var in inboxAt
	for _, off := range []int{0, 8, 1, 3} {
		p := make([]byte, 64)[off : off+24]
		enc, _ := ci.NewCodec[rawPoint]()
		copy(p, enc.Append(nil, &want))
		in = append(in, ci.Message{Topic: "p", From: "a", Payload: p})
	}
	r := citest.NewRobot("b", 1).AddSensor(ci.TagMessaging, in)
	tp, err := ci.NewTopic[rawPoint](r, "p")
	if err != nil {
		t.Fatal(err)
	}
	got := tp.Received()
	if len(got) != len(in) {
		t.Fatalf("received %d values of %d", len(got), len(in))
	}
	for k, g := range got {
		if g.Value != want {
			t.Errorf("payload %d: %+v, want %+v", k, g.Value, want)
		}
	}
}

// sizedInbox is an InboxReader that also tells the largest inbox of the
// swarm (ci.InboxSizer).
type sizedInbox struct {
	*inboxAt
	most int
}

func (s sizedInbox) InboxSize() (int, int) { return len(*s.inboxAt), s.most }

// A Topic makes room for the largest inbox of the swarm before its own
// robot hears that many: after a first Received, growing the robot's
// inbox up to that size allocates nothing; without the sizer, it does.
func TestTopicMakesRoomForTheLargestInbox(t *testing.T) {
	for _, most := range []int{0, 40} {
		in := new(inboxAt)
		*in = append(make(inboxAt, 0, 40), ci.Message{Topic: "p", From: "a", Payload: make([]byte, 8)})
		r := citest.NewRobot("b", 1).AddSensor(ci.TagMessaging, sizedInbox{in, most})
		tp, err := ci.NewTopic[uint64](r, "p")
		if err != nil {
			t.Fatal(err)
		}
		tp.Received()
		calls := 0
		// AllocsPerRun calls once before it counts: the inbox grows to 40
		// at the counted call
		a := testing.AllocsPerRun(1, func() {
			if calls++; calls == 2 {
				for len(*in) < 40 {
					*in = append(*in, (*in)[0])
				}
			}
			tp.Received()
		})
		if most > 0 && a != 0 || most == 0 && a == 0 {
			t.Errorf("largest inbox %d: %v allocations for a robot's first inbox of 40", most, a)
		}
		if got := len(tp.Received()); got != 40 {
			t.Errorf("largest inbox %d: %d values received, want 40", most, got)
		}
	}
}

// listedInbox is an InboxLister over fixed messages: their entries, with
// the payloads longer than an entry's given by InboxPayload.
type listedInbox struct {
	inboxAt
	entries []ci.InboxEntry
	most    int
	long    int // InboxPayload calls
}

func newListedInbox(msgs ...ci.Message) *listedInbox {
	in := &listedInbox{inboxAt: msgs}
	for _, m := range msgs {
		e := ci.InboxEntry{Topic: m.Topic, From: m.From, N: int32(len(m.Payload)), Unicast: m.To != ""}
		copy(e.Small[:], m.Payload)
		in.entries = append(in.entries, e)
	}
	return in
}

func (in *listedInbox) InboxEntries() ([]ci.InboxEntry, int) { return in.entries, in.most }
func (in *listedInbox) InboxPayload(i int) []byte {
	in.long++
	return in.inboxAt[i].Payload
}

// A Topic over an InboxLister reads the values from the entries, asks
// for the payloads too long for them, skips the other topics and counts
// the payloads that do not decode, in the inbox's order.
func TestTopicReadsListedEntries(t *testing.T) {
	type wide struct {
		A, B, C, D float64
	}
	wenc, _ := ci.NewCodec[wide]()
	penc, _ := ci.NewCodec[rawPoint]()
	w1, w2 := wide{1, 2, 3, 4}, wide{-1, 0.5, 8, 1e9}
	p1 := rawPoint{X: 1, Y: 2, N: 3}
	in := newListedInbox(
		ci.Message{Topic: "w", From: "a", Payload: wenc.Append(nil, &w1)},
		ci.Message{Topic: "p", From: "b", Payload: penc.Append(nil, &p1)},
		ci.Message{Topic: "w", From: "c", To: "r", Payload: wenc.Append(nil, &w2)},
		ci.Message{Topic: "w", From: "d", Payload: []byte{1, 2, 3}},
	)
	r := citest.NewRobot("r", 1).AddSensor(ci.TagMessaging, in)
	tw, err := ci.NewTopic[wide](r, "w")
	if err != nil {
		t.Fatal(err)
	}
	tp, _ := ci.NewTopic[rawPoint](r, "p")
	got := tw.Received()
	if len(got) != 2 || got[0].Value != w1 || got[0].From != "a" || got[0].Unicast ||
		got[1].Value != w2 || got[1].From != "c" || !got[1].Unicast || tw.Malformed() != 1 {
		t.Errorf("topic w received %+v, %d malformed; want a's and c's values (c's unicast), 1 malformed", got, tw.Malformed())
	}
	if in.long != 2 {
		t.Errorf("%d payloads asked with InboxPayload, want the 2 longer than %d bytes", in.long, ci.InboxSmall)
	}
	if got := tp.Received(); len(got) != 1 || got[0].Value != p1 || got[0].From != "b" || in.long != 2 {
		t.Errorf("topic p received %+v (%d payloads asked in all), want b's point from its entry", got, in.long)
	}
}

// Reading a listed inbox allocates nothing once the topic has made room
// for the largest inbox.
func TestTopicReadsListedEntriesWithoutAllocating(t *testing.T) {
	p := rawPoint{X: 1}
	penc, _ := ci.NewCodec[rawPoint]()
	var msgs []ci.Message
	for k := 0; k < 30; k++ {
		msgs = append(msgs, ci.Message{Topic: "p", From: "b", Payload: penc.Append(nil, &p)})
	}
	in := newListedInbox(msgs...)
	r := citest.NewRobot("r", 1).AddSensor(ci.TagMessaging, in)
	tp, _ := ci.NewTopic[rawPoint](r, "p")
	tp.Received()
	if a := testing.AllocsPerRun(10, func() { tp.Received() }); a != 0 {
		t.Errorf("%v allocations per Received", a)
	}
	if n := len(tp.Received()); n != 30 {
		t.Errorf("%d values, want 30", n)
	}
}

// quietInbox is a listedInbox that says when every inbox is empty, and
// counts the calls for entries.
type quietInbox struct {
	*listedInbox
	quiet bool
	calls int
}

func (in *quietInbox) InboxQuiet() *bool { return &in.quiet }
func (in *quietInbox) InboxEntries() ([]ci.InboxEntry, int) {
	in.calls++
	if in.quiet {
		return nil, in.most
	}
	return in.listedInbox.InboxEntries()
}

// A Topic over an InboxQuieter asks for no entries while every inbox is
// empty, and receives nothing then (its count of malformed payloads back
// at 0); it reads the entries as before once the flag falls.
func TestTopicSkipsQuietInboxes(t *testing.T) {
	penc, _ := ci.NewCodec[rawPoint]()
	p := rawPoint{X: 1, Y: 2, N: 3}
	in := &quietInbox{listedInbox: newListedInbox(
		ci.Message{Topic: "p", From: "a", Payload: penc.Append(nil, &p)},
		ci.Message{Topic: "p", From: "b", Payload: []byte{1}},
	)}
	r := citest.NewRobot("r", 1).AddSensor(ci.TagMessaging, in)
	tp, _ := ci.NewTopic[rawPoint](r, "p")
	if got := tp.Received(); len(got) != 1 || got[0].Value != p || tp.Malformed() != 1 || in.calls != 1 {
		t.Fatalf("received %+v, %d malformed, %d calls; want a's point, 1 malformed, 1 call", got, tp.Malformed(), in.calls)
	}
	in.quiet = true
	for k := 0; k < 3; k++ {
		if got := tp.Received(); len(got) != 0 || tp.Malformed() != 0 || in.calls != 1 {
			t.Fatalf("quiet: received %+v, %d malformed, %d calls; want nothing and no call", got, tp.Malformed(), in.calls)
		}
	}
	in.quiet = false
	if got := tp.Received(); len(got) != 1 || in.calls != 2 {
		t.Fatalf("after the quiet ticks: received %+v with %d calls; want a's point, 2 calls", got, in.calls)
	}
}

// attachedPair returns a network with two robots, "a" and "b", attached
// to it on every topic.
func attachedPair() (*citest.Network, *citest.Robot, *citest.Robot) {
	net := &citest.Network{}
	a, b := citest.NewRobot("a", 1), citest.NewRobot("b", 1)
	net.Attach(a)
	net.Attach(b)
	return net, a, b
}
