package gridworld

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// Experiment is a grid-world experiment file: an ARGoS-style
// <argos-configuration> whose <arena> holds a <grid> and an <agents>
// element instead of entities.
//
//	<argos-configuration>
//	  <framework>
//	    <system threads="2"/>
//	    <experiment length="100" random_seed="7"/>  <!-- 100 rounds; 0: until the program is finished -->
//	  </framework>
//	  <arena>
//	    <grid size="1000,1000" torus="true"/>       <!-- "x,y" or "x,y,z"; torus="false" for a bounded grid -->
//	    <agents program="task_allocation" quantity="10000000" radius="2">
//	      <params tasks="2000000" demand="7000000"/>
//	    </agents>
//	  </arena>
//	  <visualization><web port="8080"/></visualization>  <!-- optional -->
//	</argos-configuration>
//
// A round is a tick: length is in seconds of ticks_per_second ticks,
// and ticks_per_second defaults to 1, so that length counts rounds.
type Experiment struct {
	File string
	Root *config.Node
	// Framework is <framework>: threads, length (in rounds at the
	// default ticks_per_second of 1), random seed.
	Framework config.Framework
	Grid      Grid
	// Program is the label of the agents' program, Agents their number,
	// Radius the radius of their local mapping.
	Program string
	Agents  int
	Radius  int
	// Params is the <params> element inside <agents>.
	Params ci.Params
	// GridNode and AgentsNode are the <grid> and <agents> elements.
	GridNode, AgentsNode *config.Node
	// Visualizations are the children of <visualization>.
	Visualizations []*config.Node
	// Warnings are things accepted but ignored, as "file:line: ...".
	Warnings []string
}

// Rounds returns the number of rounds to run, 0 for no limit (until the
// program says it is finished).
func (x *Experiment) Rounds() int { return x.Framework.Ticks() }

// Load reads a grid-world experiment file.
func Load(path string) (*Experiment, error) {
	data, err := config.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// IsGrid reports whether data is an experiment file whose <arena> holds
// a <grid>: a grid-world experiment. It looks at the XML only and says
// false for anything it cannot read, leaving the errors to the full
// parsers.
func IsGrid(data []byte) bool {
	if !bytes.Contains(data, []byte("<grid")) {
		return false
	}
	root, err := config.ParseTree("", data)
	if err != nil || root.Name != "argos-configuration" {
		return false
	}
	return root.FirstChild("arena").FirstChild("grid") != nil
}

func (x *Experiment) warnf(n *config.Node, format string, args ...any) {
	x.Warnings = append(x.Warnings, n.Where()+": "+fmt.Sprintf(format, args...))
}

// Parse parses a grid-world experiment file; file is used in positions
// and error messages. Every error about the content says file:line.
func Parse(file string, data []byte) (*Experiment, error) {
	root, err := config.ParseTree(file, data)
	if err != nil {
		return nil, err
	}
	if root.Name != "argos-configuration" {
		return nil, root.Errorf("this is not an experiment file: its root element must be <argos-configuration>")
	}
	x := &Experiment{File: file, Root: root}
	sections := []string{"framework", "controllers", "loop_functions", "arena", "physics_engines", "media", "visualization"}
	sec := map[string]*config.Node{}
	for _, c := range root.Children {
		known := false
		for _, s := range sections {
			known = known || s == c.Name
		}
		if !known {
			return nil, c.Errorf("unknown section; a grid-world experiment has <framework>, <arena> and optionally <visualization>")
		}
		if prev := sec[c.Name]; prev != nil {
			return nil, c.Errorf("section <%s> appears twice (first at line %d); keep only one", c.Name, prev.Line)
		}
		sec[c.Name] = c
	}
	for _, name := range []string{"controllers", "loop_functions", "physics_engines", "media"} {
		n := sec[name]
		if n == nil {
			continue
		}
		if len(n.Children) > 0 || len(n.Attrs) > 0 {
			return nil, n.Errorf("a grid world has no %s: its agents run the program named by <agents program=\"...\">; remove <%s>", strings.ReplaceAll(name, "_", " "), name)
		}
	}
	fw := sec["framework"]
	if fw == nil {
		return nil, root.Errorf(`section <framework> is missing; add <framework><experiment length="100" random_seed="1"/></framework> (length in rounds)`)
	}
	if x.Framework, err = x.parseFramework(fw); err != nil {
		return nil, err
	}
	arena := sec["arena"]
	if arena == nil {
		return nil, root.Errorf(`section <arena> is missing; add <arena><grid size="100,100"/><agents program="..." quantity="..."/></arena>`)
	}
	if err := x.parseArena(arena); err != nil {
		return nil, err
	}
	if v := sec["visualization"]; v != nil {
		if err := v.CheckAttrs(); err != nil {
			return nil, err
		}
		x.Visualizations = v.Children
	}
	return x, nil
}

func (x *Experiment) parseFramework(n *config.Node) (config.Framework, error) {
	f := config.Framework{Node: n, TicksPerSecond: 1}
	if err := n.CheckAttrs(); err != nil {
		return f, err
	}
	if err := n.CheckChildren("system", "experiment", "profiling"); err != nil {
		return f, err
	}
	for _, name := range []string{"system", "experiment", "profiling"} {
		if _, err := n.OptionalChild(name); err != nil {
			return f, err
		}
	}
	if p := n.FirstChild("profiling"); p != nil {
		x.warnf(p, "<profiling> is ignored; remove it to silence this warning")
	}
	if s := n.FirstChild("system"); s != nil {
		if err := s.CheckAttrs("threads", "method", "pin_threads_to_cores"); err != nil {
			return f, err
		}
		for _, a := range []string{"method", "pin_threads_to_cores"} {
			if s.Has(a) {
				x.warnf(s, "attribute %s of <system> is ignored by grid worlds", a)
			}
		}
		var err error
		if f.Threads, err = s.IntOr("threads", 0); err != nil {
			return f, err
		}
		if f.Threads < 0 || f.Threads > config.MaxThreads {
			return f, s.AttrErrorf("threads", "write 0 to run on one thread, or the number of threads to use, at most %d", config.MaxThreads)
		}
	}
	e := n.FirstChild("experiment")
	if e == nil {
		return f, n.Errorf(`element <experiment> is missing; add <experiment length="100" random_seed="1"/> inside <framework> (length in rounds)`)
	}
	if err := e.CheckAttrs("length", "ticks_per_second", "random_seed", "real_time"); err != nil {
		return f, err
	}
	if e.Has("real_time") {
		x.warnf(e, "attribute real_time is ignored by grid worlds: rounds run as fast as they can")
	}
	var err error
	if f.TicksPerSecond, err = e.IntOr("ticks_per_second", 1); err != nil {
		return f, err
	}
	if f.TicksPerSecond <= 0 {
		return f, e.AttrErrorf("ticks_per_second", "write how many rounds make a simulated second, like 1 (the default)")
	}
	if f.Length, err = e.FloatOr("length", 0); err != nil {
		return f, err
	}
	switch rounds := f.Length * float64(f.TicksPerSecond); {
	case f.Length < 0:
		return f, e.AttrErrorf("length", "the length must not be negative; write the number of rounds, or 0 to run until the program is finished")
	case f.Length > 0 && math.Round(rounds) < 1:
		return f, e.AttrErrorf("length", "the run is shorter than one round; write at least %g, or 0 to run until the program is finished", 1/float64(f.TicksPerSecond))
	case rounds > 1<<40:
		return f, e.AttrErrorf("length", "write fewer than 2^40 rounds, or 0 to run until the program is finished")
	}
	if f.RandomSeed, err = e.Uint64Or("random_seed", 0); err != nil {
		return f, err
	}
	return f, nil
}

func (x *Experiment) parseArena(a *config.Node) error {
	for _, at := range a.Attrs {
		switch at.Name {
		case "size", "center", "positional_index":
			x.warnf(a, "attribute %s of <arena> is ignored: the <grid> sets the world's size", at.Name)
		default:
			return a.Errorf("unknown attribute %q; a grid world's <arena> takes no attributes", at.Name)
		}
	}
	if err := a.CheckChildren("grid", "agents"); err != nil {
		return err
	}
	g, err := a.OptionalChild("grid")
	if err != nil {
		return err
	}
	ag, err := a.OptionalChild("agents")
	if err != nil {
		return err
	}
	if g == nil {
		return a.Errorf(`element <grid> is missing; add <grid size="100,100" torus="true"/>`)
	}
	if ag == nil {
		return a.Errorf(`element <agents> is missing; add <agents program="..." quantity="100"/> (argos -q all lists the programs)`)
	}
	x.GridNode, x.AgentsNode = g, ag
	if x.Grid, err = parseGrid(g); err != nil {
		return err
	}
	if err := ag.CheckAttrs("program", "quantity", "radius"); err != nil {
		return err
	}
	if err := ag.CheckChildren("params"); err != nil {
		return err
	}
	p, err := ag.OptionalChild("params")
	if err != nil {
		return err
	}
	if x.Program, err = ag.String("program"); err != nil {
		return err
	}
	if x.Program == "" {
		return ag.AttrErrorf("program", "write the label of a grid program (argos -q all lists them)")
	}
	if x.Agents, err = ag.Int("quantity"); err != nil {
		return err
	}
	if x.Agents < 1 || x.Agents > MaxAgents {
		return ag.AttrErrorf("quantity", "write a number of agents from 1 to %d", MaxAgents)
	}
	if x.Radius, err = ag.IntOr("radius", 1); err != nil {
		return err
	}
	if p != nil {
		x.Params = p.Params()
	} else {
		x.Params = ci.Params{Where: ag.Where(), Name: "params", Attrs: map[string]string{}}
	}
	s := x.Setup(1, 0)
	if err := s.Config.Check(); err != nil {
		return s.locate(err)
	}
	return nil
}

// parseGrid reads <grid size="x,y[,z]" torus="true|false">.
func parseGrid(g *config.Node) (Grid, error) {
	if err := g.CheckAttrs("size", "torus"); err != nil {
		return Grid{}, err
	}
	if err := g.CheckChildren(); err != nil {
		return Grid{}, err
	}
	s, err := g.String("size")
	if err != nil {
		return Grid{}, err
	}
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 3 {
		return Grid{}, g.AttrErrorf("size", `write two sizes "x,y" for a 2D grid or three "x,y,z" for a 3D one, in vertices`)
	}
	grid := Grid{Size: [3]int{1, 1, 1}, Dims: len(parts)}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return Grid{}, g.AttrErrorf("size", "%q is not a whole number; write the number of vertices along each axis, like \"100,100\"", strings.TrimSpace(p))
		}
		if v < 1 {
			return Grid{}, g.AttrErrorf("size", "the grid has %d vertices along %c; give every axis at least 1 vertex", v, "xyz"[i])
		}
		grid.Size[i] = v
	}
	if grid.Torus, err = g.BoolOr("torus", true); err != nil {
		return Grid{}, err
	}
	if err := grid.Check(); err != nil {
		var ce *ConfigError
		if asConfigError(err, &ce) {
			return Grid{}, g.AttrErrorf(ce.Field, "%s", ce.Msg)
		}
		return Grid{}, err
	}
	return grid, nil
}

func asConfigError(err error, out **ConfigError) bool {
	ce, ok := err.(*ConfigError)
	if ok {
		*out = ce
	}
	return ok
}

// Setup returns the program's setup for this experiment with the given
// seed and threads (the file's unless the command line overrides them).
func (x *Experiment) Setup(seed uint64, threads int) *Setup {
	return &Setup{
		Config: Config{Grid: x.Grid, Agents: x.Agents, Radius: x.Radius, Seed: seed, Threads: threads},
		Params: x.Params, AgentsNode: x.AgentsNode, GridNode: x.GridNode,
	}
}

// Build looks the program up and builds its world with the given seed and
// threads. An unknown program is an error at <agents program>.
func (x *Experiment) Build(seed uint64, threads int) (Instance, error) {
	f, err := Programs.Lookup(x.Program)
	if err != nil {
		return nil, x.AgentsNode.AttrErrorf("program", "%v", err)
	}
	s := x.Setup(seed, threads)
	s.Params = s.Params.Track()
	inst, err := f(s)
	if err != nil {
		return nil, s.locate(err)
	}
	if err := s.Params.CheckUnread(); err != nil {
		return nil, err
	}
	return inst, nil
}
