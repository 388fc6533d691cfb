package record_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/argosgo/argos/simulator/record"
)

// Rows written without a simulator read back as Metrics' rows do, in
// CSV and Parquet.
func TestRowsReadBack(t *testing.T) {
	f, err := record.Create(filepath.Join(t.TempDir(), "run"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.NewRows(true)
	if err != nil {
		t.Fatal(err)
	}
	r.Write(1, 1, "", "residual_demand", 80)
	r.Write(2, 2, "", "residual_demand", 75.5)
	r.Write(2, 2, "17", "density_estimate", 0.12)
	r.Write(2, 2, "a,b", "odd \"name\"", -1)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := record.ReadCSV(f.Path(record.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows, want 4", len(rows))
	}
	if rows[1].Tick != 2 || rows[1].Robot != nil || rows[1].Metric != "residual_demand" || rows[1].Value != 75.5 {
		t.Errorf("row 2: %+v", rows[1])
	}
	if rows[2].Robot == nil || *rows[2].Robot != "17" || rows[2].Value != 0.12 {
		t.Errorf("row 3: %+v", rows[2])
	}
	if *rows[3].Robot != "a,b" || rows[3].Metric != `odd "name"` {
		t.Errorf("row 4: %+v", rows[3])
	}
	if st, err := os.Stat(f.Path(record.ParquetFile)); err != nil || st.Size() == 0 {
		t.Errorf("metrics.parquet: %v", err)
	}
}
