package config

import (
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// Experiment is a parsed .argos file: the whole element tree plus the
// typed top-level sections.
type Experiment struct {
	File           string
	Root           *Node
	Framework      Framework
	Controllers    []*Controller  // file order
	LoopFunctions  *LoopFunctions // nil when absent
	Arena          *Node          // the <arena> element; its children are interpreted by the simulator
	ArenaSize      ci.Vector3     // size attribute, each component > 0
	ArenaCenter    ci.Vector3     // center attribute, default 0,0,0
	PhysicsEngines []*Node        // children of <physics_engines>
	Media          []*Node        // children of <media>
	Visualizations []*Node        // children of <visualization>
	Warnings       []string       // things accepted but ignored, as "file:line: ..."
}

// Framework is the <framework> section.
type Framework struct {
	Threads        int     // <system threads>, default 0, 0 to MaxThreads
	ThreadMethod   string  // <system method>: "balance_quantity", "balance_length", or "" (not given: the simulator's own choice)
	Length         float64 // <experiment length> in seconds; 0 means no limit
	TicksPerSecond int     // <experiment ticks_per_second>, required, > 0
	RandomSeed     uint64  // <experiment random_seed>; 0 means the simulator picks one and logs it
	RealTime       bool    // <experiment real_time>, default false
	Node           *Node   // the <framework> element
}

// Ticks returns the length of the experiment in ticks, rounded to the
// nearest tick, or 0 when the experiment has no time limit.
func (f Framework) Ticks() int {
	if f.Length <= 0 || f.TicksPerSecond <= 0 {
		return 0
	}
	return int(math.Round(f.Length * float64(f.TicksPerSecond)))
}

// Controller is one child of <controllers>.
type Controller struct {
	Label     string // element tag, the registered controller name, e.g. "epuck_diffusion_controller"
	ID        string // unique among the controllers; robots refer to it with <controller config="...">
	Library   string // accepted and ignored: controllers are compiled in
	Actuators []Device
	Sensors   []Device
	Params    ci.Params // from <params>; empty, named "params" and located at the controller when absent
	Node      *Node
}

// Device is one child of <actuators> or <sensors>.
type Device struct {
	Tag            string // the device's XML tag, e.g. "differential_steering"
	Implementation string // implementation attribute, "default" when absent
	Node           *Node
}

// LoopFunctions is the <loop_functions> section.
type LoopFunctions struct {
	Label   string // the registered loop functions name
	Library string // accepted and ignored
	Node    *Node
}

// FindController returns the controller with the given id, or nil.
func (x *Experiment) FindController(id string) *Controller {
	for _, c := range x.Controllers {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Section names of <argos-configuration>, in the order ARGoS reads them.
func sectionNames() []string {
	return []string{"framework", "controllers", "loop_functions", "arena",
		"physics_engines", "media", "visualization"}
}

// Load reads and parses the experiment file at path. The file must be a
// regular file of at most [MaxFileSize] bytes (see [ReadFile]).
func Load(path string) (*Experiment, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses the contents of an experiment file; file is used in
// positions and error messages. Every error about the content is an
// [*Error].
func Parse(file string, data []byte) (*Experiment, error) {
	root, err := ParseTree(file, data)
	if err != nil {
		return nil, err
	}
	if root.Name != "argos-configuration" {
		return nil, root.Errorf("this is not an experiment file: its root element must be <argos-configuration>, wrap the sections in <argos-configuration>...</argos-configuration>")
	}
	x := &Experiment{File: file, Root: root}
	for _, a := range root.Attrs {
		x.warnf(root, "attribute %q of <argos-configuration> is ignored", a.Name)
	}

	sec := map[string]*Node{}
	for _, c := range root.Children {
		if !contains(sectionNames(), c.Name) {
			return nil, c.Errorf("unknown section%s; the sections of <argos-configuration> are %s",
				ci.DidYouMean(c.Name, sectionNames(), "<%s>"), quoteList(sectionNames(), "<%s>"))
		}
		if prev := sec[c.Name]; prev != nil {
			return nil, c.Errorf("section <%s> appears twice (first at line %d); keep only one", c.Name, prev.Line)
		}
		sec[c.Name] = c
	}

	fw := sec["framework"]
	if fw == nil {
		return nil, root.Errorf(`section <framework> is missing; add <framework><experiment ticks_per_second="10" length="0"/></framework>`)
	}
	if x.Framework, err = x.parseFramework(fw); err != nil {
		return nil, err
	}

	ctrls := sec["controllers"]
	if ctrls == nil {
		return nil, root.Errorf("section <controllers> is missing; add <controllers>, with one element per controller (it may be empty: <controllers/>)")
	}
	if x.Controllers, err = parseControllers(ctrls); err != nil {
		return nil, err
	}

	if lf := sec["loop_functions"]; lf != nil {
		label, err := lf.String("label")
		if err != nil {
			return nil, err
		}
		if label == "" {
			return nil, lf.AttrErrorf("label", `the label is empty; write the name of the loop functions, like label="my_loop_functions", or remove <loop_functions>`)
		}
		x.LoopFunctions = &LoopFunctions{Label: label, Library: lf.StringOr("library", ""), Node: lf}
	}

	arena := sec["arena"]
	if arena == nil {
		return nil, root.Errorf(`section <arena> is missing; add <arena size="x,y,z" center="0,0,0.5"> with the entities inside`)
	}
	x.Arena = arena
	if x.ArenaSize, err = arena.Vector3("size"); err != nil {
		return nil, err
	}
	if x.ArenaSize.X <= 0 || x.ArenaSize.Y <= 0 || x.ArenaSize.Z <= 0 {
		return nil, arena.AttrErrorf("size", `sizes must be positive; write three positive numbers "x,y,z" in metres`)
	}
	if x.ArenaCenter, err = arena.Vector3Or("center", ci.Vector3{}); err != nil {
		return nil, err
	}

	if pe := sec["physics_engines"]; pe != nil {
		x.PhysicsEngines = pe.Children
	}
	if m := sec["media"]; m != nil {
		x.Media = m.Children
	}
	if v := sec["visualization"]; v != nil {
		x.Visualizations = v.Children
	}
	return x, nil
}

// warnf records a warning at n's position.
func (x *Experiment) warnf(n *Node, format string, args ...any) {
	x.Warnings = append(x.Warnings, n.Where()+": "+fmt.Sprintf(format, args...))
}

// uniqueChildren checks that every child of n has one of the allowed
// tags and appears at most once, and returns them by tag.
func uniqueChildren(n *Node, allowed ...string) (map[string]*Node, error) {
	if err := n.CheckChildren(allowed...); err != nil {
		return nil, err
	}
	m := make(map[string]*Node, len(n.Children))
	for _, c := range n.Children {
		if prev := m[c.Name]; prev != nil {
			return nil, c.Errorf("<%s> appears twice in <%s> (first at line %d); keep only one", c.Name, n.Name, prev.Line)
		}
		m[c.Name] = c
	}
	return m, nil
}

func (x *Experiment) parseFramework(n *Node) (Framework, error) {
	f := Framework{Node: n}
	if err := n.CheckAttrs(); err != nil {
		return f, err
	}
	ch, err := uniqueChildren(n, "system", "experiment", "profiling")
	if err != nil {
		return f, err
	}
	if p := ch["profiling"]; p != nil {
		x.warnf(p, "<profiling> is ignored: ARGoS-Go has no built-in profiler (use go tool pprof); remove it to silence this warning")
	}

	if s := ch["system"]; s != nil {
		if err := s.CheckAttrs("threads", "method", "pin_threads_to_cores"); err != nil {
			return f, err
		}
		if s.Has("pin_threads_to_cores") {
			x.warnf(s, "attribute pin_threads_to_cores of <system> is ignored: the Go runtime schedules the threads")
		}
		if f.Threads, err = s.IntOr("threads", 0); err != nil {
			return f, err
		}
		if f.Threads < 0 {
			return f, s.AttrErrorf("threads", "the number of threads must not be negative; write 0 to run on one thread, or the number of threads to use")
		}
		if f.Threads > MaxThreads {
			return f, s.AttrErrorf("threads", "at most %d threads are allowed; write the number of cores to use, like 4", MaxThreads)
		}
		f.ThreadMethod = s.StringOr("method", f.ThreadMethod)
		methods := []string{"balance_quantity", "balance_length"}
		if s.Has("method") && !contains(methods, f.ThreadMethod) {
			return f, s.AttrErrorf("method", "unknown threading method%s; write %s",
				ci.DidYouMean(f.ThreadMethod, methods, "%q"), orList(methods, "%q"))
		}
	}

	e := ch["experiment"]
	if e == nil {
		return f, n.Errorf(`element <experiment> is missing; add <experiment ticks_per_second="10" length="0"/> inside <framework>`)
	}
	if err := e.CheckAttrs("length", "ticks_per_second", "random_seed", "real_time"); err != nil {
		return f, err
	}
	if f.TicksPerSecond, err = e.Int("ticks_per_second"); err != nil {
		return f, err
	}
	if f.TicksPerSecond <= 0 {
		return f, e.AttrErrorf("ticks_per_second", "ticks_per_second must be positive; write how many ticks one simulated second has, like 10")
	}
	if f.Length, err = e.FloatOr("length", 0); err != nil {
		return f, err
	}
	switch ticks := f.Length * float64(f.TicksPerSecond); {
	case f.Length < 0:
		return f, e.AttrErrorf("length", "the length must not be negative; write the duration in seconds, or 0 for no limit")
	case f.Length > 0 && math.Round(ticks) < 1:
		return f, e.AttrErrorf("length", "the experiment is shorter than one tick (%g s at ticks_per_second=%d); write 0 for no limit or at least %g",
			1/float64(f.TicksPerSecond), f.TicksPerSecond, 1/float64(f.TicksPerSecond))
	case ticks > 1<<53:
		return f, e.AttrErrorf("length", "the experiment would last more than 2^53 ticks; write a shorter duration in seconds, or 0 for no limit")
	}
	if f.RandomSeed, err = e.Uint64Or("random_seed", 0); err != nil {
		return f, err
	}
	if f.RealTime, err = e.BoolOr("real_time", false); err != nil {
		return f, err
	}
	return f, nil
}

func parseControllers(n *Node) ([]*Controller, error) {
	if err := n.CheckAttrs(); err != nil {
		return nil, err
	}
	var out []*Controller
	byID := map[string]*Controller{}
	for _, cn := range n.Children {
		c, err := parseController(cn)
		if err != nil {
			return nil, err
		}
		if prev := byID[c.ID]; prev != nil {
			return nil, cn.AttrErrorf("id", "this id is already used by <%s> at line %d; give each controller its own id",
				prev.Label, prev.Node.Line)
		}
		byID[c.ID] = c
		out = append(out, c)
	}
	return out, nil
}

func parseController(n *Node) (*Controller, error) {
	if err := n.CheckAttrs("id", "library"); err != nil {
		return nil, err
	}
	id, err := n.String("id")
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, n.AttrErrorf("id", `the id is empty; write the id that robots use to refer to this controller, like id="ctrl"`)
	}
	c := &Controller{Label: n.Name, ID: id, Library: n.StringOr("library", ""), Node: n}
	ch, err := uniqueChildren(n, "actuators", "sensors", "params")
	if err != nil {
		return nil, err
	}
	if c.Actuators, err = parseDevices(ch["actuators"]); err != nil {
		return nil, err
	}
	if c.Sensors, err = parseDevices(ch["sensors"]); err != nil {
		return nil, err
	}
	if p := ch["params"]; p != nil {
		c.Params = p.Params()
	} else {
		c.Params = ci.Params{Where: n.Where(), Name: "params", Attrs: map[string]string{}}
	}
	return c, nil
}

func parseDevices(n *Node) ([]Device, error) {
	if n == nil {
		return nil, nil
	}
	if err := n.CheckAttrs(); err != nil {
		return nil, err
	}
	out := make([]Device, 0, len(n.Children))
	seen := map[string]*Node{}
	for _, d := range n.Children {
		if prev := seen[d.Name]; prev != nil {
			return nil, d.Errorf("device <%s> is declared twice in <%s> (first at line %d); keep only one",
				d.Name, n.Name, prev.Line)
		}
		seen[d.Name] = d
		impl := d.StringOr("implementation", "default")
		if impl == "" {
			return nil, d.AttrErrorf("implementation", `the implementation is empty; write implementation="default" or remove the attribute`)
		}
		out = append(out, Device{Tag: d.Name, Implementation: impl, Node: d})
	}
	return out, nil
}
