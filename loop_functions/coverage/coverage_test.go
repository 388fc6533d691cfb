package coverage_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/loop_functions/coverage"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

func build(t *testing.T, velocity, cell string) (*simulator.Simulator, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "diffusion.argos"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), `velocity="5"`, `velocity="`+velocity+`"`, 1)
	s = strings.Replace(s, `cell="0.2"`, `cell="`+cell+`"`, 1)
	s = strings.Replace(s, `length="20"`, `length="10"`, 1)
	exp, err := config.Parse("diffusion.argos", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return simulator.New(exp, simulator.Options{Headless: true, Metrics: true})
}

// Coverage never falls, starts with the robots' own cells, and grows
// faster with faster robots.
func TestCoverageGrows(t *testing.T) {
	final := map[string]float64{}
	for _, v := range []string{"0", "10"} {
		sim, err := build(t, v, "0.2")
		if err != nil {
			t.Fatal(err)
		}
		lf := sim.LoopFunctions().(*coverage.LoopFunctions)
		start := lf.Coverage()
		// 4 robots in a 4 m arena of 20 x 20 cells
		if start <= 0 || start > 4.0/400 {
			t.Errorf("velocity %s: starting coverage %g, want the robots' cells (at most 4 of 400)", v, start)
		}
		if err := sim.Execute(context.Background()); err != nil {
			t.Fatal(err)
		}
		last := -1.0
		for _, s := range sim.TakeSamples(nil) {
			if s.Name != coverage.Metric || s.Value < last || s.Value > 1 {
				t.Fatalf("velocity %s: sample %+v after %g", v, s, last)
			}
			last = s.Value
		}
		final[v] = lf.Coverage()
		sim.Close()
	}
	if final["0"] > 4.0/400 {
		t.Errorf("still robots covered %g", final["0"])
	}
	if final["10"] <= 2*final["0"] {
		t.Errorf("robots at 10 cm/s covered %g, still ones %g", final["10"], final["0"])
	}
	if _, err := build(t, "5", "-1"); err == nil || !strings.Contains(err.Error(), `attribute cell="-1"`) {
		t.Errorf("cell=-1: %v", err)
	}
}
