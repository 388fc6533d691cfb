package robotcli

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/realrobot/epuck"
	"github.com/creack/pty"
	"golang.org/x/sys/unix"

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

// firmware is a minimal advanced-sercom responder on a pseudo-terminal:
// it runs speed commands, answers queries with zeros (speeds with the
// speeds set) and can go silent.
type firmware struct {
	m, s   *os.File
	mu     sync.Mutex
	speeds [][2]int16
	silent bool
}

func newFirmware(t *testing.T) *firmware {
	m, s, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	tio, _ := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	tio.Lflag &^= unix.ECHO | unix.ICANON | unix.ISIG | unix.IEXTEN
	tio.Iflag &^= unix.ICRNL | unix.IXON
	tio.Oflag &^= unix.OPOST
	unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio)
	f := &firmware{m: m, s: s}
	t.Cleanup(func() { m.Close(); s.Close() })
	go f.serve()
	return f
}

func (f *firmware) serve() {
	var buf []byte
	chunk := make([]byte, 256)
	cur := [2]int16{}
	for {
		n, err := f.m.Read(chunk)
		if err != nil {
			return
		}
		buf = append(buf, chunk[:n]...)
		for {
			cmds, used, ok := epuck.ParseChain(buf)
			if !ok {
				break
			}
			buf = buf[used:]
			var reply []byte
			for _, c := range cmds {
				switch c.Op {
				case epuck.CmdSetSpeed:
					l, r := c.Int16s()
					cur = [2]int16{l, r}
					f.mu.Lock()
					f.speeds = append(f.speeds, cur)
					f.mu.Unlock()
				case epuck.CmdGetSpeed:
					reply = binary.LittleEndian.AppendUint16(reply, uint16(cur[0]))
					reply = binary.LittleEndian.AppendUint16(reply, uint16(cur[1]))
				default:
					reply = append(reply, make([]byte, epuck.ReplyLen(c.Op))...)
				}
			}
			f.mu.Lock()
			silent := f.silent
			f.mu.Unlock()
			if len(reply) > 0 && !silent {
				f.m.Write(reply)
			}
		}
	}
}

func (f *firmware) last() ([2]int16, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.speeds) == 0 {
		return [2]int16{}, 0
	}
	return f.speeds[len(f.speeds)-1], len(f.speeds)
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

func TestProcessExits(t *testing.T) {
	bin := buildRobot(t)
	start := func(f *firmware) *exec.Cmd {
		cmd := exec.Command(bin, "-c", exp, "-i", "edc", "-b", "epuck", "-port", f.s.Name(), "-log-level", "debug")
		cmd.Stderr = &bytes.Buffer{}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, n := f.last(); n > 5 || time.Now().After(deadline) {
				return cmd
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	t.Run("SIGTERM stops the wheels and exits 0", func(t *testing.T) {
		f := newFirmware(t)
		cmd := start(f)
		if s, _ := f.last(); s != [2]int16{388, 388} {
			t.Fatalf("the robot is not driving: %v\n%s", s, cmd.Stderr)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		if err != nil {
			t.Errorf("exit after SIGTERM: %v\n%s", err, cmd.Stderr)
		}
		if s, _ := f.last(); s != [2]int16{} {
			t.Errorf("wheels at %v after SIGTERM", s)
		}
	})
	t.Run("a firmware that stops answering: wheels stopped, exit 3", func(t *testing.T) {
		f := newFirmware(t)
		cmd := start(f)
		f.mu.Lock()
		f.silent = true
		f.mu.Unlock()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != exitLost {
				t.Errorf("exit %v, want %d\n%s", err, exitLost, cmd.Stderr)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("still running 30 s after the firmware went silent\n%s", cmd.Stderr)
		}
		if s, _ := f.last(); s != [2]int16{} {
			t.Errorf("wheels at %v at exit", s)
		}
		if !strings.Contains(cmd.Stderr.(*bytes.Buffer).String(), "stopped answering") {
			t.Errorf("stderr does not say what happened:\n%s", cmd.Stderr)
		}
	})
}
