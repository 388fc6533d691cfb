package argoscli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A grid-world experiment runs through argos like any other: the shipped
// density experiment with a run folder, then argos plot draws the
// histogram of its estimates.
func TestGridExperimentRunsAndPlots(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runArgos(t, "-c", repo("experiments", "gridworld", "density_2d_1e3.argos"), "-z", "--out", out, "--seed", "3", "--threads", "2", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "ran 50 rounds") || !strings.Contains(stderr, "seed 3") {
		t.Errorf("log:\n%s", stderr)
	}
	code, stdout, stderr := runArgos(t, "plot", out)
	if code != 0 {
		t.Fatalf("argos plot: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "histogram_of_density_estimate_over_1000_robots") {
		t.Errorf("argos plot drew:\n%s", stdout)
	}
	for _, line := range strings.Fields(stdout) {
		if st, err := os.Stat(line); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", line, err)
		}
	}
}

// Every shipped grid-world experiment loads, with the programs every
// argos binary has.
func TestShippedGridExperimentsLoad(t *testing.T) {
	files, _ := filepath.Glob(repo("experiments", "gridworld", "*.argos"))
	if len(files) < 5 {
		t.Fatalf("%d grid-world experiments", len(files))
	}
	for _, f := range files {
		if !isGridExperiment(f) {
			t.Errorf("%s is not seen as a grid world", f)
		}
	}
	if isGridExperiment(repo("experiments", "diffusion_10.argos")) {
		t.Error("diffusion_10.argos is seen as a grid world")
	}
}

func TestGridBadInputSaysWhere(t *testing.T) {
	f := write(t, "bad.argos", `<argos-configuration>
<framework><experiment length="10"/></framework>
<arena>
<grid size="10,10" torus="false"/>
<agents program="random_walk" quantity="150" radius="2"><params exclusive="true"/></agents>
</arena>
</argos-configuration>`)
	code, _, stderr := runArgos(t, "-c", f, "-z")
	if code != 1 || !strings.Contains(stderr, "bad.argos:5: <agents>: attribute quantity=\"150\": 150 agents do not fit") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	code, _, stderr = runArgos(t, "-c", repo("experiments", "gridworld", "density_2d_1e3.argos"), "-z", "--frames", t.TempDir())
	if code != 1 || !strings.Contains(stderr, "a grid world has the web view") {
		t.Errorf("--frames: exit %d: %s", code, stderr)
	}
}

func TestQueryListsGridPrograms(t *testing.T) {
	code, stdout, _ := runArgos(t, "-q", "all")
	if code != 0 || !strings.Contains(stdout, "== grid programs ==") || !strings.Contains(stdout, "density_estimation") || !strings.Contains(stdout, "task_allocation") {
		t.Errorf("argos -q all: exit %d\n%s", code, stdout)
	}
}
