package robotcli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/emulator/emulatortest"
	emu "github.com/argosgo/argos/emulator/epuck"

	_ "github.com/argosgo/argos/controllers/diffusion"
)

const exp = "../toolchains/experiments/epuck.argos"

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(args, &out, &errb, time.Now())
	return code, out.String(), errb.String()
}

func TestQueries(t *testing.T) {
	code, out, _ := runArgs("-q", "boards")
	if code != 0 || !strings.Contains(out, "footbot") || !strings.Contains(out, "GOARM=7") {
		t.Errorf("-q boards: %d\n%s", code, out)
	}
	code, out, _ = runArgs("-q", "controllers")
	if code != 0 || !strings.Contains(out, "epuck_diffusion_controller") {
		t.Errorf("-q controllers: %d\n%s", code, out)
	}
	code, out, _ = runArgs("-q", "protocols")
	for _, p := range []string{"epuck-sercom", "epuck2-i2c", "aseba/foot-bot", "aseba/eye-bot"} {
		if code != 0 || !strings.Contains(out, p) {
			t.Errorf("-q protocols lacks %s: %d\n%s", p, code, out)
		}
	}
	if code, _, errs := runArgs("-q", "pets"); code != exitSetup || !strings.Contains(errs, "boards, controllers or protocols") {
		t.Errorf("-q pets: %d %s", code, errs)
	}
}

func TestSetupErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "robot -c FILE.argos -i CONTROLLER_ID"},
		{[]string{"-c", exp, "-i", "edc"}, "no default board; choose one with -b"},
		{[]string{"-c", "missing.argos", "-i", "edc", "-b", "epuck"}, "does not exist"},
		{[]string{"-c", exp, "-i", "nope", "-b", "epuck"}, `no controller with id "nope"; its ids are: edc`},
		{[]string{"-c", exp, "-i", "edc", "-b", "footbot"}, `board "footbot" (foot-bot) has no sensor <epuck_proximity>`},
		{[]string{"-c", exp, "-i", "edc", "-b", "mars-rover"}, `unknown board "mars-rover"`},
		{[]string{"-c", exp, "-i", "edc", "-b", "epuck", "-bus", "/dev/i2c-1"}, "has no I²C bus; -bus does not apply"},
		{[]string{"-c", exp, "-i", "edc", "-b", "epuck", "-port", "/nonexistent/tty"}, "/nonexistent/tty"},
		{[]string{"-c", exp, "-i", "edc", "-b", "epuck", "-log-level", "loud"}, "use debug, info, warn or error"},
		{[]string{"-c", exp, "-ticks", "-1"}, "-ticks -1"},
		{[]string{"-c", exp, "extra"}, `unexpected argument "extra"`},
	} {
		code, _, errs := runArgs(tc.args...)
		if code != exitSetup || !strings.Contains(errs, tc.want) {
			t.Errorf("robot %s: exit %d, stderr %q; want exit 1 and %q", strings.Join(tc.args, " "), code, errs, tc.want)
		}
	}
}

// rig is an emulated e-puck firmware on a pseudo-terminal (the robot's
// serial port), on a fake body.
type rig struct {
	fw  *emu.Firmware
	pty *emu.PTY
}

func newRig(t *testing.T) *rig {
	t.Helper()
	b, _ := boards.Lookup("epuck")
	fw := emu.NewFirmware(emulatortest.NewBody(8), b)
	p, err := emu.ServePTY(fw, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return &rig{fw: fw, pty: p}
}

// last returns the last wheel command and how many came.
func (r *rig) last() ([2]int16, int) {
	c := r.fw.Commands()
	if len(c) == 0 {
		return [2]int16{}, 0
	}
	return [2]int16{c[len(c)-1].Left, c[len(c)-1].Right}, len(c)
}

// stoppedAfter reports whether a (0, 0) command came after t0, and no
// other command after it.
func (r *rig) stoppedAfter(t0 time.Time) bool {
	stopped := false
	for _, c := range r.fw.Commands() {
		if c.At.After(t0) {
			stopped = c.Left == 0 && c.Right == 0
		}
	}
	return stopped
}

// buildRobot builds this command for the host.
func buildRobot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "robot")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/robot").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startDriving starts the robot binary on the rig, with stderr to
// stderr, and returns once its wheels drive.
func startDriving(t *testing.T, bin string, r *rig, stderr io.Writer) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "-c", exp, "-i", "edc", "-b", "epuck", "-port", r.pty.Path(), "-log-level", "debug")
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if s, n := r.last(); n > 5 && s == [2]int16{388, 388} {
			return cmd
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the robot is not driving: %v\n%s", r.fw.Commands(), stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitExit waits for cmd, at most 30 s.
func waitExit(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 30 s later")
		return nil
	}
}

// Every terminating signal stops the wheels first and exits 0.
func TestSignalsStopTheWheels(t *testing.T) {
	bin := buildRobot(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			r := newRig(t)
			var stderr bytes.Buffer
			cmd := startDriving(t, bin, r, &stderr)
			t0 := time.Now()
			cmd.Process.Signal(sig)
			if err := waitExit(t, cmd); err != nil {
				t.Errorf("exit after %v: %v\n%s", sig, err, &stderr)
			}
			if !r.stoppedAfter(t0) {
				t.Errorf("wheels not stopped after %v: %v", sig, r.fw.Commands())
			}
			if !strings.Contains(stderr.String(), "wheels stopped") {
				t.Errorf("the log does not say the wheels stopped:\n%s", &stderr)
			}
		})
	}
}

// Ctrl-C while stderr goes to a pipe whose reader is gone (robot ... 2>&1
// | tee log, tee killed first): the log write fails, the runtime does
// not die of SIGPIPE, the wheels are stopped and the command exits 0.
func TestDeadLogPipe(t *testing.T) {
	bin := buildRobot(t)
	r := newRig(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var head bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&head, pr)
		close(copied)
	}()
	cmd := startDriving(t, bin, r, pw)
	pw.Close()
	pr.Close() // the reader dies: the robot's next write meets a broken pipe
	<-copied
	t0 := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err = waitExit(t, cmd)
	if err != nil {
		t.Errorf("exit: %v (a dead log pipe killed the runtime)\n%s", err, &head)
	}
	if !r.stoppedAfter(t0) {
		t.Errorf("wheels not stopped after the interrupt: %v", r.fw.Commands())
	}
}

func TestFirmwareSilentExits3(t *testing.T) {
	bin := buildRobot(t)
	r := newRig(t)
	var stderr bytes.Buffer
	cmd := startDriving(t, bin, r, &stderr)
	r.fw.SetFaults(emu.Faults{Mute: true})
	err := waitExit(t, cmd)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != exitLost {
		t.Errorf("exit %v, want %d\n%s", err, exitLost, &stderr)
	}
	if s, _ := r.last(); s != [2]int16{} {
		t.Errorf("wheels at %v at exit", s)
	}
	if !strings.Contains(stderr.String(), "stopped answering") {
		t.Errorf("stderr does not say what happened:\n%s", &stderr)
	}
}

// dropErrors: a failing log output does not fail the writer.
func TestDropErrors(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	d := &dropErrors{w: pw}
	if n, err := d.Write([]byte("x")); n != 1 || err != nil {
		t.Errorf("Write on a dead pipe: %d, %v", n, err)
	}
	pw.Close()
}
