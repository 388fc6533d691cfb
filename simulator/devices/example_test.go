package devices_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// A simulated device is built for one robot from its .argos element, found
// in a registry by tag and implementation. Here an e-puck 3 cm from a wall
// reads its proximity sensors.
func Example() {
	s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 2, Y: 2, Z: 1})
	s.Add(space.Body{Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.05, Y: 0.5}, Radius: 0.51,
		Height: 0.5, Pos: ci.Vector2{X: 0.035 + 0.03 + 0.05}})
	m := entity.EPuck
	h := s.Add(space.Body{ID: "ep0", Type: m.Type, Shape: space.Disc, Radius: m.Radius, Height: m.Height, Movable: true})
	s.Reindex()
	r := &entity.Robot{ID: "ep0", Model: m, Body: h, Space: s, Rand: rand.New(rand.NewPCG(1, 2)), TickLength: 0.1}

	factory, err := devices.Sensors.Lookup(devices.Key(ci.TagEPuckProximity, "default"))
	if err != nil {
		fmt.Println(err)
		return
	}
	dev, err := factory(r, &config.Node{Name: ci.TagEPuckProximity})
	if err != nil {
		fmt.Println(err)
		return
	}
	dev.(devices.Sensor).Update() // the simulator's sense phase
	for _, rd := range dev.(ci.Proximity).Readings() {
		fmt.Printf("%4.0f deg: %.3f\n", ci.Degrees(rd.Angle), rd.Value)
	}
	// Output:
	//   17 deg: 0.190
	//   50 deg: 0.000
	//   90 deg: 0.000
	//  150 deg: 0.000
	// -150 deg: 0.000
	//  -90 deg: 0.000
	//  -50 deg: 0.000
	//  -17 deg: 0.191
}

// Actuators write into the robot when the simulator applies them, after
// the controller's step.
func Example_wheels() {
	s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 2, Y: 2, Z: 1})
	m := entity.FootBot
	h := s.Add(space.Body{Shape: space.Disc, Radius: m.Radius, Height: m.Height, Movable: true})
	r := &entity.Robot{ID: "fb0", Model: m, Body: h, Space: s, Rand: rand.New(rand.NewPCG(1, 2)), TickLength: 0.1}

	factory, _ := devices.Actuators.Lookup(devices.Key(ci.TagDifferentialSteering, "default"))
	dev, err := factory(r, &config.Node{Name: ci.TagDifferentialSteering})
	if err != nil {
		fmt.Println(err)
		return
	}
	dev.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 15) // cm/s
	dev.(devices.Actuator).Apply()
	d := r.Drive()
	fmt.Printf("wheels %v m/s, forward %.2f m/s, turning %.4f rad/s\n", r.Wheels, d.V, d.W)
	// Output:
	// wheels [0.05 0.15] m/s, forward 0.10 m/s, turning 0.7143 rad/s
}
