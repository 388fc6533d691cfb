package simulator_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

const cameraController = `
    <test_constant id="cam">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><colored_blob_omnidirectional_camera implementation="rot_z_only" medium="leds"/></sensors>
      <params left="0" right="0"/>
    </test_constant>`

// camera returns the omnidirectional camera of robot i, enabled.
func camera(t *testing.T, sim *simulator.Simulator, i int) ci.ColoredBlobCamera {
	t.Helper()
	for _, d := range sim.RobotDevices(i) {
		if c, ok := d.Impl.(ci.ColoredBlobCamera); ok && d.Tag == ci.TagOmnidirectionalCamera {
			c.Enable()
			return c
		}
	}
	t.Fatal("robot has no omnidirectional camera")
	return nil
}

// Boxes and cylinders carry LEDs (ARGoS's <leds> inside them): the LED
// medium named by their <leds medium> shows them to cameras, they move
// with the object, loop functions may recolour them, and Reset brings
// back the file's colours.
func TestObjectLEDsSeenByCameras(t *testing.T) {
	sim := build(t, experiment("10", cameraController, `
    <foot-bot id="fb"><body position="0,0,0" orientation="0,0,0"/><controller config="cam"/></foot-bot>
    <cylinder id="prey" radius="0.05" height="0.1" movable="true" mass="0.1">
      <body position="0.5,0,0"/>
      <leds medium="leds"><led offset="0,0,0.1" anchor="origin" color="yellow"/></leds>
    </cylinder>
    <box id="post" size="0.1,0.1,0.2" movable="false">
      <body position="0,-0.5,0"/>
      <leds medium="other"><led offset="0,0,0.2" color="green"/></leds>
    </box>
    <box id="dark" size="0.1,0.1,0.2" movable="false">
      <body position="0,0.5,0"/>
      <leds medium="leds"><led offset="0,0,0.2" color="black"/></leds>
    </box>`, `<media><led id="leds"/><led id="other"/></media>`), simulator.Options{})
	w := sim.World()
	if len(w.ObjectLEDs) != 3 {
		t.Fatalf("World.ObjectLEDs has %d objects, want 3", len(w.ObjectLEDs))
	}
	cam := camera(t, sim, 0)
	see := func(what string) []ci.Blob {
		t.Helper()
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		return cam.Blobs()
	}
	// The green LED is in another medium, the black one is off: only
	// the prey's shows, 0.5 m ahead.
	bs := see("start")
	if len(bs) != 1 || bs[0].Color != ci.Yellow || math.Abs(bs[0].Distance-0.5) > 1e-9 || math.Abs(bs[0].Angle) > 1e-9 {
		t.Fatalf("the camera sees %+v; want the yellow LED 0.5 m ahead", bs)
	}

	// Moved to the robot's left, the prey takes its LED along.
	h, ok := sim.Body("prey")
	if !ok {
		t.Fatal("no prey")
	}
	if err := sim.MoveBody(h, ci.Vector3{Y: 0.3}, 0); err != nil {
		t.Fatal(err)
	}
	bs = see("moved")
	if len(bs) != 1 || math.Abs(bs[0].Distance-0.3) > 1e-3 || math.Abs(bs[0].Angle-math.Pi/2) > 1e-3 {
		t.Fatalf("after the move the camera sees %+v; want the LED 0.3 m to the left", bs)
	}

	// Loop functions may change colours between ticks.
	w.ObjectLEDs[0].LEDs[0].Color = ci.Cyan
	w.ObjectLEDs[2].LEDs[0].Color = ci.Magenta
	bs = see("recoloured")
	if len(bs) != 2 || bs[0].Color != ci.Cyan || bs[1].Color != ci.Magenta {
		t.Fatalf("after recolouring the camera sees %+v; want cyan and magenta", bs)
	}
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if c := w.ObjectLEDs[0].LEDs[0].Color; c != ci.Yellow {
		t.Errorf("after Reset the prey's LED is %v, want yellow", c)
	}

	// A removed object's LEDs go dark.
	if err := sim.RemoveEntity("prey"); err != nil {
		t.Fatal(err)
	}
	cam.Enable()
	if bs = see("removed"); len(bs) != 0 {
		t.Errorf("after removing the prey the camera sees %+v", bs)
	}
}

func TestObjectLEDsNeedTheirMedium(t *testing.T) {
	err := buildErr(t, experiment("1", "", `
    <cylinder id="prey" radius="0.05" height="0.1" movable="false">
      <body position="0.5,0,0"/>
      <leds medium="lights"><led offset="0,0,0.1" color="yellow"/></leds>
    </cylinder>`, `<media><led id="leds"/></media>`))
	contains(t, err, `cylinder id="prey"`, `medium="lights"`, "declare it under <media>")

	err = buildErr(t, experiment("1", "", `
    <cylinder id="prey" radius="0.05" height="0.1" movable="false">
      <body position="0.5,0,0"/>
      <leds medium="rab"><led offset="0,0,0.1" color="yellow"/></leds>
    </cylinder>`, `<media><range_and_bearing id="rab"/></media>`))
	contains(t, err, `medium="rab"`, "not the kind")
}

// An LED medium in an arena without robots (LEDs on objects only) works:
// it used to index past its empty table of robot LEDs.
func TestLEDMediumWithoutRobots(t *testing.T) {
	sim := build(t, experiment("1", "", `
    <box id="b" size="0.2,0.2,0.2" movable="false"><body position="0.5,0,0"/>
      <leds medium="leds"><led offset="0,0,0.2" anchor="origin" color="red"/></leds></box>`,
		`<media><led id="leds"/></media>`), simulator.Options{})
	for sim.Tick() < 5 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if sim.NumRobots() != 0 || len(sim.World().ObjectLEDs) != 1 {
		t.Fatalf("%d robots, %d objects with LEDs", sim.NumRobots(), len(sim.World().ObjectLEDs))
	}
}
