package trace

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/space"
)

// Label is the name <loop_functions label="..."> uses.
const Label = "trace_loop_functions"

const description = "Pose trace, as ARGoS's reference traces record it: a tab-separated file, no header, one row " +
	"\"tick id x y yaw\" per entity with a body (robots, boxes, cylinders), sorted by id, numbers with 17 significant " +
	"digits (m and rad, yaw in (-pi, pi]). Tick 0 (written at Init) lists every entity, static ones included; tick t " +
	"(written in PostStep when t is a multiple of every) lists the movable ones. Attributes: output (required; a " +
	"relative name lands in the run folder), every (period in ticks, default 1). Reset truncates the file and writes " +
	"tick 0 again."

func init() {
	simulator.LoopFunctionsTypes.MustRegister(Label, description,
		func() simulator.LoopFunctions { return New() })
}

// Trace is trace_loop_functions. Make it with New.
type Trace struct {
	simulator.LoopFunctionsBase
	sim    *simulator.Simulator
	node   *config.Node
	output string
	path   string
	every  int

	// order holds the handles of the bodies sorted by id; seen is the
	// number of bodies of the space when it was sorted.
	order []int
	seen  int

	file *os.File
	w    *bufio.Writer
	err  error // the first write error, reported on flush or close
	line []byte
}

// New returns trace loop functions, ready for Init.
func New() *Trace { return &Trace{} }

// Init reads the attributes, creates the file and writes tick 0.
func (t *Trace) Init(sim *simulator.Simulator, n *config.Node) error {
	if err := n.CheckAttrs("label", "library", "output", "every"); err != nil {
		return err
	}
	if err := n.CheckChildren(); err != nil {
		return err
	}
	output, err := n.String("output")
	if err != nil {
		return err
	}
	if output == "" {
		return n.AttrErrorf("output", "trace: name the file to write, like output=\"trace.tsv\"")
	}
	every, err := n.IntOr("every", 1)
	if err != nil {
		return err
	}
	if every < 1 {
		return n.AttrErrorf("every", "trace: the period must be at least 1 tick; write every=\"1\" to trace every tick")
	}
	t.sim, t.node, t.output, t.every = sim, n, output, every
	t.path = sim.OutputPath(output)
	return t.start()
}

// start (re)creates the file and writes tick 0.
func (t *Trace) start() error {
	f, err := os.Create(t.path)
	if err != nil {
		return t.node.AttrErrorf("output", "trace: %v; name a file in a folder that exists and can be written", err)
	}
	t.file, t.w, t.err = f, bufio.NewWriter(f), nil
	t.seen = -1
	t.write(0, false)
	return nil
}

// PostStep writes the movable entities' poses when the tick is a multiple
// of the period.
func (t *Trace) PostStep() {
	if tick := t.sim.Tick(); tick%t.every == 0 {
		t.write(tick, true)
	}
}

// write appends one row per body, in id order; movable only skips static
// bodies.
func (t *Trace) write(tick int, movableOnly bool) {
	if t.w == nil || t.err != nil {
		return
	}
	bodies := t.sim.Space().Bodies
	if len(bodies) != t.seen {
		t.sort(bodies)
	}
	for _, i := range t.order {
		b := &bodies[i]
		if b.Removed || (movableOnly && !b.Movable) {
			continue
		}
		t.line = AppendRow(t.line[:0], tick, b)
		if _, err := t.w.Write(t.line); err != nil {
			t.err = err
			return
		}
	}
}

// sort orders the bodies by id. It runs again when bodies were added.
func (t *Trace) sort(bodies []space.Body) {
	t.order = t.order[:0]
	for i := range bodies {
		t.order = append(t.order, i)
	}
	slices.SortStableFunc(t.order, func(a, b int) int { return strings.Compare(bodies[a].ID, bodies[b].ID) })
	t.seen = len(bodies)
}

// AppendRow appends the trace row of body b at tick to dst: tick, id, x,
// y and yaw separated by tabs, ended by a newline, numbers with 17
// significant digits and the yaw in (-pi, pi].
func AppendRow(dst []byte, tick int, b *space.Body) []byte {
	dst = strconv.AppendInt(dst, int64(tick), 10)
	dst = append(dst, '\t')
	dst = append(dst, b.ID...)
	for _, v := range [3]float64{b.Pos.X, b.Pos.Y, Yaw(b.Yaw)} {
		dst = append(dst, '\t')
		dst = strconv.AppendFloat(dst, v, 'g', 17, 64)
	}
	return append(dst, '\n')
}

// Yaw brings an angle into (-pi, pi], as ARGoS writes the Z Euler angle
// (-pi becomes +pi).
func Yaw(a float64) float64 {
	if a > -math.Pi && a <= math.Pi {
		return a
	}
	a = math.Remainder(a, 2*math.Pi)
	if a <= -math.Pi {
		a += 2 * math.Pi
	}
	return a
}

// Reset truncates the file and writes tick 0 again.
func (t *Trace) Reset() error {
	if err := t.close(); err != nil {
		return err
	}
	return t.start()
}

// PostExperiment writes out what is buffered, logging a failure.
func (t *Trace) PostExperiment() {
	if t.w == nil {
		return
	}
	if err := errors.Join(t.err, t.w.Flush()); err != nil {
		t.sim.Logger().Errorf("trace: writing %s: %v", t.path, err)
	}
}

// Destroy flushes and closes the file.
func (t *Trace) Destroy() error { return t.close() }

func (t *Trace) close() error {
	if t.file == nil {
		return nil
	}
	err := errors.Join(t.err, t.w.Flush(), t.file.Close())
	t.file, t.w = nil, nil
	if err != nil {
		return fmt.Errorf("trace: writing %s: %w; check that the disk is not full", t.path, err)
	}
	return nil
}
