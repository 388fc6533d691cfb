package gripping_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/gripping"
)

// The script of ARGoS's gripping example, step by step.
func Example() {
	wheels, gripper := &citest.Wheels{}, &citest.Gripper{InReach: true}
	robot := citest.NewRobot("f", 1).
		AddActuator(ci.TagDifferentialSteering, wheels).
		AddActuator(ci.TagFootBotGripper, gripper)
	c := gripping.New()
	if err := c.Init(robot, ci.Params{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, until := range []int{69, 70, 119, 169, 170} {
		for c.Step() < until {
			c.ControlStep()
		}
		fmt.Printf("step %3d: %-11s wheels %2v %2v holding %v\n", until, c.Phase(), wheels.Left, wheels.Right, gripper.Gripping())
	}

	// Output:
	// step  69: approaching wheels  5  5 holding false
	// step  70: gripping    wheels  0  0 holding true
	// step 119: dragging    wheels -5 -5 holding true
	// step 169: releasing   wheels -5 -5 holding false
	// step 170: stopped     wheels  0  0 holding false
}
