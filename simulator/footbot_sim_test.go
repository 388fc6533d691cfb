package simulator_test

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// gripTester locks its gripper at tick 1, backs away at 10 cm/s, and
// unlocks at tick "release".
type gripTester struct {
	g        ci.Gripper
	w        ci.DifferentialSteeringActuator
	release  int
	tick     int
	gripping []bool
}

func (c *gripTester) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.g, err = ci.GetActuator[ci.Gripper](r, ci.TagFootBotGripper); err != nil {
		return err
	}
	if c.w, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	c.release, err = p.IntOr("release", 40)
	return err
}

func (c *gripTester) ControlStep() {
	c.gripping = append(c.gripping, c.g.Gripping())
	switch c.tick {
	case 0:
		c.g.Lock()
	case c.release:
		c.g.Unlock()
	}
	if c.tick > 0 {
		c.w.SetLinearVelocity(-10, -10)
	}
	c.tick++
}
func (c *gripTester) Reset()         { c.tick = 0 }
func (c *gripTester) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_gripper", "test: locks, backs away, unlocks at tick 'release'", func() ci.Controller { return &gripTester{} })
}

// A foot-bot grips a prey (a movable cylinder) in front of it and drags
// it while backing away; the prey keeps its distance; on unlock it stays
// where it was let go.
func TestFootBotGripsAndDragsPrey(t *testing.T) {
	ctrl := `<test_gripper id="grip">
      <actuators><differential_steering implementation="default"/><footbot_gripper implementation="default"/></actuators>
      <sensors/><params release="40"/></test_gripper>`
	xml := experiment("0", ctrl, `
    <foot-bot id="fb"><body position="0,0,0" orientation="0,0,0"/><controller config="grip"/></foot-bot>
    <cylinder id="prey" radius="0.05" height="0.1" movable="true" mass="0.1"><body position="0.14,0,0"/></cylinder>
    <cylinder id="other" radius="0.05" height="0.1" movable="true" mass="0.1"><body position="-0.5,1,0"/></cylinder>`, "")
	sim := build(t, xml, simulator.Options{})
	fb, _ := sim.Body("fb")
	prey, _ := sim.Body("prey")
	other, _ := sim.Body("other")
	sp := sim.Space()
	dist := func() float64 { return sp.Bodies[prey].Pos.Sub(sp.Bodies[fb].Pos).Length() }
	d0 := dist()
	otherAt := sp.Bodies[other].Pos
	for sim.Tick() < 40 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		if sim.Tick() > 2 && math.Abs(dist()-d0) > 0.01 {
			t.Fatalf("tick %d: prey %.4f m from the robot, was %.4f: it does not follow", sim.Tick(), dist(), d0)
		}
	}
	c := sim.Controller(0).(*gripTester)
	if !c.gripping[2] || c.gripping[0] {
		t.Fatalf("Gripping() over the first ticks: %v; want false, then true once the joint is made", c.gripping[:3])
	}
	if x := sp.Bodies[prey].Pos.X; x > -0.2 {
		t.Fatalf("prey at x = %.3f after 4 s of dragging; it should have followed the robot back", x)
	}
	if sp.Bodies[other].Pos != otherAt {
		t.Error("a cylinder nobody touched moved")
	}
	for sim.Tick() < 42 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	let := sp.Bodies[prey].Pos
	for sim.Tick() < 60 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if moved := sp.Bodies[prey].Pos.Sub(let).Length(); moved > 0.01 {
		t.Errorf("released prey moved %.3f m", moved)
	}
	if d := dist(); d < d0+0.1 {
		t.Errorf("the robot did not leave the released prey behind: %.3f m apart", d)
	}
	if c.gripping[len(c.gripping)-1] {
		t.Error("Gripping() is still true after Unlock")
	}
	// Reset releases and starts over
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	for sim.Tick() < 5 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if math.Abs(dist()-d0) > 0.01 {
		t.Errorf("after Reset the prey is %.3f m from the robot, want %.3f", dist(), d0)
	}
}

// The floor of an image: the image is stretched over the arena, its top
// row along the largest Y.
func TestImageFloor(t *testing.T) {
	dir := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{0, 0, 0, 255})       // top left: black
	img.Set(1, 0, color.RGBA{255, 255, 255, 255}) // top right: white
	img.Set(0, 1, color.RGBA{255, 0, 0, 255})     // bottom left: red
	img.Set(1, 1, color.RGBA{128, 128, 128, 255}) // bottom right: grey
	f, err := os.Create(filepath.Join(dir, "floor.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	xml := experiment("0", constantController, `
    <floor id="floor" source="image" path="`+filepath.Join(dir, "floor.png")+`" pixels_per_meter="10"/>
    <foot-bot id="fb"><body position="0,0,0"/><controller config="tc"/></foot-bot>`, "")
	sim := build(t, xml, simulator.Options{})
	w := sim.World()
	for _, c := range []struct {
		x, y float64
		want ci.Color
	}{{-1, 1, ci.Black}, {1, 1, ci.White}, {-1, -1, ci.Red}, {1, -1, ci.Color{R: 128, G: 128, B: 128, A: 255}}} {
		if got := w.FloorColor(ci.Vector2{X: c.x, Y: c.y}); got != c.want {
			t.Errorf("floor at (%g, %g) is %v, want %v", c.x, c.y, got, c.want)
		}
	}
	err = buildErr(t, strings.Replace(xml, "floor.png", "nope.png", 1))
	contains(t, err, "path", "nope.png")
	err = buildErr(t, strings.Replace(xml, `source="image"`, `source="paint"`, 1))
	contains(t, err, "source", "loop_functions")
}
