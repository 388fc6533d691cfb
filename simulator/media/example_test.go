package media_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/media"
	"github.com/argosgo/argos/simulator/space"
)

// Occluded is the line-of-sight test of the media and of the sensors that
// look at lights: a wall 0.3 m high hides what lies behind it at 0.1 m,
// not what a line passes over.
func ExampleOccluded() {
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 4, Y: 4, Z: 1})
	wall := space.Body{Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.05, Y: 1}, Radius: 1.01, Height: 0.3}
	sp.Add(wall)
	sp.Reindex()
	low := media.Occluded(sp, ci.Vector3{X: -1, Z: 0.1}, ci.Vector3{X: 1, Z: 0.1}, -1, -1)
	high := media.Occluded(sp, ci.Vector3{X: -1, Z: 0.5}, ci.Vector3{X: 1, Z: 0.5}, -1, -1)
	fmt.Println(low, high)
	// Output: true false
}
