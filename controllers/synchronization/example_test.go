package synchronization_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/synchronization"
)

// A robot that sees a flash when it is close to flashing itself fires at
// once: that is how the swarm falls into step.
func Example() {
	leds, camera := citest.NewLEDs(13), &citest.BlobCamera{}
	robot := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagLEDs, leds).
		AddSensor(ci.TagOmnidirectionalCamera, camera)
	c := synchronization.New()
	if err := c.Init(robot, ci.Params{}); err != nil {
		fmt.Println(err)
		return
	}
	for c.Counter() != 95 {
		c.ControlStep()
	}
	fmt.Println("counter", c.Counter(), "LEDs", leds.Colors[0])

	camera.Set(ci.Blob{Color: ci.Red, Distance: 0.4}) // a neighbour flashes
	c.ControlStep()                                   // 95 + 95/10 = 104 > 100
	fmt.Println("flashing", c.Flashing(), "LEDs", leds.Colors[0], "counter", c.Counter())

	// Output:
	// counter 95 LEDs black
	// flashing true LEDs red counter 0
}
