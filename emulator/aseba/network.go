// Package aseba emulates the Aseba network of a foot-bot or an eye-bot:
// one node per node id of the board's mapping, each with its variable
// memory, served over TCP as an Aseba switch serves it (asebaswitch's
// default port is 33333). With a Body (a simulated foot-bot), the motor
// nodes drive it and the sensor variables are refreshed from what it
// senses before each answer; without one, the nodes are plain memories
// that tests read and write. The codec is realrobot/aseba's.
package aseba

import (
	"errors"
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

// Network is an emulated Aseba network.
type Network struct {
	b    boards.Board
	body emulator.Body

	mu       sync.Mutex
	mem      map[uint16][]int16
	commands []WheelCommand
	mute     bool
	delay    time.Duration
	ln       net.Listener
	conns    map[net.Conn]bool
	wg       sync.WaitGroup
}

// NewNetwork returns the network of board b's mapping; body may be nil.
func NewNetwork(b boards.Board, body emulator.Body) *Network {
	n := &Network{b: b, body: body, mem: map[uint16][]int16{}, conns: map[net.Conn]bool{}}
	for _, v := range b.Aseba.Vars {
		end := int(v.Address) + v.Size
		if len(n.mem[v.Node]) < end {
			n.mem[v.Node] = append(n.mem[v.Node], make([]int16, end-len(n.mem[v.Node]))...)
		}
	}
	if v, ok := b.Aseba.Var("battery.charge"); ok {
		n.mem[v.Node][v.Address] = 1000
	}
	if v, ok := b.Aseba.Var("battery.time_left"); ok {
		n.mem[v.Node][v.Address] = 3600
	}
	return n
}

// Var returns a copy of a role's variable.
func (n *Network) Var(role string) []int16 {
	n.mu.Lock()
	defer n.mu.Unlock()
	v, ok := n.b.Aseba.Var(role)
	if !ok {
		return nil
	}
	return slices.Clone(n.mem[v.Node][v.Address : int(v.Address)+v.Size])
}

// SetVar writes a role's variable (a sensor value for a test).
func (n *Network) SetVar(role string, vals []int16) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if v, ok := n.b.Aseba.Var(role); ok {
		copy(n.mem[v.Node][v.Address:int(v.Address)+v.Size], vals)
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
		m := n.mem[v.Node][v.Address : int(v.Address)+v.Size]
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
			n.mem[v.Node][v.Address] = int16(int64(math.Round(rd.Odometry[w] * 100 / v.Unit)))
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
		return v.Node == node && int(v.Address) >= int(start) && int(v.Address) < int(start)+count
	}
	if !hit(lv) && !hit(rv) {
		return
	}
	lim := int16(n.b.Geometry.MaxWheelSpeed)
	l := &n.mem[lv.Node][lv.Address]
	r := &n.mem[rv.Node][rv.Address]
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
		for id := range n.mem {
			out = append(out, codec.Message{Source: id, Type: codec.TypeNodePresent, Payload: []byte{5, 0}})
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
