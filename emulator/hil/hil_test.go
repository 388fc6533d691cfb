package hil_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"
	"github.com/argosgo/argos/emulator/emulatortest"
	"github.com/argosgo/argos/emulator/hil"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/toolchains"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// root is the module's root, where make runs.
func root(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// needQEMU returns the path of a qemu-user binary, skipping the test when
// it is missing, or failing it under ARGOS_CI=1.
func needQEMU(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("ARGOS_CI") == "1" {
			t.Fatalf("%s is missing (ARGOS_CI=1): scripts/ci-setup.d/qemu.sh installs qemu-user-static", name)
		}
		t.Skipf("%s is not installed: run scripts/ci-setup.sh (or apt-get install qemu-user-static) to run this test", name)
	}
	return p
}

var (
	bundles   sync.Map // model -> *bundle
	buildDirs []string // removed by TestMain
	buildMu   sync.Mutex
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, d := range buildDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}

type bundle struct {
	once sync.Once
	dir  string
	err  error
}

// bundleExperiments are the experiment and controller entry of each
// model's bundle.
var bundleExperiments = map[string][2]string{
	"epuck":   {"toolchains/experiments/epuck.argos", "edc"},
	"footbot": {"toolchains/experiments/footbot.argos", "fdc"},
}

// buildBundle builds the robot bundle of a model (toolchains.Build, as
// argos robot build does) once per test binary.
func buildBundle(t *testing.T, model string) string {
	t.Helper()
	v, _ := bundles.LoadOrStore(model, &bundle{})
	b := v.(*bundle)
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", "argos-hil-"+model)
		if err != nil {
			b.err = err
			return
		}
		buildMu.Lock()
		buildDirs = append(buildDirs, dir)
		buildMu.Unlock()
		board, err := boards.Lookup(model)
		if err != nil {
			b.err = err
			return
		}
		e := bundleExperiments[model]
		b.dir = filepath.Join(dir, "robot-"+model)
		b.err = toolchains.Build(context.Background(), toolchains.Bundle{Board: board, Dir: root(t),
			Experiment: filepath.Join(root(t), e[0]), ControllerID: e[1], Out: b.dir})
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

// check runs a bundle's binary against its emulated robot for some
// seconds.
func check(t *testing.T, model string, seconds float64) hil.Report {
	t.Helper()
	dir := buildBundle(t, model)
	file := filepath.Join(dir, toolchains.ExperimentFile)
	exp, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := boards.Lookup(model)
	rep, err := hil.Run(context.Background(), hil.Check{Binary: filepath.Join(dir, toolchains.BinaryFile), Board: b,
		File: file, Experiment: exp, ControllerID: bundleExperiments[model][1], Seconds: seconds})
	t.Log(rep)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

const (
	epuckExp  = "toolchains/experiments/epuck.argos"
	epuckWall = 0.25 // the face of wall_front
)

// TestDiffusionInSimulator is the first target: the diffusion controller
// in the simulator, on the arena of the e-puck bundle's experiment.
func TestDiffusionInSimulator(t *testing.T) {
	exp, err := config.Load(filepath.Join(root(t), epuckExp))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	var traj []emulator.Pose
	h, _ := sim.Body("ep0")
	for i := 0; i < 200; i++ { // 20 s
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		b := sim.Space().Bodies[h]
		traj = append(traj, emulator.Pose{X: b.Pos.X, Y: b.Pos.Y, Yaw: b.Yaw, Tick: sim.Tick()})
	}
	t.Log("simulator: " + emulator.Summary(traj))
	if err := emulatortest.AvoidsWall(traj, epuckWall, 0.035, 0.2); err != nil {
		t.Error(err)
	}
}

// TestDiffusionOnARMEpuckUnderQEMU is the second target: the e-puck
// bundle (GOARM=7 for the Gumstix Overo's Cortex-A8), the binary under
// qemu-arm-static -cpu cortex-a8, advanced sercom on a pseudo-terminal to
// the emulated e-puck firmware, whose robot lives in the simulator.
func TestDiffusionOnARMEpuckUnderQEMU(t *testing.T) {
	needQEMU(t, "qemu-arm-static")
	const seconds = 20
	rep := check(t, "epuck", seconds)
	if err := emulatortest.AvoidsWall(rep.Trajectory, epuckWall, 0.035, 0.2); err != nil {
		t.Error(err)
	}
	if rep.Commands < seconds*10 {
		t.Errorf("%d wheel commands in %d s at 10 Hz", rep.Commands, seconds)
	}
}

// TestDiffusionOnARMFootBotUnderQEMU: the foot-bot bundle (GOARM=6), the
// binary under qemu-arm-static -cpu arm1136 (the foot-bot's i.MX31),
// talking Aseba over TCP to the emulated network of a simulated foot-bot.
func TestDiffusionOnARMFootBotUnderQEMU(t *testing.T) {
	needQEMU(t, "qemu-arm-static")
	rep := check(t, "footbot", 8)
	if err := emulatortest.AvoidsWall(rep.Trajectory, 0.45, 0.085, 0.2); err != nil {
		t.Error(err)
	}
}

// A robot binary whose controller does not drive fails the check, with
// a message that says so; so does a binary that exits with an error.
func TestCheckFailures(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "robot")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root(t), "cmd", "robot")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(root(t), "toolchains", "experiments", "epuck.argos"))
	if err != nil {
		t.Fatal(err)
	}
	still := filepath.Join(t.TempDir(), "still.argos")
	os.WriteFile(still, []byte(strings.Replace(string(data), `velocity="5"`, `velocity="0"`, 1)), 0o644)
	b, _ := boards.Lookup("epuck-bt") // the host's own build
	for _, tc := range []struct {
		name, file, want string
	}{
		{"still", still, "did not drive"},
		{"bad experiment", filepath.Join(root(t), "toolchains", "experiments", "footbot.argos"), "robot binary failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exp, err := config.Load(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			id := exp.Controllers[0].ID
			// The check arena is the e-puck's: the footbot file's arena
			// has no e-puck.
			_, err = hil.Run(context.Background(), hil.Check{Binary: bin, Board: b, File: tc.file, Experiment: exp, ControllerID: id, Seconds: 2})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("check: %v; want it to say %q", err, tc.want)
			}
		})
	}
}

// The check arena: an experiment whose robots come from <distribute>
// gets a walled square with one robot of the board's model; one that
// places such a robot explicitly is used as it is.
func TestArena(t *testing.T) {
	exp, err := config.Load(filepath.Join(root(t), "experiments", "diffusion_10.argos"))
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := boards.Lookup("footbot")
	arena, id, err := hil.Arena(exp, exp.Controllers[0].ID, fb)
	if err != nil {
		t.Fatal(err)
	}
	if arena == exp || id != "fb0" || arena.Framework.TicksPerSecond != exp.Framework.TicksPerSecond {
		t.Errorf("diffusion_10 (robots distributed): arena %p (experiment %p), robot %q", arena, exp, id)
	}
	own, err := config.Load(filepath.Join(root(t), "toolchains", "experiments", "epuck.argos"))
	if err != nil {
		t.Fatal(err)
	}
	ep, _ := boards.Lookup("epuck")
	if arena, id, err := hil.Arena(own, "edc", ep); err != nil || arena != own || id != "ep0" {
		t.Errorf("an arena with ep0 placed: %p %q %v; want the experiment itself and ep0", arena, id, err)
	}
	if _, _, err := hil.Arena(own, "edc", fb); err != nil {
		t.Errorf("a foot-bot check arena for an e-puck experiment: %v", err)
	}
	eye, _ := boards.Lookup("eyebot")
	if err := hil.Emulatable(eye); err == nil {
		t.Error("the eye-bot's network is said to be emulated")
	}
}

// TestGOARMMatters: the foot-bot's CPU (ARM1136, ARMv6) runs the GOARM=6
// build and dies on an ARMv7 instruction of a GOARM=7 build: the robot
// targets must pick the right GOARM.
func TestGOARMMatters(t *testing.T) {
	qemu := needQEMU(t, "qemu-arm-static")
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	// Floating point is where GOARM=7 emits VFPv3 instructions.
	prog := "package main\nimport (\"fmt\"; \"math\"; \"os\")\nfunc main() { x := float64(len(os.Args)) + 0.5; fmt.Println(math.Sqrt(x*x+1)) }\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, goarm := range []string{"6", "7"} {
		bin := filepath.Join(dir, "prog"+goarm)
		cmd := exec.Command("go", "build", "-o", bin, src)
		cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm", "GOARM="+goarm, "CGO_ENABLED=0", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("GOARM=%s build: %v\n%s", goarm, err, out)
		}
		out, err := exec.Command(qemu, "-cpu", "arm1136", bin).CombinedOutput()
		switch goarm {
		case "6":
			if err != nil {
				t.Errorf("the GOARM=6 build fails on an ARM1136: %v\n%s", err, out)
			}
		case "7":
			if err == nil {
				t.Errorf("the GOARM=7 build ran on an ARM1136; qemu should stop it with SIGILL (%s)", out)
			} else if !strings.Contains(string(out), "Illegal instruction") && !strings.Contains(err.Error(), "illegal instruction") {
				t.Logf("GOARM=7 on arm1136: %v %s", err, out)
			}
		}
	}
	// And the bundle's binary itself runs on the ARM1136.
	bin := filepath.Join(buildBundle(t, "footbot"), "argos-robot")
	out, err := exec.Command(qemu, "-cpu", "arm1136", bin, "-q", "boards").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "footbot") {
		t.Errorf("robot-footbot's binary under qemu-arm-static -cpu arm1136: %v\n%s", err, out)
	}
}
