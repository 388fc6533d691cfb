package simulator_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// A regression fact: a foot-bot at (-0.5, 0) driven at (10, 10) cm/s with 10
// ticks/s is within 0.01 m of (0.5, 0) after 100 ticks of motion: at tick
// 101, since the speeds set in tick 1 move it from tick 2 on, as in ARGoS.
func TestFootBotDrivesOneMetreIn100Ticks(t *testing.T) {
	sim := build(t, experiment("0", constantController, `
    <foot-bot id="fb"><body position="-0.5,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`, ""), simulator.Options{})
	for sim.Tick() < 101 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	p := sim.Robot(0).B().Pos
	if math.Hypot(p.X-0.5, p.Y) > 0.01 {
		t.Fatalf("foot-bot at (%.4f, %.4f) at tick 101, want within 0.01 m of (0.5, 0)", p.X, p.Y)
	}
}

// finalPoses runs an experiment file to its end and returns every body's
// pose.
func finalPoses(t *testing.T, file string, threads int) [][3]float64 {
	t.Helper()
	exp, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	exp.LoopFunctions = nil // the bench line is not under test here
	return runToEnd(t, exp, threads)
}

// The same seed gives bit-identical final poses whatever the thread count.
func TestScalability1000DeterministicAcrossThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 600 ticks of 1000 robots four times")
	}
	file := repoFile("experiments", "scalability", "scalability_1000_e1.argos")
	ref := finalPoses(t, file, 0)
	moved := 0
	for _, threads := range []int{1, 2, 4} {
		got := finalPoses(t, file, threads)
		if len(got) != len(ref) {
			t.Fatalf("threads=%d: %d bodies, want %d", threads, len(got), len(ref))
		}
		for i := range ref {
			if got[i] != ref[i] {
				t.Fatalf("threads=%d: body %d ends at %v, with threads=0 at %v", threads, i, got[i], ref[i])
			}
		}
	}
	for i := range ref {
		if ref[i][0] != 0 || ref[i][1] != 0 {
			moved++
		}
	}
	if moved < 1000 {
		t.Fatalf("only %d bodies away from the origin; the run did not happen", moved)
	}
}

// Ten diffusing foot-bots stay in their walled square for 10 simulated
// minutes and no two bodies overlap by more than 1 cm at any tick.
func TestDiffusion10StaysInsideWithoutOverlap(t *testing.T) {
	t.Chdir(t.TempDir()) // the text visualization writes here
	exp, err := config.Load(repoFile("experiments", "diffusion_10.argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if sim.NumRobots() != 10 || sim.MaxTicks() != 6000 {
		t.Fatalf("%d robots, %d ticks; want 10 robots for 6000 ticks", sim.NumRobots(), sim.MaxTicks())
	}
	// walls are 0.1 m thick, centred on +-2 m: the inside is |x|,|y| < 1.95
	limit := 1.95 - sim.Robot(0).Model.Radius + 0.01
	travelled := 0.0
	start := make([][2]float64, sim.NumRobots())
	for i := range start {
		p := sim.Robot(i).B().Pos
		start[i] = [2]float64{p.X, p.Y}
	}
	for !sim.Finished() {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < sim.NumRobots(); i++ {
			r := sim.Robot(i)
			p := r.B().Pos
			if math.Abs(p.X) > limit || math.Abs(p.Y) > limit {
				t.Fatalf("tick %d: %s at (%.3f, %.3f) left the square", sim.Tick(), r.ID, p.X, p.Y)
			}
			if j, bad := sim.Space().Overlapping(r.Body, 0.01); bad {
				b := sim.Space().Bodies[j]
				t.Fatalf("tick %d: %s overlaps %s by more than 1 cm", sim.Tick(), r.ID, b.ID)
			}
		}
	}
	for i := range start {
		p := sim.Robot(i).B().Pos
		travelled += math.Hypot(p.X-start[i][0], p.Y-start[i][1])
	}
	if travelled < 1 {
		t.Fatalf("robots moved %.2f m in total in 10 minutes; they should diffuse", travelled)
	}
}

func TestBadExperimentsFailWithWhereAndWhat(t *testing.T) {
	robot := func(ctrl string) string {
		return `<foot-bot id="fb"><body position="0,0,0" orientation="0,0,0"/><controller config="` + ctrl + `"/></foot-bot>`
	}
	cases := []struct {
		name string
		xml  string
		want []string
	}{
		{"unknown arena tag", experiment("1", constantController, `<spaceship id="x"/>`, ""),
			[]string{"test.argos:", "spaceship", "unknown entity"}},
		{"unknown controller label", experiment("1", `<no_such_controller id="tc"><actuators/><sensors/></no_such_controller>`, robot("tc"), ""),
			[]string{"test.argos:", "no_such_controller", "known:"}},
		{"undeclared device", experiment("1", `<test_positioner id="tp"><actuators/><sensors/></test_positioner>`, robot("tp"), ""),
			[]string{"positioning", "not declared", "<sensors>", "fb"}},
		{"undefined controller id", experiment("1", constantController, robot("nope"), ""),
			[]string{"test.argos:", `"nope"`, "<controllers>"}},
		{"unknown device", experiment("1", `<test_constant id="tc"><actuators><warp_drive implementation="default"/></actuators><sensors/></test_constant>`, robot("tc"), ""),
			[]string{"test.argos:", "warp_drive"}},
		{"overlapping robots", experiment("1", constantController, robot("tc")+`<foot-bot id="fb2"><body position="0.05,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`, ""),
			[]string{"test.argos:", "fb2", "overlaps"}},
		{"distribute too crowded", experiment("1", constantController, `<distribute>
        <position method="uniform" min="-0.2,-0.2,0" max="0.2,0.2,0"/>
        <orientation method="constant" values="0,0,0"/>
        <entity quantity="12" max_trials="20"><foot-bot id="fb"><controller config="tc"/></foot-bot></entity>
      </distribute>`, ""), []string{"test.argos:", "could not place", "max_trials"}},
		{"unknown medium", experiment("1", constantController, robot("tc"), `<media><telepathy id="t"/></media>`),
			[]string{"test.argos:", "telepathy"}},
		{"unknown visualization", experiment("1", constantController, robot("tc"), `<visualization><qt-opengl/></visualization>`),
			[]string{"test.argos:", "qt-opengl", "-z"}},
		{"negative box size", experiment("1", constantController, `<box id="b" size="1,-1,1" movable="false"><body position="0,0,0"/></box>`, ""),
			[]string{"test.argos:", "size"}},
		{"unknown loop functions", experiment("1", constantController, robot("tc"), `<loop_functions label="nope"/>`),
			[]string{"test.argos:", "nope", "loop functions"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			contains(t, buildErr(t, c.xml), c.want...)
		})
	}
}

func TestRobotOutsideEveryEngine(t *testing.T) {
	xml := experiment("1", constantController, `<foot-bot id="fb"><body position="1.5,1.5,0"/><controller config="tc"/></foot-bot>`, "")
	xml = strings.Replace(xml, `<dynamics2d id="dyn"/>`, `<dynamics2d id="dyn"><boundaries><top height="1"/><bottom height="0"/>
      <sides><vertex point="-1,-1"/><vertex point="1,-1"/><vertex point="1,1"/><vertex point="-1,1"/></sides></boundaries></dynamics2d>`, 1)
	contains(t, buildErr(t, xml), "test.argos:", "no physics engine", "fb")
}

func TestVisualizationSkippedWhenHeadless(t *testing.T) {
	xml := experiment("1", constantController, `<foot-bot id="fb"><body position="0,0,0"/><controller config="tc"/></foot-bot>`,
		`<visualization><qt-opengl/></visualization>`)
	exp, err := config.Parse("test.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatalf("headless run refused an unused visualization: %v", err)
	}
	sim.Close()
}

func TestControllerPanicStopsRobotsAndReports(t *testing.T) {
	ctrl := `<test_panic id="tp"><actuators><differential_steering implementation="default"/></actuators><sensors/><params at="5"/></test_panic>`
	sim := build(t, experiment("100", ctrl, `<foot-bot id="fb"><body position="0,0,0"/><controller config="tp"/></foot-bot>`, ""), simulator.Options{})
	err := sim.Run(context.Background())
	contains(t, err, "fb", "panicked", "boom", "stopped")
	d := sim.Robot(0).Drive()
	if d.V != 0 || d.W != 0 {
		t.Fatalf("robot still driven at v=%g w=%g after the panic", d.V, d.W)
	}
	if sim.Step() == nil {
		t.Fatal("Step after a failure must keep failing")
	}
}

// recorder records the order of the hooks.
type recorder struct {
	simulator.LoopFunctionsBase
	sim    *simulator.Simulator
	events []string
	stopAt int
}

func (r *recorder) Init(sim *simulator.Simulator, _ *config.Node) error {
	r.sim = sim
	r.events = append(r.events, "init")
	return nil
}
func (r *recorder) PreStep() {
	// physics already ran: the robot moved in this tick
	r.events = append(r.events, "pre")
}
func (r *recorder) PostStep()                  { r.events = append(r.events, "post") }
func (r *recorder) IsExperimentFinished() bool { return r.stopAt > 0 && r.sim.Tick() >= r.stopAt }
func (r *recorder) PostExperiment()            { r.events = append(r.events, "end") }
func (r *recorder) Reset() error               { r.events = append(r.events, "reset"); return nil }
func (r *recorder) Destroy() error             { r.events = append(r.events, "destroy"); return nil }

var lastRecorder *recorder

func init() {
	simulator.LoopFunctionsTypes.MustRegister("test_recorder", "test: records hook order", func() simulator.LoopFunctions {
		lastRecorder = &recorder{stopAt: 3}
		return lastRecorder
	})
}

func TestLoopFunctionHooksInOrder(t *testing.T) {
	sim := build(t, experiment("100", constantController, `<foot-bot id="fb"><body position="0,0,0"/><controller config="tc"/></foot-bot>`,
		`<loop_functions label="test_recorder"/>`), simulator.Options{})
	rec := lastRecorder
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if sim.Tick() != 3 {
		t.Fatalf("IsExperimentFinished asked to stop at tick 3, ran %d", sim.Tick())
	}
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	sim.Close()
	want := []string{"init", "pre", "post", "pre", "post", "pre", "post", "end", "reset", "destroy"}
	if len(rec.events) != len(want) {
		t.Fatalf("hooks %v, want %v", rec.events, want)
	}
	for i := range want {
		if rec.events[i] != want[i] {
			t.Fatalf("hooks %v, want %v", rec.events, want)
		}
	}
}

func TestCancelledRunCallsPostExperiment(t *testing.T) {
	sim := build(t, experiment("100", constantController, `<foot-bot id="fb"><body position="0,0,0"/><controller config="tc"/></foot-bot>`,
		`<loop_functions label="test_recorder"/>`), simulator.Options{})
	rec := lastRecorder
	rec.stopAt = 0
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sim.Run(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
	if rec.events[len(rec.events)-1] != "end" {
		t.Fatalf("PostExperiment not called on interruption: %v", rec.events)
	}
}

func TestResetReplaysTheSameRun(t *testing.T) {
	file := repoFile("experiments", "scalability", "scalability_1000_e1.argos")
	exp, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	exp.LoopFunctions = nil
	sim, err := simulator.New(exp, simulator.Options{Threads: intp(2)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	run := func() [][2]float64 {
		for sim.Tick() < 50 {
			if err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		var out [][2]float64
		for i := 0; i < sim.NumRobots(); i++ {
			p := sim.Robot(i).B().Pos
			out = append(out, [2]float64{p.X, p.Y})
		}
		return out
	}
	first := run()
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	second := run()
	for i := range first {
		if first[i] != second[i] {
			t.Fatalf("robot %d: %v after reset, %v before", i, second[i], first[i])
		}
	}
}

// A reset starts each robot's stream again where it lives, so that a
// controller that kept the *rand.Rand of its Init replays it too.
func TestResetRestartsTheStreamInPlace(t *testing.T) {
	sim := build(t, experiment("1", constantController,
		`<foot-bot id="a"><body position="0,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>
    <foot-bot id="b"><body position="0.5,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`, ""), simulator.Options{})
	kept := sim.Robot(1).Rand
	first := [3]uint64{kept.Uint64(), kept.Uint64(), kept.Uint64()}
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if sim.Robot(1).Rand != kept {
		t.Error("Reset gave robot b a new *rand.Rand")
	}
	if again := [3]uint64{kept.Uint64(), kept.Uint64(), kept.Uint64()}; again != first {
		t.Errorf("after Reset the kept stream draws %v, it drew %v from the start", again, first)
	}
	if sim.Robot(0).Rand.Uint64() == first[0] {
		t.Error("robots a and b draw the same stream")
	}
}

// <distribute> stores its robots in space order (strips of the arena,
// west to east), with ids following that order, so that the robots near
// each other in the arena are near each other in memory; the poses are
// still the draws of the seed, none overlapping.
func TestDistributeLaysRobotsOutInSpaceOrder(t *testing.T) {
	xml := experiment("1", constantController, `<distribute>
        <position method="uniform" min="-1.9,-1.9,0" max="1.9,1.9,0"/>
        <orientation method="uniform" min="0,0,0" max="360,0,0"/>
        <entity quantity="200" max_trials="100"><e-puck id="ep"><controller config="tc"/></e-puck></entity>
      </distribute>`, "")
	sim := build(t, xml, simulator.Options{})
	again := build(t, xml, simulator.Options{})
	if sim.NumRobots() != 200 {
		t.Fatalf("%d robots", sim.NumRobots())
	}
	strip := func(y float64) int { return int(math.Floor((y + 2) / 0.25)) }
	for i := 0; i < sim.NumRobots(); i++ {
		r := sim.Robot(i)
		if want := fmt.Sprintf("ep%d", i); r.ID != want {
			t.Fatalf("robot %d is %q, want %q", i, r.ID, want)
		}
		if b, c := r.B(), again.Robot(i).B(); b.Pos != c.Pos || b.Yaw != c.Yaw {
			t.Fatalf("%s: pose %v %v, then %v %v with the same seed", r.ID, b.Pos, b.Yaw, c.Pos, c.Yaw)
		}
		if i == 0 {
			continue
		}
		a, b := sim.Robot(i-1).B().Pos, r.B().Pos
		if strip(a.Y) > strip(b.Y) || strip(a.Y) == strip(b.Y) && a.X > b.X {
			t.Fatalf("robot %d at %v comes after robot %d at %v", i, b, i-1, a)
		}
		for j := 0; j < i; j++ {
			if d := sim.Robot(j).B().Pos.Sub(b).Length(); d < 2*0.035 {
				t.Fatalf("robots %d and %d overlap (%.3f m apart)", j, i, d)
			}
		}
	}
}
