package traces_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// ARGoS 3's foot-bot and e-puck radii (m).
const (
	footBotRadius = 0.085036758
	ePuckRadius   = 0.035
)

// figure is one line of the fidelity table.
type figure struct {
	name        string
	ours, argos float64
	tol         float64 // largest accepted |ours - argos|
	unit        string
}

// check logs the figures as table rows and fails on those out of
// tolerance.
func check(t *testing.T, scenario string, figs []figure) {
	t.Helper()
	for _, f := range figs {
		scale, unit := 1.0, f.unit
		if unit == "m" {
			scale, unit = 1000, "mm"
		}
		t.Logf("| %s | %s | %.6g %s | %.6g %s | %.3g %s | %.3g %s |", scenario, f.name,
			f.ours*scale, unit, f.argos*scale, unit, (f.ours-f.argos)*scale, unit, f.tol*scale, unit)
		if d := math.Abs(f.ours - f.argos); !(d <= f.tol) {
			t.Errorf("%s: %s = %.9g %s, ARGoS 3 %.9g %s: off by %.3g, more than %.3g", scenario, f.name,
				f.ours, f.unit, f.argos, f.unit, f.ours-f.argos, f.tol)
		}
	}
}

// checkPoses fails unless every pose of ours lies within tol (m) and
// yawTol (rad) of ref's, up to tick last (all ticks when last < 0).
func checkPoses(t *testing.T, ours, ref *trace, last int, tol, yawTol float64) worst {
	t.Helper()
	cut := func(tr *trace) *trace {
		if last < 0 {
			return tr
		}
		c := &trace{at: map[int]map[string]pose{}}
		for _, tick := range tr.ticks {
			if tick <= last {
				c.ticks = append(c.ticks, tick)
				c.at[tick] = tr.at[tick]
			}
		}
		return c
	}
	w := compare(t, cut(ours), cut(ref), tol)
	t.Logf("poses: %v", w)
	if w.pos > tol || w.yaw > yawTol {
		t.Errorf("poses differ from ARGoS 3's by up to %.3g m and %.3g rad, want at most %g m and %g rad: %v",
			w.pos, w.yaw, tol, yawTol, w)
	}
	return w
}

const (
	poseTol = 1e-3 // m
	yawTol  = 1e-5 // rad
)

func TestEPuckStraight(t *testing.T) {
	ref, ours := reference(t, "epuck_straight"), run(t, "epuck_straight", 0, nil)
	checkPoses(t, ours, ref, -1, poseTol, yawTol)
	x := func(tr *trace, tick int) float64 { return tr.at[tick]["ep0"].x }
	check(t, "epuck_straight", []figure{
		{"x at tick 1 (nothing moves)", x(ours, 1), x(ref, 1), 1e-9, "m"},
		{"x at tick 2 (first motion)", x(ours, 2), x(ref, 2), 1e-6, "m"},
		{"advance per tick, ticks 3-100", (x(ours, 100) - x(ours, 2)) / 98, (x(ref, 100) - x(ref, 2)) / 98, 1e-6, "m"},
		{"x at tick 100", x(ours, 100), x(ref, 100), 1e-6, "m"},
	})
}

func TestEPuckArc(t *testing.T) {
	ref, ours := reference(t, "epuck_arc"), run(t, "epuck_arc", 0, nil)
	checkPoses(t, ours, ref, -1, poseTol, yawTol)
	p := func(tr *trace, tick int) pose { return tr.at[tick]["ep0"] }
	// The centre of the circle the robot drives, from its last pose
	// (radius v/omega to its left).
	const radius = 0.075 / (5.0 / 0.053) // m: (5+10)/2 cm/s over (10-5)/5.3 rad/s
	centre := func(tr *trace) (float64, float64) {
		q := p(tr, 300)
		return q.x - radius*math.Sin(q.yaw), q.y + radius*math.Cos(q.yaw)
	}
	ox, oy := centre(ours)
	ax, ay := centre(ref)
	check(t, "epuck_arc", []figure{
		{"yaw at tick 2 (first turn)", p(ours, 2).yaw, p(ref, 2).yaw, 1e-6, "rad"},
		{"turn per tick, ticks 3-30", (p(ours, 30).yaw - p(ours, 2).yaw) / 28, (p(ref, 30).yaw - p(ref, 2).yaw) / 28, 1e-7, "rad"},
		{"x at tick 300", p(ours, 300).x, p(ref, 300).x, 1e-5, "m"},
		{"y at tick 300", p(ours, 300).y, p(ref, 300).y, 1e-5, "m"},
		{"distance between the circles' centres at tick 300", math.Hypot(ox-ax, oy-ay), 0, 1e-5, "m"},
	})
}

func TestFootBotSpin(t *testing.T) {
	ref, ours := reference(t, "footbot_spin"), run(t, "footbot_spin", 0, nil)
	checkPoses(t, ours, ref, -1, poseTol, yawTol)
	p := func(tr *trace, tick int) pose { return tr.at[tick]["fb0"] }
	drift := func(tr *trace) float64 {
		d := 0.0
		for _, tick := range tr.ticks {
			d = max(d, math.Hypot(p(tr, tick).x, p(tr, tick).y))
		}
		return d
	}
	check(t, "footbot_spin", []figure{
		{"yaw at tick 2 (first turn)", p(ours, 2).yaw, p(ref, 2).yaw, 1e-6, "rad"},
		{"turn per tick, ticks 3-20", (p(ours, 20).yaw - p(ours, 2).yaw) / 18, (p(ref, 20).yaw - p(ref, 2).yaw) / 18, 1e-7, "rad"},
		{"yaw at tick 100", p(ours, 100).yaw, p(ref, 100).yaw, 1e-6, "rad"},
		{"largest distance from the start", drift(ours), drift(ref), 1e-9, "m"},
	})
}

func TestFootBotWall45(t *testing.T) {
	ref, ours := reference(t, "footbot_wall_45"), run(t, "footbot_wall_45", 0, nil)
	checkPoses(t, ours, ref, -1, poseTol, yawTol)
	p := func(tr *trace, tick int) pose { return tr.at[tick]["fb0"] }
	yawDrift := func(tr *trace) float64 {
		d := 0.0
		for _, tick := range tr.ticks {
			d = max(d, math.Abs(p(tr, tick).yaw-math.Pi/4))
		}
		return d
	}
	check(t, "footbot_wall_45", []figure{
		{"slide along the wall per tick, ticks 12-300", (p(ours, 300).x - p(ours, 12).x) / 288, (p(ref, 300).x - p(ref, 12).x) / 288, 1e-6, "m"},
		{"y while sliding (tick 300)", p(ours, 300).y, p(ref, 300).y, 1e-6, "m"},
		{"largest change of heading", yawDrift(ours), yawDrift(ref), 1e-9, "rad"},
		{"x at tick 300", p(ours, 300).x, p(ref, 300).x, 1e-4, "m"},
	})
}

// contactTick returns the first tick at which the distance between the
// centres of a and b falls below dist.
func contactTick(tr *trace, a, b string, dist float64) float64 {
	for _, tick := range tr.ticks {
		pa, pb := tr.at[tick][a], tr.at[tick][b]
		if math.Hypot(pa.x-pb.x, pa.y-pb.y) < dist {
			return float64(tick)
		}
	}
	return -1
}

func TestFootBotHeadOn(t *testing.T) {
	ref, ours := reference(t, "footbot_headon"), run(t, "footbot_headon", 0, nil)
	checkPoses(t, ours, ref, -1, poseTol, yawTol)
	overlap := func(tr *trace) float64 {
		a, b := tr.at[200]["fb0"], tr.at[200]["fb1"]
		return 2*footBotRadius - math.Hypot(a.x-b.x, a.y-b.y)
	}
	check(t, "footbot_headon", []figure{
		{"first tick in contact", contactTick(ours, "fb0", "fb1", 2*footBotRadius), contactTick(ref, "fb0", "fb1", 2*footBotRadius), 0, "tick"},
		{"overlap while pushing (tick 200)", overlap(ours), overlap(ref), 2e-5, "m"},
		{"fb0's x at tick 200", ours.at[200]["fb0"].x, ref.at[200]["fb0"].x, 2e-5, "m"},
	})
}

func TestFootBotPushBox(t *testing.T) {
	ref, ours := reference(t, "footbot_push_box"), run(t, "footbot_push_box", 0, nil)
	checkPoses(t, ours, ref, -1, poseTol, yawTol)
	firstMove := func(tr *trace) float64 {
		for _, tick := range tr.ticks {
			if tr.at[tick]["box0"].x != tr.at[0]["box0"].x {
				return float64(tick)
			}
		}
		return -1
	}
	overlap := func(tr *trace) float64 {
		return footBotRadius + 0.1 - (tr.at[300]["box0"].x - tr.at[300]["fb0"].x)
	}
	sideways := func(tr *trace) float64 {
		d := 0.0
		for _, tick := range tr.ticks {
			d = max(d, math.Abs(tr.at[tick]["box0"].y), math.Abs(tr.at[tick]["box0"].yaw))
		}
		return d
	}
	check(t, "footbot_push_box", []figure{
		{"first tick the box moves", firstMove(ours), firstMove(ref), 0, "tick"},
		{"robot-box overlap while pushing (tick 300)", overlap(ours), overlap(ref), 2e-5, "m"},
		{"box's x at tick 300", ours.at[300]["box0"].x, ref.at[300]["box0"].x, 1e-4, "m"},
		{"box's largest sideways drift or turn", sideways(ours), sideways(ref), 1e-9, "m or rad"},
	})
}

// crowdStats are the statistics of a crowd of e-pucks over a run.
type crowdStats struct {
	close     int     // robot-pair ticks with centres closer than 70.5 mm
	deepest   float64 // largest overlap of two robots (m)
	median    float64 // median distance a robot moves in a tick (m)
	longest   float64 // longest move in a tick (m)
	outside   int     // robot-ticks with the robot's centre past a wall's inner face
	wall      float64 // deepest overlap of a robot and a wall (m)
	yawDrift  float64 // largest difference from the heading of a lone robot (rad)
	deepestAt string
}

func crowd(tr *trace, lone *trace) crowdStats {
	var s crowdStats
	var steps []float64
	ids := tr.ids(0)
	var robots []string
	for _, id := range ids {
		if strings.HasPrefix(id, "ep") {
			robots = append(robots, id)
		}
	}
	for k, tick := range tr.ticks {
		if tick == 0 {
			continue
		}
		at := tr.at[tick]
		for i, a := range robots {
			pa := at[a]
			if math.Abs(pa.x) > 0.5 || math.Abs(pa.y) > 0.5 {
				s.outside++
			}
			s.wall = max(s.wall, math.Abs(pa.x)+ePuckRadius-0.5, math.Abs(pa.y)+ePuckRadius-0.5)
			prev := tr.at[tr.ticks[k-1]][a]
			step := math.Hypot(pa.x-prev.x, pa.y-prev.y)
			steps = append(steps, step)
			s.longest = max(s.longest, step)
			if lone != nil {
				start := tr.at[0][a].yaw
				want := lone.at[tick]["ep0"].yaw - lone.at[0]["ep0"].yaw + start
				s.yawDrift = max(s.yawDrift, math.Abs(angleDiff(pa.yaw, want)))
			}
			for _, b := range robots[i+1:] {
				pb := at[b]
				d := math.Hypot(pa.x-pb.x, pa.y-pb.y)
				if d < 0.0705 {
					s.close++
				}
				if ov := 2*ePuckRadius - d; ov > s.deepest {
					s.deepest, s.deepestAt = ov, fmt.Sprintf("%s-%s at tick %d", a, b, tick)
				}
			}
		}
	}
	sort.Float64s(steps)
	s.median = steps[len(steps)/2]
	return s
}

// loneEPuck runs epuck_crowd's controller on one e-puck alone: the
// heading every robot of the crowd would have if contacts never turned
// it.
func loneEPuck(t *testing.T) *trace {
	return run(t, "epuck_arc", 0, func(data []byte) []byte {
		data = bytes.Replace(data, []byte(`length="30"`), []byte(`length="60"`), 1)
		return bytes.Replace(data, []byte(`left="5" right="10"`), []byte(`left="8" right="10"`), 1)
	})
}

// TestEPuckCrowd compares the crowd pose by pose for 100 ticks, then by
// its statistics over the 600. The statistics of one chaotic run vary
// with its start: the tolerances cover their spread over ten runs whose
// robots start up to 1e-6 m apart (measured: 6402 to 8138 close
// pair-ticks, deepest overlap 1.70 to 1.79 mm, longest move 11.1 to
// 12.2 mm, deepest overlap with a wall 0.68 to 0.86 mm).
func TestEPuckCrowd(t *testing.T) {
	ref, ours := reference(t, "epuck_crowd"), run(t, "epuck_crowd", 0, nil)
	checkPoses(t, ours, ref, 100, poseTol, yawTol)
	t.Logf("over the whole run: %v", compare(t, ours, ref, poseTol))
	lone := loneEPuck(t)
	a, b := crowd(ours, lone), crowd(ref, lone)
	t.Logf("deepest overlap: ours %s, ARGoS %s", a.deepestAt, b.deepestAt)
	check(t, "epuck_crowd", []figure{
		{"robot-pair ticks closer than 70.5 mm", float64(a.close), float64(b.close), 0.25 * float64(b.close), "pair-ticks"},
		{"deepest overlap of two robots", a.deepest, b.deepest, 2e-4, "m"},
		{"median move per tick", a.median, b.median, 2e-4, "m"},
		{"longest move in a tick", a.longest, b.longest, 1.5e-3, "m"},
		{"deepest overlap of a robot and a wall", a.wall, b.wall, 3e-4, "m"},
		{"robot-ticks with the centre past a wall", float64(a.outside), float64(b.outside), 0, "robot-ticks"},
		{"largest turn by contacts (heading - lone robot's)", a.yawDrift, b.yawDrift, 1e-5, "rad"},
	})
}

// TestThreads runs the crowd with two threads: the trace must be the
// same, byte for byte, as with one.
func TestThreads(t *testing.T) {
	files := map[int][]byte{}
	for _, threads := range []int{0, 2} {
		dir := t.TempDir()
		runInto(t, "epuck_crowd", threads, nil, dir)
		data, err := os.ReadFile(filepath.Join(dir, "epuck_crowd.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		files[threads] = data
	}
	if !bytes.Equal(files[0], files[2]) {
		t.Error("epuck_crowd's trace with 2 threads differs from the one with 1")
	}
}
