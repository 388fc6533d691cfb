package simulator_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

func TestMoveAddRemoveBetweenTicks(t *testing.T) {
	sim := build(t, experiment("0", constantController, `
    <foot-bot id="fb"><body position="-1,0,0"/><controller config="tc"/></foot-bot>
    <box id="wall" size="0.1,1,0.5" movable="false"><body position="1.5,0,0"/></box>`, ""), simulator.Options{})
	for sim.Tick() < 5 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	fb, ok := sim.Body("fb")
	if !ok {
		t.Fatal("Body(\"fb\") not found")
	}
	if err := sim.MoveBody(fb, ci.Vector3{X: 0.5, Y: 0.5}, math.Pi/2); err != nil {
		t.Fatal(err)
	}
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	b := sim.Space().Bodies[fb]
	// one tick at 10 cm/s toward +y from the new pose
	if math.Abs(b.Pos.X-0.5) > 1e-3 || math.Abs(b.Pos.Y-0.51) > 2e-3 {
		t.Fatalf("after the move and one tick the robot is at %v, want about (0.5, 0.51)", b.Pos)
	}
	wall, _ := sim.Body("wall")
	if err := sim.MoveBody(wall, ci.Vector3{}, 0); err == nil {
		t.Fatal("moving a static wall must be refused")
	}
	if err := sim.MoveBody(fb, ci.Vector3{X: 50}, 0); err == nil {
		t.Fatal("moving a robot outside every engine must be refused")
	}

	// add a movable cylinder in the robot's way, then a robot
	spec := &entity.Spec{Tag: "cylinder", Embodied: true}
	spec.SetID("obstacle")
	spec.Body.Type, spec.Body.Shape, spec.Body.Radius, spec.Body.Height = "cylinder", 0, 0.1, 0.2
	spec.Body.Movable, spec.Body.Mass, spec.Body.MaxForce, spec.Body.MaxTorque = true, 1, 1.49, 1.49
	spec.Body.Pos = ci.Vector2{X: 0.5, Y: 1}
	h, err := sim.AddEntity(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.AddEntity(spec); err == nil {
		t.Fatal("a second entity with the same id must be refused")
	}
	robot := &entity.Spec{Tag: "foot-bot", Embodied: true, Robot: entity.FootBot, ControllerID: "tc"}
	robot.SetID("fb2")
	robot.Body = space0(entity.FootBot)
	robot.Body.ID = "fb2"
	robot.Body.Pos = ci.Vector2{X: -1, Y: -1}
	if _, err := sim.AddEntity(robot); err != nil {
		t.Fatal(err)
	}
	n := sim.NumRobots()
	for i := 0; i < 60; i++ {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if p := sim.Space().Bodies[h].Pos; p.Y <= 1 {
		t.Errorf("the robot drove into the added cylinder but the cylinder did not move (%v)", p)
	}
	if p := sim.Robot(n - 1).B().Pos; p.X < -0.8 {
		t.Errorf("the added robot did not drive (at %v)", p)
	}
	if err := sim.RemoveEntity("fb2"); err != nil {
		t.Fatal(err)
	}
	before := sim.Robot(n - 1).B().Pos
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	if _, ok := sim.Body("fb2"); ok {
		t.Fatal("a removed entity is still found")
	}
	if sim.Robot(n-1).B().Pos != before {
		t.Fatal("a removed robot still moves")
	}
	if err := sim.RemoveEntity("fb2"); err == nil {
		t.Fatal("removing twice must fail")
	}
}

// space0 returns the body of a robot model, as the entity parser makes it.
func space0(m *entity.RobotModel) (b space.Body) {
	b.Type, b.Radius, b.Height, b.Mass = m.Type, m.Radius, m.Height, m.Mass
	b.MaxForce, b.MaxTorque, b.Movable = m.MaxForce, m.MaxTorque, true
	return b
}
