package gripping_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/gripping"
)

func setup(t testing.TB, params ci.Params) (*gripping.Controller, *citest.Wheels, *citest.Gripper) {
	t.Helper()
	w, g := &citest.Wheels{}, &citest.Gripper{}
	r := citest.NewRobot("f", 1).AddActuator(ci.TagDifferentialSteering, w).AddActuator(ci.TagFootBotGripper, g)
	c := gripping.New()
	if err := c.Init(r, params); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return c, w, g
}

func TestScript(t *testing.T) {
	c, w, g := setup(t, ci.Params{})
	type want struct {
		phase       gripping.Phase
		left, right float64
		locked      bool
		holding     bool
	}
	expect := func(step int) want {
		switch {
		case step < 70:
			return want{gripping.Approaching, 5, 5, false, false}
		case step == 70:
			return want{gripping.Gripping, 0, 0, true, true}
		case step < 120:
			return want{gripping.Dragging, -5, -5, true, true}
		case step < 170:
			return want{gripping.Releasing, -5, -5, false, false}
		}
		return want{gripping.Stopped, 0, 0, false, false}
	}
	for step := 1; step <= 250; step++ {
		g.InReach = step >= 64 // the robot touches the cylinder
		c.ControlStep()
		got := want{c.Phase(), w.Left, w.Right, g.Locked, g.Gripping()}
		if got != expect(step) || c.Step() != step {
			t.Fatalf("step %d (%d): %+v, want %+v", step, c.Step(), got, expect(step))
		}
	}
	if g.Locks != 1 {
		t.Errorf("gripper locked %d times, want once", g.Locks)
	}
	if g.Unlocks != 50 {
		t.Errorf("gripper unlocked %d times, want at each of the 50 releasing steps, as ARGoS", g.Unlocks)
	}
}

func TestParams(t *testing.T) {
	c, w, g := setup(t, ci.NewParams("speed", "10", "grip_step", "3", "release_step", "5", "stop_step", "5"))
	g.InReach = true
	var phases []string
	for range 6 {
		c.ControlStep()
		phases = append(phases, c.Phase().String())
	}
	if got := strings.Join(phases, ","); got != "approaching,approaching,gripping,dragging,stopped,stopped" {
		t.Errorf("phases %s", got)
	}
	if g.Locks != 1 || g.Unlocks != 0 || w.Left != 0 {
		t.Errorf("locks %d unlocks %d wheels %v", g.Locks, g.Unlocks, w.Left)
	}
	for _, tc := range []struct {
		kv       []string
		fragment string
	}{
		{[]string{"speed", "fast"}, "not a number"},
		{[]string{"speed", "NaN"}, "not a finite number"},
		{[]string{"grip_step", "0"}, "out of order"},
		{[]string{"grip_step", "120"}, "out of order"},
		{[]string{"stop_step", "100"}, "out of order"},
		{[]string{"release_step", "x"}, "not an integer"},
	} {
		p := ci.NewParams(tc.kv...)
		p.Where = "gripping.argos:20"
		r := citest.NewRobot("f", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).AddActuator(ci.TagFootBotGripper, &citest.Gripper{})
		err := gripping.New().Init(r, p)
		if err == nil {
			t.Errorf("%v: Init succeeded", tc.kv)
			continue
		}
		for _, f := range []string{"gripping: ", "gripping.argos:20", tc.fragment} {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%v: error %q does not mention %q", tc.kv, err, f)
			}
		}
	}
}

func TestReset(t *testing.T) {
	c, w, _ := setup(t, ci.Params{})
	for range 100 {
		c.ControlStep()
	}
	c.Reset()
	if c.Step() != 0 || c.Phase() != gripping.Approaching {
		t.Errorf("after Reset: step %d, %v", c.Step(), c.Phase())
	}
	c.ControlStep()
	if w.Left != 5 || c.Step() != 1 {
		t.Errorf("first step after Reset: wheels %v, step %d", w.Left, c.Step())
	}
	if err := c.Destroy(); err != nil {
		t.Error(err)
	}
}

func TestInitDeviceErrors(t *testing.T) {
	for _, tc := range []struct {
		robot *citest.Robot
		tag   string
	}{
		{citest.NewRobot("f", 1).AddActuator(ci.TagFootBotGripper, &citest.Gripper{}), ci.TagDifferentialSteering},
		{citest.NewRobot("f", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}), ci.TagFootBotGripper},
	} {
		err := gripping.New().Init(tc.robot, ci.Params{})
		if !errors.Is(err, ci.ErrNotDeclared) || !strings.HasPrefix(err.Error(), "gripping: ") || !strings.Contains(err.Error(), "<"+tc.tag) {
			t.Errorf("without %s: %v", tc.tag, err)
		}
	}
}

func TestPhaseString(t *testing.T) {
	if gripping.Phase(42).String() != "Phase(42)" || gripping.Releasing.String() != "releasing" {
		t.Errorf("%q %q", gripping.Phase(42), gripping.Releasing)
	}
}

func TestRegistered(t *testing.T) {
	f, err := ci.Controllers.Lookup("footbot_gripping_controller")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f().(*gripping.Controller); !ok {
		t.Errorf("makes a %T", f())
	}
}

func TestConformance(t *testing.T) {
	r := citest.NewRobot("f", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{}).AddActuator(ci.TagFootBotGripper, &citest.Gripper{InReach: true})
	citest.TestController(t, func() ci.Controller { return gripping.New() }, r, ci.Params{}, 200)
}
