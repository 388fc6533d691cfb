package simulator_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/loop"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/physics/kinematics2d"
	_ "github.com/argosgo/argos/simulator/render/text"
)

// repoFile returns the path of a file relative to the repository root.
func repoFile(parts ...string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(append([]string{filepath.Dir(here), ".."}, parts...)...)
}

// constant drives its wheels at the speeds of its params from the first
// tick on; it is the simplest controller that moves.
type constant struct {
	wheels      ci.DifferentialSteeringActuator
	left, right float64
	steps       int
}

func (c *constant) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	if c.left, err = p.FloatOr("left", 0); err != nil {
		return err
	}
	c.right, err = p.FloatOr("right", 0)
	return err
}
func (c *constant) ControlStep()   { c.steps++; c.wheels.SetLinearVelocity(c.left, c.right) }
func (c *constant) Reset()         { c.steps = 0 }
func (c *constant) Destroy() error { return nil }

// panicky panics at the tick given by its params.
type panicky struct {
	at, tick int
	wheels   ci.DifferentialSteeringActuator
}

func (c *panicky) Init(r ci.Robot, p ci.Params) error {
	var err error
	c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	if err != nil {
		return err
	}
	c.at, err = p.IntOr("at", 3)
	return err
}
func (c *panicky) ControlStep() {
	c.wheels.SetLinearVelocity(10, 10)
	if c.tick == c.at {
		panic("boom")
	}
	c.tick++
}
func (c *panicky) Reset()         {}
func (c *panicky) Destroy() error { return nil }

// positioner asks for the positioning sensor.
type positioner struct{}

func (positioner) Init(r ci.Robot, _ ci.Params) error {
	_, err := ci.GetSensor[ci.Positioning](r, ci.TagPositioning)
	return err
}
func (positioner) ControlStep()   {}
func (positioner) Reset()         {}
func (positioner) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_constant", "test: constant wheel speeds (params left, right)", func() ci.Controller { return &constant{} })
	ci.Controllers.MustRegister("test_panic", "test: panics at tick 'at'", func() ci.Controller { return &panicky{} })
	ci.Controllers.MustRegister("test_positioner", "test: needs the positioning sensor", func() ci.Controller { return positioner{} })
}

// experiment wraps an arena body and controllers into a full file.
func experiment(ticks string, controllers, arena, extra string) string {
	return fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework>
    <system threads="0"/>
    <experiment length="%s" ticks_per_second="10" random_seed="7"/>
  </framework>
  <controllers>%s</controllers>
  <arena size="4,4,1" center="0,0,0.5">%s</arena>
  <physics_engines><dynamics2d id="dyn"/></physics_engines>
  %s
</argos-configuration>`, ticks, controllers, arena, extra)
}

const constantController = `
    <test_constant id="tc">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><differential_steering implementation="default"/><positioning implementation="default"/></sensors>
      <params left="10" right="10"/>
    </test_constant>`

func build(t testing.TB, xml string, opt simulator.Options) *simulator.Simulator {
	t.Helper()
	exp, err := config.Parse("test.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

func buildErr(t *testing.T, xml string) error {
	t.Helper()
	exp, err := config.Parse("test.argos", []byte(xml))
	if err != nil {
		return err
	}
	sim, err := simulator.New(exp, simulator.Options{})
	if err == nil {
		sim.Close()
	}
	return err
}

func contains(t *testing.T, err error, words ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one mentioning %q", words)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

func intp(v int) *int { return &v }
