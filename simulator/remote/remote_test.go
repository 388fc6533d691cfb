package remote_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/attach"
	"github.com/argosgo/argos/robotcli"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/remote"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

const childEnv = "ARGOS_REMOTE_TEST_CHILD"

// TestMain runs the robot command when the test binary is re-executed
// as the controller's process.
func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		os.Exit(robotcli.Run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr, time.Now()))
	}
	os.Exit(m.Run())
}

const token = "s3cret-for-tests"

// experiment loads testdata/attach.argos with remote in place of the
// marker.
func experiment(t testing.TB, remoteXML string) *config.Experiment {
	t.Helper()
	data, err := os.ReadFile("testdata/attach.argos")
	if err != nil {
		t.Fatal(err)
	}
	return loadText(t, "attach.argos", string(bytes.Replace(data, []byte("<!--REMOTE-->"), []byte(remoteXML), 1)))
}

// loadText loads an experiment file named name with text in it, written
// in a temporary folder (errors name the file as the user's would).
func loadText(t testing.TB, name, text string) *config.Experiment {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	exp, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

func newSim(t testing.TB, exp *config.Experiment) *simulator.Simulator {
	t.Helper()
	sim, err := simulator.New(exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

func server(t testing.TB, sim *simulator.Simulator) *remote.Server {
	t.Helper()
	s, err := entity.Medium[*remote.Server](sim.World(), "link")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// trace steps n ticks and returns the robot's poses.
func trace(t testing.TB, sim *simulator.Simulator, n int) []ci.Vector2 {
	t.Helper()
	var out []ci.Vector2
	for range n {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		b := sim.Robot(0).B()
		out = append(out, b.Pos, ci.Vector2{X: b.Cos, Y: b.Sin})
	}
	return out
}

const ticks = 80

func inProcess(t *testing.T) []ci.Vector2 {
	t.Helper()
	tr := trace(t, newSim(t, experiment(t, "")), ticks)
	if d := tr[len(tr)-2].Sub(tr[0]).Length(); d < 0.1 {
		t.Fatalf("the robot moved %.3f m in-process; the test needs it to move", d)
	}
	return tr
}

// runController runs the controller of entry fdc against drv by hand
// until the simulation leaves.
func runController(_ testing.TB, exp *config.Experiment, drv realrobot.Driver, devs realrobot.Devices) error {
	c := exp.FindController("fdc")
	factory, err := ci.Controllers.Lookup(c.Label)
	if err != nil {
		return err
	}
	ctrl := factory()
	if err := ctrl.Init(realrobot.NewRobot("fb0", exp.Framework.RandomSeed, drv, devs), c.Params); err != nil {
		return err
	}
	for {
		if err := drv.Sense(); err != nil {
			return nil
		}
		ctrl.ControlStep()
		if err := drv.Act(); err != nil {
			return err
		}
	}
}

func devsOf(exp *config.Experiment) realrobot.Devices {
	var d realrobot.Devices
	c := exp.FindController("fdc")
	for _, s := range c.Sensors {
		d.Sensors = append(d.Sensors, s.Tag)
	}
	for _, a := range c.Actuators {
		d.Actuators = append(d.Actuators, a.Tag)
	}
	return d
}

func remoteXML(mode string) string {
	return fmt.Sprintf(`<remote id="link" robots="fb0" mode="%s" token="%s" wait="20" timeout="20"/>`, mode, token)
}

// An attached controller in this process drives the robot exactly as
// the controller in the simulator does, whatever the number of threads.
func TestAttachedInProcessMatches(t *testing.T) {
	want := inProcess(t)
	for _, threads := range []int{0, 2} {
		t.Run(fmt.Sprint("threads=", threads), func(t *testing.T) { attachedMatches(t, want, threads) })
	}
}

func attachedMatches(t *testing.T, want []ci.Vector2, threads int) {
	exp := experiment(t, remoteXML("lockstep"))
	sim, err := simulator.New(exp, simulator.Options{Threads: &threads})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	drv, err := attach.Dial(attach.Options{Addr: server(t, sim).Addr(), Token: token, RobotID: "fb0", Devices: devsOf(exp)})
	if err != nil {
		t.Fatal(err)
	}
	if w := drv.Welcome(); w.TicksPerSecond != 20 || w.Params[1] == 0 {
		t.Errorf("welcome %+v: want 20 ticks per second and the LED count", w)
	}
	done := make(chan error, 1)
	go func() { done <- runController(t, exp, drv, devsOf(exp)) }()
	got := trace(t, sim, ticks)
	sim.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	drv.Close()
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("tick %d: attached %v, in-process %v", i/2+1, got[i], want[i])
		}
	}
}

// The robot command, in a separate process (this test binary run again
// as robotcli), attaches with -b sim and drives the robot as the
// in-process run does.
func TestAttachedFromSeparateProcess(t *testing.T) {
	want := inProcess(t)
	exp := experiment(t, remoteXML("lockstep"))
	sim := newSim(t, exp)
	args := []string{"-c", exp.File, "-i", "fdc", "-b", robotcli.SimBoard, "-sim-addr", server(t, sim).Addr(), "-robot-id", "fb0", "-ticks", "0"}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+strings.Join(args, "\x1f"), attach.TokenEnv+"="+token)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	got := trace(t, sim, ticks)
	sim.Close() // bye: the robot command ends its run
	errc := make(chan error, 1)
	go func() { errc <- cmd.Wait() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("robot command: %v\n%s", err, out.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the robot command did not end after the simulation did:\n%s", out.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("tick %d: attached from another process %v, in-process %v\n%s", i/2+1, got[i], want[i], out.String())
		}
	}
	if !strings.Contains(out.String(), "attached to the simulation") {
		t.Errorf("the robot command's log does not say it attached:\n%s", out.String())
	}
}

// In real time the simulation does not wait: without a controller the
// robot stands still and the ticks go on.
func TestRealTimeDoesNotWait(t *testing.T) {
	sim := newSim(t, experiment(t, remoteXML("realtime")))
	start := time.Now()
	tr := trace(t, sim, 40)
	if time.Since(start) > 5*time.Second {
		t.Errorf("40 ticks took %v without a controller in real time", time.Since(start))
	}
	if tr[len(tr)-2] != tr[0] {
		t.Errorf("the robot moved without a controller: %v -> %v", tr[0], tr[len(tr)-2])
	}
}

// In real time, an attached controller's last answer drives the robot.
func TestRealTimeAttached(t *testing.T) {
	exp := experiment(t, remoteXML("realtime"))
	sim := newSim(t, exp)
	drv, err := attach.Dial(attach.Options{Addr: server(t, sim).Addr(), Token: token, RobotID: "fb0", Devices: devsOf(exp)})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- runController(t, exp, drv, devsOf(exp)) }()
	var tr []ci.Vector2
	for range 60 {
		tr = append(tr, trace(t, sim, 1)...)
		time.Sleep(2 * time.Millisecond) // let the controller answer
	}
	sim.Close()
	<-done
	drv.Close()
	if d := tr[len(tr)-2].Sub(tr[0]).Length(); d < 0.01 {
		t.Errorf("the robot moved %.4f m with a controller attached in real time", d)
	}
}

// Nothing but the right token, a hosted robot and its own devices is
// accepted.
func TestRefused(t *testing.T) {
	exp := experiment(t, remoteXML("lockstep"))
	sim := newSim(t, exp)
	addr := server(t, sim).Addr()
	cases := []struct {
		name string
		opt  attach.Options
		want string
	}{
		{"token", attach.Options{Token: "wrong", RobotID: "fb0", Devices: devsOf(exp)}, "wrong token"},
		{"robot", attach.Options{Token: token, RobotID: "fb9", Devices: devsOf(exp)}, "not hosted"},
		{"device", attach.Options{Token: token, RobotID: "fb0", Devices: realrobot.Devices{Sensors: []string{"light"}}}, "has no sensor <light>"},
	}
	for _, c := range cases {
		c.opt.Addr = addr
		d, err := attach.Dial(c.opt)
		if err == nil {
			d.Close()
			t.Errorf("%s: attached", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
	d, err := attach.Dial(attach.Options{Addr: addr, Token: token, RobotID: "fb0", Devices: devsOf(exp)})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d2, err := attach.Dial(attach.Options{Addr: addr, Token: token, RobotID: "fb0", Devices: devsOf(exp)}); err == nil || !strings.Contains(err.Error(), "already has") {
		if d2 != nil {
			d2.Close()
		}
		t.Errorf("a second controller for the same robot: %v", err)
	}
}

// The file's errors say where and what to do.
func TestConfigErrors(t *testing.T) {
	t.Setenv(remote.TokenEnv, "")
	for xml, want := range map[string]string{
		`<remote id="link" robots="fb0"/>`:                                         "no token",
		`<remote id="link" robots="fb0" token="x" mode="fast"/>`:                   "mode \"fast\"",
		`<remote id="link" robots=" , " token="x"/>`:                               "list the ids",
		`<remote id="link" robots="fb0" token="x" address="a:b"/>`:                 "cannot listen",
		`<remote id="link" robots="fb0" token="x" merge="footbot_proximity:min"/>`: "merge item",
		`<remote id="link" robots="fb0" token="x" stale="2" lost="1"/>`:            "lost (1 s) at least stale",
	} {
		_, err := simulator.New(experiment(t, xml), simulator.Options{})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "attach.argos:") {
			t.Errorf("%s: %v; want file:line and %q", xml, err, want)
		}
	}
	t.Setenv(remote.TokenEnv, "from-env")
	sim := newSim(t, experiment(t, `<remote id="link" robots="fb0" mode="realtime"/>`))
	if _, err := attach.Dial(attach.Options{Addr: server(t, sim).Addr(), Token: "from-env", RobotID: "fb0", Devices: devsOf(sim.Experiment())}); err != nil {
		t.Errorf("the token from %s: %v", remote.TokenEnv, err)
	}
}
