package sweep_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/sweep"
	"github.com/parquet-go/parquet-go"
)

// options runs the cells with the test binary as argos.
func options(t *testing.T, out string) sweep.Options {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return sweep.Options{Out: out, Jobs: 2, Binary: self, Env: []string{asArgos}, ProgressMode: "off"}
}

func plan(t *testing.T, path string) *sweep.Plan {
	t.Helper()
	s, err := sweep.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sweep.NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSweepRunsEveryCellAndWritesTheTable(t *testing.T) {
	out := t.TempDir()
	p := plan(t, filepath.Join("testdata", "basic.yaml"))
	sum, err := sweep.Run(context.Background(), p, options(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 8 || sum.Failed != 0 || sum.Skipped != 0 {
		t.Fatalf("summary %+v, want 8 runs", sum)
	}
	rows, err := sweep.ReadTableCSV(filepath.Join(out, sweep.TableCSV))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "cell,config,seed,velocity,engine,metric,value,status,error" {
		t.Fatalf("header %s", got)
	}
	if len(rows) != 1+8*3 {
		t.Fatalf("%d rows, want 8 runs x 3 metrics", len(rows)-1)
	}
	for _, r := range rows[1:] {
		if r[7] != "finished" || r[6] == "" || r[8] != "" {
			t.Errorf("row %v: want a finished run with a value", r)
		}
		if r[5] == "ticks" && r[6] != "50" {
			t.Errorf("row %v: a 5 s run at 10 ticks/s has 50 ticks", r)
		}
	}
	// the kinematic engine and the faster robots change the coverage
	cov := map[string]string{}
	for _, r := range rows[1:] {
		if r[5] == "coverage" {
			cov[r[3]+r[4]+r[2]] = r[6]
		}
	}
	if cov["3dynamics2d1"] == cov["10dynamics2d1"] {
		t.Errorf("velocity 3 and 10 give the same coverage %s: the parameter did not reach the runs", cov["3dynamics2d1"])
	}
	// the Parquet table has the same rows
	pq := readFile(t, filepath.Join(out, sweep.TableParquet))
	if !bytes.HasPrefix(pq, []byte("PAR1")) {
		t.Fatal("results.parquet is not a Parquet file")
	}
	tab, err := sweep.Collect(out)
	if err != nil {
		t.Fatal(err)
	}
	back, err := tab.Parquet()
	if err != nil {
		t.Fatal(err)
	}
	n, err := parquetRows(back)
	if err != nil || n != 24 {
		t.Fatalf("parquet: %d rows, %v", n, err)
	}
}

// A cell run on its own, with argos -c on its experiment file, records
// exactly what the same cell recorded inside the sweep.
func TestCellAloneEqualsCellInSweep(t *testing.T) {
	out := t.TempDir()
	p := plan(t, filepath.Join("testdata", "basic.yaml"))
	opt := options(t, out)
	if _, err := sweep.Run(context.Background(), p, opt); err != nil {
		t.Fatal(err)
	}
	for _, cell := range []int{0, 5} {
		alone := filepath.Join(t.TempDir(), "alone")
		cmd := exec.Command(opt.Binary, "-z", "-c", sweep.CellFile(out, cell), "--out", alone, "--progress", "off")
		cmd.Env = append(os.Environ(), asArgos)
		cmd.Dir = filepath.Dir(p.Experiment)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		a := readFile(t, filepath.Join(alone, record.CSVFile))
		b := readFile(t, filepath.Join(sweep.RunDir(out, cell), record.CSVFile))
		if len(a) < 100 || !bytes.Equal(a, b) {
			t.Errorf("cell %d: metrics.csv alone (%d bytes) differs from the sweep's (%d bytes)", cell, len(a), len(b))
		}
		// and so does the run folder's experiment as run
		if !bytes.Equal(readFile(t, filepath.Join(alone, record.ExperimentFile)), readFile(t, filepath.Join(sweep.RunDir(out, cell), record.ExperimentFile))) {
			t.Errorf("cell %d: experiment.argos differs", cell)
		}
	}
}

// An interrupted sweep leaves its finished runs and a table of them; run
// again, it runs only the rest and ends with the table of an
// uninterrupted sweep.
func TestInterruptedSweepResumes(t *testing.T) {
	p := plan(t, filepath.Join("testdata", "basic.yaml"))
	full := t.TempDir()
	if _, err := sweep.Run(context.Background(), p, options(t, full)); err != nil {
		t.Fatal(err)
	}
	want := readFile(t, filepath.Join(full, sweep.TableCSV))

	out := t.TempDir()
	opt := options(t, out)
	opt.Jobs = 1
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // Ctrl-C once three runs are done
		for {
			m, _ := filepath.Glob(filepath.Join(out, sweep.RunsDir, "*", sweep.ResultFile))
			if len(m) >= 3 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	sum, err := sweep.Run(ctx, plan(t, filepath.Join("testdata", "basic.yaml")), opt)
	if err != context.Canceled {
		t.Fatalf("interrupted sweep returned %v", err)
	}
	done := sum.Ran
	if done < 3 || done >= 8 || sum.Left != 8-done {
		t.Fatalf("summary %+v: want at least 3 runs done and the rest left", sum)
	}
	rows, err := sweep.ReadTableCSV(filepath.Join(out, sweep.TableCSV))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows)-1 != done*3 {
		t.Fatalf("the interrupted table has %d rows, want %d runs x 3 metrics", len(rows)-1, done)
	}
	wantRows, _ := sweep.ReadTableCSV(filepath.Join(full, sweep.TableCSV))
	for i, r := range rows {
		if strings.Join(r, ",") != strings.Join(wantRows[i], ",") {
			t.Fatalf("interrupted table row %d = %v, want %v", i, r, wantRows[i])
		}
	}
	sum, err = sweep.Run(context.Background(), plan(t, filepath.Join("testdata", "basic.yaml")), options(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != done || sum.Ran != 8-done {
		t.Fatalf("resumed: %+v, want %d skipped and %d run", sum, done, 8-done)
	}
	if got := readFile(t, filepath.Join(out, sweep.TableCSV)); !bytes.Equal(got, want) {
		t.Errorf("resumed table differs from the uninterrupted one:\n%s\nwant\n%s", got, want)
	}
	// a third time runs nothing
	sum, err = sweep.Run(context.Background(), plan(t, filepath.Join("testdata", "basic.yaml")), options(t, out))
	if err != nil || sum.Ran != 0 || sum.Skipped != 8 {
		t.Fatalf("third run: %+v %v", sum, err)
	}
}

// A run that fails is recorded with its error; the others go on.
func TestFailedRunIsRecorded(t *testing.T) {
	path := writeSpec(t, `experiment: diffusion.argos
length: 2
parameters:
  - name: velocity
    path: controllers/*/params@velocity
    values: [5, fast]
seeds: [1]
metrics: [coverage]
`)
	out := t.TempDir()
	sum, err := sweep.Run(context.Background(), plan(t, path), options(t, out))
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 1 || sum.Failed != 1 {
		t.Fatalf("summary %+v, want one run and one failure", sum)
	}
	rows, _ := sweep.ReadTableCSV(filepath.Join(out, sweep.TableCSV))
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	bad := rows[2]
	if bad[3] != "fast" || bad[6] != "failed" || bad[5] != "" || !strings.Contains(bad[7], `velocity`) {
		t.Errorf("failed row %v: want status failed, no value and the run's error", bad)
	}
	// a folder holding another sweep is refused
	other := writeSpec(t, "experiment: diffusion.argos\nlength: 3\nseeds: [1, 2]\n")
	if _, err := sweep.Run(context.Background(), plan(t, other), options(t, out)); err == nil || !strings.Contains(err.Error(), "holds another sweep") {
		t.Errorf("running another sweep into the folder: %v", err)
	}
}

// parquetRows opens a Parquet file and counts its rows, checking the
// columns.
func parquetRows(b []byte) (int64, error) {
	f, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return 0, err
	}
	var names []string
	for _, c := range f.Schema().Columns() {
		names = append(names, strings.Join(c, "."))
	}
	if got := strings.Join(names, ","); got != "cell,config,seed,velocity,engine,metric,value,status,error" {
		return 0, fmt.Errorf("columns %s", got)
	}
	return f.NumRows(), nil
}

// A run that never ends is stopped at the timeout and recorded as failed;
// its worker process is replaced and the next runs go on.
func TestTimeoutKillsOneRunOnly(t *testing.T) {
	path := writeSpec(t, `experiment: diffusion.argos
parameters:
  - name: length
    path: framework/experiment@length
    values: [1, 0, 2]
seeds: [1]
metrics: [coverage, run.ticks]
`)
	out := t.TempDir()
	opt := options(t, out)
	opt.Jobs, opt.Timeout = 1, 3*time.Second
	sum, err := sweep.Run(context.Background(), plan(t, path), opt)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 2 || sum.Failed != 1 {
		t.Fatalf("summary %+v, want two runs and one failure", sum)
	}
	r, ok := sweep.ReadResult(out, 1)
	if !ok || r.Status != "failed" || r.Error != "timed out after 3s" {
		t.Errorf("the endless run: %+v", r)
	}
	if r, _ := sweep.ReadResult(out, 2); r.Status != "finished" || r.Ticks != 20 {
		t.Errorf("the run after it: %+v", r)
	}
}
