package argoscli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// benchConfig is one cell of the scalability matrix.
type benchConfig struct {
	robots, threads, engines int
	engine                   string
	// scale multiplies every length of the arena; 1 is the 40 m arena of
	// docs/benchmarks.md.
	scale float64
}

func (c benchConfig) String() string {
	return fmt.Sprintf("%s robots=%d engines=%d threads=%d arena=%.0fm", c.engine, c.robots, c.engines, c.threads, 40*c.scale)
}

// benchResult is what one run printed.
type benchResult struct {
	setup, wall, cpu, stepsPerS, rtf, maxRSSMB float64
	// cpuPerStep is the CPU nanoseconds (all threads) per robot-step:
	// what a loaded, shared machine changes least.
	cpuPerStep float64
	// windows is the lists of mean wall and CPU ms per tick of
	// BENCH_WINDOWS, if any.
	windows string
}

// runBench implements `argos bench`: it runs the scalability experiment of
// docs/benchmarks.md for every combination asked, several times each, each run
// in a fresh process, and prints a table of medians.
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	robots := fs.String("robots", "1000,10000", "robot counts, comma-separated")
	threads := fs.String("threads", "0,2", "thread counts")
	engines := fs.String("engines", "1,4", "numbers of engines (1, or 4 quadrants)")
	engine := fs.String("engine", "dynamics2d,kinematics2d", "engine types")
	density := fs.String("density", "constant", "constant: scale the arena with the robot count to the density of 10,000 robots in 40 m; fixed: always the 40 m arena")
	runs := fs.Int("runs", 3, "runs per configuration (the table shows medians)")
	seconds := fs.Float64("length", 60, "simulated seconds per run")
	keep := fs.String("keep", "", "write the generated experiment files to this directory")
	window := fs.Float64("window", 0, "also print the mean wall ms per tick of every window of this many simulated seconds (60: minute 1 against minute 10)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the ticks (set-up excluded) of each configuration's last run to this file (with more than one configuration, its number is added before the extension)")
	memProfile := fs.String("memprofile", "", "write a heap profile at the end of each configuration's last run to this file (numbered as --cpuprofile)")
	memoryLimit := fs.String("memory-limit", "auto", "each run's Go soft memory limit (argos --memory-limit): auto, off or a size such as 2200MiB")
	late := fs.Float64("late", 0, "instead of timing whole runs, compare the ticks of the window (--window, default 60) starting at this simulated second with those of the first window, run in turns in one process (argos bench-late); the runs last late + window")
	setupProfile := fs.String("setupprofile", "", "after each configuration's runs, build its experiment once more in this process (reading the file to the first tick) and write a CPU profile of that set-up to this file (numbered as --cpuprofile)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: argos bench [flags]\n\nRuns the scalability matrix and prints median loop seconds, robot-steps/s,\nreal-time factor, CPU usage (CPU s / wall s) and peak memory.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitOf(err)
	}
	var cfgs []benchConfig
	rs, err1 := ints(*robots)
	ts, err2 := ints(*threads)
	es, err3 := ints(*engines)
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			fmt.Fprintf(stderr, "argos bench: %v\n", err)
			return 1
		}
	}
	if *window < 0 {
		fmt.Fprintf(stderr, "argos bench: --window %g: give simulated seconds, 0 for none\n", *window)
		return 1
	}
	if _, err := softLimit(*memoryLimit, "", false, 0); err != nil {
		fmt.Fprintf(stderr, "argos bench: %v\n", err)
		return 1
	}
	if *late != 0 {
		if *window == 0 {
			*window = 60
		}
		if !(*late >= *window) {
			fmt.Fprintf(stderr, "argos bench: --late %g: give simulated seconds from the window's length (%g) on\n", *late, *window)
			return 1
		}
		*seconds = *late + *window
	}
	if *density != "constant" && *density != "fixed" {
		fmt.Fprintf(stderr, "argos bench: --density %q: use constant or fixed\n", *density)
		return 1
	}
	for _, typ := range strings.Split(*engine, ",") {
		if typ != "dynamics2d" && typ != "kinematics2d" {
			fmt.Fprintf(stderr, "argos bench: --engine %q: use dynamics2d, kinematics2d or both\n", typ)
			return 1
		}
		for _, r := range rs {
			for _, e := range es {
				if e != 1 && e != 4 {
					fmt.Fprintf(stderr, "argos bench: --engines %d: use 1 or 4\n", e)
					return 1
				}
				for _, t := range ts {
					scale := 1.0
					if *density == "constant" {
						scale = math.Sqrt(float64(r) / 10000)
					}
					cfgs = append(cfgs, benchConfig{robots: r, threads: t, engines: e, engine: typ, scale: scale})
				}
			}
		}
	}
	// The benchmark runs ARGoS's e-puck diffusion controller: this binary
	// must link it.
	if _, err := ci.Controllers.Lookup(benchController); err != nil {
		fmt.Fprintf(stderr, "argos bench: this argos does not link %s; import github.com/argosgo/argos/controllers/examples (or controllers/diffusion) in its main\n", benchController)
		return 1
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "argos bench: cannot find my own binary: %v\n", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "argos-bench")
	if err != nil {
		fmt.Fprintf(stderr, "argos bench: %v\n", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if *late > 0 {
		return benchLateRuns(self, cfgs, dir, *runs, lateOptions{late: *late, window: *window, block: 20, cpuProfile: *cpuProfile, memoryLimit: *memoryLimit}, *keep, stdout, stderr)
	}
	fmt.Fprintf(stdout, "argos bench: %d configurations x %d runs, %.0f simulated seconds each\n", len(cfgs), *runs, *seconds)
	const row = "%-12s %7s %7s %7s %7s %8s %8s %13s %8s %7s %11s %10s\n"
	fmt.Fprintf(stdout, row, "engine", "robots", "engines", "threads", "arena_m", "setup_s", "loop_s", "robot_steps/s", "rtf", "cpu_use", "cpu_ns/step", "max_rss_MB")
	for i, c := range cfgs {
		opts := benchOptions{window: *window}
		name := filepath.Join(dir, fmt.Sprintf("bench_%d.argos", i))
		if err := os.WriteFile(name, []byte(benchExperiment(c, *seconds, opts)), 0o644); err != nil {
			fmt.Fprintf(stderr, "argos bench: %v\n", err)
			return 1
		}
		if *keep != "" {
			_ = os.WriteFile(filepath.Join(*keep, fmt.Sprintf("bench_%s_%d_e%d_t%d.argos", c.engine, c.robots, c.engines, c.threads)), []byte(benchExperiment(c, *seconds, opts)), 0o644)
		}
		// The last run, if asked, profiles: its file differs by the
		// profile attributes only.
		profiled := name
		if *cpuProfile != "" || *memProfile != "" {
			opts.cpuProfile, opts.memProfile = profileName(*cpuProfile, i, len(cfgs)), profileName(*memProfile, i, len(cfgs))
			profiled = filepath.Join(dir, fmt.Sprintf("bench_%d_profiled.argos", i))
			if err := os.WriteFile(profiled, []byte(benchExperiment(c, *seconds, opts)), 0o644); err != nil {
				fmt.Fprintf(stderr, "argos bench: %v\n", err)
				return 1
			}
		}
		var results []benchResult
		for r := 0; r < *runs; r++ {
			file := name
			if r == *runs-1 {
				file = profiled
			}
			res, err := benchOnce(self, file, dir, *memoryLimit)
			if err != nil {
				fmt.Fprintf(stderr, "argos bench: %s: %v\n", c, err)
				return 1
			}
			results = append(results, res)
		}
		if *setupProfile != "" {
			if err := profileSetup(name, profileName(*setupProfile, i, len(cfgs))); err != nil {
				fmt.Fprintf(stderr, "argos bench: %s: --setupprofile: %v\n", c, err)
				return 1
			}
		}
		m := median(results)
		fmt.Fprintf(stdout, row, c.engine, strconv.Itoa(c.robots), strconv.Itoa(c.engines), strconv.Itoa(c.threads),
			fmt.Sprintf("%.0f", 40*c.scale), fmt.Sprintf("%.2f", m.setup), fmt.Sprintf("%.2f", m.wall),
			fmt.Sprintf("%.0f", m.stepsPerS), fmt.Sprintf("%.3f", m.rtf), fmt.Sprintf("%.2f", m.cpu/m.wall), fmt.Sprintf("%.0f", m.cpuPerStep), fmt.Sprintf("%.0f", m.maxRSSMB))
		if *window > 0 {
			for r, res := range results {
				fmt.Fprintf(stdout, "  run %d: wall ms per tick in each %g s window: %s\n", r+1, *window, res.windows)
			}
		}
	}
	return 0
}

// profileSetup writes to out a CPU profile of the set-up of the experiment
// file, from reading it to the first tick, made in this process; the
// simulator is closed without running.
func profileSetup(file, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("give a writable path: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("cannot start the CPU profile: %w", err)
	}
	exp, err := config.Load(file)
	var sim *simulator.Simulator
	if err == nil {
		sim, err = simulator.New(exp, simulator.Options{Headless: true})
	}
	pprof.StopCPUProfile()
	if sim != nil {
		err = errors.Join(err, sim.Close())
	}
	return errors.Join(err, f.Close())
}

// benchOptions are what the generated experiment's loop functions measure
// besides the BENCH line.
type benchOptions struct {
	window                 float64
	cpuProfile, memProfile string
}

// profileName returns the profile file of configuration i of n: file
// itself for one configuration, else file with i before its extension. The
// path is made absolute, since the runs work in a temporary directory.
func profileName(file string, i, n int) string {
	if file == "" {
		return ""
	}
	if n > 1 {
		ext := filepath.Ext(file)
		file = fmt.Sprintf("%s_%d%s", strings.TrimSuffix(file, ext), i, ext)
	}
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	return file
}

var (
	benchRe  = regexp.MustCompile(`BENCH robots=\d+ steps=\d+ loop_wall_s=([\d.]+) loop_cpu_s=([\d.]+) robot_steps_per_s=([\d.]+) rtf=([\d.]+)`)
	setupRe  = regexp.MustCompile(`set-up took ([\d.]+) s`)
	windowRe = regexp.MustCompile(`BENCH_WINDOWS window_s=[\d.e+-]+ ms_per_tick=([\d.,]*) cpu_ms_per_tick=([\d.,]*)`)
)

// benchController is the controller of the benchmark's robots.
const benchController = "epuck_diffusion_controller"

func benchOnce(self, file, dir, memoryLimit string) (benchResult, error) {
	cmd := exec.Command(self, "-z", "-c", file, "--memory-limit", memoryLimit)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stderr = &out
	if err := cmd.Run(); err != nil {
		return benchResult{}, fmt.Errorf("%v: %s", err, lastLine(out.String()))
	}
	m := benchRe.FindStringSubmatch(out.String())
	s := setupRe.FindStringSubmatch(out.String())
	if m == nil || s == nil {
		return benchResult{}, fmt.Errorf("no BENCH line in the output: %s", lastLine(out.String()))
	}
	var r benchResult
	r.wall, _ = strconv.ParseFloat(m[1], 64)
	r.cpu, _ = strconv.ParseFloat(m[2], 64)
	r.stepsPerS, _ = strconv.ParseFloat(m[3], 64)
	r.rtf, _ = strconv.ParseFloat(m[4], 64)
	r.setup, _ = strconv.ParseFloat(s[1], 64)
	if r.stepsPerS > 0 {
		r.cpuPerStep = r.cpu / (r.stepsPerS * r.wall) * 1e9
	}
	if w := windowRe.FindStringSubmatch(out.String()); w != nil {
		r.windows = w[1] + "; CPU ms per tick: " + w[2]
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSSMB = float64(ru.Maxrss) / 1024 // kilobytes on Linux
	}
	return r, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// median takes the median of every column separately.
func median(rs []benchResult) benchResult {
	col := func(get func(benchResult) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = get(r)
		}
		return medianOf(v)
	}
	return benchResult{
		setup:      col(func(r benchResult) float64 { return r.setup }),
		wall:       col(func(r benchResult) float64 { return r.wall }),
		cpu:        col(func(r benchResult) float64 { return r.cpu }),
		stepsPerS:  col(func(r benchResult) float64 { return r.stepsPerS }),
		rtf:        col(func(r benchResult) float64 { return r.rtf }),
		maxRSSMB:   col(func(r benchResult) float64 { return r.maxRSSMB }),
		cpuPerStep: col(func(r benchResult) float64 { return r.cpuPerStep }),
	}
}

// benchLoopAttrs returns the attributes of bench_loop_functions for o.
func benchLoopAttrs(o benchOptions) string {
	var b strings.Builder
	if o.window > 0 {
		fmt.Fprintf(&b, " window=\"%g\"", o.window)
	}
	for _, a := range [][2]string{{"cpuprofile", o.cpuProfile}, {"memprofile", o.memProfile}} {
		if a[1] != "" {
			fmt.Fprintf(&b, " %s=\"%s\"", a[0], html.EscapeString(a[1]))
		}
	}
	return b.String()
}

// medianOf returns the median of v (not empty), leaving v as it was.
func medianOf(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%q is not a list of non-negative integers", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// benchExperiment writes the scalability experiment of docs/benchmarks.md
// (the layout of experiments/scalability/*.argos: a walled 40 m square cut
// into rooms by inner walls with gaps) with every length multiplied by
// c.scale.
func benchExperiment(c benchConfig, seconds float64, o benchOptions) string {
	s := c.scale
	var b strings.Builder
	f := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	f(`<?xml version="1.0" ?>
<!-- Generated by argos bench: %s -->
<argos-configuration>
  <framework>
    <system threads="%d" />
    <experiment length="%g" ticks_per_second="10" random_seed="124" />
  </framework>
  <controllers>
    <epuck_diffusion_controller id="edc">
      <actuators><differential_steering implementation="default" /></actuators>
      <sensors><epuck_proximity implementation="default" /></sensors>
      <params alpha="7.5" delta="0.1" velocity="5" />
    </epuck_diffusion_controller>
  </controllers>
  <loop_functions label="bench_loop_functions"%s />
  <arena size="%g, %g, 1" center="0,0,0.5">
`, c, c.threads, seconds, benchLoopAttrs(o), 41*s, 41*s)
	wall := func(id string, x, y, sx, sy float64) {
		f("    <box id=%q size=\"%g,%g,0.5\" movable=\"false\"><body position=\"%g,%g,0\" orientation=\"0,0,0\" /></box>\n",
			id, sx*s, sy*s, x*s, y*s)
	}
	// outer walls, two segments per side, and eight inner walls leaving
	// doors in the middle of each quadrant side
	for _, w := range [][5]any{
		{"wall_sw", -10.0, -20.0, 20.0, 0.1}, {"wall_ws", -20.0, -10.0, 0.1, 20.0},
		{"wall_se", 10.0, -20.0, 20.0, 0.1}, {"wall_wn", -20.0, 10.0, 0.1, 20.0},
		{"wall_nw", -10.0, 20.0, 20.0, 0.1}, {"wall_es", 20.0, -10.0, 0.1, 20.0},
		{"wall_ne", 10.0, 20.0, 20.0, 0.1}, {"wall_en", 20.0, 10.0, 0.1, 20.0},
		{"iwall_v_m_in", 0.0, -4.5, 0.1, 9.0}, {"iwall_h_m_in", -4.5, 0.0, 9.0, 0.1},
		{"iwall_v_m_out", 0.0, -15.5, 0.1, 9.0}, {"iwall_h_m_out", -15.5, 0.0, 9.0, 0.1},
		{"iwall_v_p_in", 0.0, 4.5, 0.1, 9.0}, {"iwall_h_p_in", 4.5, 0.0, 9.0, 0.1},
		{"iwall_v_p_out", 0.0, 15.5, 0.1, 9.0}, {"iwall_h_p_out", 15.5, 0.0, 9.0, 0.1},
	} {
		sx, sy := w[3].(float64), w[4].(float64)
		// thicknesses stay 0.1 m whatever the scale
		if sx == 0.1 {
			sx = 0.1 / s
		}
		if sy == 0.1 {
			sy = 0.1 / s
		}
		wall(w[0].(string), w[1].(float64), w[2].(float64), sx, sy)
	}
	f(`    <distribute>
      <position method="uniform" min="%g,%g,0" max="%g,%g,0" />
      <orientation method="uniform" min="0,0,0" max="360,0,0" />
      <entity quantity="%d" max_trials="100">
        <e-puck id="ep"><controller config="edc" /></e-puck>
      </entity>
    </distribute>
  </arena>
  <physics_engines>
`, -19.9*s, -19.9*s, 19.9*s, 19.9*s, c.robots)
	if c.engines == 1 {
		f("    <%s id=\"e0\" />\n", c.engine)
	} else {
		h := 21 * s
		quads := [4][4]float64{{0, 0, h, h}, {-h, 0, 0, h}, {-h, -h, 0, 0}, {0, -h, h, 0}}
		for i, q := range quads {
			f(`    <%s id="e%d">
      <boundaries>
        <top height="1.0" /><bottom height="0.0" />
        <sides>
          <vertex point="%g,%g" /><vertex point="%g,%g" /><vertex point="%g,%g" /><vertex point="%g,%g" />
        </sides>
      </boundaries>
    </%s>
`, c.engine, i, q[0], q[1], q[2], q[1], q[2], q[3], q[0], q[3], c.engine)
		}
	}
	f("  </physics_engines>\n  <media />\n</argos-configuration>\n")
	return b.String()
}
