package entity_test

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// Entities are parsed from the children of <arena> through the Types
// registry, by tag.
func Example() {
	x, err := config.Parse("exp.argos", []byte(`<argos-configuration>
  <framework><experiment ticks_per_second="10" /></framework>
  <controllers />
  <arena size="4,4,1">
    <box id="wall" size="4,0.1,0.5" movable="false"><body position="0,2,0" /></box>
    <e-puck id="ep0">
      <body position="0.5,0,0" orientation="90,0,0" />
      <controller config="edc" />
    </e-puck>
  </arena>
</argos-configuration>`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range x.Arena.Children {
		parse, err := entity.Types.Lookup(n.Name)
		if err != nil {
			fmt.Println(err)
			return
		}
		s, err := parse(n)
		if err != nil {
			fmt.Println(err)
			return
		}
		b := s.Body
		fmt.Printf("%s %q at (%g, %g) facing %g deg, radius %.3f m, movable %v, controller %q\n",
			s.Tag, s.ID, b.Pos.X, b.Pos.Y, b.Yaw*180/math.Pi, b.Radius, b.Movable, s.ControllerID)
	}
	// Output:
	// box "wall" at (0, 2) facing 0 deg, radius 2.001 m, movable false, controller ""
	// e-puck "ep0" at (0.5, 0) facing 90 deg, radius 0.035 m, movable true, controller "edc"
}

// The proximity response curves map the distance from a sensor to the
// obstacle (metres) to a reading in [0, 1].
func ExampleEPuckProximityResponse() {
	for _, d := range []float64{0, 0.01, 0.03, 0.05, 0.08} {
		fmt.Printf("e-puck %.2f m: %.3f   foot-bot: %.3f\n", d,
			entity.EPuckProximityResponse(d), entity.FootBotProximityResponse(d))
	}
	// Output:
	// e-puck 0.00 m: 1.000   foot-bot: 1.000
	// e-puck 0.01 m: 0.743   foot-bot: 0.989
	// e-puck 0.03 m: 0.244   foot-bot: 0.333
	// e-puck 0.05 m: 0.000   foot-bot: 0.200
	// e-puck 0.08 m: 0.000   foot-bot: 0.125
}
