package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Files of the irace support, in the irace folder.
const (
	IraceParameters = "parameters.txt"
	IraceScenario   = "scenario.txt"
	IraceInstances  = "instances.txt"
	IraceRunner     = "target-runner"
	IraceSetup      = "irace.json"
	IraceEvalsDir   = "evals" // evals/c12-i3-s456/: the sweep folder of one evaluation
)

// iraceSetup is what the target-runner needs besides the command line.
type iraceSetup struct {
	Spec     string `json:"spec"`
	Metric   string `json:"metric"`
	Maximize bool   `json:"maximize"`
}

// IraceParametersText returns irace's parameters.txt for the sweep's
// parameters: a range of reals is r (min, max), of integers i (min, max)
// (",log" with log: true), a list of values c (...). Each parameter
// reaches the target-runner as --name=value.
func IraceParametersText(s *Spec) string {
	var b strings.Builder
	b.WriteString("# Written by argos irace from " + filepath.Base(s.File) + ": name, switch, type, domain.\n")
	for _, p := range s.Parameters {
		var dom string
		switch p.Kind {
		case "real", "int":
			t := "r"
			if p.Kind == "int" {
				t = "i"
			}
			if p.Log {
				t += ",log"
			}
			dom = fmt.Sprintf("%s (%s, %s)", t, fmtNum(p.Min), fmtNum(p.Max))
		default:
			q := make([]string, len(p.Values))
			for i, v := range p.Values {
				q[i] = strconv.Quote(v)
			}
			dom = "c (" + strings.Join(q, ", ") + ")"
		}
		fmt.Fprintf(&b, "%-20s %-24s %s\n", p.Name, strconv.Quote("--"+p.Name+"="), dom)
	}
	return b.String()
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// IraceScenarioText returns irace's scenario.txt for a folder dir (an
// absolute path) holding the files WriteIrace writes.
func IraceScenarioText(s *Spec, dir string) string {
	ir := s.Irace
	if ir == nil {
		ir = &IraceSpec{Budget: 200}
	}
	var b strings.Builder
	b.WriteString("## Written by argos irace from " + filepath.Base(s.File) + ".\n")
	q := func(k, v string) { fmt.Fprintf(&b, "%s = %s\n", k, strconv.Quote(v)) }
	q("parameterFile", filepath.Join(dir, IraceParameters))
	q("targetRunner", filepath.Join(dir, IraceRunner))
	q("trainInstancesDir", "")
	q("trainInstancesFile", filepath.Join(dir, IraceInstances))
	q("execDir", dir)
	q("logFile", filepath.Join(dir, "irace.Rdata"))
	fmt.Fprintf(&b, "maxExperiments = %d\n", ir.Budget)
	if ir.Parallel > 1 {
		fmt.Fprintf(&b, "parallel = %d\n", ir.Parallel)
	}
	b.WriteString("## The instances are the sweep's seeds; a run is deterministic given its seed.\ndeterministic = 0\n")
	return b.String()
}

// WriteIrace writes parameters.txt, scenario.txt, instances.txt (the
// seeds) and target-runner (a script calling binary irace run) into dir.
func WriteIrace(s *Spec, dir, binary string) error {
	if s.Irace == nil && len(s.Metrics) == 0 {
		return fmt.Errorf("sweep: %s: irace needs a cost: add metrics: (the first is minimized) or an irace: section", s.File)
	}
	if len(s.Parameters) == 0 {
		return fmt.Errorf("sweep: %s: there are no parameters to tune; add them under parameters:", s.File)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	dir = abs
	if binary == "" {
		if binary, err = os.Executable(); err != nil {
			return fmt.Errorf("sweep: cannot find the argos binary: %w", err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	spec, _ := filepath.Abs(s.File)
	setup := iraceSetup{Spec: spec}
	if s.Irace != nil {
		setup.Metric, setup.Maximize = s.Irace.Metric, s.Irace.Maximize
	} else {
		setup.Metric = s.Metrics[0].Name
	}
	js, _ := json.MarshalIndent(setup, "", "  ")
	var inst strings.Builder
	for _, seed := range s.Seeds {
		fmt.Fprintf(&inst, "%d\n", seed)
	}
	runner := "#!/bin/sh\n# irace's target-runner, written by argos irace: runs configuration $1 on\n# instance $2 (seed $4) and prints its cost.\nexec " +
		shellQuote(binary) + " irace run " + shellQuote(dir) + " \"$@\"\n"
	for _, f := range []struct {
		name string
		data string
		mode os.FileMode
	}{
		{IraceSetup, string(js) + "\n", 0o644},
		{IraceParameters, IraceParametersText(s), 0o644},
		{IraceScenario, IraceScenarioText(s, dir), 0o644},
		{IraceInstances, inst.String(), 0o644},
		{IraceRunner, runner, 0o755},
	} {
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(f.data), f.mode); err != nil {
			return fmt.Errorf("sweep: %w", err)
		}
	}
	return nil
}

var switchRe = regexp.MustCompile(`^--([A-Za-z_][A-Za-z0-9_]*)=(.*)$`)

// IraceRun is the target-runner: args are irace's (configuration id,
// instance id, seed, instance, then --name=value for each parameter).
// It runs the configuration with the instance as the experiment's seed,
// in dir/evals, and returns the cost (the metric, negated when
// maximized). irace's own seed is not used: the instance fixes the run.
func IraceRun(ctx context.Context, dir string, args []string, opt Options) (float64, error) {
	if len(args) < 4 {
		return 0, fmt.Errorf("sweep: irace target-runner: got %d arguments; irace passes the configuration id, instance id, seed, instance and the parameters", len(args))
	}
	b, err := os.ReadFile(filepath.Join(dir, IraceSetup))
	if err != nil {
		return 0, fmt.Errorf("sweep: %s is not an irace folder of argos irace (%w)", dir, err)
	}
	var setup iraceSetup
	if err := json.Unmarshal(b, &setup); err != nil {
		return 0, fmt.Errorf("sweep: %s: %w", filepath.Join(dir, IraceSetup), err)
	}
	s, err := Load(setup.Spec)
	if err != nil {
		return 0, err
	}
	seed, err := strconv.ParseUint(strings.TrimSpace(filepath.Base(args[3])), 10, 64)
	if err != nil || seed == 0 {
		return 0, fmt.Errorf("sweep: irace target-runner: instance %q is not a seed; the instances of argos irace are the sweep's seeds", args[3])
	}
	values := map[string]string{}
	for _, a := range args[4:] {
		m := switchRe.FindStringSubmatch(a)
		if m == nil {
			// a bound (capping) comes before the switches: a bare number
			if _, err := strconv.ParseFloat(a, 64); err == nil && len(values) == 0 {
				continue
			}
			return 0, fmt.Errorf("sweep: irace target-runner: %q is not --name=value", a)
		}
		values[m[1]] = m[2]
	}
	cell := Cell{Seed: seed}
	plan := &Plan{spec: s, Metrics: s.Metrics, Threads: s.Threads}
	plan.Spec, plan.Experiment = setup.Spec, s.Experiment
	if abs, err := filepath.Abs(s.Experiment); err == nil {
		plan.Experiment = abs
	}
	plan.WorkDir = filepath.Dir(plan.Experiment)
	for _, p := range s.Parameters {
		v, ok := values[p.Name]
		if !ok {
			return 0, fmt.Errorf("sweep: irace target-runner: no value for parameter %q (--%s=...)", p.Name, p.Name)
		}
		if strings.ContainsAny(v, "\n\r") {
			return 0, fmt.Errorf("sweep: irace target-runner: value of %q spans lines", p.Name)
		}
		plan.Params = append(plan.Params, Column{Name: p.Name, Numeric: p.numeric})
		cell.Values = append(cell.Values, v)
		delete(values, p.Name)
	}
	for k := range values {
		return 0, fmt.Errorf("sweep: irace target-runner: --%s is not a parameter of %s", k, filepath.Base(s.File))
	}
	plan.Cells = []Cell{cell}
	name := "c" + safeName(args[0]) + "-i" + safeName(args[1]) + "-s" + safeName(args[2])
	opt.Out = filepath.Join(dir, IraceEvalsDir, name)
	opt.Jobs = 1
	if err := Prepare(plan, opt.Out); err != nil {
		return 0, err
	}
	if _, err := RunCells(ctx, plan, []int{0}, opt); err != nil {
		return 0, err
	}
	r, ok := ReadResult(opt.Out, 0)
	if !ok {
		return 0, errors.New("sweep: irace target-runner: the run left no result")
	}
	if r.Status != "finished" {
		return 0, fmt.Errorf("sweep: irace target-runner: the run failed: %s (see %s)", r.Error, RunDir(opt.Out, 0))
	}
	k := -1
	for i, m := range plan.Metrics {
		if m.Name == setup.Metric {
			k = i
		}
	}
	if k < 0 {
		return 0, fmt.Errorf("sweep: irace target-runner: metric %q is not under metrics: of %s", setup.Metric, s.File)
	}
	vals, errs := CellMetrics(opt.Out, plan.Metrics, r)
	if math.IsNaN(vals[k]) {
		return 0, fmt.Errorf("sweep: irace target-runner: %s", errs[k])
	}
	if setup.Maximize {
		return -vals[k], nil
	}
	return vals[k], nil
}

func safeName(s string) string {
	out := []byte(s)
	for i, c := range out {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.') {
			out[i] = '_'
		}
	}
	if len(out) > 40 {
		out = out[:40]
	}
	return string(out)
}

// FindIrace returns the irace command: irace on PATH, or the one of R's
// site library (Debian's r-cran-irace does not put it on PATH).
func FindIrace() (string, error) {
	if p, err := exec.LookPath("irace"); err == nil {
		return p, nil
	}
	for _, p := range []string{"/usr/lib/R/site-library/irace/bin/irace", "/usr/local/lib/R/site-library/irace/bin/irace"} {
		if st, err := os.Stat(p); err == nil && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", errors.New("sweep: irace is not installed; install it (Debian: apt-get install r-cran-irace) or run irace yourself on scenario.txt")
}
