package config_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/argosgo/argos/config"
)

const tiny = `<?xml version="1.0" ?>
<argos-configuration>
  <framework>
    <experiment length="60" ticks_per_second="10" random_seed="124" />
  </framework>
  <controllers>
    <epuck_diffusion_controller id="edc">
      <actuators><differential_steering implementation="default" /></actuators>
      <sensors><epuck_proximity implementation="default" show_rays="false" /></sensors>
      <params velocity="5" />
    </epuck_diffusion_controller>
  </controllers>
  <arena size="2,2,1" center="0,0,0.5">
    <box id="wall" size="2,0.1,0.5" movable="false">
      <body position="0,1,0" orientation="0,0,0" />
    </box>
    <distribute>
      <position method="grid" center="0,0,0" distances="0.2,0.2,0" layout="2,2,1" />
      <orientation method="constant" values="90,0,0" />
      <entity quantity="3" max_trials="1">
        <e-puck id="ep"><controller config="edc" /></e-puck>
      </entity>
    </distribute>
  </arena>
  <physics_engines><dynamics2d id="dyn2d" /></physics_engines>
  <media />
</argos-configuration>
`

func Example() {
	x, err := config.Parse("exp.argos", []byte(tiny))
	if err != nil {
		fmt.Println(err)
		return
	}
	fw := x.Framework
	fmt.Printf("%d ticks at %d ticks/s, seed %d\n", fw.Ticks(), fw.TicksPerSecond, fw.RandomSeed)

	c := x.Controllers[0]
	velocity, _ := c.Params.FloatOr("velocity", 1)
	fmt.Printf("controller %s (%s): %s -> %s, velocity %g\n",
		c.ID, c.Label, c.Sensors[0].Tag, c.Actuators[0].Tag, velocity)

	// The simulator reads the arena's entities with the Node helpers; their
	// errors point at the element.
	box := x.Arena.FirstChild("box")
	size, _ := box.Vector3("size")
	movable, _ := box.BoolOr("movable", true)
	fmt.Printf("%s: size %v, movable %t\n", box.Describe(), size, movable)
	body, _ := box.Child("body")
	if _, err := body.Float("mass"); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 600 ticks at 10 ticks/s, seed 124
	// controller edc (epuck_diffusion_controller): epuck_proximity -> differential_steering, velocity 5
	// <box id="wall">: size {2 0.1 0.5}, movable false
	// exp.argos:15: <body> in <box id="wall">: attribute "mass" is missing; add mass="..." with a number, like 0.5
}

func ExampleParse_error() {
	_, err := config.Parse("exp.argos", []byte(`<argos-configuration>
  <framework>
    <experiment length="60" ticks_per_second="ten" />
  </framework>
</argos-configuration>`))
	fmt.Println(err)
	// Output:
	// exp.argos:3: <experiment>: attribute ticks_per_second="ten" is not an integer; write it like 10
}

func ExampleParseDistribute() {
	x, err := config.Parse("exp.argos", []byte(tiny))
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := config.ParseDistribute(x.Arena.FirstChild("distribute"))
	if err != nil {
		fmt.Println(err)
		return
	}
	r := rand.New(rand.NewPCG(1, 2)) // the simulator derives it from the experiment seed
	for i := range d.Quantity {
		pos, orient, err := d.Sample(r, false)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("<%s id=%q> at %v, yaw %g°\n", d.Template.Name, d.ID(i), pos, orient.Z)
	}
	// Output:
	// <e-puck id="ep0"> at {0.1 0.1 0}, yaw 90°
	// <e-puck id="ep1"> at {-0.1 0.1 0}, yaw 90°
	// <e-puck id="ep2"> at {0.1 -0.1 0}, yaw 90°
}

func ExampleNode_AttrErrorf() {
	x, _ := config.Parse("exp.argos", []byte(tiny))
	box := x.Arena.FirstChild("box")
	fmt.Println(box.AttrErrorf("size", "the box is thinner than the minimum of 0.2 m; write a thickness of at least 0.2"))
	// Output:
	// exp.argos:14: <box id="wall">: attribute size="2,0.1,0.5": the box is thinner than the minimum of 0.2 m; write a thickness of at least 0.2
}
