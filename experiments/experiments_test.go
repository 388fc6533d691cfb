// Package experiments_test runs the example experiments shipped in this
// folder, headless and with their own seeds, and checks the outcome each
// one documents: foraging collects food into the nest over time, flocking
// robots align their headings, synchronizing robots flash together, the
// gripping robot drags its prey.
package experiments_test

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/controllers/foraging"
	"github.com/argosgo/argos/controllers/gripping"
	"github.com/argosgo/argos/controllers/synchronization"
	foragingloop "github.com/argosgo/argos/loop_functions/foraging"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/flocking"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/render/text"
)

// load reads an experiment of this folder.
func load(t *testing.T, name string) *config.Experiment {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	exp, err := config.Load(filepath.Join(filepath.Dir(here), name))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// start builds the simulator headless, with the file's seed, writing its
// outputs into a temporary folder.
func start(t *testing.T, exp *config.Experiment) (*simulator.Simulator, string) {
	t.Helper()
	dir := t.TempDir()
	sim, err := simulator.New(exp, simulator.Options{Headless: true, OutputDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	})
	return sim, dir
}

func step(t *testing.T, sim *simulator.Simulator) {
	t.Helper()
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
}

// Foraging: robots bring food items into the nest, more and more as the
// run goes on. The statistics file written by foraging_loop_functions is
// the measure, as in ARGoS: its collected_food column.
func TestForagingCollectsFood(t *testing.T) {
	exp := load(t, "foraging.argos")
	const ticks = 3000 // 5 of the file's 10 simulated minutes
	if got := exp.Framework.Ticks(); got < ticks {
		t.Fatalf("foraging.argos runs %d ticks, fewer than the %d tested", got, ticks)
	}
	exp.Framework.Length = float64(ticks) / float64(exp.Framework.TicksPerSecond)
	sim, dir := start(t, exp)
	foragers, inNest := 0, 0
	for i := 0; i < sim.NumRobots(); i++ {
		if _, ok := sim.Controller(i).(*foraging.Controller); ok {
			foragers++
		}
		if sim.Robot(i).B().Pos.X < foragingloop.ForagingNestX {
			inNest++
		}
	}
	if foragers != 20 || inNest != 20 {
		t.Fatalf("%d foraging robots, %d in the nest; want 20 and 20", foragers, inNest)
	}
	if err := sim.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	stats := readForaging(t, filepath.Join(dir, "foraging.txt"))
	if len(stats) < ticks {
		t.Fatalf("foraging.txt has %d ticks, want at least %d", len(stats), ticks)
	}
	stats = stats[:ticks]
	half, end := stats[ticks/2-1].collected, stats[ticks-1].collected
	total := 0
	for i := 0; i < sim.NumRobots(); i++ {
		total += sim.Controller(i).(*foraging.Controller).Food().TotalFoodItems
	}
	t.Logf("collected food: %d at tick %d, %d at tick %d (robots' own count %d); walking %d resting %d; energy %d",
		half, ticks/2, end, ticks, total, stats[ticks-1].walking, stats[ticks-1].resting, stats[ticks-1].energy)
	if half < 3 || end-half < 3 {
		t.Errorf("collected %d items by tick %d and %d by tick %d: want at least 3 in each half of the run", half, ticks/2, end, ticks)
	}
	if total != end {
		t.Errorf("the robots count %d items brought home, the loop functions %d", total, end)
	}
	for i, s := range stats {
		if s.clock != i+1 || s.walking+s.resting != 20 {
			t.Fatalf("line %d: %+v; want clock %d and 20 robots", i+2, s, i+1)
		}
		if i > 0 && s.collected < stats[i-1].collected {
			t.Fatalf("collected food went down at tick %d", s.clock)
		}
	}
}

type foragingLine struct {
	clock, walking, resting, collected int
	energy                             int64
}

func readForaging(t *testing.T, path string) []foragingLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() || sc.Text() != foragingloop.ForagingHeader {
		t.Fatalf("%s does not start with ARGoS's header %q", path, foragingloop.ForagingHeader)
	}
	var out []foragingLine
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 5 {
			t.Fatalf("line %q has %d fields, want 5", sc.Text(), len(fields))
		}
		var v [5]int64
		for i, s := range fields {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Fatalf("line %q: %v", sc.Text(), err)
			}
			v[i] = n
		}
		out = append(out, foragingLine{int(v[0]), int(v[1]), int(v[2]), int(v[3]), v[4]})
	}
	return out
}

// polarization is the order parameter of a set of directions: the length
// of their mean unit vector, 1 when all point the same way. For N
// independent uniformly random directions its mean is about
// sqrt(pi/(4N)) (0.28 for N = 10) and P(polarization > x) is about
// exp(-N x^2): 3e-4 for x = 0.9, 2e-3 for x = 0.8. Values above those are
// alignment, not chance.
func polarization(dirs []ci.Vector2) float64 {
	var sum ci.Vector2
	for _, d := range dirs {
		if l := d.Length(); l > 0 {
			sum = sum.Add(d.Scale(1 / l))
		}
	}
	return sum.Length() / float64(len(dirs))
}

// Flocking: the group spreads into a lattice at about the target distance
// and travels toward the light with aligned headings.
//
// Two order parameters, sampled at every tick once the group has formed:
// the polarization of the robots' directions of travel over the last 20 s
// (200 ticks), whose mean must exceed 0.9 and which must never fall below
// 0.8; and the polarization of their body headings, whose mean must exceed
// 0.8. The second is lower
// by design: ARGoS's controller drives straight as long as its heading is
// within 70 degrees of where it wants to go (the no-turn band of
// wheel_turning), so the headings zig-zag around the common course (a
// uniform spread over +-70 degrees alone would give 0.77).
func TestFlockingAligns(t *testing.T) {
	exp := load(t, "flocking.argos")
	sim, _ := start(t, exp)
	n := sim.NumRobots()
	const ticks, formed, travel = 1500, 400, 200
	light := sim.Lights()[0].Position.XY()
	var trail [][]ci.Vector2 // positions at each tick
	headings := make([]ci.Vector2, n)
	snapshot := func() (pos []ci.Vector2, centroid ci.Vector2) {
		pos = make([]ci.Vector2, n)
		for i := range pos {
			pos[i] = sim.Robot(i).B().Pos
			headings[i] = sim.Robot(i).B().Heading()
			centroid = centroid.Add(pos[i].Scale(1 / float64(n)))
		}
		return pos, centroid
	}
	pos, from := snapshot()
	trail = append(trail, pos)
	phi0 := polarization(headings)
	minTravel, meanTravel, meanHeading, minGap, meanNN := 1.0, 0.0, 0.0, math.Inf(1), 0.0
	var to ci.Vector2
	for tick := 1; tick <= ticks; tick++ {
		step(t, sim)
		pos, to = snapshot()
		trail = append(trail, pos)
		if tick <= formed {
			continue
		}
		moves := make([]ci.Vector2, n)
		for i := range moves {
			moves[i] = pos[i].Sub(trail[tick-travel][i])
		}
		minTravel = math.Min(minTravel, polarization(moves))
		meanTravel += polarization(moves) / (ticks - formed)
		meanHeading += polarization(headings) / (ticks - formed)
		for i := range pos {
			nn := math.Inf(1)
			for j := range pos {
				if i != j {
					nn = math.Min(nn, pos[i].Sub(pos[j]).Length())
				}
			}
			minGap = math.Min(minGap, nn)
			meanNN += nn / float64(n*(ticks-formed))
		}
	}
	approach := from.Sub(light).Length() - to.Sub(light).Length()
	t.Logf("heading polarization %.3f at the start; ticks %d-%d: travel polarization mean %.3f, at least %.3f, heading polarization mean %.3f; "+
		"nearest neighbour %.2f m on average, never under %.2f m; the group came %.2f m closer to the light",
		phi0, formed+1, ticks, meanTravel, minTravel, meanHeading, meanNN, minGap, approach)
	if phi0 > 0.5 {
		t.Errorf("the robots start aligned (polarization %.3f): the test would prove nothing", phi0)
	}
	if meanTravel < 0.9 || minTravel < 0.8 {
		t.Errorf("travel polarization mean %.3f, at least %.3f; want a mean above 0.9, never below 0.8", meanTravel, minTravel)
	}
	if meanHeading < 0.8 {
		t.Errorf("heading polarization mean %.3f, want above 0.8", meanHeading)
	}
	// target_distance is 75 cm; with several neighbours pulling and
	// pushing, the lattice settles somewhat tighter.
	if meanNN < 0.5 || meanNN > 0.9 || minGap < 0.4 {
		t.Errorf("nearest neighbour %.2f m on average, %.2f m at least; want a lattice near the 0.75 m target (0.5-0.9 m) without contacts", meanNN, minGap)
	}
	if approach < 1 {
		t.Errorf("the group came %.2f m closer to the light, want more than 1 m", approach)
	}
}

// synchrony is the Kuramoto order parameter of the robots' counters, each
// mapped to a phase 2*pi*counter/101 on its cycle of 101 ticks: 1 when all
// counters are equal, about sqrt(pi/(4N)) = 0.22 for N = 16 random ones
// (P(> 0.9) about exp(-16*0.81) = 2e-6).
func synchrony(ctrls []*synchronization.Controller) float64 {
	var sum ci.Vector2
	for _, c := range ctrls {
		sum = sum.Add(ci.FromPolar(1, 2*math.Pi*float64(c.Counter())/(synchronization.MaxCount+1)))
	}
	return sum.Length() / float64(len(ctrls))
}

// Synchronization: after some cycles all robots flash in the same tick.
func TestSynchronizationFlashesTogether(t *testing.T) {
	exp := load(t, "synchronization.argos")
	sim, _ := start(t, exp)
	var ctrls []*synchronization.Controller
	for i := 0; i < sim.NumRobots(); i++ {
		ctrls = append(ctrls, sim.Controller(i).(*synchronization.Controller))
	}
	const ticks, window = 1200, 303 // the last three cycles
	r0 := synchrony(ctrls)
	minR, best, flashTicks, lastApart := 1.0, 0, 0, 0
	flashed := make([]bool, len(ctrls))
	for tick := 1; tick <= ticks; tick++ {
		step(t, sim)
		if synchrony(ctrls) < 0.9 {
			lastApart = tick
		}
		n := 0
		for i, c := range ctrls {
			// The LEDs show at this tick what the controller chose at the
			// one before.
			if lit := sim.Robot(i).LEDs[0] == ci.Red; lit != flashed[i] {
				t.Fatalf("tick %d: robot %d LEDs %v, but it flashed %v at the tick before", tick, i, sim.Robot(i).LEDs[0], flashed[i])
			}
			flashed[i] = c.Flashing()
			if c.Flashing() {
				n++
			}
		}
		if tick <= ticks-window {
			continue
		}
		minR = math.Min(minR, synchrony(ctrls))
		if n > 0 {
			flashTicks++
		}
		best = max(best, n)
	}
	t.Logf("synchrony %.3f at the start, above 0.9 from tick %d on, at least %.3f over the last %d ticks; %d ticks with flashes there, at most %d of %d robots in one tick",
		r0, lastApart+1, minR, window, flashTicks, best, len(ctrls))
	if r0 > 0.6 {
		t.Errorf("the robots start in step (synchrony %.3f): the test would prove nothing", r0)
	}
	if minR < 0.9 {
		t.Errorf("synchrony %.3f over the last cycles, want above 0.9", minR)
	}
	if best != len(ctrls) || flashTicks > 3*3 {
		t.Errorf("at most %d robots flash together, on %d ticks of the last 3 cycles; want all %d in the same tick, at most 3 ticks per cycle", best, flashTicks, len(ctrls))
	}
}

// Gripping: the prey follows the robot while gripped and stays where it
// was released.
func TestGrippingDragsPrey(t *testing.T) {
	exp := load(t, "gripping.argos")
	sim, _ := start(t, exp)
	ctrl := sim.Controller(0).(*gripping.Controller)
	h, ok := sim.Body("c")
	if !ok {
		t.Fatal("no cylinder c")
	}
	prey := func() ci.Vector2 { return sim.Space().Bodies[h].Pos }
	robot := func() ci.Vector2 { return sim.Robot(0).B().Pos }
	var atGrip, atRelease ci.Vector2
	var gapAtRelease float64
	for !sim.Finished() {
		phase := ctrl.Phase()
		step(t, sim)
		switch {
		case phase == gripping.Gripping:
			atGrip = prey()
		case phase == gripping.Dragging && ctrl.Phase() == gripping.Releasing:
			atRelease, gapAtRelease = prey(), prey().Sub(robot()).Length()
		}
	}
	end := prey()
	gapEnd := end.Sub(robot()).Length()
	t.Logf("prey at %.3f when gripped, %.3f when released, %.3f at the end; robot-prey distance %.3f at release, %.3f at the end",
		atGrip, atRelease, end, gapAtRelease, gapEnd)
	if d := atGrip.X - atRelease.X; d < 0.2 || d > 0.3 {
		t.Errorf("the prey moved %.3f m back while gripped, want about 0.25 m (49 ticks at 5 cm/s)", d)
	}
	if math.Abs(atRelease.Y) > 0.02 {
		t.Errorf("the prey drifted sideways to y = %.3f", atRelease.Y)
	}
	if d := end.Sub(atRelease).Length(); d > 0.03 {
		t.Errorf("the prey moved %.3f m after it was released, want it to stay", d)
	}
	if gapEnd < gapAtRelease+0.15 {
		t.Errorf("robot-prey distance %.3f at release and %.3f at the end: the robot did not back away alone", gapAtRelease, gapEnd)
	}
}
