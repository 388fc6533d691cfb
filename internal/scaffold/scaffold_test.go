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

const module = scaffold.ArgosModule

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

// The generated controller, its tests and its experiments work: the
// package builds and passes its tests, and each robot's experiment runs
// in the simulator.
func TestGeneratedControllerBuildsTestsAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	dir := newModule(t)
	c := scaffold.Controller{Name: "wander", Robots: []string{"footbot", "epuck"}, Root: dir, Module: "example.com/lab", Experiment: true}
	files, err := scaffold.WriteController(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"controllers/wander/doc.go", "controllers/wander/wander.go", "controllers/wander/wander_test.go",
		"experiments/wander_footbot.argos", "experiments/wander_epuck.argos"}
	if strings.Join(files, " ") != strings.Join(want, " ") {
		t.Fatalf("wrote %v, want %v", files, want)
	}
	if l := c.Labels(); len(l) != 2 || l[0] != "footbot_wander_controller" || l[1] != "epuck_wander_controller" {
		t.Errorf("labels %v", l)
	}
	goCmd(t, dir, "vet", "./...")
	out := goCmd(t, dir, "test", "-count=1", "-v", "./...")
	for _, w := range []string{"--- PASS: TestTurnsAwayFromAnObstacleAhead/foot-bot", "--- PASS: TestTurnsAwayFromAnObstacleAhead/e-puck", "ok"} {
		if !strings.Contains(out, w) {
			t.Fatalf("generated tests: no %q in\n%s", w, out)
		}
	}
	// run each experiment for 20 ticks with the generated controller
	os.WriteFile(filepath.Join(dir, "controllers", "wander", "run_test.go"), []byte(runTest), 0o644)
	goCmd(t, dir, "test", "-count=1", "-run", "TestExperimentsRun", "./controllers/wander/")
}

const runTest = `package wander_test

import (
	"path/filepath"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

func TestExperimentsRun(t *testing.T) {
	for _, f := range []string{"wander_footbot.argos", "wander_epuck.argos"} {
		exp, err := config.Load(filepath.Join("..", "..", "experiments", f))
		if err != nil {
			t.Fatal(err)
		}
		exp.Visualizations = nil
		sim, err := simulator.New(exp, simulator.Options{})
		if err != nil {
			t.Fatal(err)
		}
		start := sim.Robot(0).B().Pos
		for i := 0; i < 20; i++ {
			if err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if sim.NumRobots() != 10 || sim.Robot(0).B().Pos == start {
			t.Errorf("%s: %d robots; robot 0 did not move", f, sim.NumRobots())
		}
		sim.Close()
	}
}
`

func TestGeneratedBehaviorBuildsAndTests(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	dir := newModule(t)
	files, err := scaffold.WriteBehavior(scaffold.Behavior{Name: "slow_down", Root: dir, Dir: "behaviors", Module: "example.com/lab"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, files[0])), "type SlowDown struct") {
		t.Fatalf("%s does not define SlowDown", files[0])
	}
	goCmd(t, dir, "vet", "./...")
	goCmd(t, dir, "test", "-count=1", "./...")
}

func TestGeneratedLoopFunctionsBuildAndTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module")
	}
	dir := newModule(t)
	l := scaffold.LoopFunctions{Name: "census", Root: dir, Module: "example.com/lab"}
	if _, err := scaffold.WriteLoopFunctions(l); err != nil {
		t.Fatal(err)
	}
	if l.Label() != "census_loop_functions" || l.ImportPath() != "example.com/lab/loop_functions/census" {
		t.Errorf("label %q, import path %q", l.Label(), l.ImportPath())
	}
	goCmd(t, dir, "vet", "./...")
	goCmd(t, dir, "test", "-count=1", "./...")
}

func TestRefusesBadNamesAndOverwrites(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"Wander", "9lives", "my-ctrl", ""} {
		if _, err := scaffold.WriteController(scaffold.Controller{Name: name, Robots: []string{"footbot"}, Root: dir, Module: "m"}); err == nil {
			t.Errorf("name %q accepted", name)
		}
		if _, err := scaffold.WriteLoopFunctions(scaffold.LoopFunctions{Name: name, Root: dir, Module: "m"}); err == nil {
			t.Errorf("loop functions %q accepted", name)
		}
	}
	for _, robots := range [][]string{{"roomba"}, nil, {"footbot", "x"}} {
		if _, err := scaffold.WriteController(scaffold.Controller{Name: "ok", Robots: robots, Root: dir, Module: "m"}); err == nil {
			t.Errorf("robots %v accepted", robots)
		}
	}
	c := scaffold.Controller{Name: "twice", Robots: []string{"footbot"}, Root: dir, Module: "m"}
	if _, err := scaffold.WriteController(c); err != nil {
		t.Fatal(err)
	}
	if _, err := scaffold.WriteController(c); !errors.Is(err, scaffold.ErrExists) {
		t.Fatalf("second write: %v, want ErrExists", err)
	}
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	if _, err := scaffold.WriteProject(scaffold.Project{Dir: dir, Module: "example.com/x", Require: "v1.0.0"}); !errors.Is(err, scaffold.ErrExists) {
		t.Errorf("a project in a non-empty folder: %v", err)
	}
	for _, m := range []string{"", "/abs", "has space/x", "a//b"} {
		if _, err := scaffold.WriteProject(scaffold.Project{Dir: t.TempDir(), Module: m, Require: "v1.0.0"}); err == nil {
			t.Errorf("module path %q accepted", m)
		}
	}
}

func TestModulePath(t *testing.T) {
	for content, want := range map[string]string{
		"module example.com/lab\n\ngo 1.25\n":    "example.com/lab",
		"// a comment\nmodule \"quoted/path\"\n": "quoted/path",
		"module   spaced // trailing\n":          "spaced",
		"go 1.25\n":                              "",
		"modulex foo\n":                          "",
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte(content), 0o644)
		got, err := scaffold.ModulePath(dir)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("go.mod %q: %q, %v; want %q", content, got, err, want)
		}
	}
	if _, err := scaffold.ModulePath(t.TempDir()); err == nil || !strings.Contains(err.Error(), "argos new project") {
		t.Errorf("no go.mod: %v", err)
	}
}

func TestRegister(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "main.go")
	os.WriteFile(main, []byte(`package main

import (
	"github.com/argosgo/argos/argoscli"

	_ "example.com/lab/controllers/a"
	_ "example.com/lab/loop_functions/l"
	// _ "github.com/argosgo/argos/controllers/examples"
)

func main() { argoscli.Main() }
`), 0o644)
	for _, p := range []string{"example.com/lab/controllers/b", "example.com/lab/loop_functions/m", "example.com/lab/behaviors"} {
		if changed, err := scaffold.Register(main, p); err != nil || !changed {
			t.Fatalf("Register(%s): %v, %v", p, changed, err)
		}
	}
	if changed, err := scaffold.Register(main, "example.com/lab/controllers/b"); err != nil || changed {
		t.Errorf("a second registration changed the file: %v", err)
	}
	got := readFile(t, main)
	// gofmt keeps the blank imports sorted
	want := `
	_ "example.com/lab/behaviors"
	_ "example.com/lab/controllers/a"
	_ "example.com/lab/controllers/b"
	_ "example.com/lab/loop_functions/l"
	_ "example.com/lab/loop_functions/m"
	// _ "github.com/argosgo/argos/controllers/examples"
)`
	if !strings.Contains(got, want) {
		t.Errorf("after registering:\n%s\nwant the block to end with\n%s", got, want)
	}
	os.WriteFile(main, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println() }\n"), 0o644)
	if _, err := scaffold.Register(main, "example.com/lab/controllers/b"); err == nil {
		t.Error("a file without an import block was changed")
	}
	lines := scaffold.RegisterAll(dir, "example.com/lab/controllers/b", "main.go", "missing.go")
	if len(lines) != 2 || !strings.Contains(lines[0], `add _ "example.com/lab/controllers/b" to the imports of main.go`) || !strings.Contains(lines[1], "no missing.go") {
		t.Errorf("RegisterAll: %q", lines)
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
