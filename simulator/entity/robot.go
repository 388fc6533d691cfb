package entity

import (
	"math/rand/v2"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

// Robot is a simulated robot: its body in the space and the state its
// actuators write and its sensors and the media read.
type Robot struct {
	ID    string
	Model *RobotModel
	// Index is the robot's position in the simulator's robot list.
	Index int
	// Body is the handle of the robot's body in Space.
	Body  int
	Space *space.Space
	// Rand is the robot's own random stream (devices and controller).
	Rand *rand.Rand
	// Wheels are the wheel speeds in m/s (left, right) the differential
	// steering actuator applied last.
	Wheels [2]float64
	// LEDs are the current LED colours.
	LEDs []ci.Color
	// TickLength is the duration of a tick in seconds.
	TickLength float64
	// World is the rest of the arena, for devices that sense it.
	World *World
	// Node is the robot's element in the arena (<foot-bot id="...">), for
	// devices that read the robot's attributes (rab_range) and children
	// (<battery>); nil for robots built by hand.
	Node *config.Node
	// Turret is the rotation of the robot's turret relative to its body
	// (radians, counter-clockwise), written by the turret actuator; the
	// gripper and a foot-bot's LEDs turn with it.
	Turret float64
	// Scanner is the state of the distance scanner, nil until a scanner
	// actuator is built for the robot (most robots have none: a million
	// e-pucks save 24 MB).
	Scanner *Scanner
}

// B returns the robot's body.
func (r *Robot) B() *space.Body { return &r.Space.Bodies[r.Body] }

// Drive returns the robot's drive: what its wheels ask of the physics
// (Space.Drive).
func (r *Robot) Drive() *space.Drive { return &r.Space.Drive[r.Body] }

// SetWheels sets the wheel speeds (m/s) and the velocity the physics drags
// the body toward: v = (l+r)/2 along the heading, w = (r-l)/axle.
func (r *Robot) SetWheels(left, right float64) {
	r.Wheels = [2]float64{left, right}
	d := r.Drive()
	d.V = (left + right) / 2
	d.W = (right - left) / r.Model.Axle
}
