package citest

import (
	"maps"
	"sync"

	"github.com/argosgo/argos/ci"
)

// Counter is a controller for tests of a messaging path (a channel, a
// network link, a bridge): at every control step it broadcasts how many
// steps it has made on topic "count", and it keeps the highest count it
// heard from each robot. Its methods may be called from another goroutine
// while it runs.
type Counter struct {
	topic *ci.Topic[uint32]
	n     uint32
	mu    sync.Mutex
	got   map[string]uint32
}

// Init implements ci.Controller: the robot needs a messaging sensor and
// actuator.
func (c *Counter) Init(r ci.Robot, _ ci.Params) (err error) {
	c.mu.Lock()
	c.got = map[string]uint32{}
	c.mu.Unlock()
	c.topic, err = ci.NewTopic[uint32](r, "count")
	return err
}

// ControlStep implements ci.Controller.
func (c *Counter) ControlStep() {
	c.mu.Lock()
	for _, m := range c.topic.Received() {
		c.got[m.From] = max(c.got[m.From], m.Value)
	}
	c.mu.Unlock()
	c.n++
	c.topic.Broadcast(c.n)
}

// Reset implements ci.Controller.
func (c *Counter) Reset() {}

// Destroy implements ci.Controller.
func (c *Counter) Destroy() error { return nil }

// Heard returns the highest count heard from robot id, and whether
// anything was heard from it.
func (c *Counter) Heard(id string) (uint32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.got[id]
	return n, ok
}

// HeardAll returns a copy of the highest count heard from each robot.
func (c *Counter) HeardAll() map[string]uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.got)
}
