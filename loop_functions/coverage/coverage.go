// Package coverage holds coverage_loop_functions, which measure how much
// of the arena the robots have visited: the floor is cut into square
// cells (cell="0.1" metres by default) and every tick the fraction of
// cells that some robot's centre has been in is recorded as the per-tick
// metric "coverage" (0 to 1). It is the objective of the sweep and irace
// examples (docs/sweeps.md):
//
//	<loop_functions label="coverage_loop_functions" cell="0.1" />
package coverage

import (
	"math"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// Label is the name <loop_functions label> uses.
const Label = "coverage_loop_functions"

// Metric is the name of the recorded metric.
const Metric = "coverage"

func init() {
	simulator.LoopFunctionsTypes.MustRegister(Label,
		"Records the per-tick metric \"coverage\": the fraction of the arena's floor cells (attribute cell, "+
			"side in metres, default 0.1) that some robot's centre has visited.",
		func() simulator.LoopFunctions { return &LoopFunctions{} })
}

// LoopFunctions are coverage_loop_functions.
type LoopFunctions struct {
	simulator.LoopFunctionsBase
	sim        *simulator.Simulator
	cell       float64
	minX, minY float64
	nx, ny     int
	visited    []bool
	count      int
}

// Init reads the cell size and lays the grid over the arena.
func (l *LoopFunctions) Init(sim *simulator.Simulator, n *config.Node) error {
	cell, err := n.FloatOr("cell", 0.1)
	if err != nil {
		return err
	}
	size, center := sim.Experiment().ArenaSize, sim.Experiment().ArenaCenter
	if cell <= 0 || size.X/cell*size.Y/cell > 1e8 {
		return n.AttrErrorf("cell", "give a positive cell side in metres such that the arena has at most 10^8 cells, like 0.1")
	}
	l.sim, l.cell = sim, cell
	l.minX, l.minY = center.X-size.X/2, center.Y-size.Y/2
	l.nx, l.ny = max(1, int(math.Ceil(size.X/cell))), max(1, int(math.Ceil(size.Y/cell)))
	l.visited = make([]bool, l.nx*l.ny)
	return l.Reset()
}

// Reset forgets every visit and counts the robots' starting cells.
func (l *LoopFunctions) Reset() error {
	clear(l.visited)
	l.count = 0
	l.mark()
	return nil
}

func (l *LoopFunctions) mark() {
	for i := range l.sim.NumRobots() {
		p := l.sim.Robot(i).B().Pos
		x, y := int((p.X-l.minX)/l.cell), int((p.Y-l.minY)/l.cell)
		if x < 0 || y < 0 || x >= l.nx || y >= l.ny {
			continue
		}
		if k := y*l.nx + x; !l.visited[k] {
			l.visited[k] = true
			l.count++
		}
	}
}

// PostStep marks the robots' cells and records the coverage.
func (l *LoopFunctions) PostStep() {
	l.mark()
	l.sim.Metrics().Record(Metric, l.Coverage())
}

// Coverage returns the fraction of cells visited so far.
func (l *LoopFunctions) Coverage() float64 { return float64(l.count) / float64(len(l.visited)) }
