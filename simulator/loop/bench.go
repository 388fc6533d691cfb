package loop

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

func init() {
	simulator.LoopFunctionsTypes.MustRegister("bench_loop_functions",
		"Measures the scalability benchmark (docs/benchmarks.md): right before the first tick it records every e-puck's position, "+
			"the wall clock and the process CPU time; after the experiment it prints one BENCH line to stderr and appends it "+
			"to the file of attribute output (optional). Optional: window (simulated seconds; adds a BENCH_WINDOWS line with the mean "+
			"wall and CPU milliseconds per tick of every window, to compare minute 1 with minute 10), cpuprofile and memprofile (files: a CPU "+
			"profile of the ticks, a heap profile at the end).",
		func() simulator.LoopFunctions { return NewBench() })
}

// Bench is the bench_loop_functions loop functions.
type Bench struct {
	simulator.LoopFunctionsBase
	sim    *simulator.Simulator
	output string
	start  []ci.Vector2
	robots []int
	wall   time.Time
	cpu    time.Duration
	steps  int
	// window is the number of ticks per window of BENCH_WINDOWS (0: no
	// windows); winWall and winCPU are when the current window started
	// (wall clock and process CPU time), perTick and cpuPerTick the mean
	// wall and CPU milliseconds per tick of the windows done.
	window     int
	winWall    time.Time
	winCPU     time.Duration
	perTick    []float64
	cpuPerTick []float64
	cpuProf    *os.File
	memProf    string
	// Stderr receives the BENCH line; nil means os.Stderr.
	Stderr interface{ Write([]byte) (int, error) }
	// Line is the last BENCH line written.
	Line string
	// Windows is the last BENCH_WINDOWS line written, if any.
	Windows string
}

// NewBench returns bench loop functions.
func NewBench() *Bench { return &Bench{} }

// Init implements simulator.LoopFunctions.
func (b *Bench) Init(sim *simulator.Simulator, n *config.Node) error {
	if err := n.CheckAttrs("label", "library", "output", "window", "cpuprofile", "memprofile"); err != nil {
		return err
	}
	b.sim = sim
	b.output = n.StringOr("output", "")
	b.window = 0
	if n.Has("window") {
		w, err := n.Float("window")
		if err != nil {
			return err
		}
		ticks := int(w/sim.TickLength() + 0.5)
		if ticks < 1 {
			return n.Errorf("bench_loop_functions: window=\"%g\" is shorter than a tick (%g s); give a window of simulated seconds of at least one tick", w, sim.TickLength())
		}
		b.window = ticks
	}
	b.perTick, b.cpuPerTick = b.perTick[:0], b.cpuPerTick[:0]
	b.memProf = n.StringOr("memprofile", "")
	if f := n.StringOr("cpuprofile", ""); f != "" {
		out, err := os.Create(f)
		if err != nil {
			return n.Errorf("bench_loop_functions: cannot create cpuprofile %q: %v; give a writable path", f, err)
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			out.Close()
			return n.Errorf("bench_loop_functions: cannot start the CPU profile: %v (is another profile running?)", err)
		}
		b.cpuProf = out
	}
	b.robots, b.start = slices.Grow(b.robots[:0], sim.NumRobots()), slices.Grow(b.start[:0], sim.NumRobots())
	for i := 0; i < sim.NumRobots(); i++ {
		r := sim.Robot(i)
		if r.Model.Type != "e-puck" {
			continue
		}
		b.robots = append(b.robots, i)
		b.start = append(b.start, r.B().Pos)
	}
	b.steps = 0
	b.wall = time.Now()
	b.winWall = b.wall
	b.cpu = ProcessCPU()
	b.winCPU = b.cpu
	return nil
}

// PostStep implements simulator.LoopFunctions.
func (b *Bench) PostStep() {
	b.steps++
	if b.window > 0 && b.steps%b.window == 0 {
		now, cpu := time.Now(), ProcessCPU()
		b.perTick = append(b.perTick, float64(now.Sub(b.winWall).Nanoseconds())/1e6/float64(b.window))
		b.cpuPerTick = append(b.cpuPerTick, float64((cpu-b.winCPU).Nanoseconds())/1e6/float64(b.window))
		b.winWall, b.winCPU = now, cpu
	}
}

// PostExperiment implements simulator.LoopFunctions.
func (b *Bench) PostExperiment() {
	wall := time.Since(b.wall).Seconds()
	cpu := (ProcessCPU() - b.cpu).Seconds()
	b.stopProfiles()
	disp := 0.0
	for k, i := range b.robots {
		disp += b.sim.Robot(i).B().Pos.Sub(b.start[k]).Length()
	}
	if len(b.robots) > 0 {
		disp /= float64(len(b.robots))
	}
	n, s := len(b.robots), b.steps
	b.Line = fmt.Sprintf("BENCH robots=%d steps=%d loop_wall_s=%.3f loop_cpu_s=%.3f robot_steps_per_s=%.0f rtf=%.3f mean_disp_m=%.4f",
		n, s, wall, cpu, float64(n*s)/wall, float64(s)*b.sim.TickLength()/wall, disp)
	var w interface{ Write([]byte) (int, error) } = os.Stderr
	if b.Stderr != nil {
		w = b.Stderr
	}
	fmt.Fprintln(w, b.Line)
	lines := b.Line + "\n"
	b.Windows = ""
	if b.window > 0 {
		list := func(v []float64) string {
			ms := make([]string, len(v))
			for i, x := range v {
				ms[i] = fmt.Sprintf("%.3f", x)
			}
			return strings.Join(ms, ",")
		}
		b.Windows = fmt.Sprintf("BENCH_WINDOWS window_s=%g ms_per_tick=%s cpu_ms_per_tick=%s",
			float64(b.window)*b.sim.TickLength(), list(b.perTick), list(b.cpuPerTick))
		fmt.Fprintln(w, b.Windows)
		lines += b.Windows + "\n"
	}
	if b.output == "" {
		return
	}
	f, err := os.OpenFile(b.output, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = f.WriteString(lines)
		err = joinClose(err, f)
	}
	if err != nil {
		b.sim.Logger().Errorf("bench_loop_functions: cannot append to output %q: %v", b.output, err)
	}
}

// stopProfiles ends the CPU profile and writes the heap profile, if asked.
func (b *Bench) stopProfiles() {
	if b.cpuProf != nil {
		pprof.StopCPUProfile()
		if err := b.cpuProf.Close(); err != nil {
			b.sim.Logger().Errorf("bench_loop_functions: cpuprofile: %v", err)
		}
		b.cpuProf = nil
	}
	if b.memProf != "" {
		runtime.GC()
		f, err := os.Create(b.memProf)
		if err == nil {
			err = joinClose(pprof.WriteHeapProfile(f), f)
		}
		if err != nil {
			b.sim.Logger().Errorf("bench_loop_functions: cannot write memprofile %q: %v", b.memProf, err)
		}
	}
}

func joinClose(err error, f *os.File) error {
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
