package foraging_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/loop_functions/foraging"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// forager is a stand-in for footbot_foraging_controller: it drives at the
// speed of its params and keeps the food data the loop functions write.
// It rests while its params say so.
type forager struct {
	wheels   ci.DifferentialSteeringActuator
	speed    float64
	resting  bool
	carrying bool
	item     int
	total    int
}

func (c *forager) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	if c.speed, err = p.FloatOr("speed", 0); err != nil {
		return err
	}
	c.resting, err = p.BoolOr("resting", false)
	return err
}
func (c *forager) ControlStep()              { c.wheels.SetLinearVelocity(c.speed, c.speed) }
func (c *forager) Reset()                    { c.carrying, c.item, c.total = false, 0, 0 }
func (c *forager) Destroy() error            { return nil }
func (c *forager) IsResting() bool           { return c.resting }
func (c *forager) Carrying() (int, bool)     { return c.item, c.carrying }
func (c *forager) PickUp(i int)              { c.carrying, c.item = true, i }
func (c *forager) Drop() int                 { c.carrying = false; c.total++; return c.item }
func (c *forager) Food() (carry bool, n int) { return c.carrying, c.total }

var _ foraging.Forager = (*forager)(nil)

func init() {
	ci.Controllers.MustRegister("loop_test_forager", "A fake forager for the loop functions' tests.",
		func() ci.Controller { return &forager{} })
}

const foragingXML = `<?xml version="1.0" ?>
<argos-configuration>
  <framework>
    <experiment length="0" ticks_per_second="10" random_seed="7" />
  </framework>
  <controllers>
    <loop_test_forager id="walk">
      <actuators><differential_steering implementation="default" /></actuators>
      <params speed="0" />
    </loop_test_forager>
    <loop_test_forager id="rest">
      <actuators><differential_steering implementation="default" /></actuators>
      <params resting="true" />
    </loop_test_forager>
    <footbot_diffusion_controller id="other">
      <actuators><differential_steering implementation="default" /></actuators>
      <sensors><footbot_proximity implementation="default" /></sensors>
    </footbot_diffusion_controller>
  </controllers>
  <loop_functions label="foraging_loop_functions">
    <foraging %s />
  </loop_functions>
  <arena size="5, 5, 1" center="0,0,0.5">
    <foot-bot id="w0"><body position="0,0,0" /><controller config="walk" /></foot-bot>
    <foot-bot id="w1"><body position="1,1.5,0" /><controller config="walk" /></foot-bot>
    <foot-bot id="r0"><body position="-1.5,0,0" /><controller config="rest" /></foot-bot>
    <foot-bot id="d0"><body position="-1.5,1,0" /><controller config="other" /></foot-bot>
  </arena>
  <physics_engines><dynamics2d id="dyn2d" /></physics_engines>
</argos-configuration>
`

// newForaging builds the arena above with the given <foraging> attributes
// and loop functions that the test drives by hand (the simulator gets
// none).
func newForaging(t *testing.T, attrs string) (*simulator.Simulator, *foraging.Foraging) {
	t.Helper()
	exp, err := config.Parse("foraging_test.argos", []byte(fmt.Sprintf(foragingXML, attrs)))
	if err != nil {
		t.Fatal(err)
	}
	lfs := exp.LoopFunctions
	exp.LoopFunctions = nil
	sim, err := simulator.New(exp, simulator.Options{OutputDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	lf := foraging.NewForaging()
	if err := lf.Init(sim, lfs.Node); err != nil {
		t.Fatal(err)
	}
	return sim, lf
}

func move(t *testing.T, sim *simulator.Simulator, id string, p ci.Vector2) {
	t.Helper()
	h, ok := sim.Body(id)
	if !ok {
		t.Fatalf("no body %q", id)
	}
	if err := sim.MoveBody(h, ci.Vector3{X: p.X, Y: p.Y}, 0); err != nil {
		t.Fatal(err)
	}
}

// tick runs one tick as the simulator does: PreStep then PostStep around
// the robots' control step (the loop functions are driven by hand here).
func tick(t *testing.T, sim *simulator.Simulator, lf *foraging.Foraging) {
	t.Helper()
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	lf.PreStep()
	lf.PostStep()
}

func TestForagingItemsAndFloor(t *testing.T) {
	sim, lf := newForaging(t, `items="15" radius="0.1"`)
	items := lf.Items()
	if len(items) != 15 {
		t.Fatalf("%d items, want 15", len(items))
	}
	for i, it := range items {
		if it.X < -0.9 || it.X > 1.7 || it.Y < -1.7 || it.Y > 1.7 {
			t.Errorf("item %d at %v, outside ARGoS's [-0.9, 1.7] x [-1.7, 1.7]", i, it)
		}
	}
	w := sim.World()
	for _, tc := range []struct {
		p    ci.Vector2
		want ci.Color
	}{
		{ci.Vector2{X: -1.5, Y: 0}, ci.Gray50},
		{ci.Vector2{X: -1.01, Y: 1.9}, ci.Gray50},
		{items[3], ci.Black},
		{items[3].Add(ci.Vector2{X: 0.099}), ci.Black},
		{items[3].Add(ci.Vector2{X: 0.0707, Y: -0.0707}), ci.Black},
	} {
		if got := w.FloorColor(tc.p); got != tc.want {
			t.Errorf("floor at %v is %v, want %v", tc.p, got, tc.want)
		}
	}
	// Far from every item and out of the nest: white.
	white := ci.Vector2{X: -0.95, Y: -1.95}
	for _, it := range items {
		if white.Sub(it).Length() < 0.1 {
			t.Skip("an item lies on the test point")
		}
	}
	if got := w.FloorColor(white); got != ci.White {
		t.Errorf("floor at %v is %v, want white", white, got)
	}
	// The same seed scatters the same items.
	_, again := newForaging(t, `items="15" radius="0.1"`)
	if fmt.Sprint(again.Items()) != fmt.Sprint(items) {
		t.Error("the same seed scatters other items")
	}
}

func TestForagingPickAndDrop(t *testing.T) {
	sim, lf := newForaging(t, `items="3" radius="0.1" energy_per_item="1000" energy_per_walking_robot="1" output="stats.txt"`)
	items := lf.Items()
	c := sim.Controller(0).(*forager)

	// w0 stands on item 1: it picks it up, the spot leaves the floor.
	move(t, sim, "w0", items[1])
	tick(t, sim, lf)
	if carry, _ := c.Food(); !carry || c.item != 1 {
		t.Fatalf("w0 on item 1: carrying %v item %d", carry, c.item)
	}
	if got := lf.Items()[1]; got != (ci.Vector2{X: 100, Y: 100}) {
		t.Errorf("picked item at %v, want (100, 100)", got)
	}
	if got := sim.World().FloorColor(items[1]); got == ci.Black {
		t.Error("the picked item is still on the floor")
	}
	if lf.Walking() != 2 || lf.Resting() != 1 {
		t.Errorf("walking %d resting %d, want 2 and 1 (the diffusion robot is not counted)", lf.Walking(), lf.Resting())
	}
	// A robot that carries an item picks no other.
	move(t, sim, "w0", items[2])
	tick(t, sim, lf)
	if c.item != 1 || lf.Items()[2] != items[2] {
		t.Errorf("a carrying robot took item 2 too")
	}
	// In the nest it drops the item: counted, energy, a new item.
	move(t, sim, "w0", ci.Vector2{X: -1.3, Y: -1})
	tick(t, sim, lf)
	if carry, total := c.Food(); carry || total != 1 || lf.Collected() != 1 {
		t.Fatalf("after the nest: carrying %v, robot total %d, collected %d", carry, total, lf.Collected())
	}
	if got := lf.Items()[1]; got == (ci.Vector2{X: 100, Y: 100}) || got == items[1] {
		t.Errorf("item 1 at %v after the drop, want a new random place", got)
	}
	// Energy: -2 per tick for three ticks, +1000 for the item.
	if lf.Energy() != 1000-6 {
		t.Errorf("energy %d, want 994", lf.Energy())
	}
	// An empty-handed robot in the nest picks nothing.
	tick(t, sim, lf)
	if carry, _ := c.Food(); carry {
		t.Error("picked something in the nest")
	}
	lf.PostExperiment()
	data, err := os.ReadFile(filepath.Join(sim.OutputPath("stats.txt")))
	if err != nil {
		t.Fatal(err)
	}
	want := foraging.ForagingHeader + "\n1\t2\t1\t0\t-2\n2\t2\t1\t0\t-4\n3\t2\t1\t1\t994\n4\t2\t1\t1\t992\n"
	if string(data) != want {
		t.Errorf("stats file:\n%s\nwant:\n%s", data, want)
	}
	if err := lf.Destroy(); err != nil {
		t.Error(err)
	}
}

func TestForagingReset(t *testing.T) {
	sim, lf := newForaging(t, `items="4" output="stats.txt"`)
	items := lf.Items()
	move(t, sim, "w0", items[0])
	tick(t, sim, lf)
	tick(t, sim, lf)
	if err := lf.Reset(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lf.Items()) != fmt.Sprint(items) || lf.Collected() != 0 || lf.Energy() != 0 {
		t.Errorf("after Reset: items %v (want %v), collected %d, energy %d", lf.Items(), items, lf.Collected(), lf.Energy())
	}
	tick(t, sim, lf)
	lf.PostExperiment()
	data, _ := os.ReadFile(sim.OutputPath("stats.txt"))
	if lines := strings.Split(strings.TrimSpace(string(data)), "\n"); len(lines) != 2 || lines[0] != foraging.ForagingHeader {
		t.Errorf("stats file after Reset and one tick: %q", lines)
	}
	if err := lf.Destroy(); err != nil {
		t.Error(err)
	}
	if err := lf.Destroy(); err != nil {
		t.Errorf("second Destroy: %v", err)
	}
}

// Through the simulator, as .argos files use it: registered, driven by
// the run, floor installed, file written in the run folder.
func TestForagingRegisteredAndRun(t *testing.T) {
	exp, err := config.Parse("foraging_test.argos", []byte(fmt.Sprintf(foragingXML, `output="foraging.txt"`)))
	if err != nil {
		t.Fatal(err)
	}
	exp.Framework.Length = 1 // 10 ticks
	dir := t.TempDir()
	sim, err := simulator.New(exp, simulator.Options{OutputDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sim.World().Floor == nil || sim.World().FloorColor(ci.Vector2{X: -1.5}) != ci.Gray50 {
		t.Error("the loop functions did not give the arena its floor")
	}
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "foraging.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 11 || lines[0] != foraging.ForagingHeader || lines[10] != "10\t2\t1\t0\t-20" {
		t.Errorf("foraging.txt: %q", lines)
	}
}

func TestForagingDefaultsAndErrors(t *testing.T) {
	_, lf := newForaging(t, ``)
	if len(lf.Items()) != 15 {
		t.Errorf("%d items by default, want ARGoS's 15", len(lf.Items()))
	}
	for _, tc := range []struct{ attrs, want string }{
		{`items="-1"`, `items="-1"`},
		{`items="many"`, "items"},
		{`radius="0"`, `radius="0"`},
		{`radius="x"`, "radius"},
		{`energy_per_item="1.5"`, "energy_per_item"},
		{`energy_per_walking_robot="x"`, "energy_per_walking_robot"},
		{`itemz="3"`, `"itemz"`},
		{`output="/nonexistent/dir/f.txt"`, "output"},
	} {
		exp, err := config.Parse("foraging_test.argos", []byte(fmt.Sprintf(foragingXML, tc.attrs)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = simulator.New(exp, simulator.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "foraging_test.argos:") {
			t.Errorf("%s: error %v, want one mentioning %s and the file", tc.attrs, err, tc.want)
		}
	}
	if _, err := simulator.LoopFunctionsTypes.Lookup(foraging.ForagingLabel); err != nil || foraging.ForagingLabel != "foraging_loop_functions" {
		t.Error(err)
	}
}
