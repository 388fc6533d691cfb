package diffusion_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/diffusion"
)

// Unit-testing a controller without the simulator: give a citest robot
// fake devices under the tags the controller asks for, set the sensor
// readings, run a step and look at what the fake wheels received.
func Example() {
	wheels := &citest.Wheels{}
	prox := citest.NewFootBotProximity()
	robot := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, wheels).
		AddSensor(ci.TagFootBotProximity, prox)

	c := diffusion.New()
	if err := c.Init(robot, ci.NewParams("velocity", "10")); err != nil {
		fmt.Println(err)
		return
	}

	c.ControlStep()
	fmt.Println("free:      ", wheels.Left, wheels.Right)

	prox.Set(1, 0.9) // sensor 1 looks 22.5 degrees to the left
	c.ControlStep()
	fmt.Println("obstacle L:", wheels.Left, wheels.Right)

	prox.SetAll()     // clear the ring
	prox.Set(22, 0.9) // sensor 22 looks 22.5 degrees to the right
	c.ControlStep()
	fmt.Println("obstacle R:", wheels.Left, wheels.Right)

	// Output:
	// free:       10 10
	// obstacle L: 10 0
	// obstacle R: 0 10
}

// Init explains what is missing from the .argos file.
func ExampleController_Init() {
	robot := citest.NewRobot("ep3", 1).
		AddActuator(ci.TagDifferentialSteering, &citest.Wheels{})
	err := diffusion.New().Init(robot, ci.Params{})
	fmt.Println(err)

	// Output:
	// diffusion: robot "ep3": no proximity sensor: device not declared; add one of <footbot_proximity implementation="default"/>, <epuck_proximity implementation="default"/> or <proximity implementation="default"/> under <sensors> in its <controllers> entry
}
