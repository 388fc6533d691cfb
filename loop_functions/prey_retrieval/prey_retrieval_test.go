package prey_retrieval_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/loop_functions/prey_retrieval"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/gripping"

	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// preyXML is ARGoS's gripping example with a nest: the foot-bot drives
// to the prey, grips it at step 70, drags it back into the nest until
// step 120 and lets it go there.
const preyXML = `<?xml version="1.0" ?>
<argos-configuration>
  <framework>
    <experiment length="20" ticks_per_second="10" random_seed="7" />
  </framework>
  <controllers>
    <footbot_gripping_controller id="fgc">
      <actuators><differential_steering implementation="default" /><footbot_gripper implementation="default" /></actuators>
    </footbot_gripping_controller>
  </controllers>
  <loop_functions label="prey_retrieval_loop_functions">
    %s
  </loop_functions>
  <arena size="3,3,1" center="0,0,0.5">
    <floor id="floor" source="loop_functions" pixels_per_meter="50" />
    <foot-bot id="f"><body position="0,0,0" orientation="0,0,0" /><controller config="fgc" /></foot-bot>
    <cylinder id="prey" height="0.2" radius="0.1" mass="0.1" movable="true"><body position="0.5,0,0" /></cylinder>
    <cylinder id="other" height="0.2" radius="0.1" mass="0.1" movable="true"><body position="-1,-1,0" /></cylinder>
    <box id="post" size="0.1,0.1,0.1" movable="false"><body position="1,1,0" /></box>
  </arena>
  <physics_engines><dynamics2d id="dyn2d" /></physics_engines>
  <media />
</argos-configuration>`

func preySim(t *testing.T, element string, opt simulator.Options) (*simulator.Simulator, *prey_retrieval.PreyRetrieval) {
	t.Helper()
	sim, err := preySimErr(element, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	})
	lf, ok := sim.LoopFunctions().(*prey_retrieval.PreyRetrieval)
	if !ok {
		t.Fatalf("the loop functions are a %T", sim.LoopFunctions())
	}
	return sim, lf
}

func preySimErr(element string, opt simulator.Options) (*simulator.Simulator, error) {
	exp, err := config.Parse("prey.argos", []byte(fmt.Sprintf(preyXML, element)))
	if err != nil {
		return nil, err
	}
	return simulator.New(exp, opt)
}

// The floor shows the nest; a prey counts as delivered when it lies in
// the nest and no robot grips it; the run stops stop_after seconds later
// and the file lists the delivery.
func TestPreyRetrievalDelivery(t *testing.T) {
	dir := t.TempDir()
	sim, lf := preySim(t, `<prey_retrieval nest_center="0.2,0" nest_radius="0.2" nest_color="green" preys="prey, other" stop_after="1" output="prey.txt" />`,
		simulator.Options{OutputDir: dir})
	floor := sim.World().FloorColor
	if floor(ci.Vector2{X: 0.3}) != ci.Green || floor(ci.Vector2{X: 0.45}) != ci.White || floor(ci.Vector2{X: -1}) != ci.White {
		t.Errorf("floor: %v at the nest, %v and %v outside; want green, white, white",
			floor(ci.Vector2{X: 0.3}), floor(ci.Vector2{X: 0.45}), floor(ci.Vector2{X: -1}))
	}
	if c, r := lf.Nest(); c != (ci.Vector2{X: 0.2}) || r != 0.2 {
		t.Errorf("Nest() = %v, %v", c, r)
	}
	if got := lf.Preys(); len(got) != 2 || got[0] != "prey" || got[1] != "other" {
		t.Errorf("Preys() = %v", got)
	}
	h, _ := sim.Body("prey")
	entered, gripped := 0, false
	for !sim.Finished() {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		if entered == 0 && lf.InNest(sim.Space().Bodies[h].Pos) {
			entered = sim.Tick()
		}
		if lf.Gripped(h) {
			gripped = true
			if _, ok := lf.Delivered("prey"); ok {
				t.Fatalf("tick %d: delivered while gripped", sim.Tick())
			}
		}
	}
	tick, ok := lf.Delivered("prey")
	t.Logf("entered the nest at tick %d, delivered at %d, run stopped at %d", entered, tick, sim.Tick())
	if !gripped || !ok || entered == 0 || tick <= entered || tick < 120 || tick > 125 {
		t.Fatalf("gripped %v, entered %d, delivered %d (%v); want delivered when released at step 120, after entering gripped", gripped, entered, tick, ok)
	}
	if sim.Tick() != tick+10 {
		t.Errorf("the run stopped at tick %d, want %d (1 s after the delivery)", sim.Tick(), tick+10)
	}
	if _, ok := lf.Delivered("other"); ok {
		t.Errorf("the other prey was delivered")
	}
	sim.Run(t.Context()) // flushes the file
	data, err := os.ReadFile(filepath.Join(dir, "prey.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 2 || lines[0] != prey_retrieval.PreyRetrievalHeader || !strings.HasPrefix(lines[1], fmt.Sprintf("%d\tprey\t", tick)) {
		t.Errorf("prey.txt:\n%s", data)
	}

	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := lf.Reset(); err != nil {
		t.Fatal(err)
	}
	if _, ok := lf.Delivered("prey"); ok || sim.Finished() {
		t.Errorf("after Reset: delivered %v, finished %v", ok, sim.Finished())
	}
}

// Without stop_after the run goes on to its end.
func TestPreyRetrievalNoStop(t *testing.T) {
	sim, _ := preySim(t, `<prey_retrieval nest_center="0.2,0" nest_radius="0.2" preys="prey" />`, simulator.Options{})
	if err := sim.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if sim.Tick() != 200 {
		t.Errorf("stopped at tick %d, want 200", sim.Tick())
	}
}

func TestPreyRetrievalErrors(t *testing.T) {
	for _, tc := range []struct{ element, want string }{
		{``, "<prey_retrieval"},
		{`<prey_retrieval />`, "preys"},
		{`<prey_retrieval preys="" />`, "preys"},
		{`<prey_retrieval preys="ghost" />`, `"ghost"`},
		{`<prey_retrieval preys="post" />`, "static"},
		{`<prey_retrieval preys="prey" nest_radius="0" />`, "nest_radius"},
		{`<prey_retrieval preys="prey" nest_center="1" />`, "nest_center"},
		{`<prey_retrieval preys="prey" nest_color="teal" />`, "nest_color"},
		{`<prey_retrieval preys="prey" size="2" />`, "size"},
		{`<prey_retrieval preys="prey" /><foraging />`, "<foraging>"},
		{`<prey_retrieval preys="prey" output="/no/such/dir/x.txt" />`, "output"},
	} {
		sim, err := preySimErr(tc.element, simulator.Options{})
		if err == nil {
			sim.Close()
			t.Errorf("%s: no error", tc.element)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want it to mention %s", tc.element, err, tc.want)
		}
	}
}
