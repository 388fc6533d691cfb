package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/argosgo/argos/config"
)

// target is where a parameter's value goes in the base experiment.
type target struct {
	node   *config.Node
	nth    int
	attr   string
	rename bool
}

// checkPaths reads the base experiment and resolves every path of the
// sweep file in it.
func (s *Spec) checkPaths() error {
	exp, err := config.Load(s.Experiment)
	if err != nil {
		return fmt.Errorf("sweep: %s: the base experiment: %w", s.File, err)
	}
	data, err := config.ReadFile(s.Experiment)
	if err != nil {
		return err
	}
	s.base, s.root = data, exp.Root
	s.targets = map[string]target{}
	check := func(par *Parameter, what string) error {
		t, err := s.resolve(par.Path)
		if err != nil {
			return &Error{File: s.File, Line: par.Line, Msg: fmt.Sprintf("%s %q: path %q: %v in %s; fix the path", what, par.Name, clip(par.Path), err, filepath.Base(s.Experiment))}
		}
		s.targets[par.Name] = t
		return nil
	}
	for _, par := range s.Parameters {
		if err := check(par, "parameter"); err != nil {
			return err
		}
	}
	if ev := s.Evolve; ev != nil {
		t, err := s.resolve(ev.Path)
		if err != nil {
			return &Error{File: s.File, Line: ev.Line, Msg: fmt.Sprintf("evolve: path %q: %v in %s; fix the path", clip(ev.Path), err, filepath.Base(s.Experiment))}
		}
		s.targets[genomeParam] = t
		if ev.Trials != nil {
			if err := check(ev.Trials, "evolve trials"); err != nil {
				return err
			}
		}
	}
	for name, path := range map[string]string{seedTarget: "framework/experiment@random_seed", lengthTarget: "framework/experiment@length"} {
		t, err := s.resolve(path)
		if err != nil {
			return &Error{File: s.File, Line: s.seedsLine, Msg: fmt.Sprintf("the base experiment %s has no <framework><experiment> for the seed; add one", filepath.Base(s.Experiment))}
		}
		s.targets[name] = t
	}
	return nil
}

const (
	seedTarget   = "\x00seed"
	lengthTarget = "\x00length"
	genomeParam  = "genome"
)

func (s *Spec) resolve(p string) (target, error) {
	pp, err := parsePath(p)
	if err != nil {
		return target{}, err
	}
	n, err := pp.resolve(s.root)
	if err != nil {
		return target{}, err
	}
	return target{node: n, nth: nthOnLine(s.root, n), attr: pp.attr, rename: pp.rename}, nil
}

// Cell is one run of a sweep: a point of the parameters and a seed.
type Cell struct {
	Index  int      `json:"cell"`
	Config int      `json:"config"` // the parameter point, shared by the seeds
	Seed   uint64   `json:"seed"`
	Values []string `json:"values"` // one per parameter, in Plan.Params order
}

// Column is a parameter column of the table.
type Column struct {
	Name    string `json:"name"`
	Numeric bool   `json:"numeric"`
}

// Plan is a sweep's every run, fixed when the sweep starts; it is saved
// as plan.json in the sweep's folder, so that later commands (resume,
// status, collect, Slurm tasks) need only the folder.
type Plan struct {
	Spec       string   `json:"spec"`       // the sweep file
	Experiment string   `json:"experiment"` // the base experiment
	WorkDir    string   `json:"workdir"`    // the runs' working directory (the base experiment's)
	Params     []Column `json:"params"`
	Metrics    []Metric `json:"metrics"`
	Threads    *int     `json:"threads,omitempty"`
	Cells      []Cell   `json:"cells"`
	// Chunk is how many cells one Slurm array task runs.
	Chunk int `json:"chunk,omitempty"`

	spec *Spec
}

// NewPlan lays out every run of a loaded sweep: for design grid, every
// combination of the parameters' values (the last parameter varying
// fastest) times every seed; for design random, Samples points drawn with
// SampleSeed times every seed. The same sweep file always gives the same
// plan.
func NewPlan(s *Spec) (*Plan, error) {
	if s.root == nil {
		if err := s.checkPaths(); err != nil {
			return nil, err
		}
	}
	if s.Design == "grid" {
		for _, par := range s.Parameters {
			if len(par.Values) == 0 {
				return nil, &Error{File: s.File, Line: par.Line, Msg: fmt.Sprintf("parameter %q: a range without step: or count: has no values for a grid; add step: or count:, or use design: random (argos irace takes it as it is)", par.Name)}
			}
		}
	}
	p := &Plan{Spec: s.File, Experiment: s.Experiment, Threads: s.Threads, Metrics: s.Metrics, spec: s}
	if abs, err := filepath.Abs(s.File); err == nil {
		p.Spec = abs
	}
	if abs, err := filepath.Abs(s.Experiment); err == nil {
		p.Experiment = abs
	}
	p.WorkDir = filepath.Dir(p.Experiment)
	if len(p.Metrics) == 0 {
		p.Metrics = []Metric{{Name: "run.loop_seconds", Source: "run.loop_seconds", Reduce: "last"}}
	}
	for _, par := range s.Parameters {
		p.Params = append(p.Params, Column{Name: par.Name, Numeric: par.numeric})
	}
	points := s.points()
	seeds := s.Seeds
	for c, pt := range points {
		for _, seed := range seeds {
			p.Cells = append(p.Cells, Cell{Index: len(p.Cells), Config: c, Seed: seed, Values: pt})
		}
	}
	return p, nil
}

// points returns the parameter points of the sweep.
func (s *Spec) points() [][]string {
	if len(s.Parameters) == 0 {
		return [][]string{nil}
	}
	if s.Design == "random" {
		r := rand.New(rand.NewPCG(s.SampleSeed, 0x5eed5eed))
		out := make([][]string, s.Samples)
		for k := range out {
			pt := make([]string, len(s.Parameters))
			for i, par := range s.Parameters {
				pt[i] = par.sample(r)
			}
			out[k] = pt
		}
		return out
	}
	n := 1
	for _, par := range s.Parameters {
		n *= len(par.Values)
	}
	out := make([][]string, n)
	for k := range out {
		pt := make([]string, len(s.Parameters))
		rest := k
		for i := len(s.Parameters) - 1; i >= 0; i-- {
			vs := s.Parameters[i].Values
			pt[i] = vs[rest%len(vs)]
			rest /= len(vs)
		}
		out[k] = pt
	}
	return out
}

// sample draws one value: uniformly from a range (its logarithm with
// log: true), or one of the listed values.
func (par *Parameter) sample(r *rand.Rand) string {
	switch par.Kind {
	case "real":
		u := r.Float64()
		x := par.Min + u*(par.Max-par.Min)
		if par.Log {
			x = math.Exp(math.Log(par.Min) + u*(math.Log(par.Max)-math.Log(par.Min)))
		}
		return strconv.FormatFloat(x, 'g', 8, 64)
	case "int":
		lo, hi := int64(par.Min), int64(par.Max)
		return strconv.FormatInt(lo+r.Int64N(hi-lo+1), 10)
	}
	return par.Values[r.IntN(len(par.Values))]
}

// CellExperiment returns the text of the experiment file of a cell: the base
// file with the cell's values, seed and the sweep's length written in.
func (p *Plan) CellExperiment(c Cell) ([]byte, error) {
	s := p.spec
	if s == nil {
		return nil, fmt.Errorf("sweep: the plan was not made from a sweep file")
	}
	var edits []edit
	add := func(name, value string) {
		t := s.targets[name]
		edits = append(edits, edit{node: t.node, nth: t.nth, attr: t.attr, value: value, rename: t.rename})
	}
	for i, par := range p.Params {
		add(par.Name, c.Values[i])
	}
	add(seedTarget, strconv.FormatUint(c.Seed, 10))
	if s.Length != nil {
		add(lengthTarget, strconv.FormatFloat(*s.Length, 'g', -1, 64))
	}
	return apply(s.base, edits)
}

// Key identifies what a cell runs: its experiment text and the run
// settings, so that a folder is never resumed with runs of another sweep.
func (p *Plan) Key(c Cell, exp []byte) string {
	h := sha256.New()
	h.Write(exp)
	if p.Threads != nil {
		fmt.Fprintf(h, "\x00threads=%d", *p.Threads)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// save writes plan.json into dir.
func (p *Plan) save(dir string) error {
	b, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return writeAtomic(filepath.Join(dir, PlanFile), append(b, '\n'))
}

// ReadPlan reads the plan.json of a sweep folder.
func ReadPlan(dir string) (*Plan, error) {
	b, err := os.ReadFile(filepath.Join(dir, PlanFile))
	if err != nil {
		return nil, fmt.Errorf("sweep: %s is not a sweep folder (%w); give the --out folder of argos sweep", dir, err)
	}
	var p Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("sweep: %s: %w", filepath.Join(dir, PlanFile), err)
	}
	for _, c := range p.Cells {
		if len(c.Values) != len(p.Params) {
			return nil, fmt.Errorf("sweep: %s: cell %d has %d values for %d parameters", filepath.Join(dir, PlanFile), c.Index, len(c.Values), len(p.Params))
		}
	}
	return &p, nil
}

// writeAtomic writes a file through a temporary file and a rename, so
// that readers see the old content or the new one, never a part.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("sweep: %w", err)
	}
	return nil
}
