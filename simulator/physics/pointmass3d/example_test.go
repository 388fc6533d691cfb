package pointmass3d_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/pointmass3d"
	"github.com/argosgo/argos/simulator/space"
)

// An eye-bot on the floor takes off to a set-point: the engine gives it a
// Flight when it takes it; a quadrotor actuator would write the set-point,
// here the example does.
func Example() {
	sp := space.New(ci.Vector3{Z: 1.5}, ci.Vector3{X: 4, Y: 4, Z: 3})
	eng := pointmass3d.NewEngine("pm3d", physics.Env{Space: sp, TickLength: 0.1})
	i := sp.Add(space.Body{ID: "eb0", Type: "eye-bot", Shape: space.Disc, Radius: 0.25, Height: 0.566, Mass: 1, Movable: true})
	if err := eng.Add(i); err != nil {
		fmt.Println(err)
		return
	}
	sp.Reindex()
	f := sp.Bodies[i].Flight()
	f.Mode, f.Position = space.ToPosition, ci.Vector3{X: 0.5, Y: 0, Z: 1.5}
	for tick := 1; tick <= 40; tick++ {
		eng.Step(0.1, physics.Serial{})
		eng.Commit(physics.Serial{})
		sp.Reindex()
		if tick%10 == 0 {
			b := &sp.Bodies[i]
			fmt.Printf("%.0f s: x %.3f z %.3f\n", float64(tick)/10, b.Pos.X, b.Z)
		}
	}
	// Output:
	// 1 s: x 0.518 z 1.478
	// 2 s: x 0.501 z 1.498
	// 3 s: x 0.500 z 1.500
	// 4 s: x 0.500 z 1.500
}
