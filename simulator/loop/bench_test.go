package loop_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/loop"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

func repoFile(parts ...string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(here), "..", ".."}, parts...)...)
}

var benchLine = regexp.MustCompile(`^BENCH robots=(\d+) steps=(\d+) loop_wall_s=([\d.]+) loop_cpu_s=([\d.]+) robot_steps_per_s=(\d+) rtf=([\d.]+) mean_disp_m=([\d.]+)$`)

// The scalability files load unmodified and print the BENCH line of
// docs/benchmarks.md (here cut to 20 ticks to keep the test short).
func TestScalabilityFilesPrintBenchLine(t *testing.T) {
	for _, f := range []string{"scalability_1000_e1.argos", "scalability_10000_e1.argos", "scalability_10000_e4.argos"} {
		t.Run(f, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			exp, err := config.Load(repoFile("experiments", "scalability", f))
			if err != nil {
				t.Fatal(err)
			}
			exp.Framework.Length = 2 // 20 ticks
			sim, err := simulator.New(exp, simulator.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer sim.Close()
			if err := sim.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			out, err := os.ReadFile(filepath.Join(dir, "bench.txt"))
			if err != nil {
				t.Fatalf("the BENCH line was not appended to output=\"bench.txt\": %v", err)
			}
			line := strings.TrimSpace(string(out))
			m := benchLine.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("bench.txt holds %q, not a BENCH line", line)
			}
			robots, _ := strconv.Atoi(m[1])
			steps, _ := strconv.Atoi(m[2])
			disp, _ := strconv.ParseFloat(m[7], 64)
			if robots != sim.NumRobots() || steps != 20 {
				t.Errorf("robots=%d steps=%d, want %d and 20", robots, steps, sim.NumRobots())
			}
			// e-pucks at 5 cm/s for 2 s: at most 0.1 m, and they do move.
			if disp <= 0.01 || disp > 0.1001 {
				t.Errorf("mean_disp_m=%g, want in (0.01, 0.1]", disp)
			}
		})
	}
}

// The 100,000-robot file loads and its robots are placed (in seconds, not
// the quarter of an hour ARGoS 3 takes); running it is `make bench`'s job.
func TestScalability100000Loads(t *testing.T) {
	if testing.Short() {
		t.Skip("places 100,000 robots")
	}
	t.Chdir(t.TempDir())
	exp, err := config.Load(repoFile("experiments", "scalability", "scalability_100000_e4.argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	owned := 0
	for _, e := range sim.Engines() {
		owned += len(e.Bodies())
	}
	if sim.NumRobots() != 100000 || owned != 100000 || len(sim.Engines()) != 4 {
		t.Fatalf("%d robots, %d owned by %d engines; want 100000 in 4 engines", sim.NumRobots(), owned, len(sim.Engines()))
	}
}

func TestBenchLineFormat(t *testing.T) {
	t.Chdir(t.TempDir())
	exp, err := config.Load(repoFile("experiments", "scalability", "scalability_1000_e1.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.Framework.Length = 1
	exp.LoopFunctions.Node.Attrs = nil // no output file
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	b := loop.NewBench()
	var stderr bytes.Buffer
	b.Stderr = &stderr
	if err := b.Init(sim, exp.LoopFunctions.Node); err != nil {
		t.Fatal(err)
	}
	for !sim.Finished() {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		b.PostStep()
	}
	b.PostExperiment()
	if !benchLine.MatchString(strings.TrimSpace(stderr.String())) || stderr.String() != b.Line+"\n" {
		t.Fatalf("stderr %q is not one BENCH line", stderr.String())
	}
	if _, err := os.Stat("bench.txt"); err == nil {
		t.Fatal("bench.txt written without an output attribute")
	}
}

// window adds a BENCH_WINDOWS line with one mean tick cost per window, and
// cpuprofile and memprofile write their profiles.
func TestBenchWindowsAndProfiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	exp, err := config.Load(repoFile("experiments", "scalability", "scalability_1000_e1.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.Framework.Length = 2 // 20 ticks: two windows of 1 s
	n := exp.LoopFunctions.Node
	n.Attrs = []config.Attr{{Name: "window", Value: "1"}, {Name: "cpuprofile", Value: "cpu.pprof"}, {Name: "memprofile", Value: "mem.pprof"}}
	exp.LoopFunctions = nil // run by hand below, so that only one CPU profile starts
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	b := loop.NewBench()
	var stderr bytes.Buffer
	b.Stderr = &stderr
	if err := b.Init(sim, n); err != nil {
		t.Fatal(err)
	}
	for !sim.Finished() {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		b.PostStep()
	}
	b.PostExperiment()
	windows := regexp.MustCompile(`^BENCH_WINDOWS window_s=1 ms_per_tick=([\d.]+),([\d.]+) cpu_ms_per_tick=([\d.]+),([\d.]+)$`)
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 2 || !benchLine.MatchString(lines[0]) || !windows.MatchString(lines[1]) || lines[1] != b.Windows {
		t.Fatalf("stderr %q is not a BENCH line and a BENCH_WINDOWS line of two windows", stderr.String())
	}
	for _, f := range []string{"cpu.pprof", "mem.pprof"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("profile %s not written: %v", f, err)
		}
	}
}

// A window shorter than a tick is refused with the file and line.
func TestBenchWindowTooShort(t *testing.T) {
	exp, err := config.Load(repoFile("experiments", "scalability", "scalability_1000_e1.argos"))
	if err != nil {
		t.Fatal(err)
	}
	n := exp.LoopFunctions.Node
	n.Attrs = append(n.Attrs, config.Attr{Name: "window", Value: "0.01"})
	sim, err := simulator.New(exp, simulator.Options{})
	if err == nil {
		sim.Close()
		t.Fatal("window=0.01 with 10 ticks per second accepted")
	}
	if !strings.Contains(err.Error(), "scalability_1000_e1.argos:") || !strings.Contains(err.Error(), "shorter than a tick") {
		t.Fatalf("error %q does not say where and what", err)
	}
}
