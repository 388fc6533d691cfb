package argoscli

import (
	"math"
	"os"
	"path/filepath"
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
