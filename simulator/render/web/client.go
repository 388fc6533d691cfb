package web

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Message slots: the newest message of each kind replaces an older one a
// browser has not taken yet.
const (
	slotOverlay = iota
	slotInspect
	slotCheck
	nSlots
)

// client is one connected browser.
type client struct {
	v      *Viewer
	conn   *websocket.Conn
	cancel context.CancelFunc
	done   chan struct{}
	notify chan struct{}

	mu     sync.Mutex
	queue  [][]byte // messages that must all arrive, in order (scene, errors)
	slots  [nSlots][]byte
	frame  *snapshot // the newest state not yet sent
	ctx    context.Context
	closed bool

	// owned by the writing goroutine
	enc frameEncoder
	buf []byte

	// owned by the loop goroutine
	selected  string
	rays, rab bool
	keys      map[string]bool // held down

	keyed atomic.Bool // the browser sent keys
}

func newClient(v *Viewer, conn *websocket.Conn) *client {
	ctx, cancel := context.WithCancel(context.Background())
	return &client{v: v, conn: conn, ctx: ctx, cancel: cancel, done: make(chan struct{}), notify: make(chan struct{}, 1)}
}

// enqueue adds a message that must arrive. A browser whose queue is full
// is too slow to follow the run: it is disconnected (it reconnects and
// gets the current state).
func (c *client) enqueue(msg []byte) {
	c.mu.Lock()
	if len(c.queue) >= c.v.maxQueue {
		c.mu.Unlock()
		c.cancel()
		return
	}
	c.queue = append(c.queue, msg)
	c.mu.Unlock()
	c.wake()
}

// offer puts the newest message of a kind, dropping the one not yet
// taken.
func (c *client) offer(slot int, msg []byte) {
	c.mu.Lock()
	if c.slots[slot] != nil {
		c.v.dropped.Add(1)
	}
	c.slots[slot] = msg
	c.mu.Unlock()
	c.wake()
}

// offerFrame puts the newest state, dropping the one not yet sent: the
// next frame carries what changed since the last one the browser got.
func (c *client) offerFrame(s *snapshot) {
	c.mu.Lock()
	if c.frame != nil {
		c.v.dropped.Add(1)
	}
	c.frame = s
	c.mu.Unlock()
	c.wake()
}

func (c *client) wake() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

func (c *client) close() { c.cancel() }

func (c *client) wait() { <-c.done }

// take returns the pending messages: the queue, which ends before the
// frame, and the slots, which come after it.
func (c *client) take(queue, slots [][]byte) ([][]byte, *snapshot, [][]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	queue = append(queue, c.queue...)
	clear(c.queue)
	c.queue = c.queue[:0]
	for i, m := range c.slots {
		if m != nil {
			slots = append(slots, m)
			c.slots[i] = nil
		}
	}
	f := c.frame
	c.frame = nil
	return queue, f, slots
}

// run writes to the browser until it leaves or the viewer closes; a
// second goroutine reads its commands.
func (c *client) run() {
	defer close(c.done)
	ctx := c.ctx
	read := make(chan struct{})
	go func() {
		defer close(read)
		defer c.cancel()
		c.read(ctx)
	}()
	// the loop goroutine sends what a new browser needs
	c.send(ctx, command{Cmd: "hello"})
	var queue, slots [][]byte
	write := func(typ websocket.MessageType, m []byte) bool {
		wctx, cancel := context.WithTimeout(ctx, c.v.writeTimeout)
		err := c.conn.Write(wctx, typ, m)
		cancel()
		if err != nil {
			c.cancel()
			return false
		}
		c.v.sent.Add(1)
		c.v.sentBytes.Add(int64(len(m)))
		return true
	}
	for {
		select {
		case <-ctx.Done():
			c.conn.CloseNow()
			<-read
			return
		case <-c.notify:
		}
		var frame *snapshot
		queue, frame, slots = c.take(queue[:0], slots[:0])
		ok := true
		for _, m := range queue {
			if ok = write(websocket.MessageText, m); !ok {
				break
			}
		}
		if ok && frame != nil {
			c.buf = c.enc.encode(c.buf[:0], frame)
			if ok = write(websocket.MessageBinary, c.buf); ok {
				c.v.frames.Add(1)
				c.v.frameBytes.Add(int64(len(c.buf)))
			}
		}
		for _, m := range slots {
			if !ok {
				break
			}
			ok = write(websocket.MessageText, m)
		}
		clear(queue)
		clear(slots)
	}
}

// read forwards the browser's commands to the loop goroutine.
func (c *client) read(ctx context.Context) {
	for {
		_, data, err := c.conn.Read(ctx)
		if err != nil {
			return
		}
		var cmd command
		if json.Unmarshal(data, &cmd) != nil || cmd.Cmd == "" || cmd.Cmd == "do" || cmd.Cmd == "hello" || cmd.Cmd == "bye" {
			continue
		}
		if cmd.Cmd == "key" {
			c.keyed.Store(true)
		}
		if !c.send(ctx, cmd) {
			return
		}
	}
}

func (c *client) send(ctx context.Context, cmd command) bool {
	cmd.c = c
	select {
	case c.v.cmds <- cmd:
		return true
	case <-ctx.Done():
		return false
	case <-time.After(time.Minute):
		return true // nobody reads commands (a run not driven by the viewer, and over)
	}
}
