// Package argoscli is the argos command as a library: everything the
// command does (running an experiment with its flags, -q, --out, --viz
// web, frames and video, plot, bench, new, emulate and the robot
// toolchain) is reached through [Main] or [Run], so that a project's own
// cmd/argos/main.go is a few lines:
//
//	package main
//
//	import (
//		"github.com/argosgo/argos/argoscli"
//
//		_ "example.com/mybots/controllers/wander"     // your controllers
//		_ "example.com/mybots/loop_functions/counter" // your loop functions
//		_ "github.com/argosgo/argos/controllers/examples" // ARGoS's examples, if you want them
//	)
//
//	func main() { argoscli.Main() }
//
// The binary links the physics engines, media, visualizations and
// devices of the simulator, and only the controllers and loop functions
// its main imports.
//
// Usage, with flags following ARGoS 3 where they make sense:
//
//	argos -c FILE.argos [-z] [--seed N] [--threads N] [--length S] [--viz web] [--out DIR] ...
//	argos -q NAME|all          describe registered controllers, devices, entities, ...
//	argos plot RUN_DIR         draw the metrics of a run folder
//	argos bench [flags]        the scalability matrix
//	argos bench-late -c FILE   a late window of ticks against the first, in turns
//	argos new project|controller|behavior|loop-functions ...
//	argos emulate -c FILE -robot ID -b BOARD
//	argos robot build|deploy|check --model MODEL
//
// The exit status is 0 on success, 1 on any error (one message on stderr),
// 130 when interrupted by a signal (partial results are flushed).
//
// A run (a robot arena or a grid world) whose heap is 256 MiB or more once
// set up gets Go's soft memory limit (runtime/debug.SetMemoryLimit) at 1.5
// times that heap plus 128 MiB, unless GOMEMLIMIT is set: a million robots
// then peak well below the twice-the-live-heap the collector's default
// pace allows.
// --memory-limit off or --memory-limit SIZE (2200MiB) overrides it; the
// simulator library itself never changes the limit.
//
// On Linux the simulator asks the kernel to back a large arena's
// per-robot memory with 2 MiB pages (transparent huge pages): set-up
// then takes some 20 times fewer page faults and the ticks fewer TLB
// misses. ARGOS_HUGEPAGES=off in the environment turns that off.
package argoscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/record"
	"github.com/sirupsen/logrus"

	// The simulator's own plug-ins: every argos binary has them.
	_ "github.com/argosgo/argos/simulator/loop"
	_ "github.com/argosgo/argos/simulator/physics/custom"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/physics/kinematics2d"
	_ "github.com/argosgo/argos/simulator/physics/pointmass3d"
	_ "github.com/argosgo/argos/simulator/render/frames"
	_ "github.com/argosgo/argos/simulator/render/text"
	_ "github.com/argosgo/argos/simulator/render/web"
)

// Main runs the argos command with the process's arguments and exits
// with its status.
func Main() {
	os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
}

// subcommands are the commands after argos: argos bench, argos plot, ...
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{
	"bench":      runBench,
	"bench-late": runBenchLate,
	"new":        runNew,
	"plot":       runPlot,
	"emulate":    runEmulate,
	"robot":      runRobot,
	"sweep":      runSweep,
	"irace":      runIrace,
}

// errInterrupted marks a run stopped by a signal.
var errInterrupted = errors.New("interrupted")

// Run runs the argos command with args (without the program name),
// writing to stdout and stderr, and returns the exit status.
func Run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "argos: internal error: %v\n%s\nThis is a bug in argos; please report it with the experiment file.\n", r, debug.Stack())
			code = 2
		}
	}()
	if err := registryErr(); err != nil {
		fmt.Fprintf(stderr, "argos: %v\n", err)
		return 1
	}
	if len(args) > 0 {
		if sub, ok := subcommands[args[0]]; ok {
			return sub(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("argos", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		file, query, logFile, logLevel string
		headless                       bool
		seed                           seedFlag
		threads                        int
		length                         float64
	)
	fs.StringVar(&file, "c", "", "experiment `file` (.argos) to run")
	fs.StringVar(&file, "config-file", "", "same as -c")
	fs.BoolVar(&headless, "z", false, "run headless: skip interactive visualizations")
	fs.BoolVar(&headless, "no-visualization", false, "same as -z")
	fs.StringVar(&query, "q", "", "describe the registered thing `NAME`, or all of them")
	fs.StringVar(&query, "query", "", "same as -q")
	fs.Var(&seed, "seed", "random seed (overrides <experiment random_seed>)")
	fs.IntVar(&threads, "threads", -1, "worker goroutines (overrides <system threads>)")
	fs.Float64Var(&length, "length", 0, "simulated `seconds` to run, 0 for no limit (overrides <experiment length>)")
	fs.StringVar(&logFile, "l", "", "write the log to `file`")
	fs.StringVar(&logFile, "log-file", "", "same as -l")
	fs.StringVar(&logLevel, "log-level", "info", "log `level`: debug, info, warn, error")
	outs := &outputs{args: append([]string{"argos"}, args...), stderr: stderr}
	outs.register(fs)
	fs.StringVar(&outs.memoryLimit, "memory-limit", "auto", "Go's soft memory `limit` for the run: auto (unless GOMEMLIMIT is set, 1.5 x the heap after set-up + 128 MiB when that heap is 256 MiB or more), off, or a size such as 2200MiB")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: argos -c FILE.argos [-z] [--seed N] [--threads N] [--length S] [--viz web] [--out DIR] [--frames DIR] [--video FILE.mp4]\n       argos -q NAME|all\n       argos plot RUN_DIR\n       argos bench [flags]\n       argos bench-late -c FILE.argos [--late S] [--window S]\n       argos new project|controller|behavior|loop-functions ...\n       argos emulate -c FILE -robot ID -b BOARD\n       argos robot build|deploy|check --model MODEL\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return exitOf(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "argos: unexpected argument %q; give the experiment with -c FILE.argos\n", fs.Arg(0))
		return 1
	}
	if query != "" {
		if err := describe(stdout, query); err != nil {
			fmt.Fprintf(stderr, "argos: %v\n", err)
			return 1
		}
		return 0
	}
	if file == "" {
		fmt.Fprintln(stderr, "argos: no experiment given; run argos -c FILE.argos (or argos -q all to list what is available)")
		return 1
	}
	if err := outs.check(headless); err != nil {
		fmt.Fprintf(stderr, "argos: %v\n", err)
		return 1
	}
	log := logrus.New()
	log.SetOutput(stderr)
	lvl, err := logrus.ParseLevel(logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "argos: --log-level %q: use debug, info, warn or error\n", logLevel)
		return 1
	}
	log.SetLevel(lvl)
	if logFile != "" {
		f, err := os.Create(logFile)
		if err != nil {
			fmt.Fprintf(stderr, "argos: cannot create log file: %v\n", err)
			return 1
		}
		defer f.Close()
		log.SetOutput(f)
		outs.logFile = f
	}
	opt := simulator.Options{Logger: log, Headless: headless, SerialBelow: simulator.SmallSwarm}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	outs.vizAddrSet = set["viz-addr"]
	if set["seed"] {
		v := uint64(seed)
		opt.Seed = &v
	}
	if set["threads"] {
		if threads < 0 || threads > config.MaxThreads {
			fmt.Fprintf(stderr, "argos: --threads %d: give 0 (everything on one goroutine) to %d\n", threads, config.MaxThreads)
			return 1
		}
		opt.Threads = &threads
	}
	if _, err := softLimit(outs.memoryLimit, "", false, 0); err != nil {
		fmt.Fprintf(stderr, "argos: %v\n", err)
		return 1
	}
	if set["length"] {
		if length < 0 || math.IsNaN(length) || math.IsInf(length, 0) {
			fmt.Fprintf(stderr, "argos: --length %g: give simulated seconds, or 0 for no limit\n", length)
			return 1
		}
		outs.length = &length
	}
	return runUntilDone(file, opt, log, outs, stderr)
}

// parseFlags parses args into fs. A mistake is answered with one line
// (the flag package would add the whole usage); -h prints the usage.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	fs.Usage = usage
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.Usage()
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v; run %s -h for the flags\n", fs.Name(), err, fs.Name())
	}
	return err
}

// seedFlag is --seed: a random seed, 0 to 2^64-1.
type seedFlag uint64

func (s *seedFlag) String() string { return strconv.FormatUint(uint64(*s), 10) }

func (s *seedFlag) Set(v string) error {
	u, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return errors.New("write the seed as an integer from 0 to 18446744073709551615, like 7 (0 picks one at random)")
	}
	*s = seedFlag(u)
	return nil
}

func runExperiment(ctx context.Context, file string, opt simulator.Options, log *logrus.Logger, outs *outputs) (err error) {
	if isGridExperiment(file) {
		return runGrid(ctx, file, opt, log, outs)
	}
	start := time.Now()
	exp, err := config.Load(file)
	if err != nil {
		return err
	}
	if outs.length != nil {
		tps := float64(exp.Framework.TicksPerSecond)
		switch ticks := math.Round(*outs.length * tps); {
		case *outs.length > 0 && ticks < 1:
			return fmt.Errorf("--length %g is shorter than one tick (%g s at ticks_per_second=%d); give 0 for no limit or at least %g",
				*outs.length, 1/tps, exp.Framework.TicksPerSecond, 1/tps)
		case ticks > 1<<53:
			return fmt.Errorf("--length %g would last more than 2^53 ticks; give fewer seconds, or 0 for no limit", *outs.length)
		}
		exp.Framework.Length = *outs.length
	}
	ro, err := outs.prepare(exp, &opt, log)
	if err != nil {
		return err
	}
	sim, err := simulator.NewContext(ctx, exp, opt)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = errInterrupted
	}
	if err != nil {
		if ro.folder != nil {
			log.Error(err)
		}
		if ro.logF != nil {
			ro.logF.Close()
		}
		return err
	}
	closed := false
	defer func() {
		if !closed {
			sim.Close()
		}
	}()
	data, err := config.ReadFile(file)
	if err != nil {
		return err
	}
	if err := outs.attach(ro, sim, file, data, record.Overrides{Threads: opt.Threads, Length: outs.length}); err != nil {
		return err
	}
	setup := time.Since(start)
	if err := setSoftLimit(outs, log); err != nil {
		return err
	}
	log.Infof("%s: %d robots, %d engines, %d threads, seed %d; set-up took %.3f s",
		file, sim.NumRobots(), len(sim.Engines()), sim.Threads(), sim.Seed(), setup.Seconds())
	loopStart := time.Now()
	err = sim.Execute(ctx)
	wall := time.Since(loopStart).Seconds()
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		err = errInterrupted
	}
	closed = true
	if cerr := sim.Close(); err == nil && cerr != nil {
		err = cerr
	}
	simTime := float64(sim.Tick()) * sim.TickLength()
	log.Infof("ran %d ticks (%.1f s simulated) in %.3f s: %.2fx real time", sim.Tick(), simTime, wall, simTime/max(wall, 1e-9))
	stopped := ctx.Err() != nil && !sim.Finished()
	if ferr := outs.finish(ro, sim, err, stopped, log); err == nil && ferr != nil {
		err = ferr
	}
	return err
}

// runUntilDone runs the experiment until it ends or Ctrl-C (SIGINT or
// SIGTERM) interrupts it, and returns the exit status: 0, 1 for an error,
// 130 when interrupted (what was done is written).
func runUntilDone(file string, opt simulator.Options, log *logrus.Logger, outs *outputs, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := runExperiment(ctx, file, opt, log, outs); err != nil {
		if errors.Is(err, errInterrupted) {
			fmt.Fprintln(stderr, "argos: interrupted; results of the ticks done are written")
			return 130
		}
		fmt.Fprintf(stderr, "argos: %v\n", err)
		return 1
	}
	return 0
}
