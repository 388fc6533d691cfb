// Package id is ARGoS's id_qtuser_functions (argos3-examples): user
// functions that write every foot-bot's id above it, in the viewer and
// in the frames.
//
//	<visualization>
//	  <qt-opengl><user_functions label="id_qtuser_functions" /></qt-opengl>
//	</visualization>
package id

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// UserFunctionsLabel is ARGoS's label.
const UserFunctionsLabel = "id_qtuser_functions"

func init() {
	simulator.UserFunctionsTypes.MustRegister(UserFunctionsLabel,
		"ARGoS's id user functions: write every foot-bot's id above it.",
		func() simulator.UserFunctions { return &UserFunctions{} })
}

// UserFunctions are id_qtuser_functions.
type UserFunctions struct {
	simulator.UserFunctionsBase
}

// DrawInWorld writes the ids, in black as ARGoS does.
func (u *UserFunctions) DrawInWorld(c *simulator.Canvas) {
	for i := range u.Simulator().NumRobots() {
		r := u.Simulator().Robot(i)
		if r.Model != nil && r.Model.Type == "foot-bot" && !r.B().Removed {
			c.RobotText(r.ID, r.ID, ci.Black)
		}
	}
}
