// Package udpmsg carries the ci messaging API (ci.NewTopic over the
// "messaging" devices) between real robots over UDP on their LAN:
// multicast to a group, broadcast, or unicast to listed peers.
//
// The robot command uses it when a controller declares <messaging> and
// runs on a robot's board (in a mixed experiment, messages go through
// the simulation's channel models instead). The element's attributes:
//
//	<messaging implementation="default"
//	           group="239.255.14.1:47014"   multicast group (joined) or broadcast address:port
//	           peers="10.0.0.5:47014,..."    or unicast to these peers (one of the two is required:
//	                                         nothing listens beyond loopback unless the file says so)
//	           listen="127.0.0.1:47014"      where to receive (default: loopback, port 47014;
//	                                         with a group, the group's port on every interface)
//	           token_env="ARGOS_MESSAGING_TOKEN"  or token="...": required
//	           topic="a,b" />                the topics it carries (default all)
//
// # Datagrams
//
// At the end of a tick in which the controller sent something, one
// datagram (more beyond MaxDatagram) carries those messages:
//
//	magic   4 bytes  "AGM1"
//	token   uvarint length, then the token's bytes
//	count   uvarint, then per message: its length (uint32, little-endian) and
//	        its ci wire encoding (ci.AppendMessage)
//
// Datagrams whose token differs, that do not decode, or that come from
// this robot are dropped; a message to another robot is dropped. A
// robot's inbox at a tick holds what arrived since the last tick, by
// sender id then in arrival order. There is no retransmission: UDP may
// lose or reorder datagrams, as a radio would.
package udpmsg

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/wire/simlink"
)

// Defaults of the <messaging> element on a real robot.
const (
	DefaultPort   = 47014
	DefaultGroup  = "239.255.14.1:47014" // the documented group; files name it
	DefaultListen = "127.0.0.1:47014"
	TokenEnv      = "ARGOS_MESSAGING_TOKEN"
	Magic         = "AGM1"
	// MaxDatagram is the largest datagram sent; what a tick sends beyond
	// it goes in further datagrams.
	MaxDatagram = 60 << 10
)

// Config is where a robot's messages go and come from.
type Config struct {
	// ID is the robot's id, the sender of its messages.
	ID string
	// Group is a multicast group (joined) or a broadcast address, with
	// its port; Peers are unicast addresses. At least one destination.
	Group string
	Peers []string
	// Listen is the local address to receive on.
	Listen string
	Token  string
	// Topics are the topics carried; empty carries all.
	Topics []string
}

// ConfigOf reads a <messaging> element (the sensor's or the actuator's)
// of robot id.
func ConfigOf(n *config.Node, id string) (Config, error) {
	c := Config{ID: id}
	if err := n.CheckAttrs("implementation", "medium", "topic", "group", "peers", "listen", "token", "token_env"); err != nil {
		return c, err
	}
	c.Group = n.StringOr("group", "")
	for _, p := range strings.Split(n.StringOr("peers", ""), ",") {
		if p = strings.TrimSpace(p); p != "" {
			c.Peers = append(c.Peers, p)
		}
	}
	if c.Group == "" && len(c.Peers) == 0 {
		return c, n.Errorf("udpmsg: on a real robot <messaging> needs where its messages go: group=%q (multicast on the robots' LAN; a broadcast address:port works too) or peers=\"host:port,...\"", DefaultGroup)
	}
	c.Listen = n.StringOr("listen", "")
	if c.Listen == "" && len(c.Peers) > 0 {
		c.Listen = DefaultListen
	}
	if t, ok := n.Attr("token"); ok {
		c.Token = t
	} else {
		env := n.StringOr("token_env", TokenEnv)
		if c.Token = os.Getenv(env); c.Token == "" {
			return c, n.Errorf("udpmsg: no token for the robots' messages: set the environment variable %s on every robot, or give token=\"...\"", env)
		}
	}
	for _, t := range strings.Split(n.StringOr("topic", ""), ",") {
		if t = strings.TrimSpace(t); t != "" {
			c.Topics = append(c.Topics, t)
		}
	}
	return c, nil
}

// Link is one robot's end: its socket, the messages to send at the end
// of the tick and those received since the last one.
type Link struct {
	cfg  Config
	conn *net.UDPConn
	dst  []*net.UDPAddr

	out []ci.Message // queued by Send during the tick

	mu      sync.Mutex
	pending []ci.Message // received since the last Receive
	dropped int

	inbox []ci.Message
	done  chan struct{}
	buf   []byte
}

// Open opens the link.
func Open(cfg Config) (*Link, error) {
	if cfg.Token == "" {
		return nil, errors.New("udpmsg: a token is required")
	}
	l := &Link{cfg: cfg, done: make(chan struct{})}
	var err error
	for _, p := range cfg.Peers {
		a, err := net.ResolveUDPAddr("udp", p)
		if err != nil {
			return nil, fmt.Errorf("udpmsg: peer %q: %v; give host:port", p, err)
		}
		l.dst = append(l.dst, a)
	}
	var group *net.UDPAddr
	if cfg.Group != "" {
		if group, err = net.ResolveUDPAddr("udp4", cfg.Group); err != nil {
			return nil, fmt.Errorf("udpmsg: group %q: %v; give a multicast or broadcast address with its port", cfg.Group, err)
		}
		l.dst = append(l.dst, group)
	}
	switch {
	case cfg.Listen != "":
		a, err := net.ResolveUDPAddr("udp", cfg.Listen)
		if err != nil {
			return nil, fmt.Errorf("udpmsg: listen %q: %v", cfg.Listen, err)
		}
		l.conn, err = net.ListenUDP("udp", a)
	case group.IP.IsMulticast():
		l.conn, err = net.ListenMulticastUDP("udp4", nil, group)
	default: // broadcast: the port on every interface
		l.conn, err = net.ListenUDP("udp4", &net.UDPAddr{Port: group.Port})
	}
	if err != nil {
		return nil, fmt.Errorf("udpmsg: cannot receive: %v; choose another listen address or port", err)
	}
	go l.read()
	return l, nil
}

// Addr returns the address the link receives on.
func (l *Link) Addr() string { return l.conn.LocalAddr().String() }

// Close closes the socket.
func (l *Link) Close() error {
	err := l.conn.Close()
	<-l.done
	return err
}

func (l *Link) read() {
	defer close(l.done)
	buf := make([]byte, 64<<10)
	var ms []ci.Message
	for {
		n, _, err := l.conn.ReadFromUDP(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		var ok bool
		ms, ok = l.decode(buf[:n], ms[:0])
		l.mu.Lock()
		if !ok {
			l.dropped++
		}
		for _, m := range ms {
			if m.From == l.cfg.ID || (m.To != "" && m.To != l.cfg.ID) {
				continue
			}
			if len(l.cfg.Topics) > 0 && !slices.Contains(l.cfg.Topics, m.Topic) {
				continue
			}
			l.pending = append(l.pending, m)
		}
		l.mu.Unlock()
	}
}

// Decode reads a datagram: the messages when its magic and token are
// right.
func Decode(data []byte, token string, ms []ci.Message) ([]ci.Message, error) {
	if !bytes.HasPrefix(data, []byte(Magic)) {
		return ms, fmt.Errorf("udpmsg: not a messaging datagram: %w", simlink.ErrMalformed)
	}
	data = data[len(Magic):]
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return ms, fmt.Errorf("udpmsg: bad token length: %w", simlink.ErrMalformed)
	}
	got := data[k : k+int(n)]
	if subtle.ConstantTimeCompare(got, []byte(token)) != 1 {
		return ms, errors.New("udpmsg: wrong token")
	}
	return simlink.ParseMessages(data[k+int(n):], ms)
}

// Encode appends a datagram carrying ms.
func Encode(buf []byte, token string, ms []ci.Message) []byte {
	buf = append(buf, Magic...)
	buf = binary.AppendUvarint(buf, uint64(len(token)))
	buf = append(buf, token...)
	return simlink.AppendMessages(buf, ms)
}

func (l *Link) decode(data []byte, ms []ci.Message) ([]ci.Message, bool) {
	ms, err := Decode(data, l.cfg.Token, ms)
	return ms, err == nil
}

// Send implements ci.MessagingActuator: the message leaves at the end
// of the tick.
func (l *Link) Send(topic, to string, payload []byte) {
	if len(payload) > ci.MaxPayload {
		panic(fmt.Sprintf("udpmsg: a payload of %d bytes on topic %q is over ci.MaxPayload (%d)", len(payload), topic, ci.MaxPayload))
	}
	if len(l.cfg.Topics) > 0 && !slices.Contains(l.cfg.Topics, topic) {
		panic(fmt.Sprintf("udpmsg: topic %q is not among the topics of <messaging> (%s)", topic, strings.Join(l.cfg.Topics, ", ")))
	}
	l.out = append(l.out, ci.Message{Topic: topic, From: l.cfg.ID, To: to, Payload: append([]byte(nil), payload...)})
}

// Topics implements ci.TopicLister.
func (l *Link) Topics() []string { return l.cfg.Topics }

// Inbox implements ci.MessagingSensor.
func (l *Link) Inbox() []ci.Message { return l.inbox }

// Receive makes what arrived since the last call the inbox, by sender
// then in arrival order.
func (l *Link) Receive() {
	l.mu.Lock()
	l.inbox, l.pending = append(l.inbox[:0], l.pending...), l.pending[:0]
	l.mu.Unlock()
	slices.SortStableFunc(l.inbox, func(a, b ci.Message) int { return strings.Compare(a.From, b.From) })
}

// Flush sends what the tick queued, in datagrams of at most MaxDatagram
// bytes; it drops a message that does not fit in one.
func (l *Link) Flush() error {
	defer func() {
		clear(l.out)
		l.out = l.out[:0]
	}()
	var errs []error
	for start := 0; start < len(l.out); {
		end, size := start, len(Magic)+len(l.cfg.Token)+16
		for end < len(l.out) {
			m := l.out[end]
			s := 4 + 1 + 3*4 + len(m.Topic) + len(m.From) + len(m.To) + len(m.Payload) + 4
			if size+s > MaxDatagram && end > start {
				break
			}
			size += s
			end++
		}
		l.buf = Encode(l.buf[:0], l.cfg.Token, l.out[start:end])
		start = end
		if len(l.buf) > MaxDatagram {
			errs = append(errs, fmt.Errorf("udpmsg: a message of %d bytes does not fit in a datagram; it was not sent", len(l.buf)))
			continue
		}
		for _, d := range l.dst {
			if _, err := l.conn.WriteToUDP(l.buf, d); err != nil {
				errs = append(errs, fmt.Errorf("udpmsg: to %s: %w", d, err))
			}
		}
	}
	return errors.Join(errs...)
}
