package eyebothover_test

import (
	"math"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	eyebothover "github.com/argosgo/argos/controllers/eyebot_hover"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/physics/pointmass3d"
)

// experiments/eyebot_flight.argos runs headless to its end: the eye-bot
// takes off, holds 1.5 m while it flies its square over the foot-bots,
// and marks the floor with its laser at each corner.
func TestEyeBotFlightExperiment(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	exp, err := config.Load(filepath.Join(filepath.Dir(here), "..", "..", "experiments", "eyebot_flight.argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	var eb *entity.Robot
	var ctl *eyebothover.Controller
	for i := range sim.NumRobots() {
		r := sim.Robot(i)
		engine := sim.Engines()[r.B().Engine].ID()
		if r.Model == entity.EyeBot {
			eb, ctl = r, sim.Controller(i).(*eyebothover.Controller)
			if engine != "pm3d" {
				t.Fatalf("the eye-bot is in engine %q", engine)
			}
		} else if engine != "dyn2d" {
			t.Fatalf("foot-bot %s is in engine %q", r.ID, engine)
		}
	}
	airborne := false
	spots, corners := 0, map[[2]int]bool{}
	for !sim.Finished() {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		b := eb.B()
		if !airborne && math.Abs(b.Z-1.5) < 0.02 {
			airborne = true
		}
		if airborne && math.Abs(b.Z-1.5) > 0.02 {
			t.Fatalf("tick %d: flying its square at z = %.4f, want 1.5 +- 0.02", sim.Tick(), b.Z)
		}
		for _, s := range sim.World().Spots {
			spots++
			if s.Pos.XY().Sub(b.Pos).Length() > 1e-12 || s.Color != ci.Red || s.Pos.Z > entity.FootBot.Height+1e-9 {
				t.Fatalf("tick %d: spot %+v, eye-bot at %v", sim.Tick(), s, b.Pos)
			}
			corners[[2]int{int(math.Round(s.Pos.X)), int(math.Round(s.Pos.Y))}] = true
		}
		for i := range sim.NumRobots() {
			if r := sim.Robot(i); r != eb && r.B().Z != 0 {
				t.Fatalf("tick %d: foot-bot %s left the floor", sim.Tick(), r.ID)
			}
		}
	}
	if sim.Tick() != 600 {
		t.Fatalf("ran %d ticks, want 600 (60 s at 10 ticks/s)", sim.Tick())
	}
	if !airborne {
		t.Fatalf("the eye-bot never reached 1.5 m")
	}
	t.Logf("%d way-points reached, %d ticks of laser spots", ctl.Visits(), spots)
	if ctl.Visits() < 4 || len(corners) != 4 || spots < 4*30 {
		t.Errorf("%d way-points reached, laser spots over %d corners (%v) for %d ticks; want the 4 corners marked for 30 ticks each",
			ctl.Visits(), len(corners), corners, spots)
	}
}
