package sweeps

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	_ "github.com/argosgo/argos/controllers/sensor_probe"
	_ "github.com/argosgo/argos/loop_functions/pose_sweep"
	"github.com/argosgo/argos/simulator"
	_ "github.com/argosgo/argos/simulator/devices"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/physics/pointmass3d"
)

// tolerance is how far a reading (and its angle) may be from ARGoS 3's.
const tolerance = 1e-6

// row is one row of a readings table.
type row struct {
	tick         int
	x, y, yaw    float64
	sensor       string
	index        int
	value, angle float64
}

// readTable reads a readings table (gzipped when the name ends in .gz).
func readTable(path string) ([]row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, err
		}
		r = z
	}
	sc := bufio.NewScanner(r)
	var rows []row
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			if h := sc.Text(); h != "tick\tx\ty\tyaw_rad\tsensor\tindex\tvalue\tangle_rad" {
				return nil, fmt.Errorf("%s: header %q", path, h)
			}
			continue
		}
		f := strings.Split(sc.Text(), "\t")
		if len(f) != 8 {
			return nil, fmt.Errorf("%s:%d: %d fields", path, line+1, len(f))
		}
		var rw row
		var errs [7]error
		rw.tick, errs[0] = strconv.Atoi(f[0])
		rw.x, errs[1] = strconv.ParseFloat(f[1], 64)
		rw.y, errs[2] = strconv.ParseFloat(f[2], 64)
		rw.yaw, errs[3] = strconv.ParseFloat(f[3], 64)
		rw.sensor = f[4]
		rw.index, errs[4] = strconv.Atoi(f[5])
		rw.value, errs[5] = strconv.ParseFloat(f[6], 64)
		rw.angle, errs[6] = strconv.ParseFloat(f[7], 64)
		for _, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line+1, err)
			}
		}
		rows = append(rows, rw)
	}
	return rows, sc.Err()
}

// runSweep runs testdata/name.argos unchanged with the given thread count
// and returns the readings table the pose_sweep loop functions wrote.
func runSweep(t testing.TB, name string, threads int) []row {
	t.Helper()
	dir := t.TempDir()
	runSweepThreads(t, name, dir, threads)
	rows, err := readTable(filepath.Join(dir, name+".tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// runSweepInto runs testdata/name.argos unchanged, its table written in
// dir.
func runSweepInto(t testing.TB, name, dir string) { runSweepThreads(t, name, dir, 0) }

func runSweepThreads(t testing.TB, name, dir string, threads int) {
	t.Helper()
	exp, err := config.Load(filepath.Join("testdata", name+".argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{OutputDir: dir, Threads: &threads})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
}

// diff is how two tables compare.
type diff struct {
	value, angle float64 // largest differences
	worst        row     // ARGoS 3's row with the largest value difference
	ours         float64 // our value there
	over         int     // readings off by more than the tolerance
}

// compare checks that the tables have the same rows (tick, pose, sensor,
// index) and measures how far our values and angles are from ARGoS 3's.
func compare(t *testing.T, ours, ref []row) diff {
	t.Helper()
	if len(ours) != len(ref) {
		t.Fatalf("%d rows, ARGoS 3 wrote %d", len(ours), len(ref))
	}
	var d diff
	for k := range ref {
		a, b := ours[k], ref[k]
		if a.tick != b.tick || a.sensor != b.sensor || a.index != b.index {
			t.Fatalf("row %d is tick %d %s[%d], ARGoS 3's is tick %d %s[%d]", k+2, a.tick, a.sensor, a.index, b.tick, b.sensor, b.index)
		}
		if math.Abs(a.x-b.x) > 1e-12 || math.Abs(a.y-b.y) > 1e-12 || math.Abs(a.yaw-b.yaw) > 1e-12 {
			t.Fatalf("row %d: pose (%v, %v, %v), ARGoS 3's (%v, %v, %v)", k+2, a.x, a.y, a.yaw, b.x, b.y, b.yaw)
		}
		if dv := math.Abs(a.value - b.value); dv > d.value {
			d.value, d.worst, d.ours = dv, b, a.value
		}
		d.angle = math.Max(d.angle, math.Abs(math.Remainder(a.angle-b.angle, 2*math.Pi)))
		if math.Abs(a.value-b.value) > tolerance {
			d.over++
		}
	}
	return d
}

// The four sweeps of ARGoS 3 (testdata/*.argos, run as they are): every
// reading, and every sensor angle, within 1e-6 of ARGoS 3's.
func TestSweepsMatchARGoS3(t *testing.T) {
	for _, name := range []string{"epuck_proximity_wall", "footbot_proximity_wall", "footbot_proximity_robot", "footbot_motor_ground"} {
		t.Run(name, func(t *testing.T) {
			ref, err := readTable(filepath.Join("testdata", name+".tsv.gz"))
			if err != nil {
				t.Fatal(err)
			}
			d := compare(t, runSweep(t, name, 0), ref)
			t.Logf("%s: %d readings, largest difference %.2g (tick %d %s[%d]: ours %v, ARGoS 3 %v), angles within %.2g",
				name, len(ref), d.value, d.worst.tick, d.worst.sensor, d.worst.index, d.ours, d.worst.value, d.angle)
			if d.over > 0 || d.angle > tolerance {
				t.Errorf("%d readings differ from ARGoS 3's by more than %g (largest %g, at tick %d %s[%d]: ours %v, ARGoS 3 %v); angles by up to %g",
					d.over, tolerance, d.value, d.worst.tick, d.worst.sensor, d.worst.index, d.ours, d.worst.value, d.angle)
			}
		})
	}
}

// Same table whatever the thread count.
func TestSweepsIndependentOfThreads(t *testing.T) {
	for _, name := range []string{"footbot_proximity_robot", "footbot_light"} {
		a, b := runSweep(t, name, 0), runSweep(t, name, 2)
		if len(a) != len(b) {
			t.Fatalf("%s: %d rows with no extra thread, %d with 2", name, len(a), len(b))
		}
		for k := range a {
			if a[k] != b[k] {
				t.Fatalf("%s: row %d is %+v with no extra thread, %+v with 2", name, k+2, a[k], b[k])
			}
		}
	}
}
