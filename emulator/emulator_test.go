package emulator_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

func load(t *testing.T) *config.Experiment {
	t.Helper()
	exp, err := config.Load("../toolchains/experiments/epuck.argos")
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

func TestBodyFollowsTheSimulator(t *testing.T) {
	sim, err := emulator.NewSim(load(t), []string{"ep0"}, []emulator.Options{{Ground: []ci.Vector2{{X: 0.03}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	r := sim.Robot("ep0")
	if sim.Robot("nobody") != nil || r.ID() != "ep0" {
		t.Fatal("Robot lookup")
	}
	first := r.Sense()
	if len(first.Proximity) != 8 || first.Ground[0] != 1 || first.Ahead <= 0 || first.Ahead > 0.4 {
		t.Errorf("first reading %+v: 8 proximity values, a white floor and the wall ahead", first)
	}
	r.SetWheels(0.05, 0.05)
	for range 20 { // 2 s at 10 ticks/s
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	rd := r.Sense()
	moved := rd.Pose.X - first.Pose.X
	if math.Abs(moved-0.05*1.9*math.Cos(ci.Radians(10))) > 0.01 || math.Abs(rd.Odometry[0]-0.095) > 0.006 {
		t.Errorf("after 2 s at 5 cm/s: moved %.3f m, odometry %v", moved, rd.Odometry)
	}
	if rd.Wheels != [2]float64{0.05, 0.05} || rd.Ahead >= first.Ahead {
		t.Errorf("wheels %v, ahead %v (was %v)", rd.Wheels, rd.Ahead, first.Ahead)
	}
	if n := len(r.Trajectory()); n != 21 {
		t.Errorf("%d poses for 20 ticks and the start", n)
	}
	r.SetWheels(math.NaN(), 1)
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
	if w := r.Sense().Wheels; w != [2]float64{} {
		t.Errorf("NaN speeds must stop the robot: %v", w)
	}
}

func TestNewSimErrors(t *testing.T) {
	if _, err := emulator.NewSim(load(t), []string{"ep9"}, nil, nil); err == nil || !strings.Contains(err.Error(), `no robot "ep9"`) {
		t.Errorf("unknown robot: %v", err)
	}
}
