package loop

import (
	"fmt"
	"os"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

func init() {
	simulator.LoopFunctionsTypes.MustRegister("bench_loop_functions",
		"Measures the scalability benchmark (docs/benchmarks.md): right before the first tick it records every e-puck's position, "+
			"the wall clock and the process CPU time; after the experiment it prints one BENCH line to stderr and appends it "+
			"to the file of attribute output (optional).",
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
	// Stderr receives the BENCH line; nil means os.Stderr.
	Stderr interface{ Write([]byte) (int, error) }
	// Line is the last BENCH line written.
	Line string
}

// NewBench returns bench loop functions.
func NewBench() *Bench { return &Bench{} }

// Init implements simulator.LoopFunctions.
func (b *Bench) Init(sim *simulator.Simulator, n *config.Node) error {
	if err := n.CheckAttrs("label", "library", "output"); err != nil {
		return err
	}
	b.sim = sim
	b.output = n.StringOr("output", "")
	b.robots, b.start = b.robots[:0], b.start[:0]
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
	b.cpu = processCPU()
	return nil
}

// PostStep implements simulator.LoopFunctions.
func (b *Bench) PostStep() { b.steps++ }

// PostExperiment implements simulator.LoopFunctions.
func (b *Bench) PostExperiment() {
	wall := time.Since(b.wall).Seconds()
	cpu := (processCPU() - b.cpu).Seconds()
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
	if b.output == "" {
		return
	}
	f, err := os.OpenFile(b.output, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = fmt.Fprintln(f, b.Line)
		err = joinClose(err, f)
	}
	if err != nil {
		b.sim.Logger().Errorf("bench_loop_functions: cannot append to output %q: %v", b.output, err)
	}
}

func joinClose(err error, f *os.File) error {
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
