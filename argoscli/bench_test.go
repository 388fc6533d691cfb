package argoscli

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
)

// The generated experiment hands the window and the profiles to
// bench_loop_functions, with the paths escaped for XML.
func TestBenchExperimentOptions(t *testing.T) {
	c := benchConfig{robots: 100, threads: 2, engines: 4, engine: "kinematics2d", scale: 0.1}
	plain, err := config.Parse("plain.argos", []byte(benchExperiment(c, 10, benchOptions{})))
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.LoopFunctions.Node.Attrs) != 1 {
		t.Fatalf("loop functions without options have attributes %v, want the label only", plain.LoopFunctions.Node.Attrs)
	}
	o := benchOptions{window: 60, cpuProfile: "/tmp/a&b.cpu", memProfile: "/tmp/m.mem"}
	exp, err := config.Parse("opts.argos", []byte(benchExperiment(c, 10, o)))
	if err != nil {
		t.Fatal(err)
	}
	n := exp.LoopFunctions.Node
	for name, want := range map[string]string{"window": "60", "cpuprofile": "/tmp/a&b.cpu", "memprofile": "/tmp/m.mem"} {
		if got := n.StringOr(name, ""); got != want {
			t.Errorf("%s=%q, want %q", name, got, want)
		}
	}
}

func TestProfileName(t *testing.T) {
	if got := profileName("", 0, 3); got != "" {
		t.Errorf("no profile asked gave %q", got)
	}
	one := profileName("k.cpu", 0, 1)
	if !filepath.IsAbs(one) || filepath.Base(one) != "k.cpu" {
		t.Errorf("one configuration: %q, want an absolute k.cpu", one)
	}
	if got := profileName("/x/k.cpu", 2, 3); got != "/x/k_2.cpu" {
		t.Errorf("configuration 2 of 3: %q, want /x/k_2.cpu", got)
	}
	if got := windowRe.FindStringSubmatch("BENCH_WINDOWS window_s=60 ms_per_tick=1.5,2.25 cpu_ms_per_tick=3,4.5\n"); got == nil || got[1] != "1.5,2.25" || got[2] != "3,4.5" {
		t.Errorf("BENCH_WINDOWS not parsed: %v", got)
	}
}

// --setupprofile builds the experiment in this process and writes a CPU
// profile (gzip-compressed protocol buffers); a file it cannot load is an
// error, and so is a path it cannot write.
func TestProfileSetup(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bench.argos")
	c := benchConfig{robots: 200, threads: 2, engines: 1, engine: "kinematics2d", scale: math.Sqrt(200.0 / 10000)}
	if err := os.WriteFile(file, []byte(benchExperiment(c, 1, benchOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "setup.cpu")
	if err := profileSetup(file, out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("the set-up profile is not a gzip-compressed profile: %d bytes", len(data))
	}
	if err := profileSetup(filepath.Join(dir, "missing.argos"), filepath.Join(dir, "m.cpu")); err == nil {
		t.Error("a missing experiment file gave no error")
	}
	if err := profileSetup(file, filepath.Join(dir, "no", "such", "dir.cpu")); err == nil {
		t.Error("an unwritable profile path gave no error")
	}
}

// argos bench-late runs the first window and the late one in turns: each
// simulator runs exactly its window's ticks (the late one caught up
// first), both cost CPU, and the BENCH_LATE line it prints parses. A file
// that ends before the late window, windows that overlap and a missing
// file are errors that say what to give.
func TestBenchLate(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "late.argos")
	c := benchConfig{robots: 200, threads: 2, engines: 1, engine: "kinematics2d", scale: math.Sqrt(200.0 / 10000)}
	if err := os.WriteFile(file, []byte(benchExperiment(c, 3, benchOptions{})), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "late.cpu")
	o := lateOptions{late: 2, window: 1, block: 3, cpuProfile: prof, memoryLimit: "auto"}
	res, err := benchLate(file, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.ticks != 10 || res.earlyEnd != 10 || res.lateEnd != 30 || res.turns != 4 {
		t.Errorf("window of %d ticks, simulators stopped at ticks %d and %d after %d turns; want 10, 10, 30 and 4 turns",
			res.ticks, res.earlyEnd, res.lateEnd, res.turns)
	}
	if !(res.earlyCPU > 0 && res.lateCPU > 0 && res.pairMedian > 0) || res.robots != 200 {
		t.Errorf("early %g and late %g CPU ms per tick, pair median %g, %d robots", res.earlyCPU, res.lateCPU, res.pairMedian, res.robots)
	}
	if data, err := os.ReadFile(prof); err != nil || len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("no gzip-compressed CPU profile written (%v)", err)
	}
	// (the line rounds the CPU per tick to a microsecond, which at this
	// size moves their quotient by more than the ratio's rounding: the
	// ratio is compared with the result's own)
	early, late, ratio, _, ok := parseLate(res.line(o))
	if !ok || math.Abs(ratio-res.lateCPU/res.earlyCPU) > 1e-3*ratio ||
		math.Abs(early-res.earlyCPU) > 1e-3 || math.Abs(late-res.lateCPU) > 1e-3 {
		t.Errorf("BENCH_LATE line %q parsed as %g, %g, %g, %v", res.line(o), early, late, ratio, ok)
	}

	short := o
	short.late, short.cpuProfile = 2.5, ""
	if _, err := benchLate(file, short); err == nil || !strings.Contains(err.Error(), "give a length of at least 3.5") {
		t.Errorf("a late window past the experiment's end: %v", err)
	}
	overlap := o
	overlap.late, overlap.window, overlap.cpuProfile = 0.5, 1, ""
	if _, err := benchLate(file, overlap); err == nil || !strings.Contains(err.Error(), "--late 0.5") {
		t.Errorf("overlapping windows: %v", err)
	}
	var out, errOut strings.Builder
	if code := Run([]string{"bench-late", "-c", filepath.Join(dir, "missing.argos")}, &out, &errOut); code == 0 || errOut.Len() == 0 {
		t.Errorf("a missing file: exit %d, stderr %q", code, errOut.String())
	}
	if code := Run([]string{"bench-late", "-c", file, "--late", "1", "--window", "0.5", "--block", "2"}, &out, &errOut); code != 0 {
		t.Fatalf("argos bench-late: exit %d: %s", code, errOut.String())
	}
	if _, _, _, _, ok := parseLate(out.String()); !ok {
		t.Errorf("argos bench-late printed no BENCH_LATE line: %q", out.String())
	}
}
