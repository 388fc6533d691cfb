package sweep_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/argoscli"
	"github.com/argosgo/argos/sweep"
)

func TestIraceFiles(t *testing.T) {
	path := writeSpec(t, `experiment: diffusion.argos
parameters:
  - name: velocity
    path: controllers/*/params@velocity
    range: {min: 1, max: 15}
  - name: delta
    path: controllers/*/params@delta
    range: {min: 0.01, max: 1}
    log: true
  - name: robots
    path: arena/distribute/entity@quantity
    range: {min: 2, max: 8}
    type: int
  - name: engine
    path: physics_engines/*[1]/name()
    values: [dynamics2d, kinematics2d]
seeds: [3, 4]
metrics: [coverage]
irace: {maximize: true, budget: 500, parallel: 2}
`)
	s, err := sweep.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	params := sweep.IraceParametersText(s)
	for _, want := range []string{
		`velocity             "--velocity="            r (1, 15)`,
		`delta                "--delta="               r,log (0.01, 1)`,
		`robots               "--robots="              i (2, 8)`,
		`engine               "--engine="              c ("dynamics2d", "kinematics2d")`,
	} {
		if !strings.Contains(params, want+"\n") {
			t.Errorf("parameters.txt lacks %q:\n%s", want, params)
		}
	}
	dir := t.TempDir()
	if err := sweep.WriteIrace(s, dir, "/bin/argos"); err != nil {
		t.Fatal(err)
	}
	scen := string(readFile(t, filepath.Join(dir, sweep.IraceScenario)))
	for _, want := range []string{"maxExperiments = 500\n", "parallel = 2\n", `targetRunner = "` + filepath.Join(dir, sweep.IraceRunner) + `"`} {
		if !strings.Contains(scen, want) {
			t.Errorf("scenario.txt lacks %q:\n%s", want, scen)
		}
	}
	if got := string(readFile(t, filepath.Join(dir, sweep.IraceInstances))); got != "3\n4\n" {
		t.Errorf("instances.txt = %q, want the seeds", got)
	}
	if st, _ := os.Stat(filepath.Join(dir, sweep.IraceRunner)); st == nil || st.Mode()&0o100 == 0 {
		t.Error("target-runner is not executable")
	}
}

// The target-runner speaks irace's protocol: configuration id, instance
// id, seed, instance, then the switches; the cost alone on stdout.
func TestIraceTargetRunner(t *testing.T) {
	s, err := sweep.Load(filepath.Join("testdata", "irace.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := sweep.WriteIrace(s, dir, ""); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := argoscli.Run(append([]string{"irace", "run", dir}, args...), &out, &errb)
		return out.String(), errb.String(), code
	}
	out, msg, code := run("7", "2", "987654", "2", "--velocity=10", "--alpha=20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	cost, err := strconv.ParseFloat(strings.TrimSpace(out), 64)
	if err != nil || strings.Count(out, "\n") != 1 || cost >= 0 || cost < -1 {
		t.Fatalf("stdout %q: want one line, minus the coverage", out)
	}
	// the same run again is read back, not run again
	if again, _, _ := run("7", "2", "987654", "2", "--velocity=10", "--alpha=20"); again != out {
		t.Errorf("second call printed %q, first %q", again, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"1", "1", "5"}, "got 3 arguments"},
		{[]string{"1", "1", "5", "x", "--velocity=1", "--alpha=2"}, `instance "x" is not a seed`},
		{[]string{"1", "1", "5", "1", "--velocity=1"}, `no value for parameter "alpha"`},
		{[]string{"1", "1", "5", "1", "--velocity=1", "--alpha=2", "--beta=3"}, "--beta is not a parameter"},
		{[]string{"1", "1", "5", "1", "--velocity=fast", "--alpha=2"}, "the run failed"},
	} {
		out, msg, code := run(c.args...)
		if code != 1 || out != "" || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, msg, c.want)
		}
	}
}

// irace itself (Debian's r-cran-irace) tunes the diffusion controller's
// velocity and alpha for coverage with a budget of 100 runs: the faster
// the robots, the more they cover, so the best velocity is high.
func TestIraceTunesDiffusion(t *testing.T) {
	_, err := sweep.FindIrace()
	needTool(t, "irace is not installed", err == nil)
	t.Setenv(strings.Split(asArgos, "=")[0], "1")
	dir := filepath.Join(t.TempDir(), "irace")
	var out, errb bytes.Buffer
	if code := argoscli.Run([]string{"irace", filepath.Join("testdata", "irace.yaml"), "--out", dir, "--run", "--parallel", "2"}, &out, &errb); code != 0 {
		t.Fatalf("argos irace: exit %d\n%s\n%s", code, &out, &errb)
	}
	m := regexp.MustCompile(`(?m)^# Best configurations as commandlines.*\n\s*\d+\s+--velocity=([0-9.e+-]+) --alpha=([0-9.e+-]+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no best configuration in irace's output:\n%s", &out)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	a, _ := strconv.ParseFloat(m[2], 64)
	t.Logf("irace's best: velocity %g, alpha %g", v, a)
	if v < 8 || v > 15 || a < 1 || a > 45 {
		t.Errorf("best velocity %g (want a fast one, 8 to 15 cm/s), alpha %g (1 to 45)", v, a)
	}
	evals, _ := filepath.Glob(filepath.Join(dir, sweep.IraceEvalsDir, "*"))
	if len(evals) < 50 || len(evals) > 100 {
		t.Errorf("%d evaluations for a budget of 100", len(evals))
	}
}
