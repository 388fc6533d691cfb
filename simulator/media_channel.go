package simulator

import (
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media/channel"
)

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
