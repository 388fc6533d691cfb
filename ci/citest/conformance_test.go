package citest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

// recorder is a reporter that keeps the first failure instead of stopping
// the goroutine.
type recorder struct{ failures []string }

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

// scripted is a controller that logs its life cycle and misbehaves on
// demand.
type scripted struct {
	log        *[]string
	initErr    error
	destroyErr error
	panicAt    string // "Init", "step3", "Reset", "Destroy", "step3-after-reset"
	steps      int
	reset      bool
	robot      ci.Robot
}

func (c *scripted) Init(r ci.Robot, p ci.Params) error {
	*c.log = append(*c.log, "Init "+p.StringOr("name", ""))
	c.robot = r
	if c.panicAt == "Init" {
		panic("boom in Init")
	}
	return c.initErr
}

func (c *scripted) ControlStep() {
	c.steps++
	*c.log = append(*c.log, "step")
	at := fmt.Sprintf("step%d", c.steps)
	if c.reset {
		at += "-after-reset"
	}
	if c.panicAt == at {
		panic("boom in " + at)
	}
}

func (c *scripted) Reset() {
	*c.log = append(*c.log, "Reset")
	c.steps, c.reset = 0, true
	if c.panicAt == "Reset" {
		panic("boom in Reset")
	}
}

func (c *scripted) Destroy() error {
	*c.log = append(*c.log, "Destroy")
	if c.panicAt == "Destroy" {
		panic("boom in Destroy")
	}
	return c.destroyErr
}

func TestTestControllerPasses(t *testing.T) {
	var log []string
	var made *scripted
	robot := NewRobot("fb0", 1)
	TestController(t, func() ci.Controller {
		made = &scripted{log: &log}
		return made
	}, robot, ci.NewParams("name", "x"), 2)
	want := "Init x,step,step,Reset,step,step,Destroy"
	if got := strings.Join(log, ","); got != want {
		t.Errorf("life cycle %s, want %s", got, want)
	}
	if made.robot != robot {
		t.Error("Init did not receive the robot")
	}
}

func TestTestControllerFails(t *testing.T) {
	errInit, errDestroy := errors.New("no wheels"), errors.New("stuck")
	for _, tc := range []struct {
		name    string
		factory func(log *[]string) ci.ControllerFactory
		robot   ci.Robot
		steps   int
		want    []string // fragments of the failure
		log     string   // what ran
	}{
		{
			name:    "nil factory",
			factory: func(*[]string) ci.ControllerFactory { return nil },
			robot:   NewRobot("a", 1), steps: 1,
			want: []string{"factory is nil"},
		},
		{
			name:    "nil robot",
			factory: func(log *[]string) ci.ControllerFactory { return func() ci.Controller { return &scripted{log: log} } },
			steps:   1,
			want:    []string{"robot is nil"},
		},
		{
			name:    "negative steps",
			factory: func(log *[]string) ci.ControllerFactory { return func() ci.Controller { return &scripted{log: log} } },
			robot:   NewRobot("a", 1), steps: -1,
			want: []string{"steps = -1"},
		},
		{
			name:    "nil controller",
			factory: func(*[]string) ci.ControllerFactory { return func() ci.Controller { return nil } },
			robot:   NewRobot("a", 1), steps: 1,
			want: []string{"creating the controller", "nil controller"},
		},
		{
			name: "factory panics",
			factory: func(*[]string) ci.ControllerFactory {
				return func() ci.Controller { panic("no memory") }
			},
			robot: NewRobot("a", 1), steps: 1,
			want: []string{"creating the controller panicked: no memory"},
		},
		{
			name: "Init error",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, initErr: errInit} }
			},
			robot: NewRobot("a", 1), steps: 2,
			want: []string{"citest: Init: no wheels"}, log: "Init ",
		},
		{
			name: "Init panics",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, panicAt: "Init"} }
			},
			robot: NewRobot("a", 1), steps: 2,
			want: []string{"Init panicked: boom in Init", "goroutine"}, log: "Init ",
		},
		{
			name: "ControlStep panics",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, panicAt: "step3"} }
			},
			robot: NewRobot("a", 1), steps: 5,
			want: []string{"ControlStep 3 of 5 panicked: boom in step3"}, log: "Init ,step,step,step",
		},
		{
			name: "Reset panics",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, panicAt: "Reset"} }
			},
			robot: NewRobot("a", 1), steps: 1,
			want: []string{"Reset panicked: boom in Reset"}, log: "Init ,step,Reset",
		},
		{
			name: "ControlStep panics after Reset",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, panicAt: "step2-after-reset"} }
			},
			robot: NewRobot("a", 1), steps: 3,
			want: []string{"ControlStep 2 of 3 after Reset panicked"}, log: "Init ,step,step,step,Reset,step,step",
		},
		{
			name: "Destroy error",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, destroyErr: errDestroy} }
			},
			robot: NewRobot("a", 1), steps: 1,
			want: []string{"citest: Destroy: stuck"}, log: "Init ,step,Reset,step,Destroy",
		},
		{
			name: "Destroy panics",
			factory: func(log *[]string) ci.ControllerFactory {
				return func() ci.Controller { return &scripted{log: log, panicAt: "Destroy"} }
			},
			robot: NewRobot("a", 1), steps: 0,
			want: []string{"Destroy panicked"}, log: "Init ,Reset,Destroy",
		},
	} {
		var log []string
		var r recorder
		checkController(&r, tc.factory(&log), tc.robot, ci.Params{}, tc.steps)
		if len(r.failures) != 1 {
			t.Errorf("%s: %d failures %q, want 1", tc.name, len(r.failures), r.failures)
			continue
		}
		for _, f := range tc.want {
			if !strings.Contains(r.failures[0], f) {
				t.Errorf("%s: failure %q does not mention %q", tc.name, r.failures[0], f)
			}
		}
		if got := strings.Join(log, ","); got != tc.log {
			t.Errorf("%s: ran %q, want %q", tc.name, got, tc.log)
		}
	}
}
