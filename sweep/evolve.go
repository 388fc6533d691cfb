package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/optimize"
)

// EvolveOptions set how an evolution runs.
type EvolveOptions struct {
	// Options are those of each generation's sweep; Out is the evolution's
	// folder, and generation g is the sweep folder Out/gen-00g.
	Options
	// Slurm, when set, runs each generation as a Slurm job array and
	// waits for it; otherwise the generations run on the local workers.
	Slurm *SlurmOptions
	// Log receives one line per generation (nil: none).
	Log io.Writer
}

// Generation is what one generation gave.
type Generation struct {
	Index   int
	Fitness []float64 // per genome, the trials aggregated
	Mean    float64   // mean over the genomes that ran
	Best    float64
	Genome  []float64 // the best genome of the generation
}

// Evolution is the outcome of [Evolve].
type Evolution struct {
	Generations []Generation
	Best        []float64 // the best genome found
	BestFitness float64
}

// Evolve evolves the weights of a controller with CMA-ES (gonum's
// optimize.CmaEsChol) as the sweep file's evolve: section says: each
// generation's genomes are written, as comma-separated numbers, into the
// attribute evolve.path; every genome runs each trial value and each
// seed, as one sweep; its fitness is the metric evolve.metric aggregated
// over them (max by default: the worst trial, as ARGoS's galib and MPGA
// examples do). Fitness is minimized (maximized with maximize: true); a
// failed run counts as the worst fitness. The evolution folder gets
// evolution.csv (every genome's fitness), best.dat (the best genome, in
// ARGoS's format: the count, then the weights) and best.argos (the base
// experiment with the best genome written in). An evolution resumes like
// a sweep: the optimiser draws the same genomes again, and the finished
// runs of each generation are kept.
func Evolve(ctx context.Context, s *Spec, opt EvolveOptions) (*Evolution, error) {
	ev := s.Evolve
	if ev == nil {
		return nil, fmt.Errorf("sweep: %s has no evolve: section", s.File)
	}
	if s.root == nil {
		if err := s.checkPaths(); err != nil {
			return nil, err
		}
	}
	if err := opt.defaults(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(opt.Out, 0o755); err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	method := &optimize.CmaEsChol{
		InitStepSize: ev.Sigma,
		Population:   ev.Population,
		Src:          rand.NewPCG(ev.Seed, 0xc3a5c85c97cb3127),
	}
	pop := method.Init(ev.Size, math.MaxInt32)
	tasks := make([]optimize.Task, pop)
	mean := make([]float64, ev.Size)
	for i := range mean {
		mean[i] = (ev.Min + ev.Max) / 2
	}
	for i := range tasks {
		tasks[i] = optimize.Task{Location: &optimize.Location{X: make([]float64, ev.Size)}}
		copy(tasks[i].X, mean)
	}
	ops := make(chan optimize.Task)
	results := make(chan optimize.Task)
	go method.Run(ops, results, tasks)
	// stop tells the method to finish and drains it
	stop := func() {
		results <- optimize.Task{Op: optimize.PostIteration}
		close(results)
		for range ops {
		}
	}
	out := &Evolution{BestFitness: math.Inf(1)}
	if ev.Maximize {
		out.BestFitness = math.Inf(-1)
	}
	var table strings.Builder
	table.WriteString("generation,genome,fitness\n")
	for g := 0; g < ev.Generations; g++ {
		batch := make([]optimize.Task, pop)
		for i := range batch {
			batch[i] = <-ops
		}
		genomes := make([][]float64, pop)
		for i, t := range batch {
			genomes[i] = make([]float64, ev.Size)
			for k, x := range t.X {
				genomes[i][k] = math.Max(ev.Min, math.Min(ev.Max, x))
			}
		}
		fit, err := evaluate(ctx, s, genomes, filepath.Join(opt.Out, fmt.Sprintf("gen-%03d", g)), opt)
		if err != nil {
			// feed the method something so that it can stop cleanly
			for _, t := range batch {
				t.F = math.Inf(1)
				results <- t
			}
			<-ops
			stop()
			return out, err
		}
		gen := Generation{Index: g, Fitness: fit, Best: math.NaN()}
		n := 0
		for i, f := range fit {
			fmt.Fprintf(&table, "%d,%d,%s\n", g, i, strconv.FormatFloat(f, 'g', -1, 64))
			if math.IsInf(f, 0) {
				continue
			}
			gen.Mean += f
			n++
			if math.IsNaN(gen.Best) || better(f, gen.Best, ev.Maximize) {
				gen.Best, gen.Genome = f, genomes[i]
			}
		}
		gen.Mean /= float64(max(n, 1))
		if n == 0 {
			gen.Mean = math.NaN()
		}
		if gen.Genome != nil && better(gen.Best, out.BestFitness, ev.Maximize) {
			out.Best, out.BestFitness = gen.Genome, gen.Best
		}
		out.Generations = append(out.Generations, gen)
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "evolve: generation %d: mean fitness %.4g, best %.4g (best so far %.4g)\n", g, gen.Mean, gen.Best, out.BestFitness)
		}
		for i, t := range batch {
			t.F = fit[i]
			if ev.Maximize {
				t.F = -t.F
			}
			if math.IsNaN(t.F) {
				t.F = math.Inf(1)
			}
			results <- t
		}
		next := <-ops
		if err := writeAtomic(filepath.Join(opt.Out, "evolution.csv"), []byte(table.String())); err != nil {
			stop()
			return out, err
		}
		if out.Best != nil {
			if err := writeBest(s, opt.Out, out.Best); err != nil {
				stop()
				return out, err
			}
		}
		if next.Op != optimize.MajorIteration || g == ev.Generations-1 {
			stop()
			break
		}
		results <- optimize.Task{Op: optimize.MajorIteration}
	}
	return out, nil
}

func better(a, b float64, maximize bool) bool {
	if maximize {
		return a > b
	}
	return a < b
}

// FormatGenome writes weights as the comma-separated list the genome's
// attribute takes.
func FormatGenome(w []float64) string {
	parts := make([]string, len(w))
	for i, x := range w {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// writeBest writes best.dat and best.argos.
func writeBest(s *Spec, out string, w []float64) error {
	dat := strconv.Itoa(len(w))
	for _, x := range w {
		dat += " " + strconv.FormatFloat(x, 'g', -1, 64)
	}
	if err := writeAtomic(filepath.Join(out, "best.dat"), []byte(dat+"\n")); err != nil {
		return err
	}
	p := genPlan(s, [][]float64{w})
	exp, err := p.CellExperiment(p.Cells[0])
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(out, "best.argos"), exp)
}

// genPlan is the sweep of one generation: every genome, trial and seed.
func genPlan(s *Spec, genomes [][]float64) *Plan {
	ev := s.Evolve
	p := &Plan{Spec: s.File, Experiment: s.Experiment, Threads: s.Threads, Metrics: s.Metrics, spec: s}
	if abs, err := filepath.Abs(s.File); err == nil {
		p.Spec = abs
	}
	if abs, err := filepath.Abs(s.Experiment); err == nil {
		p.Experiment = abs
	}
	p.WorkDir = filepath.Dir(p.Experiment)
	p.Params = []Column{{Name: genomeParam}}
	trials := []string{""}
	if ev.Trials != nil {
		p.Params = append(p.Params, Column{Name: ev.Trials.Name, Numeric: ev.Trials.numeric})
		trials = ev.Trials.Values
	}
	for g, w := range genomes {
		gs := FormatGenome(w)
		for _, tr := range trials {
			for _, seed := range s.Seeds {
				vals := []string{gs}
				if ev.Trials != nil {
					vals = append(vals, tr)
				}
				p.Cells = append(p.Cells, Cell{Index: len(p.Cells), Config: g, Seed: seed, Values: vals})
			}
		}
	}
	return p
}

// evaluate runs one generation as a sweep in dir and returns each
// genome's fitness (±Inf, the worst, for a genome with a failed run).
func evaluate(ctx context.Context, s *Spec, genomes [][]float64, dir string, opt EvolveOptions) ([]float64, error) {
	ev := s.Evolve
	p := genPlan(s, genomes)
	o := opt.Options
	o.Out = dir
	if opt.Slurm != nil {
		missing := false
		for _, c := range p.Cells {
			if _, ok := ReadResult(dir, c.Index); !ok {
				missing = true
			}
		}
		if missing {
			if _, err := SubmitSlurm(ctx, p, dir, *opt.Slurm); err != nil {
				return nil, err
			}
			if _, err := WaitSlurm(ctx, dir, 2*time.Second); err != nil {
				return nil, err
			}
		}
	} else {
		if err := Prepare(p, dir); err != nil {
			return nil, err
		}
		all := make([]int, len(p.Cells))
		for i := range all {
			all[i] = i
		}
		if _, err := RunCells(ctx, p, all, o); err != nil {
			return nil, err
		}
	}
	k := -1
	for i, m := range p.Metrics {
		if m.Name == ev.Metric {
			k = i
		}
	}
	if k < 0 {
		return nil, fmt.Errorf("sweep: evolve: metric %q is not under metrics:", ev.Metric)
	}
	worst := math.Inf(1)
	if ev.Maximize {
		worst = math.Inf(-1)
	}
	fit := make([]float64, len(genomes))
	count := make([]int, len(genomes))
	for i := range fit {
		fit[i] = math.NaN()
	}
	var missing []int
	for _, c := range p.Cells {
		r, ok := ReadResult(dir, c.Index)
		if !ok {
			missing = append(missing, c.Index)
			continue
		}
		vals, _ := CellMetrics(dir, p.Metrics, r)
		v := vals[k]
		if math.IsNaN(v) {
			v = worst
		}
		g := c.Config
		switch {
		case math.IsNaN(fit[g]):
			fit[g] = v
		case ev.Aggregate == "max":
			fit[g] = math.Max(fit[g], v)
		case ev.Aggregate == "min":
			fit[g] = math.Min(fit[g], v)
		default:
			fit[g] += v
		}
		count[g]++
	}
	if len(missing) > 0 {
		return nil, errors.New("sweep: evolve: " + strconv.Itoa(len(missing)) + " runs of " + dir + " did not finish")
	}
	if ev.Aggregate == "mean" {
		for g := range fit {
			fit[g] /= float64(max(count[g], 1))
		}
	}
	return fit, nil
}
