package space

import "github.com/argosgo/argos/ci"

// FlightMode says which set-point a flying body follows.
type FlightMode uint8

const (
	// Hover is the mode of a flying body that no quadrotor actuator
	// commands: the engine drives it by its drive (Space.Drive) at
	// constant height, so that an eye-bot whose drive is zero hovers
	// where it is.
	Hover FlightMode = iota
	// ToPosition flies to Flight.Position and turns to Flight.Yaw
	// (actuator "quadrotor_position").
	ToPosition
	// AtSpeed flies at Flight.Velocity and turns at Flight.RotSpeed
	// (actuator "quadrotor_speed").
	AtSpeed
)

// Flight is what the actuators of a flying robot ask of the physics engine
// that flies it (physics/pointmass3d), and what that engine reports back.
// The engine allocates it when it takes the body and keeps it when it
// gives the body up; actuators write the command fields during the act
// phase, the engine reads them in Step and writes the state fields in
// Commit, so no phase reads what another writes at the same time.
type Flight struct {
	// Mode selects the set-point below that the engine follows.
	Mode FlightMode
	// Position (metres, arena frame, Z of the body's bottom) and Yaw
	// (radians) are the set-point of ToPosition.
	Position ci.Vector3
	Yaw      float64
	// Velocity (m/s, arena frame) and RotSpeed (rad/s about Z) are the
	// set-point of AtSpeed.
	Velocity ci.Vector3
	RotSpeed float64
	// Attach asks to hang at the ceiling: the body rises straight up and
	// stays there with its motors off until Attach is cleared.
	Attach bool
	// Commander is the tag of the actuator that sets the set-points
	// (quadrotor_position or quadrotor_speed): a robot takes only one.
	Commander string

	// Attached reports that the body hangs at the ceiling (engine state).
	Attached bool
	// VelZ is the body's vertical velocity in m/s (engine state; Body.Vel
	// holds the horizontal part).
	VelZ float64
}
