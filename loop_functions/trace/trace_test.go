package trace_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/loop_functions/trace"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/space"

	_ "github.com/argosgo/argos/controllers/fixed_wheels"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// experiment has a turning e-puck, a foot-bot driving into a movable box,
// a static wall and a static cylinder; ids are not in id order in the
// file.
const experiment = `<?xml version="1.0" ?>
<argos-configuration>
  <framework>
    <experiment length="1" ticks_per_second="10" random_seed="3" />
  </framework>
  <controllers>
    <fixed_wheels_controller id="turn" library="fixed_wheels">
      <actuators><differential_steering implementation="default" /></actuators>
      <sensors />
      <params left="5" right="10" />
    </fixed_wheels_controller>
    <fixed_wheels_controller id="push" library="fixed_wheels">
      <actuators><differential_steering implementation="default" /></actuators>
      <sensors />
      <params left="10" right="10" />
    </fixed_wheels_controller>
  </controllers>
  <loop_functions library="trace_loop_functions" label="trace_loop_functions" LOOPATTRS />
  <arena size="4,4,1" center="0,0,0.5">
    <e-puck id="zeta"><body position="-1,-1,0" orientation="170,0,0" /><controller config="turn" /></e-puck>
    <foot-bot id="fb"><body position="0,0,0" orientation="0,0,0" /><controller config="push" /></foot-bot>
    <box id="box" size="0.1,0.1,0.1" movable="true" mass="0.5"><body position="0.2,0,0" orientation="0,0,0" /></box>
    <box id="Wall" size="0.1,2,0.5" movable="false"><body position="1.5,0,0" orientation="0,0,0" /></box>
    <cylinder id="post" radius="0.1" height="0.5" movable="false"><body position="-1.5,1,0" orientation="0,0,0" /></cylinder>
  </arena>
  <physics_engines><dynamics2d id="dyn" /></physics_engines>
  <media />
</argos-configuration>
`

func newSim(t *testing.T, attrs string) (*simulator.Simulator, string) {
	t.Helper()
	dir := t.TempDir()
	exp, err := config.Parse("trace.argos", []byte(strings.Replace(experiment, "LOOPATTRS", attrs, 1)))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{OutputDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return sim, dir
}

type row struct {
	tick       int
	id         string
	x, y, yaw  float64
	xs, ys, as string
}

func read(t *testing.T, path string) []row {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a newline", path)
	}
	var rows []row
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			t.Fatalf("line %d %q: %d fields, want 5 separated by tabs", n+1, line, len(f))
		}
		r := row{id: f[1], xs: f[2], ys: f[3], as: f[4]}
		var err error
		if r.tick, err = strconv.Atoi(f[0]); err != nil {
			t.Fatalf("line %d: %v", n+1, err)
		}
		for k, p := range []*float64{&r.x, &r.y, &r.yaw} {
			if *p, err = strconv.ParseFloat(f[2+k], 64); err != nil {
				t.Fatalf("line %d: %v", n+1, err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// TestTrace checks the file against the space, tick after tick: tick 0
// with every body, later ticks with the movable ones, in id order, at the
// period, with numbers that read back exactly.
func TestTrace(t *testing.T) {
	sim, dir := newSim(t, `output="out.tsv" every="3"`)
	defer sim.Close()
	sp := sim.Space()
	byID := func(id string) *space.Body {
		for i := range sp.Bodies {
			if sp.Bodies[i].ID == id {
				return &sp.Bodies[i]
			}
		}
		t.Fatalf("no body %q", id)
		return nil
	}
	want := map[int][]space.Body{0: nil}
	for _, id := range []string{"Wall", "box", "fb", "post", "zeta"} { // byte order: upper case first
		want[0] = append(want[0], *byID(id))
	}
	for sim.Tick() < 10 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		if sim.Tick()%3 == 0 {
			for _, id := range []string{"box", "fb", "zeta"} {
				want[sim.Tick()] = append(want[sim.Tick()], *byID(id))
			}
		}
	}
	sim.LoopFunctions().PostExperiment()
	rows := read(t, filepath.Join(dir, "out.tsv"))
	k := 0
	for _, tick := range []int{0, 3, 6, 9} {
		for _, b := range want[tick] {
			if k >= len(rows) {
				t.Fatalf("the file ends before tick %d %s", tick, b.ID)
			}
			r := rows[k]
			k++
			if r.tick != tick || r.id != b.ID {
				t.Fatalf("row %d is tick %d %s, want tick %d %s", k, r.tick, r.id, tick, b.ID)
			}
			if r.x != b.Pos.X || r.y != b.Pos.Y || r.yaw != trace.Yaw(b.Yaw) {
				t.Errorf("tick %d %s: (%s, %s, %s), want exactly (%v, %v, %v)", tick, b.ID, r.xs, r.ys, r.as, b.Pos.X, b.Pos.Y, b.Yaw)
			}
		}
	}
	if k != len(rows) {
		t.Errorf("%d rows, want %d", len(rows), k)
	}
	// The robots did move: the trace is not of the start poses.
	if rows[len(rows)-1].x == rows[4].x {
		t.Errorf("zeta did not move: %v", rows[len(rows)-1])
	}
}

// TestReset truncates the file and starts again with tick 0.
func TestReset(t *testing.T) {
	sim, dir := newSim(t, `output="out.tsv"`)
	defer sim.Close()
	for k := 0; k < 4; k++ {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	rows := read(t, filepath.Join(dir, "out.tsv"))
	var ticks []int
	for _, r := range rows {
		ticks = append(ticks, r.tick)
	}
	if got, want := len(rows), 5+3; got != want {
		t.Fatalf("after Reset and one tick the file has ticks %v, want tick 0 (5 rows) and tick 1 (3 rows)", ticks)
	}
	if rows[0].tick != 0 || rows[7].tick != 1 {
		t.Errorf("ticks %v, want 0 then 1", ticks)
	}
}

// TestRun runs the experiment to its end through Run: the file is complete
// when Run returns and the last tick is the experiment's length.
func TestRun(t *testing.T) {
	sim, dir := newSim(t, `output="out.tsv" every="5"`)
	defer sim.Close()
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows := read(t, filepath.Join(dir, "out.tsv"))
	if last := rows[len(rows)-1]; last.tick != 10 || len(rows) != 5+2*3 {
		t.Errorf("%d rows ending at tick %d, want 11 ending at tick 10", len(rows), last.tick)
	}
}

func TestInitErrors(t *testing.T) {
	for _, tc := range []struct {
		name, attrs string
		want        []string
	}{
		{"no output", `every="2"`, []string{"trace.argos:", "output", "missing"}},
		{"empty output", `output=""`, []string{"trace.argos:", "trace:", "output"}},
		{"zero period", `output="x.tsv" every="0"`, []string{"trace.argos:", "trace:", "every", "at least 1"}},
		{"bad period", `output="x.tsv" every="often"`, []string{"trace.argos:", "every"}},
		{"unknown attribute", `output="x.tsv" evry="2"`, []string{"trace.argos:", "evry"}},
		{"no such folder", `output="missing/x.tsv"`, []string{"trace.argos:", "trace:", "missing/x.tsv", "folder"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, err := config.Parse("trace.argos", []byte(strings.Replace(experiment, "LOOPATTRS", tc.attrs, 1)))
			if err != nil {
				t.Fatal(err)
			}
			sim, err := simulator.New(exp, simulator.Options{OutputDir: t.TempDir()})
			if err == nil {
				sim.Close()
				t.Fatal("no error")
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestYaw(t *testing.T) {
	for _, tc := range []struct{ in, want float64 }{
		{0, 0},
		{math.Pi, math.Pi},
		{-math.Pi, math.Pi},
		{3 * math.Pi, math.Pi},
		{-0.5, -0.5},
		{2*math.Pi - 0.25, -0.25},
		{-2*math.Pi + 0.25, 0.25},
	} {
		if got := trace.Yaw(tc.in); math.Abs(got-tc.want) > 1e-12 || got <= -math.Pi || got > math.Pi {
			t.Errorf("Yaw(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestAppendRow(t *testing.T) {
	b := space.Body{ID: "ep0", Pos: space.Body{}.Pos}
	b.Pos.X, b.Pos.Y, b.Yaw = 0.0081249999832361947, 1.0890609018981299e-18, -math.Pi
	got := string(trace.AppendRow(nil, 2, &b))
	want := "2\tep0\t0.0081249999832361947\t1.0890609018981299e-18\t3.1415926535897931\n"
	if got != want {
		t.Errorf("row %q, want %q (C's %%.17g)", got, want)
	}
}
