package sweep_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/argoscli"
	"github.com/argosgo/argos/sweep"
)

// needTool skips the test when a tool is missing, except under
// ARGOS_CI=1 (CI), where scripts/ci-setup.d/slurm.sh must have installed
// and started it, so that the test fails instead.
func needTool(t *testing.T, what string, ok bool) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("ARGOS_CI") == "1" {
		t.Fatalf("%s, and ARGOS_CI=1: scripts/ci-setup.d/slurm.sh installs and starts it", what)
	}
	t.Skipf("%s (scripts/ci-setup.d/slurm.sh installs and starts it)", what)
}

// slurmUp reports whether sbatch is installed and a node takes jobs.
func slurmUp() bool {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return false
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%T").Output()
	if err != nil {
		return false
	}
	for _, s := range strings.Fields(string(out)) {
		s = strings.TrimRight(s, "*~#!%$@^-")
		if s == "idle" || s == "mixed" || s == "allocated" {
			return true
		}
	}
	return false
}

// A sweep submitted with argos sweep --slurm --wait as a job array, one
// task per cell, gives the same table as the same sweep run here (16
// cells; 64 with ARGOS_SWEEP_SLURM64=1).
func TestSlurmArrayEqualsLocalRun(t *testing.T) {
	needTool(t, "no Slurm cluster takes jobs here (sbatch, sinfo)", slurmUp())
	spec, cells := filepath.Join("testdata", "grid16.yaml"), 16
	if os.Getenv("ARGOS_SWEEP_SLURM64") == "1" {
		spec, cells = filepath.Join("testdata", "grid64.yaml"), 64
	}
	local := t.TempDir()
	if _, err := sweep.Run(context.Background(), plan(t, spec), options(t, local)); err != nil {
		t.Fatal(err)
	}

	// argos sweep --slurm, with this test binary as the argos of the tasks
	// (sbatch passes the environment on)
	t.Setenv(strings.Split(asArgos, "=")[0], "1")
	out := filepath.Join(t.TempDir(), "slurm")
	var stdout, stderr bytes.Buffer
	if code := argoscli.Run([]string{"sweep", spec, "--out", out, "--slurm", "--wait", "--time", "00:10:00", "--mem", "500M"}, &stdout, &stderr); code != 0 {
		logs, _ := filepath.Glob(filepath.Join(out, sweep.SlurmDir, "task-*.out"))
		var tail []byte
		if len(logs) > 0 {
			tail, _ = os.ReadFile(logs[0])
		}
		t.Fatalf("argos sweep --slurm: exit %d\n%s%s\na task's log: %s", code, &stdout, &stderr, tail)
	}
	script := string(readFile(t, filepath.Join(out, sweep.SlurmDir, sweep.SlurmScript)))
	for _, want := range []string{fmt.Sprintf("#SBATCH --array=0-%d\n", cells-1), "#SBATCH --time=00:10:00\n", "#SBATCH --mem=500M\n", " sweep task --jobs 1 "} {
		if !strings.Contains(script, want) {
			t.Errorf("the sbatch script lacks %q:\n%s", want, script)
		}
	}
	a, b := readFile(t, filepath.Join(local, sweep.TableCSV)), readFile(t, filepath.Join(out, sweep.TableCSV))
	if !bytes.Equal(a, b) {
		t.Errorf("the table of the Slurm array differs from the local one:\n%s\nwant\n%s", b, a)
	}
	if n := bytes.Count(a, []byte("\n")); n != 1+cells*2 {
		t.Errorf("%d lines in the table, want a header and %d x 2 rows", n, cells)
	}
	stdout.Reset()
	if code := argoscli.Run([]string{"sweep", "status", out}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), fmt.Sprintf("%d cells: %d finished, 0 failed, 0 to run; Slurm job", cells, cells)) {
		t.Errorf("argos sweep status: exit %d: %s%s", code, &stdout, &stderr)
	}
}

// The task index comes from the flag, then SLURM_ARRAY_TASK_ID, then
// JOB_COMPLETION_INDEX; each task runs its own contiguous chunk.
func TestTaskIndexAndChunks(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("JOB_COMPLETION_INDEX", "")
	if _, err := sweep.TaskIndex(-1); err == nil {
		t.Error("no flag and no environment: want an error")
	}
	t.Setenv("JOB_COMPLETION_INDEX", "4")
	if i, err := sweep.TaskIndex(-1); err != nil || i != 4 {
		t.Errorf("JOB_COMPLETION_INDEX=4: %d %v", i, err)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "7")
	if i, err := sweep.TaskIndex(-1); err != nil || i != 7 {
		t.Errorf("SLURM_ARRAY_TASK_ID=7: %d %v", i, err)
	}
	if i, err := sweep.TaskIndex(2); err != nil || i != 2 {
		t.Errorf("--task-index 2: %d %v", i, err)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "x")
	if _, err := sweep.TaskIndex(-1); err == nil {
		t.Error("SLURM_ARRAY_TASK_ID=x: want an error")
	}
	p := plan(t, filepath.Join("testdata", "grid64.yaml"))
	p.Chunk = 10
	if p.Tasks() != 7 {
		t.Errorf("64 cells by 10: %d tasks, want 7", p.Tasks())
	}
	seen := map[int]int{}
	for task := range p.Tasks() {
		for _, c := range p.TaskCells(task) {
			seen[c]++
		}
	}
	if len(seen) != 64 {
		t.Errorf("the tasks cover %d cells, want 64", len(seen))
	}
	for c, n := range seen {
		if n != 1 {
			t.Errorf("cell %d is in %d tasks", c, n)
		}
	}
}
