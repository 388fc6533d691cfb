// Package rendezvous is ASCARI's rendezvous: unicycle agents that know
// each other only through a lossy, delayed, range-limited channel meet at
// one point. The controller is ascari_rendezvous_controller.
//
// Every period ticks each agent broadcasts its position (a Position on
// topic "rendezvous"). It keeps the last position heard from each agent,
// for forget ticks, and drives towards the centroid of those positions
// and its own; it stops when it is within stop metres of it. A lost
// message leaves the previous position in place, a delayed one is a
// position a little out of date, so loss and delay slow the meeting but
// do not prevent it while the group stays connected (the channel's range
// at least the largest gap between neighbours at the start).
//
// Params: speed (m/s, default 0.2), turn (rad/s, default 3), period
// (ticks, default 5), forget (ticks, default 200), stop (m, default
// 0.02). Devices: dynamics_state and dynamics_control (a unicycle: states
// x, y, theta; controls v, w), messaging under actuators and sensors.
package rendezvous

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/controllers/ascari/unicycle"
)

// Label is the name under which .argos files use the controller.
const Label = "ascari_rendezvous_controller"

// Topic is the topic of the Position messages.
const Topic = "rendezvous"

func init() {
	ci.Controllers.MustRegister(Label,
		"ASCARI's rendezvous: unicycle agents drive to the centroid of the positions they hear (topic \"rendezvous\") and meet; "+
			"params speed, turn, period, forget, stop; devices dynamics_state, dynamics_control, messaging",
		func() ci.Controller { return New() })
}

// Position is what an agent broadcasts.
type Position struct{ X, Y float64 }

type heard struct {
	x, y float64
	at   int
}

// Controller is ascari_rendezvous_controller. Make one with New.
type Controller struct {
	body   *unicycle.Body
	topic  *ci.Topic[Position]
	period int
	forget int
	stop   float64
	tick   int
	others map[string]*heard
	ids    []string // the keys of others, in the order first heard
}

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{others: map[string]*heard{}} }

func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	speed, err := p.FloatOr("speed", 0.2)
	var turn float64
	if err == nil {
		turn, err = p.FloatOr("turn", 3)
	}
	if err == nil {
		c.period, err = p.IntOr("period", 5)
	}
	if err == nil {
		c.forget, err = p.IntOr("forget", 200)
	}
	if err == nil {
		c.stop, err = p.FloatOr("stop", 0.02)
	}
	if err == nil && (c.period < 1 || c.forget < 1 || !(c.stop > 0)) {
		err = fmt.Errorf("%s: period and forget must be at least 1 tick and stop positive", p.Location())
	}
	if err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	if c.body, err = unicycle.New(r, speed, turn); err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	if c.topic, err = ci.NewTopic[Position](r, Topic); err != nil {
		return fmt.Errorf("rendezvous: %w", err)
	}
	return nil
}

func (c *Controller) Reset() {
	c.tick = 0
	clear(c.others)
	c.ids = c.ids[:0]
	if c.body != nil {
		c.body.Reset()
	}
}

func (c *Controller) Destroy() error { return nil }

// Known returns the number of agents whose position it holds.
func (c *Controller) Known() int { return len(c.ids) }

func (c *Controller) ControlStep() {
	c.tick++
	for _, m := range c.topic.Received() {
		h := c.others[m.From]
		if h == nil {
			h = &heard{}
			c.others[m.From] = h
			c.ids = append(c.ids, m.From)
		}
		h.x, h.y, h.at = m.Value.X, m.Value.Y, c.tick
	}
	x, y, _ := c.body.Pose()
	if c.tick%c.period == 0 {
		c.topic.Broadcast(Position{X: x, Y: y})
	}
	// the centroid, in the order the agents were first heard (the same
	// order for the same seed)
	sx, sy, n := x, y, 1.0
	for _, id := range c.ids {
		if h := c.others[id]; c.tick-h.at <= c.forget {
			sx, sy, n = sx+h.x, sy+h.y, n+1
		}
	}
	gx, gy := sx/n, sy/n
	if (gx-x)*(gx-x)+(gy-y)*(gy-y) < c.stop*c.stop {
		c.body.Stop()
		return
	}
	c.body.DriveTo(gx, gy)
}
