package argoscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/sweep"
	"github.com/sirupsen/logrus"
)

const sweepUsage = `usage: argos sweep SPEC.yaml [--out DIR] [--jobs N] [--slurm [--partition P --time T --mem M --array-limit K]]
       argos sweep status DIR      how far a sweep is (and its Slurm tasks)
       argos sweep collect DIR     write DIR/results.csv and results.parquet from the finished runs
       argos sweep task DIR [--task-index N]   run one Slurm array task (SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX)
       argos sweep evolve SPEC.yaml [--out DIR] [--jobs N]   evolve weights with CMA-ES (the evolve: section)

Runs every cell (parameter point x seed) of a sweep file, each in a process of
its own, and writes one tidy table: DIR/results.csv and results.parquet, one
row per run and metric. Running it again resumes; docs/sweeps.md has the format.

`

// runSweep implements argos sweep.
func runSweep(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "status":
			return sweepStatus(args[1:], stdout, stderr)
		case "collect":
			return sweepCollect(args[1:], stdout, stderr)
		case "task":
			return sweepTask(args[1:], stdout, stderr)
		case "evolve":
			return sweepEvolve(args[1:], stdout, stderr)
		case "worker":
			// the sweep's own runner (see sweep.ServeWorker): requests on
			// stdin, replies on stdout
			if err := sweep.ServeWorker(os.Stdin, stdout, runWork); err != nil {
				fmt.Fprintln(stderr, "argos", err)
				return 1
			}
			return 0
		}
	}
	fs := flag.NewFlagSet("argos sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt sweep.Options
	var so sweep.SlurmOptions
	fs.StringVar(&opt.Out, "out", "", "the sweep folder (default: SPEC's name with _sweep, in the working directory)")
	fs.IntVar(&opt.Jobs, "jobs", 0, "runs at once (default: the number of cores)")
	fs.BoolVar(&opt.RetryFailed, "retry-failed", false, "run the failed cells again")
	fs.BoolVar(&opt.FreshProcess, "fresh", false, "run every cell in a new argos process (default: each worker process runs cell after cell)")
	fs.DurationVar(&opt.Timeout, "timeout", 0, "stop a run that takes longer than this and record it as failed (0: no limit)")
	fs.StringVar(&opt.ProgressMode, "progress", "auto", "progress report: auto (a bar on a terminal, lines otherwise), bar, log, off")
	fs.DurationVar(&opt.ProgressEvery, "progress-every", 10*time.Second, "interval of the progress lines")
	slurm := fs.Bool("slurm", false, "submit the sweep as a Slurm job array instead of running it here")
	wait := fs.Bool("wait", false, "with --slurm: wait for the array to finish, then collect the table")
	registerSlurm(fs, &so)
	fs.Usage = func() { fmt.Fprint(stderr, sweepUsage); fs.PrintDefaults() }
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitOf(err)
	}
	if len(rest) != 1 {
		fmt.Fprint(stderr, "argos sweep: give one sweep file\n"+sweepUsage)
		return 1
	}
	switch opt.ProgressMode {
	case "auto", "bar", "log", "off":
	default:
		fmt.Fprintf(stderr, "argos sweep: --progress %q: use auto, bar, log or off\n", opt.ProgressMode)
		return 1
	}
	spec, err := sweep.Load(rest[0])
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	if opt.Out == "" {
		opt.Out = defaultSweepOut(rest[0])
	}
	plan, err := sweep.NewPlan(spec)
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *slurm {
		id, err := sweep.SubmitSlurm(ctx, plan, opt.Out, so)
		if err != nil {
			fmt.Fprintln(stderr, "argos", err)
			return 1
		}
		fmt.Fprintf(stdout, "argos sweep: %d cells submitted as Slurm job %d (%d tasks); follow with argos sweep status %s\n", len(plan.Cells), atoiOr(id), plan.Tasks(), opt.Out)
		if !*wait {
			return 0
		}
		st, err := sweep.WaitSlurm(ctx, opt.Out, 2*time.Second)
		if err != nil {
			fmt.Fprintln(stderr, "argos", err)
			return 1
		}
		fmt.Fprintf(stdout, "argos sweep: %s\n", st)
		return collect(opt.Out, stdout, stderr)
	}
	opt.Progress = stderr
	fmt.Fprintf(stdout, "argos sweep: %d cells (%d parameter points x %d seeds) into %s\n", len(plan.Cells), len(plan.Cells)/max(len(spec.Seeds), 1), len(spec.Seeds), opt.Out)
	sum, err := sweep.Run(ctx, plan, opt)
	fmt.Fprintf(stdout, "argos sweep: %d ran, %d failed, %d done before, %d left; %.1f s (runs' loops: %.1f s); table: %s\n",
		sum.Ran, sum.Failed, sum.Skipped, sum.Left, sum.Wall.Seconds(), sum.LoopSeconds, filepath.Join(opt.Out, sweep.TableCSV))
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "argos sweep: interrupted; the finished runs are kept and in the table; run the same command to resume")
			return 130
		}
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	return 0
}

func atoiOr(s string) int {
	n := 0
	fmt.Sscan(s, &n)
	return n
}

func registerSlurm(fs *flag.FlagSet, so *sweep.SlurmOptions) {
	fs.StringVar(&so.Partition, "partition", "", "Slurm partition")
	fs.StringVar(&so.Time, "time", "", "Slurm time limit per task, like 00:30:00")
	fs.StringVar(&so.Mem, "mem", "", "Slurm memory per task, like 1G")
	fs.IntVar(&so.ArrayLimit, "array-limit", 0, "most array tasks running at once (0: no limit)")
	fs.IntVar(&so.Chunk, "chunk", 0, "cells per array task (0: one, or enough to keep 1000 tasks at most)")
	fs.IntVar(&so.CPUs, "cpus-per-task", 1, "cores per array task; a task runs that many of its cells at once")
}

// defaultSweepOut is SPEC's base name with _sweep.
func defaultSweepOut(spec string) string {
	base := filepath.Base(spec)
	return strings.TrimSuffix(base, filepath.Ext(base)) + "_sweep"
}

func oneDir(name string, fs *flag.FlagSet, args []string, stderr io.Writer) (string, int) {
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return "", exitOf(err)
	}
	if len(rest) != 1 {
		fmt.Fprintf(stderr, "argos sweep %s: give the sweep folder (the --out of argos sweep)\n", name)
		return "", 1
	}
	return rest[0], -1
}

func sweepStatus(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos sweep status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir, code := oneDir("status", fs, args, stderr)
	if code >= 0 {
		return code
	}
	st, err := sweep.ReadStatus(context.Background(), dir)
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	fmt.Fprintln(stdout, st)
	return 0
}

func sweepCollect(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos sweep collect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir, code := oneDir("collect", fs, args, stderr)
	if code >= 0 {
		return code
	}
	return collect(dir, stdout, stderr)
}

func collect(dir string, stdout, stderr io.Writer) int {
	t, err := sweep.WriteTable(dir)
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	fmt.Fprintf(stdout, "argos sweep: %d rows in %s and %s", len(t.Rows), filepath.Join(dir, sweep.TableCSV), sweep.TableParquet)
	if len(t.Missing) > 0 {
		fmt.Fprintf(stdout, "; %d cells have not run yet", len(t.Missing))
	}
	fmt.Fprintln(stdout)
	return 0
}

func sweepTask(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos sweep task", flag.ContinueOnError)
	fs.SetOutput(stderr)
	index := fs.Int("task-index", -1, "the array task to run (default: SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX)")
	var opt sweep.Options
	fs.IntVar(&opt.Jobs, "jobs", 1, "runs at once")
	dir, code := oneDir("task", fs, args, stderr)
	if code >= 0 {
		return code
	}
	t, err := sweep.TaskIndex(*index)
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opt.Progress, opt.ProgressMode = stderr, "log"
	sum, err := sweep.RunTask(ctx, dir, t, opt)
	fmt.Fprintf(stdout, "argos sweep task %d: %d ran, %d failed, %d done before, %d left\n", t, sum.Ran, sum.Failed, sum.Skipped, sum.Left)
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		if errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	return 0
}

func sweepEvolve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos sweep evolve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var opt sweep.EvolveOptions
	var so sweep.SlurmOptions
	fs.StringVar(&opt.Out, "out", "", "the evolution folder (default: SPEC's name with _evolve)")
	fs.IntVar(&opt.Jobs, "jobs", 0, "runs at once (default: the number of cores)")
	fs.DurationVar(&opt.Timeout, "timeout", 0, "stop a run that takes longer than this and count it as the worst fitness")
	slurm := fs.Bool("slurm", false, "run each generation as a Slurm job array")
	registerSlurm(fs, &so)
	fs.Usage = func() { fmt.Fprint(stderr, sweepUsage); fs.PrintDefaults() }
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitOf(err)
	}
	if len(rest) != 1 {
		fmt.Fprint(stderr, "argos sweep evolve: give one sweep file with an evolve: section\n")
		return 1
	}
	spec, err := sweep.Load(rest[0])
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		return 1
	}
	if opt.Out == "" {
		base := filepath.Base(rest[0])
		opt.Out = strings.TrimSuffix(base, filepath.Ext(base)) + "_evolve"
	}
	if *slurm {
		opt.Slurm = &so
	}
	opt.Log, opt.Progress, opt.ProgressMode = stdout, stderr, "off"
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ev, err := sweep.Evolve(ctx, spec, opt)
	if err != nil {
		fmt.Fprintln(stderr, "argos", err)
		if errors.Is(err, context.Canceled) {
			return 130
		}
		return 1
	}
	fmt.Fprintf(stdout, "argos sweep evolve: best fitness %.4g; the best genome is in %s, an experiment running it in %s\n",
		ev.BestFitness, filepath.Join(opt.Out, "best.dat"), filepath.Join(opt.Out, "best.argos"))
	return 0
}

// runWork runs one experiment of a sweep worker: the command line of a
// sweep.WorkRequest (-z -c FILE --out DIR --progress off [--threads N]),
// the way Run runs it, with Run's exit statuses.
func runWork(args []string, _, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "argos: internal error: %v\n%s\n", r, debug.Stack())
			code = 2
		}
	}()
	fs := flag.NewFlagSet("argos", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		file     string
		headless bool
		threads  int
	)
	fs.StringVar(&file, "c", "", "")
	fs.BoolVar(&headless, "z", false, "")
	fs.IntVar(&threads, "threads", -1, "")
	outs := &outputs{args: append([]string{"argos"}, args...), stderr: stderr}
	outs.register(fs)
	if err := fs.Parse(args); err != nil {
		return 1
	}
	if err := outs.check(headless); err != nil {
		fmt.Fprintf(stderr, "argos: %v\n", err)
		return 1
	}
	log := logrus.New()
	log.SetOutput(stderr)
	log.SetLevel(logrus.InfoLevel)
	opt := simulator.Options{Logger: log, Headless: headless, SerialBelow: simulator.SmallSwarm}
	if threads >= 0 {
		opt.Threads = &threads
	}
	return runUntilDone(file, opt, log, outs, stderr)
}
