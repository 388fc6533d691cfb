package record

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// ReadCSV reads a metrics.csv back into rows (Robot nil for per-tick
// metrics), for plots and tests.
func ReadCSV(path string) ([]Row, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReader(f))
	r.FieldsPerRecord = 5
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("record: %s: %w", path, err)
	}
	if h := head[0] + "," + head[1] + "," + head[2] + "," + head[3] + "," + head[4]; h != CSVHeader {
		return nil, fmt.Errorf("record: %s: header %q, want %q; is it a metrics file of argos --out?", path, h, CSVHeader)
	}
	robots := map[string]*string{}
	var rows []Row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return rows, fmt.Errorf("record: %s: %w", path, err)
		}
		tick, err1 := strconv.ParseInt(rec[0], 10, 64)
		t, err2 := strconv.ParseFloat(rec[1], 64)
		v, err3 := strconv.ParseFloat(rec[4], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			line, _ := r.FieldPos(0)
			return rows, fmt.Errorf("record: %s:%d: %w", path, line, err)
		}
		row := Row{Tick: tick, Time: t, Metric: rec[3], Value: v}
		if id := rec[2]; id != "" {
			p, ok := robots[id]
			if !ok {
				p = &id
				robots[id] = p
			}
			row.Robot = p
		}
		rows = append(rows, row)
	}
}
