package phototaxis_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/loop_functions/phototaxis"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/footbot_nn"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// experiment reads the shipped evolution experiment with the given trial,
// weights and length.
func experiment(t *testing.T, trial, weights, length string) *config.Experiment {
	t.Helper()
	path := filepath.Join("..", "..", "experiments", "evolution", "phototaxis.argos")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(data), `trial="0"`, `trial="`+trial+`"`, 1)
	s = strings.Replace(s, `parameter_file="best.dat"`, `weights="`+weights+`"`, 1)
	s = strings.Replace(s, `length="120"`, `length="`+length+`"`, 1)
	exp, err := config.Parse(path, []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

func zeros() string { return strings.TrimSuffix(strings.Repeat("0,", 98), ",") }

func TestTrialPosesAndFitness(t *testing.T) {
	for trial := 0; trial < phototaxis.Trials; trial++ {
		exp := experiment(t, string(rune('0'+trial)), zeros(), "2")
		sim, err := simulator.New(exp, simulator.Options{Headless: true, Metrics: true})
		if err != nil {
			t.Fatal(err)
		}
		h, ok := sim.Body(phototaxis.RobotID)
		if !ok {
			t.Fatal("the loop functions added no foot-bot fb")
		}
		b := sim.Space().Bodies[h]
		a := float64(trial+1) * math.Pi / 12
		if math.Abs(b.Pos.X-4.5*math.Cos(a)) > 1e-9 || math.Abs(b.Pos.Y-4.5*math.Sin(a)) > 1e-9 {
			t.Errorf("trial %d: robot at %v, want 4.5 m from the light at %.0f°", trial, b.Pos, a*180/math.Pi)
		}
		if err := sim.Execute(context.Background()); err != nil {
			t.Fatal(err)
		}
		lf := sim.LoopFunctions().(*phototaxis.LoopFunctions)
		// zero weights: both wheels at 0 cm/s, the robot stays put
		if d := lf.Performance(); math.Abs(d-4.5) > 1e-6 {
			t.Errorf("trial %d: a still robot ends %.6f m from the light, want 4.5", trial, d)
		}
		samples := sim.TakeSamples(nil)
		if len(samples) != 1 || samples[0].Name != phototaxis.Metric || math.Abs(samples[0].Value-lf.Performance()) > 1e-12 {
			t.Errorf("trial %d: recorded %v, want one distance", trial, samples)
		}
		sim.Close()
	}
	// an experiment without the controller entry fnn cannot get its robot
	exp := experiment(t, "0", zeros(), "1")
	exp.Controllers[0].ID = "other"
	if _, err := simulator.New(exp, simulator.Options{Headless: true}); err == nil || !strings.Contains(err.Error(), `no entry "fnn"`) {
		t.Errorf("no fnn controller: %v", err)
	}
	if _, err := simulator.New(experiment(t, "7", zeros(), "1"), simulator.Options{Headless: true}); err == nil || !strings.Contains(err.Error(), "give a trial from 0 to 4") {
		t.Errorf("trial 7: %v", err)
	}
}

// The shipped best genome reaches the light from every trial pose.
func TestBestGenomeReachesTheLight(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "experiments", "evolution", "best.dat"))
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(strings.Fields(string(data))[1:], ",")
	for trial := 0; trial < phototaxis.Trials; trial++ {
		sim, err := simulator.New(experiment(t, string(rune('0'+trial)), w, "120"), simulator.Options{Headless: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := sim.Execute(context.Background()); err != nil {
			t.Fatal(err)
		}
		if d := sim.LoopFunctions().(*phototaxis.LoopFunctions).Performance(); d > 1 {
			t.Errorf("trial %d: the best genome ends %.2f m from the light, want under 1 m", trial, d)
		}
		sim.Close()
	}
}
