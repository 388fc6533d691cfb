package foraging_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/foraging"
)

// A forager's trip, driven by hand: the fake devices stand in for the
// arena and the calls to PickUp and Drop for the loop functions.
func Example() {
	wheels, leds := &citest.Wheels{}, citest.NewLEDs(13)
	rab := citest.NewRangeAndBearing(10)
	light, ground := citest.NewFootBotLight(), citest.NewFootBotMotorGround()
	robot := citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, wheels).
		AddActuator(ci.TagLEDs, leds).
		AddActuator(ci.TagRangeAndBearing, rab).
		AddSensor(ci.TagRangeAndBearing, rab).
		AddSensor(ci.TagFootBotProximity, citest.NewFootBotProximity()).
		AddSensor(ci.TagFootBotLight, light).
		AddSensor(ci.TagFootBotMotorGround, ground)

	// Leave the nest at the first chance and wait only 3 ticks there.
	state := ci.NewParams("initial_rest_to_explore_prob", "1", "minimum_search_for_place_in_nest_time", "3")
	state.Name = "state"
	params := ci.NewParams()
	params.Children = []ci.Params{state}

	c := foraging.New()
	if err := c.Init(robot, params); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.State(), leds.Colors[0])
	c.ControlStep()
	c.ControlStep()
	c.ControlStep()
	fmt.Println(c.State(), leds.Colors[0], wheels.Left, wheels.Right)

	c.PickUp(4) // the robot drove over food item 4
	c.ControlStep()
	fmt.Println(c.State(), leds.Colors[0])

	light.SetToward(0, 1) // the nest's light straight ahead
	c.ControlStep()
	fmt.Println("toward the light:", wheels.Left, wheels.Right)

	fmt.Println("dropped item", c.Drop())
	ground.SetAll(0.5) // grey: the nest
	for range 5 {
		c.ControlStep()
	}
	fmt.Println(c.State(), leds.Colors[0], "payload byte 0:", rab.Data[0])

	// Output:
	// resting red
	// exploring green 10 10
	// returning to nest blue
	// toward the light: 10 10
	// dropped item 4
	// resting red payload byte 0: 1
}
