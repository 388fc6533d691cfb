package fixedwheels_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	fixedwheels "github.com/argosgo/argos/controllers/fixed_wheels"
)

func setup(t *testing.T, params ci.Params) (*fixedwheels.Controller, *citest.Wheels) {
	t.Helper()
	w := &citest.Wheels{}
	r := citest.NewRobot("ep0", 1).AddActuator(ci.TagDifferentialSteering, w)
	c := fixedwheels.New()
	if err := c.Init(r, params); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return c, w
}

// TestWindow follows the wheels step by step through a window
// [start_tick, stop_tick), and again after Reset.
func TestWindow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params ci.Params
		on     func(n int) bool
	}{
		{"defaults: from the first step on", ci.NewParams("left", "5", "right", "10"), func(int) bool { return true }},
		{"window", ci.NewParams("left", "5", "right", "10", "start_tick", "3", "stop_tick", "6"), func(n int) bool { return n >= 3 && n < 6 }},
		{"start only", ci.NewParams("left", "5", "right", "10", "start_tick", "4"), func(n int) bool { return n >= 4 }},
		{"stop only", ci.NewParams("left", "5", "right", "10", "stop_tick", "2"), func(n int) bool { return n < 2 }},
		{"empty window", ci.NewParams("left", "5", "right", "10", "start_tick", "5", "stop_tick", "5"), func(int) bool { return false }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, w := setup(t, tc.params)
			for round := 0; round < 2; round++ {
				for n := 1; n <= 10; n++ {
					c.ControlStep()
					want := [2]float64{}
					if tc.on(n) {
						want = [2]float64{5, 10}
					}
					if got := [2]float64{w.Left, w.Right}; got != want {
						t.Fatalf("round %d, step %d: wheels %v, want %v", round, n, got, want)
					}
					if c.Steps() != n {
						t.Fatalf("round %d: Steps() = %d after %d control steps", round, c.Steps(), n)
					}
				}
				c.Reset()
				if c.Steps() != 0 {
					t.Fatalf("Steps() = %d after Reset, want 0", c.Steps())
				}
			}
			if w.Calls != 20 {
				t.Errorf("%d calls to SetLinearVelocity in 20 control steps; it must set the wheels every step", w.Calls)
			}
		})
	}
}

func TestDefaultsStandStill(t *testing.T) {
	c, w := setup(t, ci.Params{})
	w.Left, w.Right = 3, 3
	c.ControlStep()
	if w.Left != 0 || w.Right != 0 || w.Calls != 1 {
		t.Errorf("without params the wheels are (%g, %g) after %d calls, want (0, 0) set once", w.Left, w.Right, w.Calls)
	}
}

func TestInitErrors(t *testing.T) {
	wheels := func() *citest.Robot {
		return citest.NewRobot("r", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{})
	}
	for _, tc := range []struct {
		name   string
		robot  *citest.Robot
		params ci.Params
		want   []string
	}{
		{"bad speed", wheels(), ci.NewParams("left", "fast"), []string{"fixed_wheels:", "left"}},
		{"infinite speed", wheels(), ci.NewParams("right", "Inf"), []string{"fixed_wheels:", "right", "cm/s"}},
		{"bad start", wheels(), ci.NewParams("start_tick", "1.5"), []string{"fixed_wheels:", "start_tick"}},
		{"bad stop", wheels(), ci.NewParams("stop_tick", "never"), []string{"fixed_wheels:", "stop_tick"}},
		{"no wheels", citest.NewRobot("r", 1), ci.Params{}, []string{"fixed_wheels:", ci.TagDifferentialSteering}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := fixedwheels.New().Init(tc.robot, tc.params)
			if err == nil {
				t.Fatal("no error")
			}
			for _, s := range tc.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
	err := fixedwheels.New().Init(citest.NewRobot("r", 1), ci.Params{})
	if !errors.Is(err, ci.ErrNotDeclared) {
		t.Errorf("missing wheels: %v, want it to wrap ci.ErrNotDeclared", err)
	}
}

func TestRegistered(t *testing.T) {
	f, err := ci.Controllers.Lookup(fixedwheels.Label)
	if err != nil {
		t.Fatal(err)
	}
	r := citest.NewRobot("fb0", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{})
	citest.TestController(t, f, r, ci.NewParams("left", "-10", "right", "10", "stop_tick", "3"), 5)
}
