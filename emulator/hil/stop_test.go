package hil_test

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
	"github.com/argosgo/argos/config"
	emuepuck "github.com/argosgo/argos/emulator/epuck"
	"github.com/argosgo/argos/emulator/hil"
	"github.com/argosgo/argos/toolchains"
)

// armRobot is the e-puck bundle's ARM binary running under qemu against
// an emulated e-puck on a pseudo-terminal.
type armRobot struct {
	emu *hil.Emulation
	cmd *exec.Cmd
}

// startARM builds the e-puck bundle (once), serves its emulated robot
// and starts the binary under qemu with stderr to stderr; it returns
// once the wheels drive.
func startARM(t *testing.T, stderr io.Writer, extra ...string) *armRobot {
	t.Helper()
	needQEMU(t, "qemu-arm-static")
	dir := buildBundle(t, "epuck")
	file := filepath.Join(dir, toolchains.ExperimentFile)
	exp, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := boards.Lookup("epuck")
	arena, id, err := hil.Arena(exp, "edc", b)
	if err != nil {
		t.Fatal(err)
	}
	e, err := hil.Start(arena, id, b, hil.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	runner, err := hil.Runner(b)
	if err != nil {
		t.Fatal(err)
	}
	args := append(append(runner[1:], filepath.Join(dir, toolchains.BinaryFile), "-c", file, "-i", "edc", "-b", "epuck"), e.Args...)
	cmd := exec.Command(runner[0], append(args, extra...)...)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := &armRobot{emu: e, cmd: cmd}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(2 * time.Minute) // qemu loads a large binary slowly on a busy machine
	for {
		if l, rr, n := e.Wheels(); n > 5 && (l != 0 || rr != 0) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("the robot binary does not drive: %v\n%s", e.Firmware().Commands(), stderr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// wait waits for the binary to exit, at most a minute.
func (r *armRobot) wait(t *testing.T) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		r.cmd.Process.Kill()
		t.Fatal("the robot binary still runs a minute later")
		return nil
	}
}

// stoppedAfter reports whether a (0, 0) command came after t0 and none
// other after it.
func stoppedAfter(cmds []emuepuck.WheelCommand, t0 time.Time) bool {
	stopped := false
	for _, c := range cmds {
		if c.At.After(t0) {
			stopped = c.Left == 0 && c.Right == 0
		}
	}
	return stopped
}

// The ARM binary under qemu stops its wheels and exits 0 on every
// terminating signal.
func TestARMSignalsStopTheWheels(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			var stderr bytes.Buffer
			r := startARM(t, &stderr)
			t0 := time.Now()
			r.cmd.Process.Signal(sig)
			if err := r.wait(t); err != nil {
				t.Errorf("exit after %v: %v\n%s", sig, err, &stderr)
			}
			if !stoppedAfter(r.emu.Firmware().Commands(), t0) {
				t.Errorf("wheels not stopped after %v: %v", sig, r.emu.Firmware().Commands())
			}
		})
	}
}

// The ARM binary's stderr goes to a pipe whose reader dies, then it is
// interrupted: it stops the wheels and exits 0, not killed by SIGPIPE.
func TestARMDeadLogPipe(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var head bytes.Buffer
	copied := make(chan struct{})
	go func() { io.Copy(&head, pr); close(copied) }()
	r := startARM(t, pw, "-log-level", "debug")
	pw.Close()
	pr.Close()
	<-copied
	t0 := time.Now()
	r.cmd.Process.Signal(syscall.SIGINT)
	if err := r.wait(t); err != nil {
		t.Errorf("exit: %v (a dead log pipe killed the runtime)\n%s", err, &head)
	}
	if !stoppedAfter(r.emu.Firmware().Commands(), t0) {
		t.Errorf("wheels not stopped: %v", r.emu.Firmware().Commands())
	}
}

// Replies slower than the board's timeout from some point on: the ARM
// binary stops the wheels, no retry undoes the stop, and it exits 3 when
// the hardware has not answered for a second.
func TestARMLateRepliesKeepTheStop(t *testing.T) {
	var stderr bytes.Buffer
	r := startARM(t, &stderr)
	fw := r.emu.Firmware()
	fault := time.Now()
	fw.SetFaults(emuepuck.Faults{Late: 1 << 20, LateBy: 80 * time.Millisecond})
	err := r.wait(t)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("exit %v, want 3 (the hardware stopped answering)\n%s", err, lastLines(stderr.String(), 10))
	}
	cmds := fw.Commands()
	stopped := -1
	for i, c := range cmds {
		if !c.At.After(fault) {
			continue
		}
		if stopped < 0 && c.Left == 0 && c.Right == 0 {
			stopped = i
		}
		if stopped >= 0 && (c.Left != 0 || c.Right != 0) {
			t.Errorf("command %d (%d, %d) after the stop: the stop was undone", i, c.Left, c.Right)
		}
	}
	if stopped < 0 {
		t.Errorf("the wheels were never stopped after the fault: %v", cmds)
	}
	if !strings.Contains(stderr.String(), "stopped answering") {
		t.Errorf("the log does not say what happened:\n%s", lastLines(stderr.String(), 10))
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
