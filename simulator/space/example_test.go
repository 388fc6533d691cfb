package space_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// A robot casts a proximity ray at a wall: the index is rebuilt once the
// bodies are in place, then queried.
func Example() {
	s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 4, Y: 4, Z: 1})
	wall := space.Body{ID: "wall", Type: "box", Shape: space.Box,
		Half: ci.Vector2{X: 0.05, Y: 1}, Radius: 1.01, Height: 0.5, Pos: ci.Vector2{X: 0.5}}
	ep := space.Body{ID: "ep0", Type: "e-puck", Shape: space.Disc,
		Radius: 0.035, Height: 0.086, Movable: true}
	s.Add(wall)
	self := s.Add(ep)
	s.Reindex()

	// A 1 m ray from the robot's centre, at the sensors' height; the robot
	// does not see itself.
	t, hit := s.CastRay(ci.Vector2{}, ci.Vector2{X: 1}, 0.06, self)
	fmt.Printf("hit %s at %.2f m\n", s.Bodies[hit].ID, t) // t is a fraction of 1 m

	// Too high: the ray passes over the wall.
	_, hit = s.CastRay(ci.Vector2{}, ci.Vector2{X: 1}, 0.6, self)
	fmt.Println("at 0.6 m:", hit)
	// Output:
	// hit wall at 0.45 m
	// at 0.6 m: -1
}

// Placement tells whether a new robot fits before it is added.
func ExamplePlacement() {
	s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 1, Y: 1, Z: 1})
	p := space.NewPlacement(s)
	for _, x := range []float64{0, 0.05, 0.1, 0.48} {
		b := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Pos: ci.Vector2{X: x}, Movable: true}
		if !p.Fits(&b) {
			fmt.Printf("x=%g: does not fit\n", x)
			continue
		}
		p.Insert(s.Add(b))
		fmt.Printf("x=%g: placed\n", x)
	}
	// Output:
	// x=0: placed
	// x=0.05: does not fit
	// x=0.1: placed
	// x=0.48: does not fit
}

// Gap is the distance between two footprints, negative when they overlap.
func ExampleGap() {
	a := space.Body{Shape: space.Disc, Radius: 0.1}
	b := space.Body{Shape: space.Box, Half: ci.Vector2{X: 0.5, Y: 0.1}, Pos: ci.Vector2{X: 1}}
	a.SetYaw(0)
	b.SetYaw(0)
	fmt.Printf("%.2f\n", space.Gap(&a, &b))
	b.Pos.X = 0.55
	fmt.Printf("%.2f\n", space.Gap(&a, &b))
	// Output:
	// 0.40
	// -0.05
}
