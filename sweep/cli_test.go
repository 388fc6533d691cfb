package sweep_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/argoscli"
)

// argos sweep, status and collect, as a user types them.
func TestSweepCommand(t *testing.T) {
	t.Setenv(strings.Split(asArgos, "=")[0], "1")
	out := filepath.Join(t.TempDir(), "d")
	run := func(args ...string) (string, int) {
		var b bytes.Buffer
		code := argoscli.Run(args, &b, &b)
		return b.String(), code
	}
	if msg, code := run("sweep", filepath.Join("testdata", "basic.yaml"), "--out", out, "--jobs", "2", "--progress", "log"); code != 0 ||
		!strings.Contains(msg, "8 cells (4 parameter points x 2 seeds)") || !strings.Contains(msg, "8 ran, 0 failed, 0 done before, 0 left") {
		t.Fatalf("argos sweep: exit %d\n%s", code, msg)
	}
	if msg, code := run("sweep", filepath.Join("testdata", "basic.yaml"), "--out", out); code != 0 || !strings.Contains(msg, "0 ran, 0 failed, 8 done before") {
		t.Errorf("argos sweep again: exit %d\n%s", code, msg)
	}
	if msg, code := run("sweep", "status", out); code != 0 || strings.TrimSpace(msg) != "8 cells: 8 finished, 0 failed, 0 to run" {
		t.Errorf("argos sweep status: exit %d: %q", code, msg)
	}
	if msg, code := run("sweep", "collect", out); code != 0 || !strings.Contains(msg, "24 rows in ") {
		t.Errorf("argos sweep collect: exit %d: %q", code, msg)
	}
	bad := writeSpec(t, "experiment: diffusion.argos\nseeds: [0]\n")
	if msg, code := run("sweep", bad, "--out", t.TempDir()); code != 1 || !strings.HasPrefix(msg, "argos sweep: "+bad+":2: seeds:") {
		t.Errorf("a bad sweep file: exit %d: %q", code, msg)
	}
	if msg, code := run("sweep", "status", t.TempDir()); code != 1 || !strings.Contains(msg, "is not a sweep folder") {
		t.Errorf("status of an empty folder: exit %d: %q", code, msg)
	}
	if msg, code := run("sweep"); code != 1 || !strings.Contains(msg, "give one sweep file") {
		t.Errorf("no sweep file: exit %d: %q", code, msg)
	}
}
