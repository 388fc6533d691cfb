package argoscli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// root is the repository root, taken before any test changes directory.
var root = func() string {
	wd, _ := os.Getwd()
	return filepath.Join(wd, "..")
}()

func repo(parts ...string) string { return filepath.Join(append([]string{root}, parts...)...) }

func runArgos(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const goodHead = `<?xml version="1.0"?>
<argos-configuration>
  <framework><system threads="0"/><experiment length="1" ticks_per_second="10" random_seed="3"/></framework>
  <controllers>
    <footbot_diffusion_controller id="fdc">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><footbot_proximity implementation="default"/></sensors>
      <params alpha="7.5" delta="0.1" velocity="5"/>
    </footbot_diffusion_controller>
  </controllers>
`

func TestRunsShippedExperimentAndWritesText(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := runArgos(t, "-z", "-c", repo("experiments", "diffusion_1.argos"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile("diffusion_1.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	// header + 5 bodies (4 walls, 1 robot) per tick for ticks 0..1200
	if want := 1 + 5*1201; len(lines) != want {
		t.Fatalf("%d lines in the text visualization, want %d", len(lines), want)
	}
	if !strings.HasPrefix(lines[len(lines)-1], "1200\tfoot-bot\tfb0\t") {
		t.Fatalf("last line %q; want the foot-bot at tick 1200", lines[len(lines)-1])
	}
	if !strings.Contains(stderr, "real time") {
		t.Errorf("no run summary in the log: %s", stderr)
	}
}

func TestBadInputOneClearMessage(t *testing.T) {
	robot := `<foot-bot id="fb0"><body position="0,0,0" orientation="0,0,0"/><controller config="fdc"/></foot-bot>`
	full := func(arena, rest string) string {
		return goodHead + `<arena size="3,3,1" center="0,0,0.5">` + arena + `</arena>
  <physics_engines><dynamics2d id="dyn"/></physics_engines>` + rest + `</argos-configuration>`
	}
	cases := []struct {
		name    string
		content string // "" means: the file does not exist
		want    []string
	}{
		{"missing file", "", []string{"no-such.argos"}},
		{"malformed XML", goodHead + "<arena size=\"3,3,1\"><box id=\"b\"", []string{"bad.argos:"}},
		{"unknown tag", full(robot, "<gizmos/>"), []string{"bad.argos:", "gizmos"}},
		{"unknown controller label", strings.Replace(full(robot, ""), "footbot_diffusion_controller", "footbot_nothing_controller", 2),
			[]string{"bad.argos:", "footbot_nothing_controller"}},
		{"undeclared device", strings.Replace(full(robot, ""), `<footbot_proximity implementation="default"/>`, "", 1),
			[]string{"fb0", "not declared", "<sensors>"}},
		{"negative size", full(`<box id="w" size="1,-1,0.5" movable="false"><body position="1,1,0"/></box>`+robot, ""),
			[]string{"bad.argos:", "size"}},
		{"non-numeric size", strings.Replace(full(robot, ""), `size="3,3,1"`, `size="three,3,1"`, 1),
			[]string{"bad.argos:", "size"}},
		{"distribute cannot place", full(`<distribute><position method="uniform" min="-0.1,-0.1,0" max="0.1,0.1,0"/>
        <orientation method="constant" values="0,0,0"/>
        <entity quantity="5" max_trials="10"><foot-bot id="fb"><controller config="fdc"/></foot-bot></entity></distribute>`, ""),
			[]string{"bad.argos:", "could not place", "max_trials"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			path := filepath.Join(t.TempDir(), "no-such.argos")
			if c.content != "" {
				path = write(t, "bad.argos", c.content)
			}
			code, _, stderr := runArgos(t, "-z", "-c", path)
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr: %s", code, stderr)
			}
			msg := strings.TrimSpace(stderr)
			if strings.Count(msg, "\n") != 0 || !strings.HasPrefix(msg, "argos: ") {
				t.Fatalf("want one line starting with \"argos: \", got:\n%s", msg)
			}
			if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
				t.Fatalf("a panic reached the user: %s", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not mention %q", msg, w)
				}
			}
		})
	}
}

func TestQuery(t *testing.T) {
	code, out, _ := runArgos(t, "-q", "all")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, w := range []string{"== controllers ==", "footbot_diffusion_controller", "== sensors ==", "epuck_proximity",
		"== actuators ==", "differential_steering", "== entities ==", "foot-bot", "e-puck", "box", "cylinder", "light",
		"== physics engines ==", "dynamics2d", "== loop functions ==", "bench_loop_functions", "== visualizations ==", "text"} {
		if !strings.Contains(out, w) {
			t.Errorf("argos -q all does not list %q", w)
		}
	}
	code, out, _ = runArgos(t, "-q", "dynamics2d")
	if code != 0 || !strings.Contains(out, "iterations") || strings.Contains(out, "== controllers ==") {
		t.Errorf("argos -q dynamics2d: exit %d, output:\n%s", code, out)
	}
	code, _, stderr := runArgos(t, "-q", "warp_drive")
	if code != 1 || !strings.Contains(stderr, "-q all") {
		t.Errorf("argos -q warp_drive: exit %d, stderr %q", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	if code, _, stderr := runArgos(t); code != 1 || !strings.Contains(stderr, "-c FILE.argos") {
		t.Errorf("no arguments: exit %d, %q", code, stderr)
	}
	if code, _, _ := runArgos(t, "--no-such-flag"); code != 1 {
		t.Errorf("unknown flag: exit %d", code)
	}
	if code, _, stderr := runArgos(t, "-c", "x.argos", "extra"); code != 1 || !strings.Contains(stderr, "extra") {
		t.Errorf("stray argument: exit %d, %q", code, stderr)
	}
}

func TestSeedAndThreadsOverride(t *testing.T) {
	t.Chdir(t.TempDir())
	exp := write(t, "e.argos", goodHead+`<arena size="3,3,1" center="0,0,0.5">
    <distribute><position method="uniform" min="-1,-1,0" max="1,1,0"/><orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="5" max_trials="100"><foot-bot id="fb"><controller config="fdc"/></foot-bot></entity></distribute>
  </arena><physics_engines><dynamics2d id="dyn"/></physics_engines>
  <visualization><text file="out.tsv"/></visualization></argos-configuration>`)
	runOnce := func(args ...string) string {
		code, _, stderr := runArgos(t, append([]string{"-z", "-c", exp}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile("out.tsv")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a := runOnce("--seed", "11", "--threads", "0")
	b := runOnce("--seed", "11", "--threads", "2")
	c := runOnce("--seed", "12")
	if a != b {
		t.Error("same seed, different thread counts: different runs")
	}
	if a == c {
		t.Error("--seed 12 gave the same placement as --seed 11: the override is ignored")
	}
}

// An interrupted run exits 130 and leaves complete rows on disk.
func TestInterruptFlushesResults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "argos")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/argos").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	exp := write(t, "long.argos", goodHead+`<arena size="3,3,1" center="0,0,0.5">
    <foot-bot id="fb0"><body position="0,0,0" orientation="0,0,0"/><controller config="fdc"/></foot-bot>
  </arena><physics_engines><dynamics2d id="dyn"/></physics_engines>
  <visualization><text file="`+filepath.Join(dir, "out.tsv")+`"/></visualization></argos-configuration>`)
	exp2 := strings.Replace(readFile(t, exp), `length="1"`, `length="0"`, 1) // no limit
	os.WriteFile(exp, []byte(exp2), 0o644)
	cmd := exec.Command(bin, "-z", "-c", exp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if st, err := os.Stat(filepath.Join(dir, "out.tsv")); err == nil && st.Size() > 10000 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the run wrote nothing in 20 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit: %v (want status 130); stderr: %s", err, stderr.String())
	}
	data := readFile(t, filepath.Join(dir, "out.tsv"))
	if !strings.HasSuffix(data, "\n") {
		t.Fatal("the text visualization ends with a partial row")
	}
	for i, line := range strings.Split(strings.TrimSuffix(data, "\n"), "\n") {
		if strings.Count(line, "\t") != 8 {
			t.Fatalf("row %d is incomplete: %q", i, line)
		}
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

func TestNewWritesSkeletons(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if code, _, stderr := runArgos(t, "new", "controller", "wander"); code != 1 || !strings.Contains(stderr, "go.mod") {
		t.Fatalf("outside the project: exit %d, %q", code, stderr)
	}
	os.WriteFile("go.mod", []byte("module example.com/lab\n"), 0o644)
	const mainGo = "package main\n\nimport (\n\t\"github.com/argosgo/argos/argoscli\"\n)\n\nfunc main() { argoscli.Main() }\n"
	for _, m := range []string{"cmd/argos", "cmd/robot"} {
		os.MkdirAll(m, 0o755)
		os.WriteFile(filepath.Join(m, "main.go"), []byte(mainGo), 0o644)
	}
	code, out, stderr := runArgos(t, "new", "controller", "wander", "--robot", "epuck,footbot", "--experiment")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"controllers/wander/wander.go", "controllers/wander/wander_test.go", "controllers/wander/doc.go",
		"experiments/wander_epuck.argos", "experiments/wander_footbot.argos"} {
		if _, err := os.Stat(f); err != nil || !strings.Contains(out, f) {
			t.Errorf("%s not written or not reported: %v", f, err)
		}
	}
	if !strings.Contains(out, "epuck_wander_controller and footbot_wander_controller") {
		t.Errorf("the labels are not reported: %s", out)
	}
	for _, m := range []string{"cmd/argos/main.go", "cmd/robot/main.go"} {
		if !strings.Contains(readFile(t, m), `_ "example.com/lab/controllers/wander"`) {
			t.Errorf("%s does not import the controller", m)
		}
	}
	if !strings.Contains(readFile(t, "controllers/wander/wander_test.go"), `"example.com/lab/controllers/wander"`) {
		t.Error("the generated test does not import the controller from the project's module")
	}
	if code, _, _ := runArgos(t, "new", "controller", "wander"); code != 1 {
		t.Error("overwrote an existing controller")
	}
	if code, out, _ := runArgos(t, "new", "loop-functions", "tally"); code != 0 || !strings.Contains(out, "tally_loop_functions") {
		t.Errorf("new loop-functions: exit %d, %s", code, out)
	}
	if !strings.Contains(readFile(t, "cmd/argos/main.go"), "loop_functions/tally") || strings.Contains(readFile(t, "cmd/robot/main.go"), "tally") {
		t.Error("loop functions must be imported by cmd/argos only")
	}
	if code, out, _ := runArgos(t, "new", "behavior", "slow_down"); code != 0 || !strings.Contains(out, "behaviors/slow_down.go") {
		t.Errorf("new behavior: exit %d, %s", code, out)
	}
	if code, _, _ := runArgos(t, "new", "gadget", "x"); code != 1 {
		t.Error("unknown kind accepted")
	}
	// A test binary has no version: a project needs a checkout or a
	// version to require.
	if code, _, stderr := runArgos(t, "new", "project", filepath.Join(dir, "p")); code != 1 || !strings.Contains(stderr, "--replace") {
		t.Errorf("new project without a version: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runArgos(t, "new", "project", dir, "--version", "v1.0.0"); code != 1 || !strings.Contains(stderr, "not empty") {
		t.Errorf("new project in a non-empty folder: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runArgos(t, "new", "project", filepath.Join(dir, "q"), "--replace", dir); code != 1 || !strings.Contains(stderr, "not a checkout") {
		t.Errorf("--replace to another module: exit %d, %s", code, stderr)
	}
}
