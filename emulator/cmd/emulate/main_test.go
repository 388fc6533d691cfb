package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmulate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", "../../../toolchains/experiments/epuck.argos", "-robot", "ep0", "-b", "epuck", "-link", filepath.Join(dir, "tty")}, "EMULATOR READY port=" + filepath.Join(dir, "tty")},
		{[]string{"-c", "../../../toolchains/experiments/footbot.argos", "-robot", "fb0", "-b", "footbot", "-listen", "127.0.0.1:0"}, "EMULATOR READY aseba=127.0.0.1:"},
	} {
		var out, errb bytes.Buffer
		traj := filepath.Join(dir, "poses.tsv")
		args := append(tc.args, "-duration", "300ms", "-trajectory", traj)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("emulate %v: exit %d\n%s", args, code, errb.String())
		}
		if !strings.Contains(out.String(), tc.want) || !strings.Contains(out.String(), "EMULATOR DONE") {
			t.Errorf("output %q, want %q and a DONE line", out.String(), tc.want)
		}
		b, err := os.ReadFile(traj)
		if err != nil || !strings.HasPrefix(string(b), "tick\tt_s\tx\ty\tyaw_deg\n0\t") {
			t.Errorf("trajectory file: %v\n%s", err, b)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-c", "../../../toolchains/experiments/epuck.argos", "-robot", "ep0", "-b", "pipuck"}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "emulated in-process") {
		t.Errorf("pipuck: exit %d, %s", code, errb.String())
	}
}
