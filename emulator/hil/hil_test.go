package hil_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"
	emuaseba "github.com/argosgo/argos/emulator/aseba"
	"github.com/argosgo/argos/emulator/emulatortest"
	emuepuck "github.com/argosgo/argos/emulator/epuck"
	"github.com/argosgo/argos/simulator"

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
	makeMutex sync.Mutex
	buildDirs []string // removed by TestMain
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

// buildBundle runs make robot-<model> once per test binary, into a
// temporary build directory.
func buildBundle(t *testing.T, model string) string {
	t.Helper()
	v, _ := bundles.LoadOrStore(model, &bundle{})
	b := v.(*bundle)
	b.once.Do(func() {
		makeMutex.Lock()
		defer makeMutex.Unlock()
		dir, err := os.MkdirTemp("", "argos-hil-"+model)
		if err != nil {
			b.err = err
			return
		}
		buildDirs = append(buildDirs, dir)
		cmd := exec.Command("make", "--no-print-directory", "robot-"+model, "BUILD="+dir, "ROBOT=")
		cmd.Dir = root(t)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("make robot-%s: %v\n%s", model, err, out)
			return
		}
		b.dir = filepath.Join(dir, "robot-"+model)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
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
	t.Log("simulator: " + emulatortest.Summary(traj))
	if err := emulatortest.AvoidsWall(traj, epuckWall, 0.035, 0.2); err != nil {
		t.Error(err)
	}
}

// TestDiffusionOnARMEpuckUnderQEMU is the second target: make robot-epuck
// (GOARM=7 for the Gumstix Overo's Cortex-A8), the binary under
// qemu-arm-static -cpu cortex-a8, advanced sercom on a pseudo-terminal to
// the emulated e-puck firmware, whose robot lives in the simulator.
func TestDiffusionOnARMEpuckUnderQEMU(t *testing.T) {
	qemu := needQEMU(t, "qemu-arm-static")
	dir := buildBundle(t, "epuck")
	exp, err := config.Load(filepath.Join(dir, "experiment.argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := emulator.NewSim(exp, []string{"ep0"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := boards.Lookup("epuck")
	fw := emuepuck.NewFirmware(sim.Robot("ep0"), b)
	pty, err := emuepuck.ServePTY(fw, filepath.Join(t.TempDir(), "ttyS0"))
	if err != nil {
		t.Fatal(err)
	}
	defer pty.Close()
	sim.Start()
	defer func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	}()

	const seconds = 20
	out := runRobot(t, qemu, []string{"-cpu", "cortex-a8"}, filepath.Join(dir, "argos-robot"),
		"-c", filepath.Join(dir, "experiment.argos"), "-i", "edc", "-port", pty.Path(), "-robot-id", "ep0",
		"-ticks", fmt.Sprint(seconds*10), "-stats")
	traj := sim.Robot("ep0").Trajectory()
	t.Log("ARM binary under qemu: " + emulatortest.Summary(traj))
	t.Log(strings.TrimSpace(out))
	if err := emulatortest.AvoidsWall(traj, epuckWall, 0.035, 0.2); err != nil {
		t.Error(err)
	}
	if l, r := fw.Speed(); l != 0 || r != 0 {
		t.Errorf("the binary left the motors at %d, %d steps/s", l, r)
	}
	if n := len(fw.Commands()); n < seconds*10 {
		t.Errorf("%d wheel commands in %d s at 10 Hz", n, seconds)
	}
}

// runRobot runs the robot binary under qemu and returns its stdout; a
// non-zero exit fails the test.
func runRobot(t *testing.T, qemu string, qemuArgs []string, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, qemu, append(append(qemuArgs, bin), args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstderr:\n%s", strings.Join(cmd.Args, " "), err, tail(stderr.String(), 40))
	}
	out := stdout.String()
	// A failed tick (a reply late on a loaded machine) is survived by
	// design; more than a few would mean the link does not work.
	var ticks, failed int
	i := strings.Index(out, "ROBOT-STATS")
	if i < 0 {
		t.Fatalf("no ROBOT-STATS line in %q", out)
	}
	if _, err := fmt.Sscanf(out[i:], "ROBOT-STATS ticks=%d failed=%d", &ticks, &failed); err != nil {
		t.Fatalf("ROBOT-STATS line %q: %v", out[i:], err)
	}
	if failed > ticks/20 {
		t.Errorf("%d of %d ticks failed:\n%s", failed, ticks, tail(stderr.String(), 20))
	}
	return out
}

func tail(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// TestDiffusionOnARMFootBotUnderQEMU: make robot-footbot (GOARM=6), the
// binary under qemu-arm-static -cpu arm1136 (the foot-bot's i.MX31),
// talking Aseba over TCP to the emulated network of a simulated foot-bot.
func TestDiffusionOnARMFootBotUnderQEMU(t *testing.T) {
	qemu := needQEMU(t, "qemu-arm-static")
	dir := buildBundle(t, "footbot")
	exp, err := config.Load(filepath.Join(dir, "experiment.argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := emulator.NewSim(exp, []string{"fb0"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := boards.Lookup("footbot")
	net := emuaseba.NewNetwork(b, sim.Robot("fb0"))
	addr, err := net.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	sim.Start()
	defer func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	}()
	out := runRobot(t, qemu, []string{"-cpu", "arm1136"}, filepath.Join(dir, "argos-robot"),
		"-c", filepath.Join(dir, "experiment.argos"), "-i", "fdc", "-aseba", addr, "-robot-id", "fb0", "-ticks", "80", "-stats")
	traj := sim.Robot("fb0").Trajectory()
	t.Log("ARM foot-bot binary under qemu: " + emulatortest.Summary(traj))
	t.Log(strings.TrimSpace(out))
	if err := emulatortest.AvoidsWall(traj, 0.45, 0.085, 0.2); err != nil {
		t.Error(err)
	}
	if c := net.Commands(); len(c) == 0 || c[len(c)-1].Left != 0 || c[len(c)-1].Right != 0 {
		t.Errorf("the binary left the motors running")
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
