package simulator

import (
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media/channel"
)

// tickless is a device whose Apply (an actuator) or Update (a sensor)
// has nothing to do at any tick, such as the channel's messaging devices
// (a message is in the channel's outbox as it is sent, an inbox is
// delivered by the channel's Update): the act and sense phases do not
// call it, which spares every robot's tick two calls.
type tickless interface{ Tickless() bool }

// markIdle marks the robot's tickless devices among its first eight
// actuators and sensors (the act and sense phases skip them).
func (r *robot) markIdle() {
	r.idleActs, r.idleSens = 0, 0
	for i, a := range r.actuators() {
		if t, ok := a.(tickless); ok && i < 8 && t.Tickless() {
			r.idleActs |= 1 << i
		}
	}
	for i, sen := range r.sensors() {
		if t, ok := sen.(tickless); ok && i < 8 && t.Tickless() {
			r.idleSens |= 1 << i
		}
	}
}

// The communication channel of the messaging devices (ASCARI's
// simulated communication).
func init() {
	Media.MustRegister("channel", channel.Description, func(n *config.Node, w *entity.World) (Medium, error) {
		c, err := channel.New(n, w)
		if err != nil {
			return nil, err
		}
		return c, nil
	})
}
