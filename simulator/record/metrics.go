package record

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/argosgo/argos/simulator"
	"github.com/parquet-go/parquet-go"
)

// Row is one recorded value, as the Parquet file stores it. Robot is nil
// for a per-tick metric of the whole experiment.
type Row struct {
	Tick   int64   `parquet:"tick,delta"`
	Time   float64 `parquet:"time"`
	Robot  *string `parquet:"robot,optional,dict,zstd"`
	Metric string  `parquet:"metric,dict,zstd"`
	Value  float64 `parquet:"value,zstd"`
}

// CSVHeader is the first line of metrics.csv.
const CSVHeader = "tick,time,robot,metric,value"

// Metrics writes the samples a simulator records to metrics.csv (and
// metrics.parquet) in a run folder. It is a simulator.Visualization: add it
// with Simulator.AddVisualization, and build the simulator with
// Options.Metrics so that there is something to record.
type Metrics struct {
	sim       *simulator.Simulator
	tps       float64
	csvFile   *os.File
	csv       *bufio.Writer
	pqFile    *os.File
	pq        *parquet.GenericWriter[Row]
	rows      []Row
	robots    map[string]*string
	samples   []simulator.Sample
	line      []byte
	lastFlush time.Time
	err       error
}

// rowGroup is how many rows a Parquet row group holds at most.
const rowGroup = 1 << 17

// NewMetrics creates metrics.csv, and metrics.parquet when parquetToo, in
// the folder.
func (f *Folder) NewMetrics(sim *simulator.Simulator, parquetToo bool) (*Metrics, error) {
	m := &Metrics{sim: sim, tps: 1 / sim.TickLength(), robots: map[string]*string{}, lastFlush: time.Now()}
	if tps := sim.Experiment().Framework.TicksPerSecond; tps > 0 {
		m.tps = float64(tps)
	}
	var err error
	if m.csvFile, err = os.Create(f.Path(CSVFile)); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	m.csv = bufio.NewWriterSize(m.csvFile, 1<<16)
	m.csv.WriteString(CSVHeader + "\n")
	if parquetToo {
		if m.pqFile, err = os.Create(f.Path(ParquetFile)); err != nil {
			m.csvFile.Close()
			return nil, fmt.Errorf("record: %w", err)
		}
		m.pq = parquet.NewGenericWriter[Row](m.pqFile, parquet.CreatedBy("argos", Version(), ""))
	}
	return m, nil
}

// Draw implements simulator.Visualization: it writes the samples of the
// tick that just ran.
func (m *Metrics) Draw(sim *simulator.Simulator) error {
	if m.err != nil {
		return m.err
	}
	m.take(sim.Tick())
	if time.Since(m.lastFlush) >= time.Second {
		m.flush()
	}
	return m.err
}

func (m *Metrics) take(tick int) {
	m.samples = m.sim.TakeSamples(m.samples[:0])
	if len(m.samples) == 0 {
		return
	}
	t := float64(tick) / m.tps
	for _, s := range m.samples {
		b := strconv.AppendInt(m.line[:0], int64(tick), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, t, 'g', -1, 64)
		b = append(b, ',')
		b = appendCSV(b, s.Robot)
		b = append(b, ',')
		b = appendCSV(b, s.Name)
		b = append(b, ',')
		b = strconv.AppendFloat(b, s.Value, 'g', -1, 64)
		b = append(b, '\n')
		m.line = b
		if _, err := m.csv.Write(b); err != nil && m.err == nil {
			m.err = fmt.Errorf("record: writing %s: %w", m.csvFile.Name(), err)
		}
		if m.pq != nil {
			m.rows = append(m.rows, Row{Tick: int64(tick), Time: t, Robot: m.robot(s.Robot), Metric: s.Name, Value: s.Value})
		}
	}
	if len(m.rows) >= rowGroup {
		m.flushParquet(true)
	}
}

func (m *Metrics) robot(id string) *string {
	if id == "" {
		return nil
	}
	p, ok := m.robots[id]
	if !ok {
		p = &id
		m.robots[id] = p
	}
	return p
}

func (m *Metrics) flushParquet(rowGroupDone bool) {
	if m.pq == nil || len(m.rows) == 0 {
		return
	}
	if _, err := m.pq.Write(m.rows); err != nil && m.err == nil {
		m.err = fmt.Errorf("record: writing %s: %w", m.pqFile.Name(), err)
	}
	m.rows = m.rows[:0]
	if rowGroupDone {
		if err := m.pq.Flush(); err != nil && m.err == nil {
			m.err = fmt.Errorf("record: writing %s: %w", m.pqFile.Name(), err)
		}
	}
}

func (m *Metrics) flush() {
	m.lastFlush = time.Now()
	if err := m.csv.Flush(); err != nil && m.err == nil {
		m.err = fmt.Errorf("record: writing %s: %w", m.csvFile.Name(), err)
	}
	m.flushParquet(false)
}

// Close writes what was recorded since the last tick (by PostExperiment,
// say) and completes both files.
func (m *Metrics) Close() error {
	tick := m.sim.Tick()
	m.take(tick)
	m.flush()
	errs := []error{m.err, m.csvFile.Close()}
	if m.pq != nil {
		errs = append(errs, m.pq.Close(), m.pqFile.Close())
	}
	return errors.Join(errs...)
}

// appendCSV appends s as a CSV field (RFC 4180), quoted when it must be.
func appendCSV(b []byte, s string) []byte {
	need := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\n' || c == '\r' {
			need = true
			break
		}
	}
	if len(s) > 0 && (s[0] == ' ' || s[len(s)-1] == ' ') {
		need = true
	}
	if !need {
		return append(b, s...)
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			b = append(b, '"')
		}
		b = append(b, s[i])
	}
	return append(b, '"')
}
