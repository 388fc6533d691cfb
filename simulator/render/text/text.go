// Package text is the text visualization of the original ARGoS design: one
// tab-separated row per entity per tick with the clock, the entity type,
// its id, X, Y, Z and the three Euler angles (Z, Y, X) in degrees, written
// to a file with a chosen precision:
//
//	<visualization>
//	  <text file="out.tsv" precision="3"/>
//	</visualization>
//
// The first line is a header (clock, type, id, x, y, z, rot_z, rot_y,
// rot_x), so the file loads directly into pandas or R. It is a recorder,
// not a viewer: it also runs in headless runs (argos -z). A relative file
// name is taken in the run folder when there is one (argos --out). Rows are
// buffered and flushed every few ticks and on Close, so an interrupted run
// leaves every completed tick on disk.
package text

import (
	"bufio"
	"fmt"
	"os"
	"strconv"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

func init() {
	simulator.Visualizations.MustRegister("text",
		"Writes one tab-separated row per entity per tick (clock, type, id, x, y, z, rot_z, rot_y, rot_x in degrees). "+
			"Attributes: file (default argos_text.tsv), precision (decimals, default 4), every (ticks between rows, default 1).",
		simulator.VisualizationType{New: New})
}

// Text writes the rows.
type Text struct {
	f         *os.File
	w         *bufio.Writer
	precision int
	every     int
	buf       []byte
}

// New builds the visualization from its <text> element.
func New(n *config.Node, sim *simulator.Simulator) (simulator.Visualization, error) {
	if err := n.CheckAttrs("file", "precision", "every"); err != nil {
		return nil, err
	}
	prec, err := n.IntOr("precision", 4)
	if err != nil {
		return nil, err
	}
	every, err := n.IntOr("every", 1)
	if err != nil {
		return nil, err
	}
	if prec < 0 || prec > 17 || every < 1 {
		return nil, n.Errorf("text: precision must be 0-17 and every at least 1")
	}
	name := sim.OutputPath(n.StringOr("file", "argos_text.tsv"))
	f, err := os.Create(name)
	if err != nil {
		return nil, n.Errorf("text: cannot create %q: %v; check that its directory exists and is writable", name, err)
	}
	t := &Text{f: f, w: bufio.NewWriterSize(f, 1<<16), precision: prec, every: every}
	if _, err := t.w.WriteString("clock\ttype\tid\tx\ty\tz\trot_z\trot_y\trot_x\n"); err != nil {
		f.Close()
		return nil, err
	}
	return t, nil
}

// Draw implements simulator.Visualization.
func (t *Text) Draw(sim *simulator.Simulator) error {
	tick := sim.Tick()
	if tick%t.every != 0 {
		return nil
	}
	for i := range sim.Space().Bodies {
		b := &sim.Space().Bodies[i]
		if b.Removed {
			continue
		}
		pitch, roll := b.Tilt()
		t.row(tick, b.Type, b.ID, b.Pos.X, b.Pos.Y, b.Z, b.Yaw, pitch, roll)
	}
	for _, l := range sim.Lights() {
		t.row(tick, "light", l.ID, l.Position.X, l.Position.Y, l.Position.Z, 0, 0, 0)
	}
	if _, err := t.w.Write(t.buf); err != nil {
		return fmt.Errorf("text: writing %s: %w", t.f.Name(), err)
	}
	t.buf = t.buf[:0]
	if tick%50 == 0 {
		return t.w.Flush()
	}
	return nil
}

func (t *Text) row(tick int, typ, id string, x, y, z, rz, ry, rx float64) {
	b := strconv.AppendInt(t.buf, int64(tick), 10)
	b = append(b, '\t')
	b = append(b, typ...)
	b = append(b, '\t')
	b = append(b, id...)
	for _, v := range [...]float64{x, y, z, ci.Degrees(rz), ci.Degrees(ry), ci.Degrees(rx)} {
		b = append(b, '\t')
		b = strconv.AppendFloat(b, v+0, 'f', t.precision, 64)
	}
	t.buf = append(b, '\n')
}

// Close implements simulator.Visualization: it flushes and closes the file.
func (t *Text) Close() error {
	err := t.w.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}
