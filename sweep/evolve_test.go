package sweep_test

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/sweep"
)

// CMA-ES, each generation run as a sweep, lowers the mean distance of the
// phototaxis robots to the light within 10 generations, and best.argos
// runs the best genome to the fitness it was given.
func TestEvolutionImprovesMeanFitness(t *testing.T) {
	s, err := sweep.Load(filepath.Join("testdata", "evolve.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	ev, err := sweep.Evolve(context.Background(), s, sweep.EvolveOptions{Options: options(t, out)})
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Generations) != 10 {
		t.Fatalf("%d generations, want 10", len(ev.Generations))
	}
	first, last := ev.Generations[0].Mean, ev.Generations[9].Mean
	t.Logf("mean distance to the light: %.3f m in generation 0, %.3f m in generation 9; best %.3f m", first, last, ev.BestFitness)
	if !(last < 0.9*first) {
		t.Errorf("the mean fitness went from %.3f to %.3f: want at least 10%% lower", first, last)
	}
	if !(ev.BestFitness < first) || len(ev.Best) != 98 {
		t.Errorf("best fitness %.3f with %d weights", ev.BestFitness, len(ev.Best))
	}
	dat := strings.Fields(string(readFile(t, filepath.Join(out, "best.dat"))))
	if len(dat) != 99 || dat[0] != "98" {
		t.Errorf("best.dat holds %d fields starting %q, want 98 then the weights", len(dat), dat[0])
	}
	// best.argos runs the best genome on its own
	opt := options(t, out)
	run := filepath.Join(t.TempDir(), "best")
	cmd := exec.Command(opt.Binary, "-z", "-c", filepath.Join(out, "best.argos"), "--out", run, "--progress", "off")
	cmd.Env = append(os.Environ(), asArgos)
	cmd.Dir = filepath.Join("..", "experiments", "evolution")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("best.argos: %v: %s", err, b)
	}
	rows, err := record.ReadCSV(filepath.Join(run, record.CSVFile))
	if err != nil || len(rows) != 1 || rows[0].Metric != "distance" {
		t.Fatalf("best.argos recorded %v, %v", rows, err)
	}
	if math.Abs(rows[0].Value-ev.BestFitness) > 1e-12 {
		t.Errorf("best.argos ends %.6f m from the light, the evolution gave it %.6f", rows[0].Value, ev.BestFitness)
	}
	table := string(readFile(t, filepath.Join(out, "evolution.csv")))
	if n := strings.Count(table, "\n"); n != 1+10*10 {
		t.Errorf("evolution.csv has %d lines, want a header and 100 genomes", n)
	}
	if !strings.Contains(table, "9,9,"+strconv.FormatFloat(ev.Generations[9].Fitness[9], 'g', -1, 64)) {
		t.Error("evolution.csv lacks the last genome's fitness")
	}
}
