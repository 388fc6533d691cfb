package behaviortk_test

import (
	"fmt"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
)

// A forager's top level as a state machine: explore until something is
// found, return home, rest, explore again.
func ExampleFSM() {
	m := behaviortk.NewFSM("explore").
		State("explore", behaviortk.Func(func(s *behaviortk.State) { s.SetWheels(5, 5) })).
		State("return", behaviortk.Phototaxis{Speed: 5}).
		State("rest", nil).
		Transition("explore", "found", "return").
		Transition("return", "home", "rest").
		Transition("rest", "rested", "explore").
		When("found", func(s *behaviortk.State) bool { return s.Memory["carrying"] > 0 })
	if err := m.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	s := &behaviortk.State{Memory: map[string]float64{}}
	m.Step(s)
	fmt.Println(m.Current())
	s.Memory["carrying"] = 1
	s.Light = []ci.LightReading{{Value: 1, Angle: 0}}
	m.Step(s)
	fmt.Println(m.Current(), s.Out.Left, s.Out.Right)
	_, err := m.Fire("hom")
	fmt.Println(err)
	// Output:
	// explore
	// return 5 5
	// behaviortk: unknown input "hom" (inputs: found, home, rested)
}
