package foraging

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// UserFunctionsLabel is the label of ARGoS's foraging_qt_user_functions.
const UserFunctionsLabel = "foraging_qt_user_functions"

func init() {
	simulator.UserFunctionsTypes.MustRegister(UserFunctionsLabel,
		"ARGoS's foraging user functions: a black disc (the food item) above every robot that carries one "+
			"(controllers with Carrying, as footbot_foraging_controller).",
		func() simulator.UserFunctions { return &UserFunctions{} })
}

// UserFunctions are foraging_qt_user_functions: they draw the food item
// a robot carries above it, as ARGoS draws a small cylinder 0.3 m up.
type UserFunctions struct {
	simulator.UserFunctionsBase
}

// ItemRadius is the radius of the drawn food item (m).
const ItemRadius = 0.1

// DrawInWorld draws a disc over every carrying robot.
func (u *UserFunctions) DrawInWorld(c *simulator.Canvas) {
	for i := range u.Simulator().NumRobots() {
		f, ok := u.Simulator().Controller(i).(Forager)
		if !ok {
			continue
		}
		if _, carrying := f.Carrying(); !carrying {
			continue
		}
		b := u.Simulator().Robot(i).B()
		c.Circle(ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z + 0.3}, ItemRadius, ci.Black, true)
	}
}
