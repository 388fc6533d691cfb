package frames_test

import (
	"image/color"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/render/frames"
)

// marker draws a filled red disc, a green ring, a label, and paints fb0
// magenta with its id above it.
type marker struct{ simulator.UserFunctionsBase }

func (*marker) DrawInWorld(c *simulator.Canvas) {
	c.Circle(ci.Vector3{X: 1, Y: 1}, 0.2, ci.Red, true)
	c.Circle(ci.Vector3{X: -1, Y: 1}, 0.3, ci.Green, false)
	c.Polyline([]ci.Vector3{{X: -1, Y: -1}, {X: 1, Y: -1}}, ci.Yellow, 4)
	c.Box(ci.Vector3{X: -1, Y: -0.5}, ci.Vector3{X: 0.2, Y: 0.2, Z: 0.1}, 0, ci.Blue, true)
	c.RobotColor("fb0", ci.Magenta)
	c.RobotText("fb0", "fb0", ci.White)
}

func init() {
	simulator.UserFunctionsTypes.MustRegister("frames_test_marker", "test: draws marks", func() simulator.UserFunctions { return &marker{} })
}

func TestUserFunctionsAreDrawn(t *testing.T) {
	exp, err := config.Parse("m.argos", []byte(`<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="1" ticks_per_second="10" random_seed="3"/></framework>
  <controllers><footbot_diffusion_controller id="d"><actuators><differential_steering implementation="default"/></actuators>
    <sensors><footbot_proximity implementation="default"/></sensors></footbot_diffusion_controller></controllers>
  <arena size="4,4,1" center="0,0,0.5">
    <foot-bot id="fb0"><body position="0,0,0" orientation="0,0,0"/><controller config="d"/></foot-bot>
  </arena>
  <physics_engines><dynamics2d id="dyn"/></physics_engines>
  <visualization><frames directory="unused"><user_functions label="frames_test_marker"/></frames></visualization>
</argos-configuration>`))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the <frames> writer's directory
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	r := frames.NewRenderer(sim, 400) // 100 px per metre
	img := r.Render(nil)
	at := func(x, y float64) color.RGBA {
		// arena (x, y) to pixels: origin in the middle, y up
		return img.RGBAAt(int(200+x*100), int(200-y*100))
	}
	near := func(c color.RGBA, want ci.Color) bool {
		d := func(a, b uint8) int { return max(int(a), int(b)) - min(int(a), int(b)) }
		return d(c.R, want.R) < 40 && d(c.G, want.G) < 40 && d(c.B, want.B) < 40
	}
	for _, tc := range []struct {
		x, y float64
		want ci.Color
		what string
	}{
		{1, 1, ci.Red, "the centre of the filled disc"},
		{-1, 1.3, ci.Green, "the ring"},
		{0, -1, ci.Yellow, "the line"},
		{-1, -0.5, ci.Blue, "the box"},
		{0.03, 0.03, ci.Magenta, "the robot painted by RobotColor"},
	} {
		found := false // within a pixel or two: lines are anti-aliased
		for dx := -0.02; dx <= 0.02 && !found; dx += 0.01 {
			for dy := -0.02; dy <= 0.02 && !found; dy += 0.01 {
				found = near(at(tc.x+dx, tc.y+dy), tc.want)
			}
		}
		if !found {
			t.Errorf("%s at (%g, %g) is %v, want %v", tc.what, tc.x, tc.y, at(tc.x, tc.y), tc.want)
		}
	}
	if c := at(-1, 1); near(c, ci.Green) {
		t.Error("the ring is filled")
	}
	// the id: white pixels in the band above the robot
	white := 0
	for y := 200 - 8 - 14; y < 200-8; y++ {
		for x := 185; x < 215; x++ {
			if c := img.RGBAAt(x, y); c.R > 200 && c.G > 200 && c.B > 200 {
				white++
			}
		}
	}
	if white < 10 {
		t.Errorf("%d white pixels where the robot's id should be written", white)
	}
}
