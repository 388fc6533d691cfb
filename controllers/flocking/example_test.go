package flocking_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/flocking"
)

// One flocking robot with fake devices: the light is ahead, a neighbour's
// red beacon is seen at some distance and angle.
func Example() {
	wheels, light, camera := &citest.Wheels{}, citest.NewFootBotLight(), &citest.BlobCamera{}
	robot := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, wheels).
		AddActuator(ci.TagLEDs, citest.NewLEDs(13)).
		AddSensor(ci.TagFootBotLight, light).
		AddSensor(ci.TagOmnidirectionalCamera, camera)
	c := flocking.New()
	if err := c.Init(robot, ci.Params{}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("camera on:", camera.Enabled)

	light.SetToward(0, 1)
	c.ControlStep()
	fmt.Println("alone:", wheels.Left, wheels.Right)

	// A neighbour 40 cm ahead: far too close (the target is 75 cm).
	camera.Set(ci.Blob{Color: ci.Red, Distance: 0.40})
	c.ControlStep()
	fmt.Println("crowded:", wheels.Left, wheels.Right)

	// Output:
	// camera on: true
	// alone: 2.5 2.5
	// crowded: 10 -10
}
