// Package consensus is ASCARI's distributed consensus: agents that hear
// only their neighbours, over a channel that loses and delays messages,
// agree on the average of their initial values. The controller is
// ascari_consensus_controller.
//
// Plain averaging (each agent moves to the mean of what it heard) drifts
// away from the true average as soon as messages are lost, because the
// exchanges stop being symmetric. This controller uses flow updating
// (Jesus, Baquero and Almeida, 2009): agent i keeps a flow F_ij to each
// neighbour j, its estimate is its initial value minus its flows, and it
// tells j the flow and its estimate; j sets F_ji = -F_ij on hearing it.
// Every round i averages its estimate with the estimates its neighbours
// last sent and moves its flows so that each of them would reach that
// average. The sum of the estimates stays the sum of the initial values
// whenever the flows are antisymmetric, and a lost or late message is
// overwritten by the next one, so loss and delay only slow the agreement
// down.
//
// Each agent broadcasts one Estimate per period ticks on topic
// "consensus"; neighbours are the agents it has heard, at most
// MaxNeighbours (keep the density below that: a neighbour beyond it is
// not answered and the average drifts). Params: value (the initial value;
// when absent, drawn uniformly from [min, max) with the robot's random
// stream), min, max (default 0, 100), period (ticks, default 1). Devices:
// messaging under actuators and sensors. The agent does not move.
package consensus

import (
	"fmt"
	"strconv"

	"github.com/argosgo/argos/ci"
)

// Label is the name under which .argos files use the controller.
const Label = "ascari_consensus_controller"

// Topic is the topic of the Estimate messages.
const Topic = "consensus"

// MaxNeighbours is the number of flows an Estimate carries.
const MaxNeighbours = 24

func init() {
	ci.Controllers.MustRegister(Label,
		"ASCARI's distributed consensus by flow updating: agents agree on the average of their initial values over a lossy, delayed, "+
			"range-limited channel (topic \"consensus\"); params value or min and max, period; devices messaging",
		func() ci.Controller { return New() })
}

// Estimate is what an agent broadcasts: its estimate and its flows, the
// flow to agent To[k] being Flows[k]. The fields have no padding between
// them, so that an Estimate's memory is its wire encoding.
type Estimate struct {
	Agent    uint16
	N        uint16
	Round    uint32
	Estimate float64
	To       [MaxNeighbours]uint16
	Flows    [MaxNeighbours]float64
}

type neighbour struct {
	id       uint16
	flow     float64 // F_ij
	estimate float64 // E_ij, the estimate it last sent
	round    uint32
}

// Controller is ascari_consensus_controller. Make one with New.
type Controller struct {
	topic  *ci.Topic[Estimate]
	me     uint16
	value  float64
	period int
	tick   int
	round  uint32
	nbrs   []neighbour
	out    Estimate
}

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	var err error
	if p.Has("value") {
		c.value, err = p.Float("value")
	} else {
		var lo, hi float64
		if lo, err = p.FloatOr("min", 0); err == nil {
			if hi, err = p.FloatOr("max", 100); err == nil && !(hi >= lo) {
				err = fmt.Errorf("%s: max=%g is below min=%g", p.Location(), hi, lo)
			}
		}
		c.value = lo + (hi-lo)*r.Rand().Float64()
	}
	if err == nil {
		c.period, err = p.IntOr("period", 1)
		if err == nil && c.period < 1 {
			err = fmt.Errorf("%s: period must be at least 1 tick", p.Location())
		}
	}
	if err != nil {
		return fmt.Errorf("consensus: %w", err)
	}
	if c.me, err = number(r.ID()); err != nil {
		return err
	}
	if c.topic, err = ci.NewTopic[Estimate](r, Topic); err != nil {
		return fmt.Errorf("consensus: %w", err)
	}
	c.Reset()
	return nil
}

// number returns the number that ends an id.
func number(id string) (uint16, error) {
	k := len(id)
	for k > 0 && id[k-1] >= '0' && id[k-1] <= '9' {
		k--
	}
	n, err := strconv.ParseUint(id[k:], 10, 16)
	if err != nil {
		return 0, fmt.Errorf("consensus: robot %q: agents are told apart by the number that ends their ids (c0, c1, ...); give this one such an id", id)
	}
	return uint16(n), nil
}

func (c *Controller) Reset() {
	c.tick, c.round = 0, 0
	c.nbrs = c.nbrs[:0]
}

func (c *Controller) Destroy() error { return nil }

// Initial returns the agent's initial value.
func (c *Controller) Initial() float64 { return c.value }

// Estimate returns the agent's estimate of the average: its initial
// value minus its flows.
func (c *Controller) Estimate() float64 {
	e := c.value
	for i := range c.nbrs {
		e -= c.nbrs[i].flow
	}
	return e
}

// Neighbours returns the number of agents it has heard.
func (c *Controller) Neighbours() int { return len(c.nbrs) }

func (c *Controller) ControlStep() {
	c.tick++
	for _, m := range c.topic.Received() {
		c.hear(&m.Value)
	}
	if c.tick%c.period != 0 {
		return
	}
	// average its estimate with the neighbours' and move the flows so
	// that each neighbour would be at the average
	sum := c.Estimate()
	for i := range c.nbrs {
		sum += c.nbrs[i].estimate
	}
	a := sum / float64(len(c.nbrs)+1)
	c.round++
	c.out = Estimate{Agent: c.me, Round: c.round, Estimate: a}
	for i := range c.nbrs {
		n := &c.nbrs[i]
		n.flow += a - n.estimate
		n.estimate = a
		c.out.To[c.out.N], c.out.Flows[c.out.N] = n.id, n.flow
		c.out.N++
	}
	c.topic.Broadcast(c.out)
}

// hear takes a neighbour's flow to this agent (negated) and its estimate.
func (c *Controller) hear(e *Estimate) {
	if e.Agent == c.me {
		return
	}
	var n *neighbour
	for i := range c.nbrs {
		if c.nbrs[i].id == e.Agent {
			n = &c.nbrs[i]
			break
		}
	}
	if n == nil {
		if len(c.nbrs) == MaxNeighbours {
			return
		}
		c.nbrs = append(c.nbrs, neighbour{id: e.Agent, estimate: e.Estimate})
		n = &c.nbrs[len(c.nbrs)-1]
	} else if e.Round <= n.round {
		return // older than what it has (a delayed message)
	}
	n.round, n.estimate = e.Round, e.Estimate
	for k, to := range e.To[:min(int(e.N), MaxNeighbours)] {
		if to == c.me {
			n.flow = -e.Flows[k]
			return
		}
	}
}
