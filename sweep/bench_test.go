package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/argosgo/argos/sweep"
)

// BenchmarkSweep runs a sweep of ARGOS_SWEEP_BENCH_RUNS runs (default 40;
// the target of docs/sweeps.md is 1000) of a 10-robot, 60-second experiment
// on 2 workers and reports the sweep's overhead: wall time against the
// sum of the runs' own loop times divided by the 2 workers.
//
//	ARGOS_SWEEP_BENCH_RUNS=1000 go test -run XXX -bench Sweep -benchtime 1x ./sweep
func BenchmarkSweep(b *testing.B) {
	runs := 40
	if v, err := strconv.Atoi(os.Getenv("ARGOS_SWEEP_BENCH_RUNS")); err == nil && v > 0 {
		runs = v
	}
	exp, err := filepath.Abs(filepath.Join("testdata", "diffusion10.argos"))
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	spec := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(spec, []byte(fmt.Sprintf("experiment: %s\nseeds: {from: 1, count: %d}\nmetrics: [run.loop_seconds]\n", exp, runs)), 0o644); err != nil {
		b.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var wall, loops float64
	for i := 0; i < b.N; i++ {
		s, err := sweep.Load(spec)
		if err != nil {
			b.Fatal(err)
		}
		p, err := sweep.NewPlan(s)
		if err != nil {
			b.Fatal(err)
		}
		opt := sweep.Options{Out: filepath.Join(dir, strconv.Itoa(i)), Jobs: 2, Binary: self, Env: []string{asArgos}, ProgressMode: "off"}
		sum, err := sweep.Run(context.Background(), p, opt)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Ran != runs {
			b.Fatalf("%+v", sum)
		}
		wall += sum.Wall.Seconds()
		loops += sum.LoopSeconds
	}
	n := float64(b.N)
	ideal := loops / n / 2
	b.ReportMetric(wall/n, "wall_s")
	b.ReportMetric(ideal, "loops/2_s")
	b.ReportMetric(wall/n/ideal, "wall/ideal")
	b.ReportMetric((wall/n-ideal)/float64(runs)*1000, "overhead_ms/run")
}
