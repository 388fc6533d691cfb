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
// itself (simulator/remote: their controllers run in other processes,
// and robots marked real="true" take their pose from outside). The
// simulator asks every medium, in file order, before it makes a robot's
// controller; the first that hosts the robot provides it. Bind gives
// the medium the simulator (to move bodies between ticks) and its log.
type ControllerHost interface {
	HostController(r *entity.Robot, c *config.Controller) (ci.Controller, bool, error)
	Bind(m remote.Mover, log remote.Logger)
}

// hostedController returns the controller a medium hosts for r, or a
// new one from factory. An error becomes a controller whose Init fails
// with it, so that the set-up reports it for the robot.
func (s *Simulator) hostedController(r *robot, c *config.Controller, factory func() ci.Controller) ci.Controller {
	for _, m := range s.media {
		if h, ok := m.(ControllerHost); ok {
			ctrl, ok, err := h.HostController(&r.Robot, c)
			if err != nil {
				return failedController{err}
			}
			if ok {
				h.Bind(s, s.log)
				return ctrl
			}
		}
	}
	if real, err := remote.IsReal(&r.Robot); err != nil || real {
		if err == nil {
			err = r.Node.Errorf("simulator: %s %q is marked real=\"true\" but no <remote> under <media> takes its pose; add <remote id=\"link\" token_env=\"ARGOS_REMOTE_TOKEN\"/> (docs/remote.md)", r.Model.Type, r.ID)
		}
		return failedController{err}
	}
	return factory()
}

// failedController is a controller whose Init returns err.
type failedController struct{ err error }

func (f failedController) Init(ci.Robot, ci.Params) error { return f.err }
func (failedController) ControlStep()                     {}
func (failedController) Reset()                           {}
func (failedController) Destroy() error                   { return nil }
