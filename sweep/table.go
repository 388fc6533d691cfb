package sweep

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"

	"github.com/argosgo/argos/simulator/record"
	"github.com/parquet-go/parquet-go"
)

// Row is one row of a sweep's table: one metric of one run.
type Row struct {
	Cell   int
	Config int
	Seed   uint64
	Values []string // the parameters, in Table.Params order
	Metric string
	Value  *float64 // nil when the run failed or did not record the metric
	Status string   // "finished" or "failed"
	Error  string
}

// Table is the tidy table of a sweep: the finished runs' metrics.
type Table struct {
	Params []Column
	Rows   []Row
	// Missing lists the cells with no result yet.
	Missing []int
}

// Collect builds the table from a sweep folder: one row per finished
// (or failed) run and metric, in cell order.
func Collect(out string) (*Table, error) {
	p, err := ReadPlan(out)
	if err != nil {
		return nil, err
	}
	t := &Table{Params: p.Params}
	for _, c := range p.Cells {
		r, ok := ReadResult(out, c.Index)
		if !ok {
			t.Missing = append(t.Missing, c.Index)
			continue
		}
		vals, errs := CellMetrics(out, p.Metrics, r)
		for k, m := range p.Metrics {
			row := Row{Cell: c.Index, Config: c.Config, Seed: c.Seed, Values: c.Values, Metric: m.Name, Status: r.Status, Error: r.Error}
			if !math.IsNaN(vals[k]) {
				v := vals[k]
				row.Value = &v
			}
			if row.Error == "" {
				row.Error = errs[k]
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t, nil
}

// CellMetrics computes the metrics of a run from its folder: NaN, with a
// reason, for those it cannot give.
func CellMetrics(out string, metrics []Metric, r Result) ([]float64, []string) {
	vals := make([]float64, len(metrics))
	errs := make([]string, len(metrics))
	var rows []record.Row
	var readErr error
	read := false
	for k, m := range metrics {
		vals[k] = math.NaN()
		switch m.Source {
		case "run.ticks":
			vals[k] = float64(r.Ticks)
			continue
		case "run.simulated_seconds":
			vals[k] = r.SimulatedSeconds
			continue
		case "run.loop_seconds":
			vals[k] = r.LoopSeconds
			continue
		case "run.wall_seconds":
			vals[k] = r.WallSeconds
			continue
		}
		if r.Status != "finished" {
			continue
		}
		if !read {
			read = true
			rows, readErr = record.ReadCSV(filepath.Join(RunDir(out, r.Cell), record.CSVFile))
		}
		if readErr != nil {
			errs[k] = readErr.Error()
			continue
		}
		v, ok := reduce(rows, m.Source, m.Reduce)
		if !ok {
			errs[k] = fmt.Sprintf("the run recorded no metric %q", m.Source)
			continue
		}
		vals[k] = v
	}
	return vals, errs
}

// reduce turns the rows of one metric into one number.
func reduce(rows []record.Row, metric, how string) (float64, bool) {
	var (
		n        int
		sum      float64
		lo, hi         = math.Inf(1), math.Inf(-1)
		lastTick int64 = -1
		lastSum  float64
		lastN    int
	)
	for _, r := range rows {
		if r.Metric != metric {
			continue
		}
		n++
		sum += r.Value
		lo, hi = math.Min(lo, r.Value), math.Max(hi, r.Value)
		switch {
		case r.Tick > lastTick:
			lastTick, lastSum, lastN = r.Tick, r.Value, 1
		case r.Tick == lastTick:
			lastSum += r.Value
			lastN++
		}
	}
	if n == 0 {
		return 0, how == "count"
	}
	switch how {
	case "mean":
		return sum / float64(n), true
	case "sum":
		return sum, true
	case "min":
		return lo, true
	case "max":
		return hi, true
	case "count":
		return float64(n), true
	}
	return lastSum / float64(lastN), true
}

// Header returns the table's columns.
func (t *Table) Header() []string {
	h := []string{"cell", "config", "seed"}
	for _, p := range t.Params {
		h = append(h, p.Name)
	}
	return append(h, "metric", "value", "status", "error")
}

// CSV returns the table as CSV text.
func (t *Table) CSV() []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(t.Header())
	rec := make([]string, 0, len(t.Params)+7)
	for _, r := range t.Rows {
		rec = append(rec[:0], strconv.Itoa(r.Cell), strconv.Itoa(r.Config), strconv.FormatUint(r.Seed, 10))
		rec = append(rec, r.Values...)
		v := ""
		if r.Value != nil {
			v = strconv.FormatFloat(*r.Value, 'g', -1, 64)
		}
		rec = append(rec, r.Metric, v, r.Status, r.Error)
		w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

// parquetType is the Go struct type whose fields are the table's
// columns, for parquet-go.
func (t *Table) parquetType() reflect.Type {
	f := func(name string, typ reflect.Type, tag string) reflect.StructField {
		return reflect.StructField{Name: name, Type: typ, Tag: reflect.StructTag(`parquet:"` + tag + `"`)}
	}
	fields := []reflect.StructField{
		f("Cell", reflect.TypeFor[int64](), "cell"),
		f("Config", reflect.TypeFor[int64](), "config"),
		f("Seed", reflect.TypeFor[uint64](), "seed"),
	}
	for i, p := range t.Params {
		if p.Numeric {
			fields = append(fields, f(fmt.Sprintf("P%d", i), reflect.TypeFor[float64](), p.Name))
		} else {
			fields = append(fields, f(fmt.Sprintf("P%d", i), reflect.TypeFor[string](), p.Name+",dict"))
		}
	}
	fields = append(fields,
		f("Metric", reflect.TypeFor[string](), "metric,dict"),
		f("Value", reflect.TypeFor[*float64](), "value,optional"),
		f("Status", reflect.TypeFor[string](), "status,dict"),
		f("Error", reflect.TypeFor[string](), "error"),
	)
	return reflect.StructOf(fields)
}

// Parquet returns the table as a Parquet file; numeric parameters are
// DOUBLE columns, the others strings, value is null where the CSV is
// empty.
func (t *Table) Parquet() ([]byte, error) {
	typ := t.parquetType()
	var b bytes.Buffer
	w := parquet.NewWriter(&b, parquet.SchemaOf(reflect.New(typ).Interface()), parquet.CreatedBy("argos sweep", record.Version(), ""))
	v := reflect.New(typ).Elem()
	for _, r := range t.Rows {
		v.Field(0).SetInt(int64(r.Cell))
		v.Field(1).SetInt(int64(r.Config))
		v.Field(2).SetUint(r.Seed)
		for i, p := range t.Params {
			if p.Numeric {
				x, err := strconv.ParseFloat(r.Values[i], 64)
				if err != nil {
					x = math.NaN()
				}
				v.Field(3 + i).SetFloat(x)
			} else {
				v.Field(3 + i).SetString(r.Values[i])
			}
		}
		k := 3 + len(t.Params)
		v.Field(k).SetString(r.Metric)
		if r.Value != nil {
			x := *r.Value
			v.Field(k + 1).Set(reflect.ValueOf(&x))
		} else {
			v.Field(k + 1).SetZero()
		}
		v.Field(k + 2).SetString(r.Status)
		v.Field(k + 3).SetString(r.Error)
		if err := w.Write(v.Addr().Interface()); err != nil {
			return nil, fmt.Errorf("sweep: parquet: %w", err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("sweep: parquet: %w", err)
	}
	return b.Bytes(), nil
}

// WriteTable collects the table of a sweep folder and writes
// results.csv and results.parquet, each replaced whole, so that a reader
// never sees half a table.
func WriteTable(out string) (*Table, error) {
	t, err := Collect(out)
	if err != nil {
		return nil, err
	}
	pq, err := t.Parquet()
	if err != nil {
		return t, err
	}
	return t, errors.Join(writeAtomic(filepath.Join(out, TableCSV), t.CSV()), writeAtomic(filepath.Join(out, TableParquet), pq))
}

// ReadTableCSV reads a results.csv back, for comparisons.
func ReadTableCSV(path string) ([][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	return csv.NewReader(bytes.NewReader(b)).ReadAll()
}
