package scaffold_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/argosgo/argos/internal/scaffold"
)

const module = "github.com/argosgo/argos"

func repoRoot() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..")
}

// newModule makes a scratch module that uses this repository, so the
// generated code builds against the real ci and behaviortk.
func newModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(repoRoot(), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/lab\n\ngo 1.25\n\nrequire " + module + " v0.0.0\n\nreplace " + module + " => " + repoRoot() + "\n"
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)
	os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
	return dir
}

func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// The generated controller, its tests and its experiment work: the package
// builds and passes its tests, and the experiment runs in the simulator.
func TestGeneratedControllerBuildsTestsAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	for _, robot := range []string{"footbot", "epuck"} {
		t.Run(robot, func(t *testing.T) {
			dir := newModule(t)
			c := scaffold.Controller{Name: "wander", Robot: robot, Module: module,
				Dir: filepath.Join(dir, "controllers", "wander"), Experiment: filepath.Join(dir, "wander.argos")}
			files, err := scaffold.WriteController(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) != 4 {
				t.Fatalf("wrote %v", files)
			}
			// The generated test imports <module>/controllers/wander, where
			// the package lives in the project: let the scratch module own
			// that import path (the longest module prefix wins).
			gomod := strings.Replace(readFile(t, filepath.Join(dir, "go.mod")), "module example.com/lab", "module "+module+"/controllers", 1)
			os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)
			os.Rename(filepath.Join(dir, "controllers", "wander"), filepath.Join(dir, "wander"))
			goCmd(t, dir, "vet", "./...")
			out := goCmd(t, dir, "test", "-count=1", "./...")
			if !strings.Contains(out, "ok") {
				t.Fatalf("generated tests did not pass:\n%s", out)
			}
			// run the experiment for 20 ticks with the generated controller
			os.WriteFile(filepath.Join(dir, "wander", "run_test.go"), []byte(runTest), 0o644)
			goCmd(t, dir, "test", "-count=1", "-run", "TestExperimentRuns", "./wander/")
		})
	}
}

const runTest = `package wander_test

import (
	"path/filepath"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	_ "github.com/argosgo/argos/controllers/wander"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

func TestExperimentRuns(t *testing.T) {
	exp, err := config.Load(filepath.Join("..", "wander.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.Visualizations = nil
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	start := sim.Robot(0).B().Pos
	for i := 0; i < 20; i++ {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if sim.NumRobots() != 10 || sim.Robot(0).B().Pos == start {
		t.Fatalf("%d robots; robot 0 did not move", sim.NumRobots())
	}
}
`

func TestGeneratedBehaviorBuildsAndTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	dir := newModule(t)
	files, err := scaffold.WriteBehavior(scaffold.Behavior{Name: "slow_down", Dir: filepath.Join(dir, "behaviors"),
		Module: module, Path: "example.com/lab/behaviors"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readFile(t, files[0]), "type SlowDown struct") {
		t.Fatalf("%s does not define SlowDown", files[0])
	}
	goCmd(t, dir, "vet", "./...")
	goCmd(t, dir, "test", "-count=1", "./...")
}

func TestRefusesBadNamesAndOverwrites(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"Wander", "9lives", "my-ctrl", ""} {
		if _, err := scaffold.WriteController(scaffold.Controller{Name: name, Robot: "footbot", Dir: dir, Module: module}); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	if _, err := scaffold.WriteController(scaffold.Controller{Name: "ok", Robot: "roomba", Dir: dir, Module: module}); err == nil {
		t.Error("unknown robot accepted")
	}
	c := scaffold.Controller{Name: "twice", Robot: "footbot", Dir: filepath.Join(dir, "twice"), Module: module}
	if _, err := scaffold.WriteController(c); err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.WriteController(c); !errors.Is(err, scaffold.ErrExists) {
		t.Fatalf("second write: %v, want ErrExists", err)
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
