// Package aseba emulates the Aseba network of a foot-bot or an eye-bot:
// one node per node id of the board's mapping, each with its variable
// memory, served over TCP as an Aseba switch serves it (asebaswitch's
// default port is 33333). Each node answers ListNodes and describes its
// variables (GetNodeDescription, GetDescription) in memory order; a
// Layout can put variables before the board's, so that only a driver
// that finds them by name reads the right ones, or keep the nodes from
// describing themselves. With a Body (a simulated foot-bot), the motor
// nodes drive it and the sensor variables are refreshed from what it
// senses before each answer; without one, the nodes are plain memories
// that tests read and write. The codec is realrobot/aseba's.
package aseba

import (
	"errors"
	"fmt"
	"math"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/emulator"
	codec "github.com/argosgo/argos/realrobot/aseba"
)

// WheelCommand is a pair of wheel targets the motor nodes received (raw
// units of the board's mapping: mm/s on a foot-bot).
type WheelCommand struct {
	At          time.Time
	Left, Right int16
}

// Layout is how the emulated firmware lays out its nodes' variable
// memory and whether it describes it.
type Layout struct {
	// Preamble are variables every node has before the board's (Aseba's
	// own id, source and args, for example): they move the board's
	// variables to higher addresses than its fixed map says, so that a
	// driver must find them by name in the nodes' descriptions.
	Preamble []codec.NamedVariable
	// NoDescriptions makes the nodes ignore requests for their
	// descriptions, as a firmware that gives none: a driver then uses
	// the board's fixed addresses.
	NoDescriptions bool
}

// Network is an emulated Aseba network.
type Network struct {
	b      boards.Board
	body   emulator.Body
	layout Layout
	off    uint16 // the preamble's words
	names  map[uint16]string
	vars   map[uint16][]codec.NamedVariable // each node's description

	mu       sync.Mutex
	mem      map[uint16][]int16
	commands []WheelCommand
	mute     bool
	delay    time.Duration
	ln       net.Listener
	conns    map[net.Conn]bool
	wg       sync.WaitGroup
}

// NewNetwork returns the network of board b's mapping, laid out as the
// mapping's fixed addresses say and described; body may be nil.
func NewNetwork(b boards.Board, body emulator.Body) *Network {
	return NewNetworkLayout(b, body, Layout{})
}

// NewNetworkLayout returns the network of board b's mapping with the
// given layout; body may be nil.
func NewNetworkLayout(b boards.Board, body emulator.Body, l Layout) *Network {
	n := &Network{b: b, body: body, layout: l, mem: map[uint16][]int16{}, conns: map[net.Conn]bool{},
		names: map[uint16]string{}, vars: map[uint16][]codec.NamedVariable{}}
	for _, v := range l.Preamble {
		n.off += v.Size
	}
	byNode := map[uint16][]boards.AsebaVar{}
	for _, v := range b.Aseba.Vars {
		byNode[v.Node] = append(byNode[v.Node], v)
		n.names[v.Node] = v.NodeName
	}
	for node, vs := range byNode {
		slices.SortFunc(vs, func(a, b boards.AsebaVar) int { return int(a.Address) - int(b.Address) })
		desc := slices.Clone(l.Preamble)
		at := uint16(0)
		for _, v := range vs {
			if v.Address > at {
				desc = append(desc, codec.NamedVariable{Name: fmt.Sprintf("_reserved%d", at), Size: v.Address - at})
			}
			if end := v.Address + uint16(v.Size); end > at {
				desc = append(desc, codec.NamedVariable{Name: v.Name, Size: uint16(v.Size)})
				at = end
			}
		}
		n.vars[node] = desc
		n.mem[node] = make([]int16, n.off+at)
	}
	if v, ok := b.Aseba.Var("battery.charge"); ok {
		n.slot(v)[0] = 1000
	}
	if v, ok := b.Aseba.Var("battery.time_left"); ok {
		n.slot(v)[0] = 3600
	}
	return n
}

// slot is the memory of variable v; n.mu is held (or n is being made).
func (n *Network) slot(v boards.AsebaVar) []int16 {
	a := int(n.off) + int(v.Address)
	return n.mem[v.Node][a : a+v.Size]
}

// describe returns node id's description messages.
func (n *Network) describe(id uint16) []codec.Message {
	vs := n.vars[id]
	out := []codec.Message{codec.DescriptionMessage(id, codec.Description{
		Name: n.names[id], ProtocolVersion: codec.ProtocolVersion, BytecodeSize: 1024, StackSize: 32,
		VariablesSize: uint16(len(n.mem[id])), NamedVariables: uint16(len(vs)),
	})}
	for _, v := range vs {
		out = append(out, codec.NamedVariableMessage(id, v))
	}
	return out
}

// nodes returns the node ids in order.
func (n *Network) nodes() []uint16 {
	ids := make([]uint16, 0, len(n.mem))
	for id := range n.mem {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Var returns a copy of a role's variable.
func (n *Network) Var(role string) []int16 {
	n.mu.Lock()
	defer n.mu.Unlock()
	v, ok := n.b.Aseba.Var(role)
	if !ok {
		return nil
	}
	return slices.Clone(n.slot(v))
}

// SetVar writes a role's variable (a sensor value for a test).
func (n *Network) SetVar(role string, vals []int16) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if v, ok := n.b.Aseba.Var(role); ok {
		copy(n.slot(v), vals)
	}
}

// Commands returns the wheel targets received (foot-bot).
func (n *Network) Commands() []WheelCommand {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.commands)
}

// Mute makes the nodes stop answering (they still take writes).
func (n *Network) Mute(on bool) {
	n.mu.Lock()
	n.mute = on
	n.mu.Unlock()
}

// SetDelay makes the nodes answer d late (0: at once), as a busy bus
// would; writes still take effect at once, in order.
func (n *Network) SetDelay(d time.Duration) {
	n.mu.Lock()
	n.delay = d
	n.mu.Unlock()
}

func clamp16(x float64) int16 {
	return int16(math.Max(math.MinInt16, math.Min(math.MaxInt16, math.Round(x))))
}

// refresh writes what the body senses into the sensor variables; n.mu is
// held.
func (n *Network) refresh() {
	if n.body == nil {
		return
	}
	rd := n.body.Sense()
	put := func(role string, vals []float64, scale float64) {
		v, ok := n.b.Aseba.Var(role)
		if !ok {
			return
		}
		m := n.slot(v)
		for i := range m {
			x := 0.0
			if i < len(vals) {
				x = vals[i]
			}
			m[i] = clamp16(x * scale / v.Unit)
		}
	}
	put("proximity", rd.Proximity, 1)
	put("light", rd.Light, 1)
	if len(rd.Ground) >= 12 {
		put("ground.base", rd.Ground[:8], 1)
		put("ground.motor", rd.Ground[8:12], 1)
	}
	put("wheel.left.speed", rd.Wheels[:1], 100)  // m/s -> cm/s
	put("wheel.right.speed", rd.Wheels[1:], 100) // m/s -> cm/s
	for w, role := range []string{"wheel.left.odometry", "wheel.right.odometry"} {
		if v, ok := n.b.Aseba.Var(role); ok {
			// a wrapping counter: keep the low 16 bits
			n.slot(v)[0] = int16(int64(math.Round(rd.Odometry[w] * 100 / v.Unit)))
		}
	}
}

// applied reacts to writes; n.mu is held.
func (n *Network) applied(node, start uint16, count int) {
	lv, okl := n.b.Aseba.Var("wheel.left.target")
	rv, okr := n.b.Aseba.Var("wheel.right.target")
	if !okl || !okr {
		return
	}
	hit := func(v boards.AsebaVar) bool {
		a := int(n.off) + int(v.Address)
		return v.Node == node && a >= int(start) && a < int(start)+count
	}
	if !hit(lv) && !hit(rv) {
		return
	}
	lim := int16(n.b.Geometry.MaxWheelSpeed)
	l := &n.slot(lv)[0]
	r := &n.slot(rv)[0]
	*l, *r = max(-lim, min(lim, *l)), max(-lim, min(lim, *r))
	n.commands = append(n.commands, WheelCommand{At: time.Now(), Left: *l, Right: *r})
	if n.body != nil {
		n.body.SetWheels(float64(*l)*lv.Unit/100, float64(*r)*rv.Unit/100)
	}
}

// Handle runs one message and returns the answers.
func (n *Network) Handle(m codec.Message) []codec.Message {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch m.Type {
	case codec.TypeGetVariables:
		dest, start, length, err := codec.DecodeGetVariables(m)
		mem, ok := n.mem[dest]
		if err != nil || !ok || int(start)+int(length) > len(mem) || n.mute {
			return nil
		}
		n.refresh()
		return []codec.Message{codec.Variables(dest, start, slices.Clone(mem[start:int(start)+int(length)]))}
	case codec.TypeSetVariables:
		dest, start, vals, err := codec.DecodeSetVariables(m)
		mem, ok := n.mem[dest]
		if err != nil || !ok || int(start)+len(vals) > len(mem) {
			return nil
		}
		copy(mem[start:], vals)
		n.applied(dest, start, len(vals))
	case codec.TypeListNodes:
		if n.mute {
			return nil
		}
		var out []codec.Message
		for _, id := range n.nodes() {
			out = append(out, codec.NodePresent(id))
		}
		return out
	case codec.TypeGetNodeDescription:
		dest, _, err := codec.DecodeGetNodeDescription(m)
		if _, ok := n.mem[dest]; err != nil || !ok || n.mute || n.layout.NoDescriptions {
			return nil
		}
		return n.describe(dest)
	case codec.TypeGetDescription:
		if n.mute || n.layout.NoDescriptions {
			return nil
		}
		var out []codec.Message
		for _, id := range n.nodes() {
			out = append(out, n.describe(id)...)
		}
		return out
	}
	return nil
}

// Listen serves the network on addr ("127.0.0.1:0" picks a port) and
// returns the address it listens on.
func (n *Network) Listen(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	n.mu.Lock()
	n.ln = ln
	n.mu.Unlock()
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.mu.Lock()
			n.conns[c] = true
			n.mu.Unlock()
			n.wg.Add(1)
			go func() {
				defer n.wg.Done()
				n.serve(c)
			}()
		}
	}()
	return ln.Addr().String(), nil
}

func (n *Network) serve(c net.Conn) {
	defer func() {
		c.Close()
		n.mu.Lock()
		delete(n.conns, c)
		n.mu.Unlock()
	}()
	var out []byte
	for {
		m, err := codec.Read(c)
		if err != nil {
			return
		}
		out = out[:0]
		for _, a := range n.Handle(m) {
			out = a.Append(out)
		}
		if len(out) > 0 {
			n.mu.Lock()
			d := n.delay
			n.mu.Unlock()
			if d > 0 {
				time.Sleep(d)
			}
			if _, err := c.Write(out); err != nil {
				return
			}
		}
	}
}

// Disconnect closes every connection, as a dropped link; clients may
// connect again.
func (n *Network) Disconnect() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for c := range n.conns {
		c.Close()
	}
}

// Close stops listening and closes every connection.
func (n *Network) Close() error {
	n.mu.Lock()
	var err error
	if n.ln != nil {
		err = n.ln.Close()
	}
	for c := range n.conns {
		c.Close()
	}
	n.mu.Unlock()
	n.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}
