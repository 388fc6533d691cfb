package record

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// Rows writes metrics rows into metrics.csv (and metrics.parquet), the
// files argos plot and the readers of run folders take: Metrics writes a
// simulator's samples through it, and programs whose rows do not come
// from a Simulator (a grid world's, say) use it directly. Write what a
// tick recorded, then Flush at least now and then; Close completes the
// files.
type Rows struct {
	csvFile *os.File
	csv     *bufio.Writer
	pqFile  *os.File
	pq      *parquet.GenericWriter[Row]
	rows    []Row
	robots  map[string]*string
	line    []byte
	err     error
}

// NewRows creates metrics.csv, and metrics.parquet when parquetToo, in
// the folder.
func (f *Folder) NewRows(parquetToo bool) (*Rows, error) {
	r := &Rows{robots: map[string]*string{}}
	var err error
	if r.csvFile, err = os.Create(f.Path(CSVFile)); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	r.csv = bufio.NewWriterSize(r.csvFile, 1<<16)
	r.csv.WriteString(CSVHeader + "\n")
	if parquetToo {
		if r.pqFile, err = os.Create(f.Path(ParquetFile)); err != nil {
			r.csvFile.Close()
			return nil, fmt.Errorf("record: %w", err)
		}
		r.pq = parquet.NewGenericWriter[Row](r.pqFile, parquet.CreatedBy("argos", Version(), ""))
	}
	return r, nil
}

// Write adds one row: robot is "" for a value of the whole run.
func (r *Rows) Write(tick int64, time float64, robot, metric string, value float64) {
	if r.err != nil {
		return
	}
	b := strconv.AppendInt(r.line[:0], tick, 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, time, 'g', -1, 64)
	b = append(b, ',')
	b = appendCSV(b, robot)
	b = append(b, ',')
	b = appendCSV(b, metric)
	b = append(b, ',')
	b = strconv.AppendFloat(b, value, 'g', -1, 64)
	b = append(b, '\n')
	r.line = b
	if _, err := r.csv.Write(b); err != nil {
		r.err = fmt.Errorf("record: writing %s: %w", r.csvFile.Name(), err)
		return
	}
	if r.pq != nil {
		var p *string
		if robot != "" {
			if p = r.robots[robot]; p == nil {
				p = &robot
				r.robots[robot] = p
			}
		}
		r.rows = append(r.rows, Row{Tick: tick, Time: time, Robot: p, Metric: metric, Value: value})
		if len(r.rows) >= rowGroup {
			r.flushParquet(true)
		}
	}
}

func (r *Rows) flushParquet(rowGroupDone bool) {
	if r.pq == nil || len(r.rows) == 0 || r.err != nil {
		return
	}
	if _, err := r.pq.Write(r.rows); err != nil {
		r.err = fmt.Errorf("record: writing %s: %w", r.pqFile.Name(), err)
	}
	r.rows = r.rows[:0]
	if rowGroupDone && r.err == nil {
		if err := r.pq.Flush(); err != nil {
			r.err = fmt.Errorf("record: writing %s: %w", r.pqFile.Name(), err)
		}
	}
}

// Flush writes the rows so far to the files.
func (r *Rows) Flush() error {
	if r.err == nil {
		if err := r.csv.Flush(); err != nil {
			r.err = fmt.Errorf("record: writing %s: %w", r.csvFile.Name(), err)
		}
	}
	r.flushParquet(false)
	return r.err
}

// Close flushes and completes the files.
func (r *Rows) Close() error {
	r.Flush()
	errs := []error{r.err, r.csvFile.Close()}
	if r.pq != nil {
		errs = append(errs, r.pq.Close(), r.pqFile.Close())
	}
	return errors.Join(errs...)
}
