package ci

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unsafe"
)

// TagMessaging is the tag of the messaging devices: <messaging/> under
// <actuators> sends, under <sensors> receives.
const TagMessaging = "messaging"

// Message is one message between robots: its topic, the ids of the
// sender and of the receiver ("" when it was broadcast) and its payload,
// a value in the wire encoding (see [Codec] and [AppendMessage]).
type Message struct {
	Topic   string
	From    string
	To      string
	Payload []byte
}

// MessagingActuator sends messages (tag "messaging" under <actuators>).
// What is sent during ControlStep leaves after it returns; where the
// messages go, when and whether they arrive is the runtime's affair: the
// simulator's channel models (range, line of sight, delay, loss,
// bandwidth, who may talk to whom), a real robot's network.
type MessagingActuator interface {
	// Send queues a message on a topic to the robot with id to, or to
	// every robot that can hear it when to is "". The payload is copied.
	// A payload longer than MaxPayload, or a topic the device does not
	// declare, is a programming error and panics.
	Send(topic, to string, payload []byte)
}

// MessagingSensor receives messages (tag "messaging" under <sensors>).
type MessagingSensor interface {
	// Inbox returns the messages delivered at this tick, in the same
	// order for the same seed whatever the number of threads: by the
	// tick they were sent, then by sender (in arena order), then in the
	// order they were sent. The slice and the payloads belong to the
	// device and are overwritten at the next tick.
	Inbox() []Message
}

// InboxReader is implemented by messaging sensors that hand out their
// messages one by one without copying a whole inbox: [Topic] reads
// through it when the sensor has it (and through [InboxLister] first
// when it has that too). InboxMessage returns message i of the inbox (0 <= i <
// InboxLen()) and whether it was sent to this robot alone; the message
// belongs to the runtime, may be shared with other robots and must not be
// modified, and its To field may be left empty.
type InboxReader interface {
	InboxLen() int
	InboxMessage(i int) (m *Message, unicast bool)
}

// InboxSizer is implemented by messaging sensors (InboxReaders) that know
// how many messages a robot's inbox may hold at a tick: InboxSize returns
// the length of this robot's inbox (InboxLen, in the same call: a swarm's
// robots ask at every tick) and the largest inbox the runtime has
// delivered to any robot so far (it never decreases). [Topic] keeps room
// for twice that many values, made as
// soon as the largest inbox outgrows its room, so that robots meeting
// more neighbours than ever before find the room made already: a swarm
// allocates while its largest inbox grows, in its first ticks, and not
// in steady state.
type InboxSizer interface {
	InboxSize() (n, most int)
}

// InboxLister is implemented by messaging sensors (InboxReaders) that
// hand out a robot's whole inbox at once, each message in the compact
// form of [InboxEntry], in the inbox's order: [Topic] reads a swarm's
// inboxes through it with one call per robot and tick, and reads the
// entries one after the other rather than messages scattered over the
// senders'. InboxEntries returns the inbox (entry i is message i of
// InboxMessage) and the largest inbox delivered to any robot so far, as
// [InboxSizer.InboxSize] does. The entries belong to the runtime and
// are overwritten at the next tick. InboxPayload returns the payload of
// message i when it is too long for its entry (N > InboxSmall); it
// belongs to the runtime too.
type InboxLister interface {
	InboxEntries() (inbox []InboxEntry, most int)
	InboxPayload(i int) []byte
}

// InboxQuieter is implemented by messaging sensors (InboxListers) whose
// runtime knows when no robot received anything at a tick: InboxQuiet
// returns a flag, shared by the robots on the same medium, that is true
// while every inbox is empty (it changes only between control steps).
// [Topic] reads it at every Received and then asks nothing more of the
// sensor: a swarm whose messages arrive at some ticks only makes no call
// per robot at the others. Optional.
type InboxQuieter interface {
	InboxQuiet() *bool
}

// InboxSmall is the longest payload an [InboxEntry] holds itself.
const InboxSmall = 24

// InboxEntry is a message of an inbox as an [InboxLister] hands it out:
// its topic, its sender, whether it was sent to this robot alone and,
// when it is at most InboxSmall bytes long, its payload (Small[:N]). A
// longer payload is read with InboxLister.InboxPayload. An entry takes
// one cache line (64 bytes).
type InboxEntry struct {
	Topic   string
	From    string
	Small   [InboxSmall]byte
	N       int32
	Unicast bool
}

// TopicLister is implemented by messaging devices whose element lists
// the topics they carry (<messaging topic="a,b"/>); an empty list means
// every topic.
type TopicLister interface {
	Topics() []string
}

// Topic sends and receives values of type T on one named topic: the
// typed side of the messaging devices. Make it in Init with [NewTopic]
// and use it from ControlStep:
//
//	type Estimate struct {
//		Value float64
//		Round uint32
//	}
//
//	func (c *Controller) Init(r ci.Robot, p ci.Params) error {
//		var err error
//		c.estimates, err = ci.NewTopic[Estimate](r, "estimate")
//		return err
//	}
//
//	func (c *Controller) ControlStep() {
//		for _, m := range c.estimates.Received() {
//			c.sum += m.Value.Value
//		}
//		c.estimates.Broadcast(Estimate{Value: c.x, Round: c.round})
//	}
//
// Values travel in the wire encoding (see [Codec]), so T must have one:
// numbers, bools, strings, slices, arrays and structs of them, or a type
// with its own binary methods. Sending and receiving a value whose
// encoding has a fixed size allocates nothing.
type Topic[T any] struct {
	// what Received reads at every tick comes first, in 64 bytes: a
	// swarm's robots read their topics one after the other, and a topic
	// that spans fewer cache lines costs fewer misses
	ls InboxLister // rx, when it hands out its inbox at once
	// quiet is rx's InboxQuiet, or nil: true when no robot received
	// anything at this tick
	quiet *bool
	got   []Received[T]
	bad   int32
	// raw is the size of a T when its memory is its encoding (codec.raw),
	// else -1: such payloads are copied without a call
	raw int32
	// name is read for each message, on the line where the first values
	// start, as are sz, rx when it knows the largest inbox, and moreCap
	// the room in more
	name    string
	sz      InboxSizer
	moreCap int
	// first holds the first values of a tick, in the topic itself right
	// after the fields above: a robot that hears a few neighbours reads
	// no memory of its own elsewhere
	first [8]Received[T]
	rd    InboxReader // rx, when it hands out messages one by one
	tx    MessagingActuator
	rx    MessagingSensor
	codec Codec[T] // by value: one object less to reach per message
	buf   []byte
	out   T // the value being sent: the codec reads it through a pointer
	// more is the room for inboxes larger than first
	more []Received[T]
}

// Received is a value received on a topic, with the id of its sender
// and whether it was sent to this robot alone.
type Received[T any] struct {
	From    string
	Value   T
	Unicast bool
}

// NewTopic returns the topic name of type T on robot r's messaging
// devices: the actuator to send (when <messaging> is under <actuators>)
// and the sensor to receive (when it is under <sensors>); at least one
// must be declared. A device that lists its topics must list name.
func NewTopic[T any](r Robot, name string) (*Topic[T], error) {
	if len(name) > MaxName {
		return nil, fmt.Errorf("ci: robot %q: topic %q is longer than %d bytes; shorten it", r.ID(), clip(name), MaxName)
	}
	codec, err := NewCodec[T]()
	if err != nil {
		return nil, fmt.Errorf("ci: robot %q: topic %q: %w", r.ID(), name, err)
	}
	t := &Topic[T]{name: name, codec: *codec, raw: -1}
	if codec.raw && codec.size >= 0 && codec.size <= math.MaxInt32 {
		t.raw = int32(codec.size)
	}
	t.got = t.first[:0]
	if d, ok := r.Actuator(TagMessaging); ok {
		if t.tx, ok = d.(MessagingActuator); !ok {
			return nil, fmt.Errorf("ci: robot %q: actuator %q is a %T and does not send messages: %w", r.ID(), TagMessaging, d, ErrWrongType)
		}
		if err := checkTopic(r, "actuator", d, name); err != nil {
			return nil, err
		}
	}
	if d, ok := r.Sensor(TagMessaging); ok {
		if t.rx, ok = d.(MessagingSensor); !ok {
			return nil, fmt.Errorf("ci: robot %q: sensor %q is a %T and does not receive messages: %w", r.ID(), TagMessaging, d, ErrWrongType)
		}
		if err := checkTopic(r, "sensor", d, name); err != nil {
			return nil, err
		}
		t.rd, _ = d.(InboxReader)
		t.sz, _ = d.(InboxSizer)
		if t.rd != nil {
			t.ls, _ = d.(InboxLister)
		}
		if q, ok := d.(InboxQuieter); ok && t.ls != nil {
			t.quiet = q.InboxQuiet()
		}
	}
	if t.tx == nil && t.rx == nil {
		return nil, fmt.Errorf("ci: robot %q: topic %q: messaging is %w for this controller; add <messaging implementation=\"default\"/> under <actuators> to send and under <sensors> to receive",
			r.ID(), name, ErrNotDeclared)
	}
	return t, nil
}

func checkTopic(r Robot, kind string, d any, name string) error {
	l, ok := d.(TopicLister)
	if !ok {
		return nil
	}
	if topics := l.Topics(); len(topics) > 0 && !slices.Contains(topics, name) {
		return fmt.Errorf("ci: robot %q: topic %q is not among the topics its messaging %s carries (%s); add it to the topic attribute of <messaging>",
			r.ID(), name, kind, strings.Join(topics, ", "))
	}
	return nil
}

// Name returns the topic's name.
func (t *Topic[T]) Name() string { return t.name }

// Broadcast sends v to every robot that can hear it.
func (t *Topic[T]) Broadcast(v T) { t.SendTo("", v) }

// SendTo sends v to the robot with id to ("" broadcasts). It panics when
// the robot declares no messaging actuator.
func (t *Topic[T]) SendTo(to string, v T) {
	t.out = v // v itself would escape: the device copies what it sends
	t.send(to, &t.out)
}

// BroadcastFrom sends *v to every robot that can hear it, as
// Broadcast(*v) does, reading it where it is: a large value is not copied
// on its way to the device (which copies what it sends). *v may change
// once BroadcastFrom returns.
func (t *Topic[T]) BroadcastFrom(v *T) { t.send("", v) }

// send encodes *v (or hands its memory, for a raw type) to the device.
func (t *Topic[T]) send(to string, v *T) {
	if t.tx == nil {
		panic(fmt.Sprintf("ci: topic %q cannot send: declare <messaging implementation=\"default\"/> under <actuators>", t.name))
	}
	if t.codec.raw {
		t.tx.Send(t.name, to, t.codec.memory(v))
		return
	}
	t.buf = t.codec.Append(t.buf[:0], v)
	t.tx.Send(t.name, to, t.buf)
}

// Received decodes the values delivered on this topic at this tick, in
// the inbox's order. The slice (and the strings and slices in the
// values) is reused by the next call; call it once per ControlStep.
// Payloads that do not decode as a T (another type sent on the same
// topic) are skipped and counted by Malformed.
func (t *Topic[T]) Received() []Received[T] {
	t.got = t.got[:0]
	t.bad = 0
	if t.ls != nil {
		if t.quiet != nil && *t.quiet {
			// every inbox is empty, and the largest inbox has not
			// grown since a tick that filled some, whose Received made
			// the room for it (see InboxSizer)
			t.got = t.first[:0]
			return t.got
		}
		inbox, most := t.ls.InboxEntries()
		t.room(len(inbox), max(len(inbox), most))
		for i := range inbox {
			if e := &inbox[i]; sameString(e.Topic, t.name) {
				t.takeEntry(e, i)
			}
		}
		return t.got
	}
	if t.rd != nil {
		var n, room int
		if t.sz != nil {
			// and the largest inbox of any robot: see InboxSizer
			var most int
			n, most = t.sz.InboxSize()
			room = max(n, most)
		} else {
			n = t.rd.InboxLen()
			room = n
		}
		t.room(n, room)
		for i := 0; i < n; i++ {
			m, uni := t.rd.InboxMessage(i)
			t.take(m, uni)
		}
		return t.got
	}
	if t.rx != nil {
		inbox := t.rx.Inbox()
		for i := range inbox {
			t.take(&inbox[i], inbox[i].To != "")
		}
	}
	return t.got
}

// room makes room for room values when the topic has less, and points
// got at the room for an inbox of n messages.
func (t *Topic[T]) room(n, room int) {
	if room > len(t.first) && room > t.moreCap {
		// room for twice this inbox at once: a robot whose
		// neighbourhood grows allocates a few times, not at every new
		// largest inbox
		t.more = make([]Received[T], 0, max(2*room, 16))
		t.moreCap = cap(t.more)
	}
	// an inbox that fits is read into first, next to the fields above,
	// whatever room more has
	if n <= len(t.first) {
		t.got = t.first[:0]
	} else {
		t.got = t.more[:0]
	}
}

// sameString compares two strings, their data pointers first: a topic's
// messages usually carry the very string the topic was made with.
func sameString(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// takeEntry decodes message i of the inbox, on the topic, from its
// entry e into the next value.
func (t *Topic[T]) takeEntry(e *InboxEntry, i int) {
	if uint32(e.N) > InboxSmall {
		t.takePayload(t.ls.InboxPayload(i), e.From, e.Unicast)
		return
	}
	if len(t.got) < cap(t.got) {
		t.got = t.got[:len(t.got)+1] // keep the slices the old value holds
	} else {
		t.got = append(t.got, Received[T]{})
	}
	g := &t.got[len(t.got)-1]
	if t.raw >= 0 && e.N == t.raw {
		// Small lies at offset 32 of an entry, aligned for any T, and
		// holds a whole T: loaded as a value, without memmove
		if t.raw > 0 {
			g.Value = *(*T)(unsafe.Pointer(&e.Small))
		}
		g.From, g.Unicast = e.From, e.Unicast
		return
	}
	if err := t.codec.Decode(e.Small[:e.N:e.N], &g.Value); err != nil {
		t.got = t.got[:len(t.got)-1]
		t.bad++
		return
	}
	g.From, g.Unicast = e.From, e.Unicast
}

// take decodes m into the next value when it is on the topic.
func (t *Topic[T]) take(m *Message, unicast bool) {
	if m.Topic != t.name {
		return
	}
	t.takePayload(m.Payload, m.From, unicast)
}

// takePayload decodes a payload into the next value.
func (t *Topic[T]) takePayload(payload []byte, from string, unicast bool) {
	if len(t.got) < cap(t.got) {
		t.got = t.got[:len(t.got)+1] // keep the slices the old value holds
	} else {
		t.got = append(t.got, Received[T]{})
	}
	g := &t.got[len(t.got)-1]
	if t.raw >= 0 && len(payload) == int(t.raw) {
		// Decode's first case, without the call; a payload aligned for T
		// (the simulator's are) is loaded as a T, without memmove
		if p := unsafe.Pointer(unsafe.SliceData(payload)); t.raw > 0 && uintptr(p)%unsafe.Alignof(g.Value) == 0 {
			g.Value = *(*T)(p)
		} else {
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&g.Value)), t.raw), payload)
		}
		g.From, g.Unicast = from, unicast
		return
	}
	if err := t.codec.Decode(payload, &g.Value); err != nil {
		t.got = t.got[:len(t.got)-1]
		t.bad++
		return
	}
	g.From, g.Unicast = from, unicast
}

// Malformed returns the number of payloads the last Received skipped
// because they did not decode as a T.
func (t *Topic[T]) Malformed() int { return int(t.bad) }
