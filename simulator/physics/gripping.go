package physics

import "github.com/argosgo/argos/ci"

// Gripping is implemented by engines that can hold one body to another,
// as a robot's gripper holds a prey or another robot: while held, the
// object follows the gripper through a joint at the grip point.
//
// The methods change the engine's structure (they create and destroy
// joints), so the simulator calls them on its coordinating goroutine only,
// between the act phase and Step; devices record what the controller
// asked for during the act phase and the simulator applies it there.
// Removing either body from the engine, and Reset, release the grip.
type Gripping interface {
	// Grip holds body object to body gripper at the world point anchor
	// (on the gripper's edge, at the object). Both must belong to the
	// engine. When the gripper already holds the object, Grip moves the
	// grip point on the gripper to anchor (a turning turret); when it
	// holds another one, that one is released first.
	Grip(gripper, object int, anchor ci.Vector2) error
	// Release lets go of whatever the gripper holds.
	Release(gripper int)
	// Gripped returns the body the gripper holds, or -1.
	Gripped(gripper int) int
}
