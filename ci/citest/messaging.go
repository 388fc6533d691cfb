package citest

import (
	"fmt"
	"slices"

	"github.com/argosgo/argos/ci"
)

// Network is a perfect channel between fake robots, for unit tests of
// controllers that talk: every message sent during a tick is delivered to
// every other member (or to its addressee) at the next Deliver, in the
// order of the members and of the sends. Nothing is lost or delayed; the
// simulator's channel models test those.
type Network struct {
	members []*Messaging
}

// Messaging is one robot's messaging devices on a Network: add it to a
// fake robot as both the sensor and the actuator of tag "messaging".
type Messaging struct {
	id     string
	net    *Network
	out    []ci.Message
	inbox  []ci.Message
	topics []string
}

var (
	_ ci.MessagingActuator = (*Messaging)(nil)
	_ ci.MessagingSensor   = (*Messaging)(nil)
)

// Join returns the messaging devices of robot id on the network; topics,
// when given, are the only ones it carries (<messaging topic="...">).
func (n *Network) Join(id string, topics ...string) *Messaging {
	m := &Messaging{id: id, net: n, topics: topics}
	n.members = append(n.members, m)
	return m
}

// Attach joins robot r (its ID) and adds the devices to it.
func (n *Network) Attach(r *Robot, topics ...string) *Messaging {
	m := n.Join(r.ID(), topics...)
	r.AddSensor(ci.TagMessaging, m).AddActuator(ci.TagMessaging, m)
	return m
}

// Deliver moves what every member sent since the last Deliver into the
// inboxes, replacing what they held.
func (n *Network) Deliver() {
	for _, m := range n.members {
		m.inbox = m.inbox[:0]
	}
	for _, from := range n.members {
		for _, msg := range from.out {
			for _, to := range n.members {
				if to == from || (msg.To != "" && msg.To != to.id) {
					continue
				}
				if len(to.topics) > 0 && !slices.Contains(to.topics, msg.Topic) {
					continue
				}
				to.inbox = append(to.inbox, msg)
			}
		}
	}
	for _, m := range n.members {
		m.out = m.out[:0]
	}
}

// Send implements ci.MessagingActuator.
func (m *Messaging) Send(topic, to string, payload []byte) {
	if len(payload) > ci.MaxPayload {
		panic(fmt.Sprintf("citest: a payload of %d bytes, more than ci.MaxPayload", len(payload)))
	}
	if len(m.topics) > 0 && !slices.Contains(m.topics, topic) {
		panic(fmt.Sprintf("citest: topic %q is not among %q", topic, m.topics))
	}
	m.out = append(m.out, ci.Message{Topic: topic, From: m.id, To: to, Payload: slices.Clone(payload)})
}

// Inbox implements ci.MessagingSensor.
func (m *Messaging) Inbox() []ci.Message { return m.inbox }

// Topics implements ci.TopicLister.
func (m *Messaging) Topics() []string { return m.topics }

// Sent returns what the member sent since the last Deliver.
func (m *Messaging) Sent() []ci.Message { return m.out }
