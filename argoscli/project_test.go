package argoscli

import (
	"context"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestYourOwnProject walks a newcomer's path in a module of their own,
// offline (the module cache and a replace to this checkout): argos new
// project, argos new controller, make test, run, robot-footbot,
// robot-epuck and ci (the ARM binaries under qemu against emulated
// robots), ARGoS's e-puck obstacle avoidance ported under ARGoS's label,
// and what the two binaries link.
func TestYourOwnProject(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a project and its robot binaries")
	}
	if _, err := exec.LookPath("qemu-arm-static"); err != nil {
		if os.Getenv("ARGOS_CI") == "1" {
			t.Fatal("qemu-arm-static is missing (ARGOS_CI=1): scripts/ci-setup.d/qemu.sh installs it")
		}
		t.Skip("qemu-arm-static is not installed: run scripts/ci-setup.sh")
	}
	tmp := t.TempDir()
	argos := filepath.Join(tmp, "bin", "argos")
	if out, err := exec.Command("go", "build", "-o", argos, "../cmd/argos").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	env := append(os.Environ(), "GOPROXY=off", "ARGOS_CI=")
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	out := run(tmp, argos, "new", "project", "mybots", "--module", "example.com/mybots", "--replace", root)
	if !strings.Contains(out, "created mybots: module example.com/mybots") {
		t.Errorf("argos new project said:\n%s", out)
	}
	proj := filepath.Join(tmp, "mybots")
	for _, f := range []string{"go.mod", "go.sum", "Makefile", "README.md", ".ci/run", "cmd/argos/main.go", "cmd/robot/main.go",
		"controllers/wander/wander.go", "loop_functions/census/census.go", "experiments/wander_footbot.argos", "experiments/wander_epuck.argos"} {
		if _, err := os.Stat(filepath.Join(proj, f)); err != nil {
			t.Error(err)
		}
	}
	if gomod := readFile(t, filepath.Join(proj, "go.mod")); !strings.Contains(gomod, "replace github.com/argosgo/argos => "+root) {
		t.Errorf("go.mod has no replace to the checkout:\n%s", gomod)
	}

	out = run(proj, argos, "new", "controller", "avoider", "--robot", "epuck", "--experiment")
	for _, w := range []string{"registered as epuck_avoider_controller", "registered in cmd/argos/main.go", "registered in cmd/robot/main.go"} {
		if !strings.Contains(out, w) {
			t.Errorf("argos new controller did not say %q:\n%s", w, out)
		}
	}
	for _, m := range []string{"cmd/argos/main.go", "cmd/robot/main.go"} {
		if !strings.Contains(readFile(t, filepath.Join(proj, m)), `_ "example.com/mybots/controllers/avoider"`) {
			t.Errorf("%s does not import the new controller", m)
		}
	}
	out = run(proj, argos, "new", "loop-functions", "tally")
	if !strings.Contains(out, "registered in cmd/argos/main.go") || strings.Contains(readFile(t, filepath.Join(proj, "cmd/robot/main.go")), "tally") {
		t.Errorf("loop functions are registered in the simulator only:\n%s", out)
	}

	// ARGoS's e-puck obstacle avoidance, ported as a user would: a
	// skeleton under ARGoS's label, then the port and ARGoS's experiment.
	out = run(proj, argos, "new", "controller", "obstacleavoidance", "--robot", "epuck")
	if !strings.Contains(out, "registered as epuck_obstacleavoidance_controller") {
		t.Errorf("the skeleton's label:\n%s", out)
	}
	os.Remove(filepath.Join(proj, "controllers", "obstacleavoidance", "doc.go"))
	for _, f := range []string{"obstacleavoidance.go", "obstacleavoidance_test.go"} {
		copyFile(t, filepath.Join("testdata", "obstacleavoidance", f), filepath.Join(proj, "controllers", "obstacleavoidance", f))
	}
	copyFile(t, filepath.Join("testdata", "obstacleavoidance", "epuck_obstacleavoidance.argos"), filepath.Join(proj, "experiments", "epuck_obstacleavoidance.argos"))

	out = run(proj, "make", "test")
	for _, p := range []string{"controllers/avoider", "controllers/wander", "controllers/obstacleavoidance", "loop_functions/census", "loop_functions/tally"} {
		if !strings.Contains(out, "ok  \texample.com/mybots/"+p) {
			t.Errorf("make test did not pass %s:\n%s", p, out)
		}
	}
	out = run(proj, "make", "run")
	if !strings.Contains(out, "ran 1200 ticks") || !strings.Contains(out, "run folder: build/runs/wander_footbot-") {
		t.Errorf("make run:\n%s", out)
	}
	runs, _ := filepath.Glob(filepath.Join(proj, "build", "runs", "*", "metrics.csv"))
	if len(runs) != 1 || !strings.Contains(readFile(t, runs[0]), "mean_displacement_m") {
		t.Fatalf("make run's run folder has no metric of the census loop functions: %v", runs)
	}
	if info := readFile(t, filepath.Join(filepath.Dir(runs[0]), "run.json")); !strings.Contains(info, "example.com/mybots devel, github.com/argosgo/argos v0.0.0-00010101000000-000000000000") || !strings.Contains(info, root) {
		t.Errorf("run.json does not name the project and the ARGoS-Go it links:\n%s", info)
	}
	out = run(proj, "build/argos", "-z", "-c", "experiments/epuck_obstacleavoidance.argos", "--length", "10")
	if !strings.Contains(out, "50 robots") || !strings.Contains(out, "ran 100 ticks") {
		t.Errorf("the ported experiment:\n%s", out)
	}

	for model, machine := range map[string]elf.Machine{"footbot": elf.EM_ARM, "epuck": elf.EM_ARM} {
		out = run(proj, "make", "robot-"+model)
		if !strings.Contains(out, "bundle ready in build/robot-"+model) {
			t.Errorf("make robot-%s:\n%s", model, out)
		}
		e, err := elf.Open(filepath.Join(proj, "build", "robot-"+model, "argos-robot"))
		if err != nil {
			t.Fatal(err)
		}
		if e.Machine != machine {
			t.Errorf("robot-%s is built for %v", model, e.Machine)
		}
		e.Close()
	}
	// The port on the e-puck's ARM binary under qemu, against an
	// emulated e-puck.
	out = run(proj, "build/argos", "robot", "check", "--model", "epuck", "-c", "experiments/epuck_obstacleavoidance.argos")
	if !strings.Contains(out, "robot-epuck: ok") {
		t.Errorf("robot check of the port:\n%s", out)
	}

	out = run(proj, "make", "ci")
	for _, w := range []string{"== experiments/epuck_obstacleavoidance.argos", "robot-footbot: ok", "robot-epuck: ok", "bundle ready in build/robot-pipuck2"} {
		if !strings.Contains(out, w) {
			t.Errorf("make ci did not say %q:\n%s", w, out)
		}
	}

	// What the binaries link: the robot's no simulator, emulator or cp;
	// the simulator's none of this repository's examples.
	for _, f := range strings.Fields(run(proj, "go", "list", "-deps", "./cmd/robot")) {
		for _, bad := range []string{"github.com/argosgo/argos/simulator", "github.com/argosgo/argos/emulator", "github.com/jakecoffman/cp"} {
			if strings.HasPrefix(f, bad) {
				t.Errorf("the robot binary links %s", f)
			}
		}
	}
	for _, f := range strings.Fields(run(proj, "go", "list", "-deps", "./cmd/argos")) {
		if strings.HasPrefix(f, "github.com/argosgo/argos/controllers/") || strings.HasPrefix(f, "github.com/argosgo/argos/loop_functions/") {
			t.Errorf("the simulator binary links the example %s without importing it", f)
		}
	}

	// A project's own port under an example's label, with the examples
	// imported too: an error naming both packages, not a panic.
	dir := filepath.Join(proj, "controllers", "diffusion")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "diffusion.go"), []byte(`package diffusion

import "github.com/argosgo/argos/ci"

func init() {
	ci.Controllers.MustRegister("footbot_diffusion_controller", "my port", func() ci.Controller { return nil })
}
`), 0o644)
	main := filepath.Join(proj, "cmd", "argos", "main.go")
	src := readFile(t, main)
	src = strings.Replace(src, `// _ "github.com/argosgo/argos/controllers/examples"`, `_ "github.com/argosgo/argos/controllers/examples"`, 1)
	src = strings.Replace(src, `_ "example.com/mybots/controllers/avoider"`, `_ "example.com/mybots/controllers/avoider"
	_ "example.com/mybots/controllers/diffusion"`, 1)
	os.WriteFile(main, []byte(src), 0o644)
	run(proj, "go", "build", "-o", "build/clash", "./cmd/argos")
	cmd := exec.Command(filepath.Join(proj, "build", "clash"), "-q", "all")
	cmd.Env = env
	b, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("a label clash: %v (want exit 1)\n%s", err, b)
	}
	for _, w := range []string{`controller "footbot_diffusion_controller"`, "github.com/argosgo/argos/controllers/diffusion", "example.com/mybots/controllers/diffusion"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("the clash message does not name %s:\n%s", w, b)
		}
	}
	if strings.Contains(string(b), "goroutine") {
		t.Errorf("the clash is a panic:\n%s", b)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
