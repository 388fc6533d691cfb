package simulator

import (
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
)

func init() {
	Media.MustRegister("led", media.LEDDescription, func(n *config.Node, w *entity.World) (Medium, error) {
		m, err := media.NewLED(n, w)
		if err != nil {
			return nil, err
		}
		return m, nil
	})
	Media.MustRegister("range_and_bearing", media.RABDescription, func(n *config.Node, w *entity.World) (Medium, error) {
		m, err := media.NewRAB(n, w)
		if err != nil {
			return nil, err
		}
		return m, nil
	})
}
