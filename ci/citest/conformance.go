package citest

import (
	"fmt"
	"runtime/debug"
	"testing"

	"github.com/argosgo/argos/ci"
)

// TestController checks that a controller goes through its whole life
// cycle on robot with params: a fresh controller from newController, Init,
// steps calls to ControlStep, Reset, steps calls to ControlStep again,
// then Destroy. It fails the test on a nil controller, on an error from
// Init or Destroy, and on a panic in any phase (reporting the panic and
// its stack).
//
// The robot's devices keep the readings the test gave them; set them
// beforehand to exercise the branches that matter.
func TestController(t *testing.T, newController ci.ControllerFactory, robot ci.Robot, params ci.Params, steps int) {
	t.Helper()
	checkController(t, newController, robot, params, steps)
}

// reporter is the part of testing.TB that checkController uses, so that
// its own tests can watch it fail.
type reporter interface {
	Helper()
	Fatalf(format string, args ...any)
}

func checkController(t reporter, newController ci.ControllerFactory, robot ci.Robot, params ci.Params, steps int) {
	t.Helper()
	if newController == nil {
		t.Fatalf("citest: TestController: the controller factory is nil")
		return
	}
	if robot == nil {
		t.Fatalf("citest: TestController: the robot is nil")
		return
	}
	if steps < 0 {
		t.Fatalf("citest: TestController: steps = %d, want 0 or more", steps)
		return
	}
	var c ci.Controller
	ok := run(t, "creating the controller", func() error {
		if c = newController(); c == nil {
			return fmt.Errorf("the factory returned a nil controller")
		}
		return nil
	})
	controlSteps := func(when string) bool {
		t.Helper()
		for i := 1; i <= steps; i++ {
			name := func() string { return fmt.Sprintf("ControlStep %d of %d%s", i, steps, when) }
			if !runNamed(t, name, func() error { c.ControlStep(); return nil }) {
				return false
			}
		}
		return true
	}
	_ = ok &&
		run(t, "Init", func() error { return c.Init(robot, params) }) &&
		controlSteps("") &&
		run(t, "Reset", func() error { c.Reset(); return nil }) &&
		controlSteps(" after Reset") &&
		run(t, "Destroy", c.Destroy)
}

// run runs one phase of the life cycle; it fails t and returns false if f
// returns an error or panics.
func run(t reporter, name string, f func() error) bool {
	t.Helper()
	return runNamed(t, func() string { return name }, f)
}

// runNamed is run with the phase name built only when needed.
func runNamed(t reporter, name func() string, f func() error) bool {
	t.Helper()
	if err := phase(name, f); err != nil {
		t.Fatalf("%v", err)
		return false
	}
	return true
}

// phase runs f, turning its error or panic into an error naming the phase.
func phase(name func() string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("citest: %s panicked: %v\n%s", name(), p, debug.Stack())
		}
	}()
	if err := f(); err != nil {
		return fmt.Errorf("citest: %s: %w", name(), err)
	}
	return nil
}
