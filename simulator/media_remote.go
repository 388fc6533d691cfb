package simulator

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/remote"
)

// Controllers outside the simulator process (<media><remote .../>,
// docs/remote.md).
func init() {
	Media.MustRegister("remote", remote.Description, func(n *config.Node, w *entity.World) (Medium, error) {
		s, err := remote.New(n, w)
		if err != nil {
			return nil, err
		}
		return s, nil
	})
}

// ControllerHost is a medium that runs the controllers of some robots
// itself (simulator/remote: their controllers run in other processes).
// The simulator asks every medium, in file order, before it makes a
// robot's controller; the first that hosts the robot provides it.
type ControllerHost interface {
	HostController(r *entity.Robot, c *config.Controller) (ci.Controller, bool)
}

// hostedController returns the controller a medium hosts for r, or a
// new one from factory.
func (s *Simulator) hostedController(r *robot, c *config.Controller, factory func() ci.Controller) ci.Controller {
	for _, m := range s.media {
		if h, ok := m.(ControllerHost); ok {
			if ctrl, ok := h.HostController(&r.Robot, c); ok {
				return ctrl
			}
		}
	}
	return factory()
}
