package record

import (
	"time"

	"github.com/argosgo/argos/simulator"
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
	rows      *Rows
	samples   []simulator.Sample
	lastFlush time.Time
}

// rowGroup is how many rows a Parquet row group holds at most.
const rowGroup = 1 << 17

// NewMetrics creates metrics.csv, and metrics.parquet when parquetToo, in
// the folder.
func (f *Folder) NewMetrics(sim *simulator.Simulator, parquetToo bool) (*Metrics, error) {
	m := &Metrics{sim: sim, tps: 1 / sim.TickLength(), lastFlush: time.Now()}
	if tps := sim.Experiment().Framework.TicksPerSecond; tps > 0 {
		m.tps = float64(tps)
	}
	var err error
	if m.rows, err = f.NewRows(parquetToo); err != nil {
		return nil, err
	}
	return m, nil
}

// Draw implements simulator.Visualization: it writes the samples of the
// tick that just ran, and flushes the files every second or so.
func (m *Metrics) Draw(sim *simulator.Simulator) error {
	if m.rows.err != nil {
		return m.rows.err
	}
	m.take(sim.Tick())
	if time.Since(m.lastFlush) >= time.Second {
		m.lastFlush = time.Now()
		return m.rows.Flush()
	}
	return m.rows.err
}

func (m *Metrics) take(tick int) {
	m.samples = m.sim.TakeSamples(m.samples[:0])
	t := float64(tick) / m.tps
	for _, s := range m.samples {
		m.rows.Write(int64(tick), t, s.Robot, s.Name, s.Value)
	}
}

// Close writes what was recorded since the last tick (by PostExperiment,
// say) and completes both files.
func (m *Metrics) Close() error {
	m.take(m.sim.Tick())
	return m.rows.Close()
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
