package preyretrieval_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	preyretrieval "github.com/argosgo/argos/controllers/prey_retrieval"
)

// A foot-bot on fake devices: it wanders until its camera sees the red
// laser spot, drives to it, grips the prey under it and carries it with
// its LEDs blue.
func Example() {
	cam := &citest.BlobCamera{}
	prox := citest.NewFootBotProximity()
	gripper := &citest.Gripper{}
	leds := citest.NewLEDs(13)
	robot := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).
		AddActuator(ci.TagLEDs, leds).
		AddActuator(ci.TagFootBotGripper, gripper).
		AddSensor(ci.TagFootBotProximity, prox).
		AddSensor(ci.TagFootBotMotorGround, citest.NewFootBotMotorGround()).
		AddSensor(ci.TagOmnidirectionalCamera, cam)
	c := preyretrieval.NewFootBot()
	if err := c.Init(robot, ci.Params{}); err != nil {
		fmt.Println(err)
		return
	}
	c.ControlStep()
	fmt.Println(c.Phase())

	cam.Set(ci.Blob{Color: ci.Red, Distance: 0.6}) // the spot, ahead
	c.ControlStep()
	fmt.Println(c.Phase())

	cam.Set(ci.Blob{Color: ci.Red, Distance: 0.145}) // on the prey, touching
	prox.Set(0, 1)
	gripper.InReach = true
	c.ControlStep() // close enough: grip, the gripper locks
	fmt.Println(c.Phase(), gripper.Gripping())
	c.ControlStep()
	fmt.Println(c.Phase(), leds.Colors[0])

	// Output:
	// wander
	// go_to_spot
	// grip true
	// carry blue
}
