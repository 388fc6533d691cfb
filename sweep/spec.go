package sweep

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"go.yaml.in/yaml/v3"
)

// Limits of a sweep file, so that a mistake (or a hostile file) cannot
// ask for more than a machine can hold.
const (
	// MaxSpecSize is the largest sweep file read, in bytes.
	MaxSpecSize = 1 << 20
	// MaxCells is the largest number of runs a sweep may plan.
	MaxCells = 1_000_000
	// MaxValues is the largest number of values one parameter may take.
	MaxValues = 100_000
)

// Spec is a parsed sweep file.
type Spec struct {
	File string // the sweep file, as given
	Dir  string // its directory: relative paths in the file are relative to it

	// Experiment is the base .argos file (absolute, or relative to the
	// working directory when the sweep file was parsed from memory).
	Experiment string
	// Length overrides <experiment length> (seconds) when non-nil.
	Length *float64
	// Threads is passed to every run as --threads when non-nil.
	Threads *int

	Parameters []*Parameter
	// Design is "grid" (every combination of the parameters' values) or
	// "random" (Samples points drawn from the parameters' domains).
	Design     string
	Samples    int
	SampleSeed uint64

	Seeds   []uint64
	Metrics []Metric

	Irace  *IraceSpec
	Evolve *EvolveSpec

	seedsLine int
	// what checkPaths found: the base experiment's text and tree, and
	// where each parameter goes
	base    []byte
	root    *config.Node
	targets map[string]target
}

// Parameter is one thing a sweep varies: an attribute (or the tag name)
// of one element of the base experiment.
type Parameter struct {
	Name string
	Path string
	// Values are the values of a list or of a range, in order.
	Values []string
	// Min and Max bound a range (Kind "real" or "int"); a list has Kind
	// "categorical" and uses Values only.
	Min, Max float64
	Kind     string // "real", "int" or "categorical"
	Log      bool   // random samples and irace draw the logarithm uniformly

	Line int // where the parameter is declared in the sweep file
	// numeric reports whether every value is a number.
	numeric bool
}

// Metric is one number kept per run.
type Metric struct {
	// Name is the column value in the table.
	Name string
	// Source is a metric recorded by the experiment (metrics.csv), or one
	// of the run's own figures: run.ticks, run.simulated_seconds,
	// run.loop_seconds, run.wall_seconds.
	Source string
	// Reduce turns the rows of a recorded metric into one number: last
	// (mean over robots of the last tick it was recorded), mean, sum, min,
	// max or count.
	Reduce string
	Line   int
}

// IraceSpec is the irace: section.
type IraceSpec struct {
	Metric   string // the metric irace minimizes (maximized when Maximize)
	Maximize bool
	Budget   int // maxExperiments
	Parallel int // irace's parallel (0: irace's default)
}

// EvolveSpec is the evolve: section (see [Evolve]).
type EvolveSpec struct {
	// Path is where the genome goes: an attribute that takes the weights
	// as comma-separated numbers.
	Path        string
	Size        int
	Min, Max    float64
	Generations int
	Population  int // 0: CMA-ES's default, 4 + 3 ln(size)
	// Trials is a parameter varied for every genome (the trial index
	// of the loop functions); its values are evaluated for each genome
	// and each seed.
	Trials *Parameter
	// Metric is the fitness, minimized; Aggregate combines the trials:
	// max (ARGoS's worst case, the default), mean or min.
	Metric    string
	Maximize  bool
	Aggregate string
	Sigma     float64 // initial step size (default (Max-Min)/6)
	Seed      uint64  // the optimiser's random seed
	Line      int
}

// Error is a mistake in a sweep file, at a line of it.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("sweep: %s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("sweep: %s: %s", e.File, e.Msg)
}

// Load reads and checks a sweep file, including the base experiment and
// every parameter's path into it.
func Load(path string) (*Spec, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w; give the path of a sweep file (.yaml)", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("sweep: %s is not a regular file; give a sweep file (.yaml)", path)
	}
	if st.Size() > MaxSpecSize {
		return nil, fmt.Errorf("sweep: %s is %d bytes; a sweep file may have at most %d", path, st.Size(), MaxSpecSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	s, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	if err := s.checkPaths(); err != nil {
		return nil, err
	}
	return s, nil
}

// Parse parses a sweep file's content; file names it in errors, and its
// directory is where relative paths start. Parse does not read the base
// experiment: [Load] does, and checks the parameters' paths.
func Parse(file string, data []byte) (*Spec, error) {
	if len(data) > MaxSpecSize {
		return nil, &Error{File: file, Msg: fmt.Sprintf("%d bytes; a sweep file may have at most %d", len(data), MaxSpecSize)}
	}
	p := &parser{file: file}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, p.yamlError(err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, &Error{File: file, Msg: "the file is empty; write at least experiment:, parameters: and seeds:"}
	}
	s := &Spec{File: file, Dir: filepath.Dir(file), Design: "grid"}
	if err := p.spec(doc.Content[0], s); err != nil {
		return nil, err
	}
	return s, nil
}

type parser struct{ file string }

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (p *parser) yamlError(err error) error {
	msg := err.Error()
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: p.file, Line: line, Msg: "not valid YAML: " + m[2]}
	}
	return &Error{File: p.file, Msg: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

func (p *parser) errf(n *yaml.Node, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// mapping returns the keys of a mapping node and their value nodes,
// refusing keys outside allowed and repeated keys.
func (p *parser) mapping(n *yaml.Node, what string, allowed ...string) (map[string]*yaml.Node, error) {
	if n.Kind == yaml.AliasNode {
		return nil, p.errf(n, "%s: aliases (*name) are not supported; write the value out", what)
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, "%s must be a mapping (key: value lines), not %s", what, kindName(n))
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, p.errf(k, "%s: keys must be plain words", what)
		}
		if v.Kind == yaml.AliasNode {
			return nil, p.errf(v, "%s: %s: aliases (*name) are not supported; write the value out", what, k.Value)
		}
		found := false
		for _, a := range allowed {
			found = found || a == k.Value
		}
		if !found {
			return nil, p.errf(k, "%s: unknown key %q%s; the keys are %s", what, k.Value, ci.DidYouMean(k.Value, allowed, "%q"), strings.Join(allowed, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, p.errf(k, "%s: key %q appears twice; keep one", what, k.Value)
		}
		out[k.Value] = v
	}
	return out, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", clip(n.Value))
	}
	return "this"
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

func (p *parser) scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", p.errf(n, "%s must be a single value, not %s", what, kindName(n))
	}
	return n.Value, nil
}

func (p *parser) number(n *yaml.Node, what string) (float64, error) {
	s, err := p.scalar(n, what)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, p.errf(n, "%s: %q is not a number; write it like 0.5 or 10", what, clip(s))
	}
	return f, nil
}

func (p *parser) integer(n *yaml.Node, what string, lo int) (int, error) {
	s, err := p.scalar(n, what)
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < lo {
		return 0, p.errf(n, "%s: %q is not a whole number of at least %d", what, clip(s), lo)
	}
	return v, nil
}

func (p *parser) boolean(n *yaml.Node, what string) (bool, error) {
	s, err := p.scalar(n, what)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, p.errf(n, "%s: %q: write true or false", what, clip(s))
}

var nameRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// reserved are the table's own columns, which parameters may not take.
var reserved = []string{"cell", "config", "seed", "metric", "value", "status", "error"}

func (p *parser) spec(n *yaml.Node, s *Spec) error {
	m, err := p.mapping(n, "the sweep file", "experiment", "length", "threads", "parameters", "design", "samples",
		"sample_seed", "seeds", "metrics", "irace", "evolve")
	if err != nil {
		return err
	}
	e, ok := m["experiment"]
	if !ok {
		return p.errf(n, "experiment: is missing; name the base .argos file, like experiment: diffusion_10.argos")
	}
	if s.Experiment, err = p.scalar(e, "experiment"); err != nil {
		return err
	}
	if s.Experiment == "" {
		return p.errf(e, "experiment: is empty; name the base .argos file")
	}
	if !filepath.IsAbs(s.Experiment) {
		s.Experiment = filepath.Join(s.Dir, s.Experiment)
	}
	if v, ok := m["length"]; ok {
		f, err := p.number(v, "length")
		if err != nil {
			return err
		}
		if f < 0 {
			return p.errf(v, "length: %g: give simulated seconds, or 0 for no limit", f)
		}
		s.Length = &f
	}
	if v, ok := m["threads"]; ok {
		t, err := p.integer(v, "threads", 0)
		if err != nil {
			return err
		}
		s.Threads = &t
	}
	if v, ok := m["design"]; ok {
		if s.Design, err = p.scalar(v, "design"); err != nil {
			return err
		}
		if s.Design != "grid" && s.Design != "random" {
			return p.errf(v, "design: %q: use grid (every combination) or random (samples: N points)", clip(s.Design))
		}
	}
	if v, ok := m["samples"]; ok {
		if s.Samples, err = p.integer(v, "samples", 1); err != nil {
			return err
		}
		if s.Samples > MaxCells {
			return p.errf(v, "samples: %d: at most %d", s.Samples, MaxCells)
		}
	}
	if v, ok := m["sample_seed"]; ok {
		n, err := p.integer(v, "sample_seed", 0)
		if err != nil {
			return err
		}
		s.SampleSeed = uint64(n)
	}
	if s.Design == "random" && s.Samples == 0 {
		return p.errf(m["design"], "design: random needs samples: N, the number of points to draw")
	}
	if s.Design == "grid" && m["samples"] != nil {
		return p.errf(m["samples"], "samples: is for design: random; add design: random or drop samples:")
	}
	if v, ok := m["parameters"]; ok {
		if err := p.parameters(v, s); err != nil {
			return err
		}
	}
	v, ok := m["seeds"]
	if !ok {
		return p.errf(n, "seeds: is missing; list the random seeds, like seeds: [1, 2, 3] or seeds: {from: 1, count: 10}")
	}
	s.seedsLine = v.Line
	if s.Seeds, err = p.seeds(v); err != nil {
		return err
	}
	if v, ok := m["metrics"]; ok {
		if s.Metrics, err = p.metrics(v); err != nil {
			return err
		}
	}
	if v, ok := m["irace"]; ok {
		if s.Irace, err = p.irace(v, s); err != nil {
			return err
		}
	}
	if v, ok := m["evolve"]; ok {
		if s.Evolve, err = p.evolve(v, s); err != nil {
			return err
		}
	}
	if _, err := s.count(); err != nil {
		return p.errf(n, "%v", err)
	}
	return nil
}

func (p *parser) parameters(n *yaml.Node, s *Spec) error {
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "parameters: must be a list (lines starting with -), not %s", kindName(n))
	}
	seen := map[string]int{}
	for _, c := range n.Content {
		par, err := p.parameter(c, "parameter")
		if err != nil {
			return err
		}
		if prev, dup := seen[par.Name]; dup {
			return p.errf(c, "parameter %q is declared twice (first at line %d); give each a unique name", par.Name, prev)
		}
		seen[par.Name] = c.Line
		s.Parameters = append(s.Parameters, par)
	}
	return nil
}

func (p *parser) parameter(n *yaml.Node, what string) (*Parameter, error) {
	m, err := p.mapping(n, what, "name", "path", "values", "range", "type", "log")
	if err != nil {
		return nil, err
	}
	par := &Parameter{Line: n.Line}
	v, ok := m["name"]
	if !ok {
		return nil, p.errf(n, "%s: name: is missing; give it a column name, like name: velocity", what)
	}
	if par.Name, err = p.scalar(v, what+" name"); err != nil {
		return nil, err
	}
	if !nameRe.MatchString(par.Name) {
		return nil, p.errf(v, "%s name %q: use letters, digits and _ (a column name), starting with a letter", what, clip(par.Name))
	}
	for _, r := range reserved {
		if par.Name == r {
			return nil, p.errf(v, "%s name %q is a column of the table; choose another name", what, par.Name)
		}
	}
	what = fmt.Sprintf("%s %q", what, par.Name)
	v, ok = m["path"]
	if !ok {
		return nil, p.errf(n, "%s: path: is missing; point into the experiment, like path: controllers/*/params@velocity", what)
	}
	if par.Path, err = p.scalar(v, what+" path"); err != nil {
		return nil, err
	}
	if _, err := parsePath(par.Path); err != nil {
		return nil, p.errf(v, "%s: %v", what, err)
	}
	kind := ""
	if v, ok := m["type"]; ok {
		if kind, err = p.scalar(v, what+" type"); err != nil {
			return nil, err
		}
		if kind != "real" && kind != "int" && kind != "categorical" {
			return nil, p.errf(v, "%s: type %q: use real, int or categorical", what, clip(kind))
		}
	}
	if v, ok := m["log"]; ok {
		if par.Log, err = p.boolean(v, what+" log"); err != nil {
			return nil, err
		}
	}
	vals, hasVals := m["values"]
	rng, hasRange := m["range"]
	switch {
	case hasVals && hasRange:
		return nil, p.errf(rng, "%s: give values: or range:, not both", what)
	case hasVals:
		if err := p.values(vals, par, what); err != nil {
			return nil, err
		}
		par.Kind = "categorical"
		if kind != "" && kind != "categorical" {
			if !par.numeric {
				return nil, p.errf(vals, "%s: type %s needs numbers in values:", what, kind)
			}
			par.Kind = kind
			par.Min, par.Max = math.Inf(1), math.Inf(-1)
			for _, s := range par.Values {
				f, _ := strconv.ParseFloat(s, 64)
				if kind == "int" && f != math.Trunc(f) {
					return nil, p.errf(vals, "%s: type int, but %s is not a whole number", what, s)
				}
				par.Min, par.Max = math.Min(par.Min, f), math.Max(par.Max, f)
			}
		}
	case hasRange:
		if kind == "categorical" {
			return nil, p.errf(rng, "%s: a range is real or int, not categorical; use values: for categories", what)
		}
		if err := p.rangeOf(rng, par, kind, what); err != nil {
			return nil, err
		}
	default:
		return nil, p.errf(n, "%s: give its values, as values: [1, 2, 3] or range: {min: 1, max: 10, step: 1}", what)
	}
	if par.Log && (par.Kind == "categorical" || par.Min <= 0) {
		return nil, p.errf(m["log"], "%s: log: true needs a range of positive numbers", what)
	}
	return par, nil
}

func (p *parser) values(n *yaml.Node, par *Parameter, what string) error {
	if n.Kind == yaml.ScalarNode {
		n = &yaml.Node{Kind: yaml.SequenceNode, Line: n.Line, Content: []*yaml.Node{n}}
	}
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "%s: values: must be a list, like [1, 2, 3]", what)
	}
	if len(n.Content) == 0 {
		return p.errf(n, "%s: values: is empty; list at least one value", what)
	}
	if len(n.Content) > MaxValues {
		return p.errf(n, "%s: %d values; at most %d", what, len(n.Content), MaxValues)
	}
	par.numeric = true
	seen := map[string]bool{}
	for _, c := range n.Content {
		s, err := p.scalar(c, what+" value")
		if err != nil {
			return err
		}
		if strings.ContainsAny(s, "\n\r") {
			return p.errf(c, "%s: value %q spans lines; write it on one line", what, clip(s))
		}
		if seen[s] {
			return p.errf(c, "%s: value %q is listed twice", what, clip(s))
		}
		seen[s] = true
		if f, err := strconv.ParseFloat(s, 64); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			par.numeric = false
		}
		par.Values = append(par.Values, s)
	}
	return nil
}

func (p *parser) rangeOf(n *yaml.Node, par *Parameter, kind, what string) error {
	m, err := p.mapping(n, what+" range", "min", "max", "step", "count")
	if err != nil {
		return err
	}
	lo, hi := m["min"], m["max"]
	if lo == nil || hi == nil {
		return p.errf(n, "%s: a range needs min: and max:", what)
	}
	if par.Min, err = p.number(lo, what+" min"); err != nil {
		return err
	}
	if par.Max, err = p.number(hi, what+" max"); err != nil {
		return err
	}
	if par.Min > par.Max {
		return p.errf(n, "%s: the range is empty: min %g is above max %g; swap them", what, par.Min, par.Max)
	}
	if kind == "" {
		kind = "real"
	}
	par.Kind, par.numeric = kind, true
	if kind == "int" {
		if par.Min != math.Trunc(par.Min) || par.Max != math.Trunc(par.Max) {
			return p.errf(n, "%s: type int, but min %g or max %g is not a whole number", what, par.Min, par.Max)
		}
		if math.Abs(par.Min) > 1<<53 || math.Abs(par.Max) > 1<<53 {
			return p.errf(n, "%s: min and max must lie within ±2^53", what)
		}
	}
	step, count := m["step"], m["count"]
	if step != nil && count != nil {
		return p.errf(count, "%s: give step: or count:, not both", what)
	}
	format := func(f float64) string {
		if kind == "int" {
			return strconv.FormatInt(int64(math.Round(f)), 10)
		}
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	switch {
	case step != nil:
		st, err := p.number(step, what+" step")
		if err != nil {
			return err
		}
		if st <= 0 {
			return p.errf(step, "%s: step %g: give a positive step", what, st)
		}
		if kind == "int" && st != math.Trunc(st) {
			return p.errf(step, "%s: type int, but step %g is not a whole number", what, st)
		}
		k := math.Floor((par.Max-par.Min)/st*(1+1e-12) + 1e-9)
		if k+1 > MaxValues {
			return p.errf(step, "%s: step %g gives %.0f values; at most %d", what, st, k+1, MaxValues)
		}
		for i := 0; i <= int(k); i++ {
			par.Values = append(par.Values, format(par.Min+float64(i)*st))
		}
	case count != nil:
		c, err := p.integer(count, what+" count", 0)
		if err != nil {
			return err
		}
		if c == 0 {
			return p.errf(count, "%s: count 0: the range is empty; give at least 1", what)
		}
		if c > MaxValues {
			return p.errf(count, "%s: count %d; at most %d", what, c, MaxValues)
		}
		if c == 1 {
			par.Values = []string{format(par.Min)}
			break
		}
		if par.Min == par.Max {
			return p.errf(count, "%s: count %d, but min equals max; the range holds one value", what, c)
		}
		for i := 0; i < c; i++ {
			x := par.Min + (par.Max-par.Min)*float64(i)/float64(c-1)
			if par.Log {
				x = math.Exp(math.Log(par.Min) + (math.Log(par.Max)-math.Log(par.Min))*float64(i)/float64(c-1))
			}
			par.Values = append(par.Values, format(x))
		}
		if kind == "int" {
			seen := map[string]bool{}
			for _, v := range par.Values {
				if seen[v] {
					return p.errf(count, "%s: type int: count %d gives repeated whole numbers between %g and %g; lower count", what, c, par.Min, par.Max)
				}
				seen[v] = true
			}
		}
	}
	return nil
}

func (p *parser) seeds(n *yaml.Node) ([]uint64, error) {
	var out []uint64
	switch n.Kind {
	case yaml.SequenceNode:
		if len(n.Content) == 0 {
			return nil, p.errf(n, "seeds: the list is empty; give at least one seed, like seeds: [1]")
		}
		if len(n.Content) > MaxValues {
			return nil, p.errf(n, "seeds: %d seeds; at most %d", len(n.Content), MaxValues)
		}
		seen := map[uint64]int{}
		for _, c := range n.Content {
			s, err := p.scalar(c, "seeds")
			if err != nil {
				return nil, err
			}
			v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
			if err != nil || v == 0 {
				return nil, p.errf(c, "seeds: %q is not a seed; seeds are whole numbers from 1 (0 would let every run pick its own)", clip(s))
			}
			if prev, dup := seen[v]; dup {
				return nil, p.errf(c, "seeds: %d is listed twice (first at line %d); each seed once", v, prev)
			}
			seen[v] = c.Line
			out = append(out, v)
		}
	case yaml.MappingNode:
		m, err := p.mapping(n, "seeds", "from", "count")
		if err != nil {
			return nil, err
		}
		if m["from"] == nil || m["count"] == nil {
			return nil, p.errf(n, "seeds: a seed range needs from: and count:, like {from: 1, count: 10}")
		}
		from, err := p.integer(m["from"], "seeds from", 1)
		if err != nil {
			return nil, err
		}
		count, err := p.integer(m["count"], "seeds count", 1)
		if err != nil {
			return nil, err
		}
		if count > MaxValues {
			return nil, p.errf(m["count"], "seeds: count %d; at most %d", count, MaxValues)
		}
		for i := 0; i < count; i++ {
			out = append(out, uint64(from)+uint64(i))
		}
	default:
		return nil, p.errf(n, "seeds: %q: write a list, like [1, 2, 3], or a range, like {from: 1, count: 10}", clip(n.Value))
	}
	return out, nil
}

var metricRe = regexp.MustCompile(`^[A-Za-z0-9_.:/-]{1,128}$`)

func (p *parser) metrics(n *yaml.Node) ([]Metric, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, "metrics: must be a list, like [coverage] or [{name: c, metric: coverage, reduce: mean}]")
	}
	var out []Metric
	seen := map[string]int{}
	for _, c := range n.Content {
		mt := Metric{Reduce: "last", Line: c.Line}
		if c.Kind == yaml.ScalarNode {
			mt.Name, mt.Source = c.Value, c.Value
		} else {
			m, err := p.mapping(c, "metric", "name", "metric", "reduce")
			if err != nil {
				return nil, err
			}
			if m["metric"] == nil {
				return nil, p.errf(c, "metric: metric: is missing; name the recorded metric, or run.loop_seconds, run.ticks, ...")
			}
			if mt.Source, err = p.scalar(m["metric"], "metric"); err != nil {
				return nil, err
			}
			mt.Name = mt.Source
			if v := m["name"]; v != nil {
				if mt.Name, err = p.scalar(v, "metric name"); err != nil {
					return nil, err
				}
			}
			if v := m["reduce"]; v != nil {
				if mt.Reduce, err = p.scalar(v, "metric reduce"); err != nil {
					return nil, err
				}
				switch mt.Reduce {
				case "last", "mean", "sum", "min", "max", "count":
				default:
					return nil, p.errf(v, "metric reduce %q: use last, mean, sum, min, max or count", clip(mt.Reduce))
				}
			}
		}
		if !metricRe.MatchString(mt.Name) || !metricRe.MatchString(mt.Source) {
			return nil, p.errf(c, "metric %q: use letters, digits and _ . : / -", clip(mt.Name))
		}
		if strings.HasPrefix(mt.Source, "run.") {
			switch mt.Source {
			case "run.ticks", "run.simulated_seconds", "run.loop_seconds", "run.wall_seconds":
			default:
				return nil, p.errf(c, "metric %q: the run's own figures are run.ticks, run.simulated_seconds, run.loop_seconds and run.wall_seconds", clip(mt.Source))
			}
		}
		if prev, dup := seen[mt.Name]; dup {
			return nil, p.errf(c, "metric %q is listed twice (first at line %d)", mt.Name, prev)
		}
		seen[mt.Name] = c.Line
		out = append(out, mt)
	}
	return out, nil
}

func (p *parser) findMetric(n *yaml.Node, s *Spec, name, what string) error {
	for _, m := range s.Metrics {
		if m.Name == name {
			return nil
		}
	}
	var names []string
	for _, m := range s.Metrics {
		names = append(names, m.Name)
	}
	if len(names) == 0 {
		return p.errf(n, "%s: metric %q: the sweep keeps no metrics; add it under metrics:", what, clip(name))
	}
	return p.errf(n, "%s: metric %q is not under metrics: (%s); add it there", what, clip(name), strings.Join(names, ", "))
}

func (p *parser) irace(n *yaml.Node, s *Spec) (*IraceSpec, error) {
	m, err := p.mapping(n, "irace", "metric", "maximize", "budget", "parallel")
	if err != nil {
		return nil, err
	}
	ir := &IraceSpec{Budget: 200}
	if len(s.Metrics) > 0 {
		ir.Metric = s.Metrics[0].Name
	}
	if v := m["metric"]; v != nil {
		if ir.Metric, err = p.scalar(v, "irace metric"); err != nil {
			return nil, err
		}
	}
	if err := p.findMetric(n, s, ir.Metric, "irace"); err != nil {
		return nil, err
	}
	if v := m["maximize"]; v != nil {
		if ir.Maximize, err = p.boolean(v, "irace maximize"); err != nil {
			return nil, err
		}
	}
	if v := m["budget"]; v != nil {
		if ir.Budget, err = p.integer(v, "irace budget", 1); err != nil {
			return nil, err
		}
	}
	if v := m["parallel"]; v != nil {
		if ir.Parallel, err = p.integer(v, "irace parallel", 1); err != nil {
			return nil, err
		}
	}
	if len(s.Parameters) == 0 {
		return nil, p.errf(n, "irace: there are no parameters to tune; add them under parameters:")
	}
	return ir, nil
}

func (p *parser) evolve(n *yaml.Node, s *Spec) (*EvolveSpec, error) {
	m, err := p.mapping(n, "evolve", "path", "size", "min", "max", "generations", "population", "trials",
		"metric", "maximize", "aggregate", "sigma", "seed")
	if err != nil {
		return nil, err
	}
	ev := &EvolveSpec{Min: -10, Max: 10, Generations: 10, Aggregate: "max", Line: n.Line}
	if v := m["path"]; v != nil {
		if ev.Path, err = p.scalar(v, "evolve path"); err != nil {
			return nil, err
		}
		if pp, err := parsePath(ev.Path); err != nil {
			return nil, p.errf(v, "evolve: %v", err)
		} else if pp.attr == "" {
			return nil, p.errf(v, "evolve: path %q: the genome goes into an attribute; end the path with @weights or the like", ev.Path)
		}
	} else {
		return nil, p.errf(n, "evolve: path: is missing; name the attribute that takes the weights, like controllers/*/params@weights")
	}
	if v := m["size"]; v != nil {
		if ev.Size, err = p.integer(v, "evolve size", 1); err != nil {
			return nil, err
		}
		if ev.Size > 10000 {
			return nil, p.errf(v, "evolve size %d: at most 10000 weights", ev.Size)
		}
	} else {
		return nil, p.errf(n, "evolve: size: is missing; give the number of weights, like size: 98")
	}
	for _, k := range []struct {
		key string
		dst *float64
	}{{"min", &ev.Min}, {"max", &ev.Max}, {"sigma", &ev.Sigma}} {
		if v := m[k.key]; v != nil {
			if *k.dst, err = p.number(v, "evolve "+k.key); err != nil {
				return nil, err
			}
		}
	}
	if ev.Min >= ev.Max {
		return nil, p.errf(n, "evolve: min %g must be below max %g", ev.Min, ev.Max)
	}
	if ev.Sigma < 0 {
		return nil, p.errf(m["sigma"], "evolve: sigma %g: give a positive step size", ev.Sigma)
	}
	if ev.Sigma == 0 {
		ev.Sigma = (ev.Max - ev.Min) / 6
	}
	if v := m["generations"]; v != nil {
		if ev.Generations, err = p.integer(v, "evolve generations", 1); err != nil {
			return nil, err
		}
	}
	if v := m["population"]; v != nil {
		if ev.Population, err = p.integer(v, "evolve population", 2); err != nil {
			return nil, err
		}
	}
	if ev.Generations*max(ev.Population, 1) > MaxCells {
		return nil, p.errf(n, "evolve: %d generations of %d genomes is too many runs", ev.Generations, ev.Population)
	}
	if v := m["seed"]; v != nil {
		x, err := p.integer(v, "evolve seed", 0)
		if err != nil {
			return nil, err
		}
		ev.Seed = uint64(x)
	}
	if v := m["trials"]; v != nil {
		if ev.Trials, err = p.parameter(v, "evolve trials"); err != nil {
			return nil, err
		}
	}
	if len(s.Metrics) > 0 {
		ev.Metric = s.Metrics[0].Name
	}
	if v := m["metric"]; v != nil {
		if ev.Metric, err = p.scalar(v, "evolve metric"); err != nil {
			return nil, err
		}
	}
	if err := p.findMetric(n, s, ev.Metric, "evolve"); err != nil {
		return nil, err
	}
	if v := m["maximize"]; v != nil {
		if ev.Maximize, err = p.boolean(v, "evolve maximize"); err != nil {
			return nil, err
		}
	}
	if v := m["aggregate"]; v != nil {
		if ev.Aggregate, err = p.scalar(v, "evolve aggregate"); err != nil {
			return nil, err
		}
		if ev.Aggregate != "max" && ev.Aggregate != "min" && ev.Aggregate != "mean" {
			return nil, p.errf(v, "evolve aggregate %q: use max (the worst trial when minimizing), min or mean", clip(ev.Aggregate))
		}
	}
	return ev, nil
}

// count returns how many runs the sweep plans.
func (s *Spec) count() (int, error) {
	points := 1
	if s.Design == "random" {
		points = s.Samples
	} else {
		for _, p := range s.Parameters {
			if len(p.Values) == 0 {
				return 0, nil // a continuous range: NewPlan says so
			}
			if points > MaxCells/len(p.Values) {
				return 0, errors.New("the grid of the parameters' values is larger than a sweep may be; use fewer values or design: random")
			}
			points *= len(p.Values)
		}
	}
	if points > MaxCells/max(len(s.Seeds), 1) {
		return 0, fmt.Errorf("%d parameter points times %d seeds is more than %d runs; use fewer values or seeds", points, len(s.Seeds), MaxCells)
	}
	return points * max(len(s.Seeds), 1), nil
}
