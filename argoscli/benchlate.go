package argoscli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/loop"
	"github.com/sirupsen/logrus"
)

// lateOptions say what `argos bench-late` compares: the ticks of the
// window that starts at simulated second late against those of the
// window that starts at 0, run in turns of block ticks.
type lateOptions struct {
	late, window float64
	block        int
	cpuProfile   string
	memoryLimit  string
	threads      *int
}

// lateResult is what an interleaved comparison measured: process CPU and
// wall milliseconds per tick of each window, and the median of the
// late/early CPU ratios of the turns run side by side.
type lateResult struct {
	ticks                  int // per window
	earlyCPU, lateCPU      float64
	earlyWall, lateWall    float64
	pairMedian             float64
	earlyEnd, lateEnd      int // the ticks the two simulators stopped at
	setup, catchUp         float64
	robots, threads, turns int
}

// ratio is the late window's CPU per tick over the early one's.
func (r lateResult) ratio() float64 { return r.lateCPU / r.earlyCPU }

func (r lateResult) line(o lateOptions) string {
	return fmt.Sprintf("BENCH_LATE robots=%d threads=%d window_s=%g late_s=%g ticks=%d early_cpu_ms_per_tick=%.3f late_cpu_ms_per_tick=%.3f "+
		"ratio=%.4f pair_median=%.4f early_wall_ms_per_tick=%.3f late_wall_ms_per_tick=%.3f catch_up_s=%.1f",
		r.robots, r.threads, o.window, o.late, r.ticks, r.earlyCPU, r.lateCPU, r.ratio(), r.pairMedian, r.earlyWall, r.lateWall, r.catchUp)
}

var lateRe = regexp.MustCompile(`BENCH_LATE .*early_cpu_ms_per_tick=([\d.]+) late_cpu_ms_per_tick=([\d.]+) ratio=([\d.]+) pair_median=([\d.]+)`)

// runBenchLate implements `argos bench-late`: whether the ticks of a long
// run keep their cost. Two windows of one run measured minutes apart in
// one process meet a machine that changed in between (other tenants, the
// host's memory); here two simulators of the same file run side by side
// in one process, one from tick 0 and one caught up first to the late
// window, and they run their windows in turns of a few ticks (early,
// late, late, early, ...), so both windows see the same machine.
func runBenchLate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos bench-late", flag.ContinueOnError)
	file := fs.String("c", "", "experiment `file` (.argos); its length must cover late + window")
	var o lateOptions
	fs.Float64Var(&o.late, "late", 540, "simulated `seconds` the late window starts at (540: minute 10)")
	fs.Float64Var(&o.window, "window", 60, "simulated `seconds` of each window")
	fs.IntVar(&o.block, "block", 20, "ticks each simulator runs in its turn")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of both windows to this `file`, its samples labelled window=early or window=late (go tool pprof -tagfocus window=late)")
	fs.StringVar(&o.memoryLimit, "memory-limit", "auto", "Go soft memory limit (argos --memory-limit): auto, off or a size")
	threads := fs.Int("threads", -1, "worker goroutines (overrides <system threads>)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: argos bench-late -c FILE [flags]\n\nCompares the CPU cost of a late window of ticks with the first window's, run in turns\nin one process, and prints a BENCH_LATE line.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return exitOf(err)
	}
	if *file == "" {
		fmt.Fprintln(stderr, "argos bench-late: give the experiment file with -c FILE")
		return 1
	}
	if *threads >= 0 {
		if *threads > config.MaxThreads {
			fmt.Fprintf(stderr, "argos bench-late: --threads %d: give 0 to %d\n", *threads, config.MaxThreads)
			return 1
		}
		o.threads = threads
	}
	res, err := benchLate(*file, o)
	if err != nil {
		fmt.Fprintf(stderr, "argos bench-late: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, res.line(o))
	return 0
}

// benchLate runs the interleaved comparison of runBenchLate.
func benchLate(file string, o lateOptions) (res lateResult, err error) {
	switch {
	case !(o.window > 0) || math.IsInf(o.window, 0):
		return res, fmt.Errorf("--window %g: give a positive number of simulated seconds", o.window)
	case !(o.late >= o.window) || math.IsInf(o.late, 0):
		return res, fmt.Errorf("--late %g: give simulated seconds from the window's length (%g) on, so that the windows do not overlap", o.late, o.window)
	case o.block < 1:
		return res, fmt.Errorf("--block %d: give at least one tick", o.block)
	}
	lim, err := softLimit(o.memoryLimit, "", false, 0)
	if err != nil {
		return res, err
	}
	start := time.Now()
	exp, err := config.Load(file)
	if err != nil {
		return res, err
	}
	tps := float64(exp.Framework.TicksPerSecond)
	res.ticks = int(math.Round(o.window * tps))
	lateTick := int(math.Round(o.late * tps))
	if res.ticks < 1 {
		return res, fmt.Errorf("--window %g is shorter than a tick (%g s)", o.window, 1/tps)
	}
	if l := exp.Framework.Length; l > 0 && int(math.Round(l*tps)) < lateTick+res.ticks {
		return res, fmt.Errorf("%s: <experiment length=\"%g\"> ends before the late window does (%g s); give a length of at least %g", file, l, o.late+o.window, o.late+o.window)
	}
	log := logrus.New()
	log.SetOutput(io.Discard)
	opt := simulator.Options{Logger: log, Headless: true, SerialBelow: simulator.SmallSwarm, Threads: o.threads}
	// Each simulator's workers are made in New, and inherit the label
	// of the goroutine that made them.
	ctx := context.Background()
	labels := [2]pprof.LabelSet{pprof.Labels("window", "early"), pprof.Labels("window", "late")}
	var sims [2]*simulator.Simulator
	defer func() {
		for _, s := range sims {
			if s != nil {
				err = errors.Join(err, s.Close())
			}
		}
	}()
	for i := range sims {
		exp, lerr := config.Load(file)
		if lerr != nil {
			return res, lerr
		}
		pprof.Do(ctx, labels[i], func(context.Context) { sims[i], err = simulator.New(exp, opt) })
		if err != nil {
			return res, err
		}
	}
	res.setup = time.Since(start).Seconds()
	res.robots, res.threads = sims[0].NumRobots(), sims[0].Threads()
	lim, err = softLimit(o.memoryLimit, "", false, heapInUse())
	if err != nil {
		return res, err
	}
	applySoftLimit(lim, log)
	step := func(i, n int) error {
		s := sims[i]
		for k := 0; k < n; k++ {
			if s.Finished() {
				return fmt.Errorf("%s: the experiment finished at tick %d, before the late window's end (tick %d); give a longer <experiment length> or loop functions that do not end it", file, s.Tick(), lateTick+res.ticks)
			}
			if err := s.Step(); err != nil {
				return err
			}
		}
		return nil
	}
	catch := time.Now()
	if pprof.Do(ctx, labels[1], func(context.Context) { err = step(1, lateTick) }); err != nil {
		return res, err
	}
	res.catchUp = time.Since(catch).Seconds()
	if o.cpuProfile != "" {
		f, ferr := os.Create(o.cpuProfile)
		if ferr != nil {
			return res, fmt.Errorf("--cpuprofile: %v; give a writable path", ferr)
		}
		if perr := pprof.StartCPUProfile(f); perr != nil {
			f.Close()
			return res, fmt.Errorf("--cpuprofile: cannot start the profile: %v", perr)
		}
		defer func() {
			pprof.StopCPUProfile()
			err = errors.Join(err, f.Close())
		}()
	}
	var cpu, wall [2]time.Duration
	var pairs []float64
	for done := 0; done < res.ticks; done += o.block {
		n := min(o.block, res.ticks-done)
		var turn [2]time.Duration
		order := [2]int{0, 1}
		if res.turns%2 == 1 {
			order = [2]int{1, 0}
		}
		for _, i := range order {
			c0, w0 := loop.ProcessCPU(), time.Now()
			pprof.Do(ctx, labels[i], func(context.Context) { err = step(i, n) })
			if err != nil {
				return res, err
			}
			turn[i] = loop.ProcessCPU() - c0
			cpu[i] += turn[i]
			wall[i] += time.Since(w0)
		}
		if turn[0] > 0 {
			pairs = append(pairs, float64(turn[1])/float64(turn[0]))
		}
		res.turns++
	}
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 / float64(res.ticks) }
	res.earlyCPU, res.lateCPU = ms(cpu[0]), ms(cpu[1])
	res.earlyWall, res.lateWall = ms(wall[0]), ms(wall[1])
	res.earlyEnd, res.lateEnd = sims[0].Tick(), sims[1].Tick()
	if len(pairs) > 0 {
		res.pairMedian = medianOf(pairs)
	}
	if res.earlyCPU <= 0 {
		return res, errors.New("the process CPU time did not advance: this system does not report it (getrusage)")
	}
	return res, nil
}

// parseLate reads the ratios of a BENCH_LATE line.
func parseLate(out string) (early, late, ratio, pairMedian float64, ok bool) {
	m := lateRe.FindStringSubmatch(out)
	if m == nil {
		return 0, 0, 0, 0, false
	}
	v := make([]float64, 4)
	for i := range v {
		var err error
		if v[i], err = strconv.ParseFloat(m[i+1], 64); err != nil {
			return 0, 0, 0, 0, false
		}
	}
	return v[0], v[1], v[2], v[3], true
}

// benchLateRuns implements argos bench --late: for every configuration,
// runs argos bench-late on its generated experiment in fresh processes
// and prints the medians of the early and late CPU per tick and of the
// ratios, and every run's.
func benchLateRuns(self string, cfgs []benchConfig, dir string, runs int, o lateOptions, keep string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "argos bench --late: %d configurations x %d runs; the %g s window from %g s against the first, in turns of %d ticks\n",
		len(cfgs), runs, o.window, o.late, o.block)
	const row = "%-12s %7s %7s %7s %14s %14s %11s %11s\n"
	fmt.Fprintf(stdout, row, "engine", "robots", "engines", "threads", "early_cpu_ms", "late_cpu_ms", "late/early", "pair_median")
	for i, c := range cfgs {
		text := benchExperiment(c, o.late+o.window, benchOptions{})
		name := filepath.Join(dir, fmt.Sprintf("bench_late_%d.argos", i))
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			fmt.Fprintf(stderr, "argos bench: %v\n", err)
			return 1
		}
		if keep != "" {
			_ = os.WriteFile(filepath.Join(keep, fmt.Sprintf("bench_%s_%d_e%d_t%d.argos", c.engine, c.robots, c.engines, c.threads)), []byte(text), 0o644)
		}
		var cols [4][]float64
		var each []string
		for r := 0; r < runs; r++ {
			args := []string{"bench-late", "-c", name, "--late", fmt.Sprint(o.late), "--window", fmt.Sprint(o.window), "--block", strconv.Itoa(o.block), "--memory-limit", o.memoryLimit}
			if r == runs-1 && o.cpuProfile != "" {
				args = append(args, "--cpuprofile", profileName(o.cpuProfile, i, len(cfgs)))
			}
			cmd := exec.Command(self, args...)
			cmd.Dir = dir
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				fmt.Fprintf(stderr, "argos bench: %s: %v: %s\n", c, err, lastLine(out.String()))
				return 1
			}
			early, late, ratio, pm, ok := parseLate(out.String())
			if !ok {
				fmt.Fprintf(stderr, "argos bench: %s: no BENCH_LATE line in the output: %s\n", c, lastLine(out.String()))
				return 1
			}
			for k, v := range []float64{early, late, ratio, pm} {
				cols[k] = append(cols[k], v)
			}
			each = append(each, fmt.Sprintf("%.3f", ratio))
		}
		fmt.Fprintf(stdout, row, c.engine, strconv.Itoa(c.robots), strconv.Itoa(c.engines), strconv.Itoa(c.threads),
			fmt.Sprintf("%.3f", medianOf(cols[0])), fmt.Sprintf("%.3f", medianOf(cols[1])), fmt.Sprintf("%.4f", medianOf(cols[2])), fmt.Sprintf("%.4f", medianOf(cols[3])))
		fmt.Fprintf(stdout, "  late/early of each run: %s\n", strings.Join(each, ", "))
	}
	return 0
}
