package dynamics2d_test

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
	"github.com/argosgo/argos/simulator/space"
)

// A foot-bot driven at 10 cm/s on both wheels for 100 ticks of 0.1 s, the
// way the simulator runs an engine: Step, Commit, then the space's
// Reindex.
func ExampleNew() {
	exp, err := config.Parse("x.argos", []byte(`<argos-configuration>
  <framework><experiment ticks_per_second="10"/></framework>
  <controllers/>
  <arena size="4,4,1" center="0,0,0.5"/>
  <physics_engines><dynamics2d id="dyn2d" iterations="10"/></physics_engines>
</argos-configuration>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	sp := space.New(exp.ArenaCenter, exp.ArenaSize)
	eng, err := dynamics2d.New(exp.PhysicsEngines[0], physics.Env{Space: sp, Index: 0, TickLength: 0.1})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close()
	fb := sp.Add(space.Body{
		ID: "fb0", Type: "foot-bot", Shape: space.Disc, Radius: 0.085036758, Height: 0.146899733,
		Pos: ci.Vector2{X: -0.5}, Movable: true, Mass: 1.6, MaxForce: 15, MaxTorque: 150,
	})
	if err := eng.Add(fb); err != nil {
		fmt.Println(err)
		return
	}
	sp.Reindex()
	sp.Drive[fb].V = 0.1 // m/s: both wheels at 10 cm/s
	for tick := 0; tick < 100; tick++ {
		eng.Step(0.1, physics.Serial{})
		eng.Commit(physics.Serial{})
		sp.Reindex()
	}
	b := sp.Bodies[fb]
	fmt.Printf("%s at (%.3f, %.3f), heading %.1f, speed %.2f m/s\n", b.ID, b.Pos.X, b.Pos.Y, b.Yaw, b.Vel.Length())
	// Output:
	// fb0 at (0.499, 0.000), heading 0.0, speed 0.10 m/s
}
