package pose_sweep_test

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/controllers/sensor_probe"
	"github.com/argosgo/argos/loop_functions/pose_sweep"
	"github.com/argosgo/argos/simulator"
	_ "github.com/argosgo/argos/simulator/devices"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// experiment returns an experiment file: a foot-bot fb0 under test with
// the given sensors (and actuators), the sweep element, more arena
// content and media.
func experiment(sensors, actuators, params, loop, arena, media string) string {
	return `<?xml version="1.0" ?>
<argos-configuration>
  <framework>
    <system threads="0" />
    <experiment length="0" ticks_per_second="10" random_seed="124" />
  </framework>
  <controllers>
    <sensor_probe_controller id="probe" library="sensor_probe_controller">
      <actuators>` + actuators + `</actuators>
      <sensors>` + sensors + `</sensors>
      <params ` + params + `/>
    </sensor_probe_controller>
    <sensor_probe_controller id="sender">
      <actuators><range_and_bearing implementation="default" medium="rab" /></actuators>
      <sensors><range_and_bearing implementation="medium" medium="rab" /></sensors>
      <params send="7,9,11" />
    </sensor_probe_controller>
    <footbot_diffusion_controller id="fdc">
      <actuators><differential_steering implementation="default" /></actuators>
      <sensors><footbot_proximity implementation="default" /></sensors>
      <params alpha="7.5" delta="0.1" velocity="5" />
    </footbot_diffusion_controller>
  </controllers>
  <loop_functions library="pose_sweep_loop_functions" label="pose_sweep_loop_functions">` + loop + `
  </loop_functions>
  <arena size="8, 8, 1" center="0,0,0.5">
    <foot-bot id="fb0">
      <body position="-3,3,0" orientation="0,0,0" />
      <controller config="probe" />
    </foot-bot>` + arena + `
  </arena>
  <physics_engines>
    <dynamics2d id="dyn2d" />
  </physics_engines>
  <media>` + media + `</media>
</argos-configuration>
`
}

// run runs the experiment in a temporary folder and returns the table
// (the lines after the header, split into fields) and the simulator.
func run(t *testing.T, xml string) ([][]string, *simulator.Simulator) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.argos")
	exp, err := config.Parse(path, []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{OutputDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return readTable(t, filepath.Join(dir, "t.tsv")), sim
}

func readTable(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rows = append(rows, strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Pose p of the grid: the yaw outermost, the distance innermost, distances
// rounded to the nanometre, cosine and sine exact at right angles, yaws in
// [0, 2 pi).
func TestGridPoses(t *testing.T) {
	g := pose_sweep.Grid{Center: ci.Vector2{X: 1, Y: -1}, DistMin: 0.1, DistStep: 0.1, DistCount: 3,
		DirMin: 90, DirStep: 90, DirCount: 2, YawMin: -90, YawStep: 450, YawCount: 2}
	if g.Len() != 12 {
		t.Fatalf("Len() = %d, want 12", g.Len())
	}
	for _, tc := range []struct {
		p    int
		want pose_sweep.Pose
	}{
		{0, pose_sweep.Pose{X: 1, Y: -0.9, Yaw: 270 * (math.Pi / 180)}},
		{2, pose_sweep.Pose{X: 1, Y: -0.7, Yaw: 270 * (math.Pi / 180)}}, // 0.1 + 2 x 0.1 rounded: 0.3
		{4, pose_sweep.Pose{X: 0.8, Y: -1, Yaw: 270 * (math.Pi / 180)}}, // direction 180
		{6, pose_sweep.Pose{X: 1, Y: -0.9, Yaw: 0}},                     // yaw -90 + 450 = 360
	} {
		if got := g.Pose(tc.p); got != tc.want {
			t.Errorf("Pose(%d) = %+v, want %+v", tc.p, got, tc.want)
		}
	}
	g = pose_sweep.Grid{DistMin: 1, DistCount: 1, DirMin: 30, DirCount: 1, YawCount: 1}
	if p := g.Pose(0); math.Abs(p.X-math.Sqrt(3)/2) > 1e-15 || math.Abs(p.Y-0.5) > 1e-15 {
		t.Errorf("direction 30 degrees: %+v", p)
	}
}

// Over a floor ramp, the motor ground sensors read the ramp's grey level
// at their own positions, one row per reading, tick = pose + 1, and the
// other robot stays where it started.
func TestSweepTabulatesReadings(t *testing.T) {
	xml := experiment(`<footbot_motor_ground implementation="rot_z_only" noise_level="0" />`, "", "",
		`<sweep robot="fb0" output="t.tsv" dist_min="-0.2" dist_step="0.1" dist_count="5" yaw_step_deg="90" yaw_count="2" />
    <floor_ramp x_black="-0.2" x_white="0.2" />`,
		`<floor id="floor" source="loop_functions" pixels_per_meter="100" />
    <foot-bot id="fb1"><body position="2,2,0" orientation="30,0,0" /><controller config="fdc" /></foot-bot>`, "")
	rows, sim := run(t, xml)
	if got := strings.Join(rows[0], "\t"); got != pose_sweep.ReadingsHeader {
		t.Fatalf("header %q", got)
	}
	rows = rows[1:]
	if len(rows) != 10*4 {
		t.Fatalf("%d rows, want 40", len(rows))
	}
	offsets := []ci.Vector2{{X: 0.063, Y: 0.0116}, {X: -0.063, Y: 0.0116}, {X: -0.063, Y: -0.0116}, {X: 0.063, Y: -0.0116}}
	for k, r := range rows {
		p, i := k/4, k%4
		x, y, yaw := num(t, r[1]), num(t, r[2]), num(t, r[3])
		if r[0] != strconv.Itoa(p+1) || r[4] != ci.TagFootBotMotorGround || r[5] != strconv.Itoa(i) {
			t.Fatalf("row %d: %v", k, r)
		}
		if wantX := math.Round((-0.2+0.1*float64(p%5))*1e9) / 1e9; x != wantX || y != 0 || yaw != float64(p/5)*90*(math.Pi/180) {
			t.Fatalf("row %d: pose (%v, %v, %v)", k, x, y, yaw)
		}
		s, c := math.Sincos(yaw)
		sx := x + c*offsets[i].X - s*offsets[i].Y
		g := math.Floor(255*max(0, min(1, (sx+0.2)/0.4)) + 0.5)
		if v := num(t, r[6]); math.Abs(v-g/255) > 1e-7 {
			t.Errorf("row %d: sensor %d at x=%.4f reads %v, want grey %v/255", k, i, sx, v, g)
		}
		if a := num(t, r[7]); math.Abs(a-math.Atan2(offsets[i].Y, offsets[i].X)) > 1e-15 {
			t.Errorf("row %d: angle %v", k, a)
		}
	}
	if b := sim.Robot(1).B(); b.Pos != (ci.Vector2{X: 2, Y: 2}) {
		t.Errorf("the other robot moved to %v", b.Pos)
	}
	if sim.Tick() != 10 {
		t.Errorf("the run ended at tick %d, want 10 (one per pose)", sim.Tick())
	}
}

// The rab table: one row per tick about the first packet, NaN without one.
func TestSweepTabulatesPackets(t *testing.T) {
	xml := experiment(`<range_and_bearing implementation="medium" medium="rab" />`, "", "",
		`<sweep robot="fb0" output="t.tsv" format="rab" dist_min="1" dist_step="1.5" dist_count="3" dir_min_deg="90" />`,
		`<foot-bot id="fb1"><body position="0,0,0" orientation="0,0,0" /><controller config="sender" /></foot-bot>`,
		`<range_and_bearing id="rab" />`)
	rows, _ := run(t, xml)
	if got := strings.Join(rows[0], "\t"); got != pose_sweep.RABHeader {
		t.Fatalf("header %q", got)
	}
	rows = rows[1:]
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	// at (0, 1) and (0, 2.5), facing +x: the sender is straight to the
	// right; at (0, 4) it is out of its 3 m range
	for k, want := range []float64{100, 250} {
		r := rows[k]
		if r[4] != "1" || math.Abs(num(t, r[5])-want) > 1e-9 || math.Abs(num(t, r[6])+math.Pi/2) > 1e-12 || num(t, r[7]) != 0 || r[8] != "7,9,11,0,0,0,0,0,0,0" {
			t.Errorf("pose %d: %v", k, r)
		}
	}
	if r := rows[2]; strings.Join(r[4:], " ") != "0 NaN NaN NaN " {
		t.Errorf("out of range: %v", r)
	}
}

// A pose that overlaps a body stops the run with an error naming the
// body, unless ignore_collisions is true.
func TestSweepStopsAtAnOverlap(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		xml := experiment(`<footbot_proximity implementation="default" />`, "", "",
			`<sweep robot="fb0" output="t.tsv" dist_min="0.3" dist_step="-0.1" dist_count="3" ignore_collisions="`+strconv.FormatBool(ignore)+`" />`,
			`<box id="wall" size="0.1,2,0.2" movable="false"><body position="0.05,0,0" orientation="0,0,0" /></box>`, "")
		dir := t.TempDir()
		exp, err := config.Parse(filepath.Join(dir, "x.argos"), []byte(xml))
		if err != nil {
			t.Fatal(err)
		}
		sim, err := simulator.New(exp, simulator.Options{OutputDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		err = sim.Run(context.Background())
		sim.Close()
		if ignore {
			if err != nil {
				t.Errorf("ignore_collisions=true: %v", err)
			}
			continue
		}
		// pose 2 (0.1 m from the wall's centre line) overlaps the wall
		if err == nil || !strings.Contains(err.Error(), `overlaps box "wall"`) || !strings.Contains(err.Error(), "pose_sweep: ") ||
			!strings.Contains(err.Error(), "x.argos:") || !strings.Contains(err.Error(), "ignore_collisions") {
			t.Errorf("error %v, want one naming the wall, the file and ignore_collisions", err)
		}
		if rows := readTable(t, filepath.Join(dir, "t.tsv")); len(rows) != 1+2*24 {
			t.Errorf("%d lines written, want the header and the 2 poses before the overlap", len(rows))
		}
	}
}

// Mistakes in the sweep stop the simulator's set-up with file:line and
// what to write.
func TestSweepConfigErrors(t *testing.T) {
	prox := `<footbot_proximity implementation="default" />`
	other := `<foot-bot id="fb1"><body position="2,2,0" orientation="0,0,0" /><controller config="fdc" /></foot-bot>`
	for _, tc := range []struct {
		name, sensors, loop, arena, want string
	}{
		{"no such robot", prox, `<sweep robot="nobody" output="t.tsv" />`, "", `no robot has id "nobody"`},
		{"not a probe", prox, `<sweep robot="fb1" output="t.tsv" />`, other, "must run sensor_probe_controller"},
		{"rab without sensor", prox, `<sweep robot="fb0" output="t.tsv" format="rab" />`, "", "declares no range_and_bearing sensor"},
		{"bad format", prox, `<sweep robot="fb0" output="t.tsv" format="csv" />`, "", `"csv" is not a table format`},
		{"zero count", prox, `<sweep robot="fb0" output="t.tsv" yaw_count="0" />`, "", "yaw_count"},
		{"too many poses", prox, `<sweep robot="fb0" output="t.tsv" dist_count="100000" dir_count="100000" />`, "", "split the sweep"},
		{"flat ramp", prox, `<sweep robot="fb0" output="t.tsv" /><floor_ramp x_black="1" x_white="1" />`, "", "equals x_black"},
		{"no output", prox, `<sweep robot="fb0" />`, "", "output"},
		{"unknown attribute", prox, `<sweep robot="fb0" output="t.tsv" dist_cont="3" />`, "", "dist_cont"},
		{"outside the arena", prox, `<sweep robot="fb0" output="t.tsv" dist_min="9" />`, "", "outside the arena"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			xml := experiment(tc.sensors, "", "", tc.loop, tc.arena, "")
			exp, err := config.Parse(filepath.Join(dir, "x.argos"), []byte(xml))
			if err == nil {
				var sim *simulator.Simulator
				sim, err = simulator.New(exp, simulator.Options{OutputDir: dir})
				if sim != nil {
					sim.Close()
				}
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.argos:") {
				t.Errorf("error %v, want one with x.argos:LINE saying %q", err, tc.want)
			}
		})
	}
}

// Reset starts the sweep over: the table is written again, identical.
func TestSweepReset(t *testing.T) {
	xml := experiment(`<footbot_proximity implementation="default" noise_level="0" />`, "", "",
		`<sweep robot="fb0" output="t.tsv" dist_min="0.1" dist_step="0.02" dist_count="4" dir_min_deg="180" yaw_step_deg="45" yaw_count="2" />`,
		`<box id="wall" size="0.1,2,0.2" movable="false"><body position="0.05,0,0" orientation="0,0,0" /></box>`, "")
	first, sim := run(t, xml)
	out := sim.OutputPath("t.tsv")
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	sim.LoopFunctions().Destroy()
	second := readTable(t, out)
	if len(first) != 1+8*24 || len(second) != len(first) {
		t.Fatalf("%d lines, then %d after Reset; want %d", len(first), len(second), 1+8*24)
	}
	for k := range first {
		if strings.Join(first[k], " ") != strings.Join(second[k], " ") {
			t.Fatalf("line %d differs after Reset: %v, %v", k+1, first[k], second[k])
		}
	}
}
