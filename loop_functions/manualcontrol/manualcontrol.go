// Package manualcontrol is ARGoS's manualcontrol_qtuser_functions
// (argos3-examples): select a foot-bot running
// footbot_manualcontrol_controller in the viewer and drive it from the
// keyboard. I, K, J, L (ARGoS's keys), the arrow keys and W, S, A, D
// push it forward, backward, left and right; several keys add up; the
// robot stops when they are released or it is deselected.
//
//	<visualization>
//	  <qt-opengl><user_functions label="manualcontrol_qtuser_functions" /></qt-opengl>
//	</visualization>
package manualcontrol

import (
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// UserFunctionsLabel is ARGoS's label.
const UserFunctionsLabel = "manualcontrol_qtuser_functions"

// Speed is the length of the control vector one key gives (cm/s), as in
// ARGoS's example.
const Speed = 10

func init() {
	simulator.UserFunctionsTypes.MustRegister(UserFunctionsLabel,
		"ARGoS's manual control user functions: the selected foot-bot (footbot_manualcontrol_controller) follows the "+
			"keys I/K/J/L, the arrows or W/S/A/D (forward, backward, left, right).",
		func() simulator.UserFunctions { return &UserFunctions{} })
}

// Drivable is what the user functions need of the selected robot's
// controller; footbot_manualcontrol_controller has it.
type Drivable interface {
	Select()
	Deselect()
	SetControlVector(v ci.Vector2)
}

// The directions, in ARGoS's order.
const (
	forward = iota
	backward
	left
	right
)

// UserFunctions are manualcontrol_qtuser_functions.
type UserFunctions struct {
	simulator.UserFunctionsBase
	sim     *simulator.Simulator
	robot   Drivable
	pressed [4]bool
}

// EntitySelected takes control of the robot if its controller can be
// driven.
func (u *UserFunctions) EntitySelected(id string) {
	u.robot = nil
	for i := range u.Simulator().NumRobots() {
		if u.Simulator().Robot(i).ID == id {
			if d, ok := u.Simulator().Controller(i).(Drivable); ok {
				u.robot = d
				d.Select()
			}
		}
	}
	u.pressed = [4]bool{}
}

// EntityDeselected lets the robot go.
func (u *UserFunctions) EntityDeselected(string) {
	if u.robot != nil {
		u.robot.Deselect()
		u.robot = nil
	}
}

// direction maps a key to a direction, or -1.
func direction(k simulator.Key) int {
	switch strings.ToLower(string(k)) {
	case "i", "w", "arrowup":
		return forward
	case "k", "s", "arrowdown":
		return backward
	case "j", "a", "arrowleft":
		return left
	case "l", "d", "arrowright":
		return right
	}
	return -1
}

// KeyPressed pushes the robot in the key's direction.
func (u *UserFunctions) KeyPressed(k simulator.Key) { u.key(k, true) }

// KeyReleased stops pushing in the key's direction.
func (u *UserFunctions) KeyReleased(k simulator.Key) { u.key(k, false) }

func (u *UserFunctions) key(k simulator.Key, down bool) {
	d := direction(k)
	if u.robot == nil || d < 0 {
		return
	}
	u.pressed[d] = down
	var v ci.Vector2
	if u.pressed[forward] {
		v.X++
	}
	if u.pressed[backward] {
		v.X--
	}
	if u.pressed[left] {
		v.Y++
	}
	if u.pressed[right] {
		v.Y--
	}
	u.robot.SetControlVector(v.Scale(Speed))
}

// Reset forgets the selection.
func (u *UserFunctions) Reset() { u.robot, u.pressed = nil, [4]bool{} }
