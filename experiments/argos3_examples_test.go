package experiments_test

import (
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	eyebotcircle "github.com/argosgo/argos/controllers/eyebot_circle"
	eyebotflocking "github.com/argosgo/argos/controllers/eyebot_flocking"
	manualcontrol "github.com/argosgo/argos/controllers/footbot_manualcontrol"
	customdistributions "github.com/argosgo/argos/loop_functions/custom_distributions"
	"github.com/argosgo/argos/loop_functions/trajectory"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/examples"
	_ "github.com/argosgo/argos/loop_functions/examples"
	_ "github.com/argosgo/argos/simulator/physics/pointmass3d"
)

// The ports of ARGoS's examples (experiments/argos3-examples/), each run
// headless from its own file: what the example is for must happen.

func startExample(t *testing.T, name string) *simulator.Simulator {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	exp, err := config.Load(filepath.Join(filepath.Dir(here), "argos3-examples", name))
	if err != nil {
		t.Fatal(err)
	}
	// files the loop functions write (foraging.txt) go to a temporary folder
	sim, err := simulator.New(exp, simulator.Options{Headless: true, OutputDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

func steps(t *testing.T, sim *simulator.Simulator, n int) {
	t.Helper()
	for range n {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

func robotByID(t *testing.T, sim *simulator.Simulator, id string) int {
	t.Helper()
	for i := range sim.NumRobots() {
		if sim.Robot(i).ID == id {
			return i
		}
	}
	t.Fatalf("no robot %q", id)
	return -1
}

// The e-pucks drive and keep clear of the boxes, cylinders and walls.
func TestEPuckObstacleAvoidance(t *testing.T) {
	sim := startExample(t, "epuck_obstacleavoidance.argos")
	start := make([]ci.Vector2, sim.NumRobots())
	for i := range start {
		start[i] = sim.Robot(i).B().Pos
	}
	moved := 0
	for range 300 { // 30 s
		steps(t, sim, 1)
		for i := range sim.NumRobots() {
			h := sim.Robot(i).Body
			if other, hit := sim.Space().Overlapping(h, 0.002); hit && !sim.Space().Bodies[other].Movable {
				t.Fatalf("tick %d: %s is inside %s", sim.Tick(), sim.Robot(i).ID, sim.Space().Bodies[other].ID)
			}
		}
	}
	for i := range start {
		if sim.Robot(i).B().Pos.Sub(start[i]).Length() > 0.1 {
			moved++
		}
	}
	if moved < 40 {
		t.Errorf("%d of 50 e-pucks got 10 cm from their start in 30 s", moved)
	}
}

// The eye-bot climbs 3 m, circles 2 m around its take-off column,
// comes back and lands, hearing the foot-bot's counter all along.
func TestEyeBotCircle(t *testing.T) {
	sim := startExample(t, "eyebot_circle.argos")
	eb := robotByID(t, sim, "eb")
	fly := sim.Controller(eb).(*eyebotcircle.Flyer)
	start := sim.Robot(eb).B().Pos
	var top, reach float64
	for range 600 {
		steps(t, sim, 1)
		b := sim.Robot(eb).B()
		top = math.Max(top, b.Z)
		reach = math.Max(reach, b.Pos.Sub(start).Length())
		if fly.Phase() == eyebotcircle.Land && b.Z < 0.01 {
			break
		}
	}
	b := sim.Robot(eb).B()
	if fly.Phase() != eyebotcircle.Land || b.Z > 0.01 {
		t.Fatalf("after %d ticks the eye-bot is in phase %v at %.2f m, want landed", sim.Tick(), fly.Phase(), b.Z)
	}
	// the way-points of the circle come one per tick, faster than the
	// eye-bot settles: it swings out a little beyond the 2 m circle
	if math.Abs(top-3) > 0.05 || reach < 1.95 || reach > 2.4 {
		t.Errorf("flew up to %.3f m and %.3f m from its start; want 3 and about 2", top, reach)
	}
	counter, messages := fly.Heard()
	if messages < sim.Tick()-2 || int(counter) < sim.Tick()-3 {
		t.Errorf("heard %d messages, the last counter %d, in %d ticks", messages, counter, sim.Tick())
	}
}

// The eye-bots climb to 3 m and flock toward the light, at about their
// target distance from each other.
func TestEyeBotFlocking(t *testing.T) {
	sim := startExample(t, "eyebot_flocking.argos")
	centroid := func() ci.Vector2 {
		var c ci.Vector2
		for i := range sim.NumRobots() {
			c = c.Add(sim.Robot(i).B().Pos)
		}
		return c.Scale(1 / float64(sim.NumRobots()))
	}
	light := ci.Vector2{X: 10, Y: 10}
	before := centroid().Sub(light).Length()
	steps(t, sim, 1200) // 2 min
	after := centroid().Sub(light).Length()
	if before-after < 5 {
		t.Errorf("the flock's centre went from %.1f m to %.1f m from the light; want it 5 m closer", before, after)
	}
	var nearest float64
	for i := range sim.NumRobots() {
		b := sim.Robot(i).B()
		// relative set-points keep the height where it is: it sags a
		// little over two minutes
		if math.Abs(b.Z-eyebotflocking.Altitude) > 0.15 {
			t.Errorf("%s flies at %.2f m, want %g", b.ID, b.Z, eyebotflocking.Altitude)
		}
		if st := sim.Controller(i).(*eyebotflocking.Controller).State(); st != eyebotflocking.StateFlock {
			t.Errorf("%s is in state %d, want flocking", b.ID, st)
		}
		d := math.Inf(1)
		for j := range sim.NumRobots() {
			if j != i {
				d = math.Min(d, b.Pos.Sub(sim.Robot(j).B().Pos).Length())
			}
		}
		nearest += d / float64(sim.NumRobots())
	}
	if nearest < 0.6 || nearest > 1.5 {
		t.Errorf("mean distance to the nearest eye-bot %.2f m; the target distance is 1 m", nearest)
	}
}

// Seventy foot-bots, placed by code in a cluster, a scale-free group and
// a line, without overlaps, the same way for the same seed.
func TestCustomDistributions(t *testing.T) {
	poses := func() []ci.Vector2 {
		sim := startExample(t, "custom_distributions.argos")
		if n := sim.NumRobots(); n != 70 || sim.LoopFunctions().(*customdistributions.LoopFunctions).Placed != 70 {
			t.Fatalf("%d robots placed, want 70", n)
		}
		var out []ci.Vector2
		for i := range 70 {
			r := sim.Robot(robotByID(t, sim, "fb"+strconv.Itoa(i)))
			if _, hit := sim.Space().Overlapping(r.Body, 1e-9); hit {
				t.Errorf("%s overlaps another body", r.ID)
			}
			out = append(out, r.B().Pos)
		}
		return out
	}
	p := poses()
	half := math.Sqrt(math.Pi*0.085036758*0.085036758*30/0.1) / 2
	for i := range 30 { // the cluster around (5, 0)
		if math.Abs(p[i].X-5) > half || math.Abs(p[i].Y) > half {
			t.Errorf("fb%d at %v is outside the cluster's square of half side %.2f", i, p[i], half)
		}
	}
	for i := 30; i < 60; i++ { // scale-free: every robot near another one
		near := false
		for j := 30; j < 60; j++ {
			near = near || j != i && p[i].Sub(p[j]).Length() < 1.5*math.Sqrt2+1e-9
		}
		if !near {
			t.Errorf("fb%d at %v is far from every other robot of the scale-free group", i, p[i])
		}
	}
	for i := range 10 { // the line: robot i at center + (i, i)
		if want := (ci.Vector2{X: -1 + float64(i), Y: float64(i)}); p[60+i].Sub(want).Length() > 1e-9 {
			t.Errorf("fb%d at %v, want %v", 60+i, p[60+i], want)
		}
	}
	if q := poses(); !equalPoses(p, q) {
		t.Error("the same seed placed the robots differently")
	}
}

func equalPoses(a, b []ci.Vector2) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// The paths of the foot-bots are kept, a point every 5 cm, and drawn.
func TestTrajectory(t *testing.T) {
	sim := startExample(t, "trajectory.argos")
	steps(t, sim, 300)
	lf := sim.LoopFunctions().(*trajectory.LoopFunctions)
	if len(lf.Robots()) != 10 {
		t.Fatalf("paths of %d robots, want 10", len(lf.Robots()))
	}
	for _, id := range lf.Robots() {
		path := lf.Path(id)
		if len(path) < 5 {
			t.Errorf("%s: %d points in 30 s at 5 cm/s", id, len(path))
		}
		for k := 1; k < len(path); k++ {
			if d := path[k].Sub(path[k-1]).Length(); d < trajectory.MinDistance {
				t.Errorf("%s: points %d and %d are %.3f m apart", id, k-1, k, d)
			}
		}
	}
	var c simulator.Canvas
	if !sim.DrawUser(&c) {
		t.Fatal("no user functions")
	}
	lines := 0
	for _, it := range c.Items() {
		if it.Kind == simulator.ItemLine && len(it.Points) >= 5 {
			lines++
		}
	}
	if lines != 10 {
		t.Errorf("%d paths drawn, want 10", lines)
	}
}

// Every foot-bot's id is written above it.
func TestIDs(t *testing.T) {
	sim := startExample(t, "id.argos")
	var c simulator.Canvas
	sim.DrawUser(&c)
	ids := map[string]bool{}
	for _, it := range c.Items() {
		if it.Kind == simulator.ItemRobotText && it.Text == it.Robot {
			ids[it.Robot] = true
		}
	}
	for i := range sim.NumRobots() {
		if !ids[sim.Robot(i).ID] {
			t.Errorf("%s's id is not drawn", sim.Robot(i).ID)
		}
	}
}

// The food a foot-bot carries is drawn over it, and only then.
func TestForagingUserFunctions(t *testing.T) {
	sim := startExample(t, "foraging.argos")
	var c simulator.Canvas
	seen := 0
	for range 1500 {
		steps(t, sim, 1)
		carrying := 0
		for i := range sim.NumRobots() {
			if f, ok := sim.Controller(i).(interface{ Carrying() (int, bool) }); ok {
				if _, yes := f.Carrying(); yes {
					carrying++
				}
			}
		}
		sim.DrawUser(&c)
		discs := 0
		for _, it := range c.Items() {
			if it.Kind == simulator.ItemCircle && it.Fill {
				discs++
			}
		}
		if discs != carrying {
			t.Fatalf("tick %d: %d robots carry food, %d items drawn", sim.Tick(), carrying, discs)
		}
		seen = max(seen, discs)
	}
	if seen == 0 {
		t.Error("no robot carried food in 150 s")
	}
}

// Selected in the viewer, a foot-bot follows the keys; the others stand
// still.
func TestManualControl(t *testing.T) {
	sim := startExample(t, "manualcontrol.argos")
	i := robotByID(t, sim, "fb3")
	other := robotByID(t, sim, "fb7")
	ctrl := sim.Controller(i).(*manualcontrol.Controller)
	start, otherStart := sim.Robot(i).B().Pos, sim.Robot(other).B().Pos
	heading := sim.Robot(i).B().Heading()
	steps(t, sim, 10)
	if sim.Robot(i).B().Pos != start {
		t.Fatal("fb3 moved before it was selected")
	}
	sim.SelectEntity("fb3")
	steps(t, sim, 1) // the LEDs light at the next act
	if !ctrl.Selected() || sim.Robot(i).LEDs[0] != ci.Red {
		t.Fatalf("selecting fb3: selected %v, LED %v", ctrl.Selected(), sim.Robot(i).LEDs[0])
	}
	sim.PressKey(simulator.KeyUp, true)
	steps(t, sim, 10) // 1 s at 10 cm/s
	fwd := sim.Robot(i).B().Pos.Sub(start).Dot(heading)
	if fwd < 0.05 {
		t.Errorf("fb3 went %.3f m forward in 1 s with the up arrow held", fwd)
	}
	sim.PressKey(simulator.KeyUp, false)
	sim.PressKey("a", true) // left: turns on the spot (90 degrees off the heading)
	yaw := sim.Robot(i).B().Yaw
	steps(t, sim, 5)
	if turned := ci.NormalizeAngle(sim.Robot(i).B().Yaw - yaw); turned < 0.1 {
		t.Errorf("fb3 turned %.2f rad with A held, want a left turn", turned)
	}
	sim.PressKey("a", false)
	steps(t, sim, 2)
	stopped := sim.Robot(i).B().Pos
	steps(t, sim, 5)
	if sim.Robot(i).B().Pos.Sub(stopped).Length() > 1e-6 {
		t.Error("fb3 keeps moving with no key held")
	}
	sim.SelectEntity("")
	steps(t, sim, 1)
	if ctrl.Selected() || sim.Robot(i).LEDs[0] != ci.Black {
		t.Error("deselecting fb3 did not release it")
	}
	if sim.Robot(other).B().Pos != otherStart {
		t.Error("fb7 moved without being selected")
	}
}
