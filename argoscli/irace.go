package argoscli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/argosgo/argos/sweep"
)

const iraceUsage = `usage: argos irace SPEC.yaml [--out DIR] [--budget N] [--parallel N] [--run]
       argos irace run DIR CONFIG_ID INSTANCE_ID SEED INSTANCE [--name=value ...]   (the target-runner)

Writes irace's parameters.txt, scenario.txt, instances.txt (the sweep's seeds)
and target-runner into DIR, from the sweep file's parameters (ranges become r
or i, lists c) and its irace: section (the metric to minimize, or maximize:
true). Then run irace --scenario DIR/scenario.txt, or give --run.

`

// runIrace implements argos irace.
func runIrace(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "run" {
		return iraceTargetRunner(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("argos irace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the irace folder (default: SPEC's name with _irace)")
	budget := fs.Int("budget", 0, "irace's maxExperiments (default: the irace: section's budget, or 200)")
	parallel := fs.Int("parallel", 0, "target-runners irace runs at once")
	run := fs.Bool("run", false, "run irace on the scenario once it is written")
	fs.Usage = func() { fmt.Fprint(stderr, iraceUsage); fs.PrintDefaults() }
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitOf(err)
	}
	if len(rest) != 1 {
		fmt.Fprint(stderr, "argos irace: give one sweep file\n"+iraceUsage)
		return 1
	}
	spec, err := sweep.Load(rest[0])
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	if spec.Irace == nil {
		spec.Irace = &sweep.IraceSpec{Budget: 200}
		if len(spec.Metrics) > 0 {
			spec.Irace.Metric = spec.Metrics[0].Name
		}
	}
	if *budget > 0 {
		spec.Irace.Budget = *budget
	}
	if *parallel > 0 {
		spec.Irace.Parallel = *parallel
	}
	dir := *out
	if dir == "" {
		base := filepath.Base(rest[0])
		dir = base[:len(base)-len(filepath.Ext(base))] + "_irace"
	}
	if err := sweep.WriteIrace(spec, dir, ""); err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	scenario, _ := filepath.Abs(filepath.Join(dir, sweep.IraceScenario))
	fmt.Fprintf(stdout, "argos irace: wrote %s, %s, %s and %s in %s\n", sweep.IraceParameters, sweep.IraceScenario, sweep.IraceInstances, sweep.IraceRunner, dir)
	if !*run {
		fmt.Fprintf(stdout, "argos irace: now run irace --scenario %s\n", scenario)
		return 0
	}
	bin, err := sweep.FindIrace()
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := exec.CommandContext(ctx, bin, "--scenario", scenario)
	cmd.Dir = filepath.Dir(scenario)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintf(stderr, "argos irace: irace: %v\n", err)
		return 1
	}
	return 0
}

// iraceTargetRunner is irace's target-runner: it prints the cost alone on
// stdout, and its errors on stderr with exit status 1.
func iraceTargetRunner(args []string, stdout, stderr io.Writer) int {
	if len(args) < 1 {
		fmt.Fprint(stderr, "argos irace run: give the irace folder, then irace's arguments\n"+iraceUsage)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cost, err := sweep.IraceRun(ctx, args[0], args[1:], sweep.Options{ProgressMode: "off", InProcess: runWork})
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	fmt.Fprintln(stdout, strconv.FormatFloat(cost, 'g', -1, 64))
	return 0
}
