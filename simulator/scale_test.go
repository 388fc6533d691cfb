package simulator_test

import (
	"context"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// sensing records, per robot id, the largest proximity reading of the
// last tick, so tests can see what robots perceive.
var sensing sync.Map

type proxDriver struct {
	id     string
	wheels ci.DifferentialSteeringActuator
	prox   ci.Proximity
	v      float64
}

func (c *proxDriver) Init(r ci.Robot, p ci.Params) error {
	var err error
	c.id = r.ID()
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	if c.prox, err = ci.GetSensor[ci.Proximity](r, ci.TagFootBotProximity); err != nil {
		return err
	}
	c.v, err = p.FloatOr("v", 0)
	return err
}
func (c *proxDriver) ControlStep() {
	m := 0.0
	for _, r := range c.prox.Readings() {
		m = math.Max(m, r.Value)
	}
	sensing.Store(c.id, m)
	c.wheels.SetLinearVelocity(c.v, c.v)
}
func (c *proxDriver) Reset()         {}
func (c *proxDriver) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_prox_driver", "test: drives straight at v, records its proximity", func() ci.Controller { return &proxDriver{} })
}

const twoEngines = `
  <physics_engines>
    <dynamics2d id="west"><boundaries><top height="1"/><bottom height="0"/>
      <sides><vertex point="-2,-2"/><vertex point="0,-2"/><vertex point="0,2"/><vertex point="-2,2"/></sides></boundaries></dynamics2d>
    <dynamics2d id="east"><boundaries><top height="1"/><bottom height="0"/>
      <sides><vertex point="0,-2"/><vertex point="2,-2"/><vertex point="2,2"/><vertex point="0,2"/></sides></boundaries></dynamics2d>
  </physics_engines>`

// A robot driven across an engine border keeps its pose and velocity,
// senses a robot on the other side before it crosses, and is owned by
// exactly one engine at every tick.
func TestMigrationAcrossEngines(t *testing.T) {
	ctrl := `<test_prox_driver id="mover"><actuators><differential_steering implementation="default"/></actuators>
      <sensors><footbot_proximity implementation="default"/></sensors><params v="10"/></test_prox_driver>
    <test_prox_driver id="still"><actuators><differential_steering implementation="default"/></actuators>
      <sensors><footbot_proximity implementation="default"/></sensors><params v="0"/></test_prox_driver>`
	xml := experiment("0", ctrl, `
    <foot-bot id="m"><body position="-0.5,0,0"/><controller config="mover"/></foot-bot>
    <foot-bot id="n"><body position="0.1,0.22,0"/><controller config="still"/></foot-bot>`, "")
	xml = strings.Replace(xml, `<physics_engines><dynamics2d id="dyn"/></physics_engines>`, twoEngines, 1)
	sim := build(t, xml, simulator.Options{Threads: intp(2)})
	m := sim.Robot(0)
	west, east := sim.Engines()[0], sim.Engines()[1]
	sawAcross := false
	prev := m.B().Pos
	crossedAt := -1
	for sim.Tick() < 100 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		b := m.B()
		// owned by exactly one engine, the one the body names
		owners := 0
		for k, e := range sim.Engines() {
			for _, i := range e.Bodies() {
				if i == m.Body {
					owners++
					if int(b.Engine) != k {
						t.Fatalf("tick %d: body says engine %d, engine %d owns it", sim.Tick(), b.Engine, k)
					}
				}
			}
		}
		if owners != 1 {
			t.Fatalf("tick %d: robot owned by %d engines", sim.Tick(), owners)
		}
		// pose and velocity carry over: 1 cm per tick along x, nothing else
		step := b.Pos.Sub(prev)
		if sim.Tick() > 2 && (math.Abs(step.X-0.01) > 1e-4 || math.Abs(step.Y) > 1e-6 || math.Abs(b.Vel.X-0.1) > 1e-3) {
			t.Fatalf("tick %d: moved %v at velocity %v; want 0.01 m along x at 0.1 m/s", sim.Tick(), step, b.Vel)
		}
		prev = b.Pos
		if b.Engine == 1 && crossedAt < 0 {
			crossedAt = sim.Tick()
		}
		if v, _ := sensing.Load("m"); b.Engine == 0 && v.(float64) > 0 {
			sawAcross = true // still in the west engine, sensing n in the east
		}
	}
	if crossedAt < 0 || len(west.Bodies()) != 0 || len(east.Bodies()) != 2 {
		t.Fatalf("the robot never migrated (west owns %d, east %d)", len(west.Bodies()), len(east.Bodies()))
	}
	if !sawAcross {
		t.Fatal("the robot in the west engine never sensed the robot in the east engine")
	}
}

// The scalability run with four engines gives identical final poses for
// threads 0, 1 and 2 (cut to 60 ticks to keep the race-detector run short).
func TestScalability10000FourEnginesDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("three runs of 10,000 robots")
	}
	file := repoFile("experiments", "scalability", "scalability_10000_e4.argos")
	var ref [][3]float64
	for _, threads := range []int{0, 1, 2} {
		exp, err := config.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		exp.LoopFunctions = nil
		exp.Framework.Length = 6
		got := runToEnd(t, exp, threads)
		if ref == nil {
			ref = got
			continue
		}
		for i := range ref {
			if got[i] != ref[i] {
				t.Fatalf("threads=%d: body %d ends at %v, with threads=0 at %v", threads, i, got[i], ref[i])
			}
		}
	}
}

// ... and so do kinematics2d engines, whatever the threading method.
func TestKinematicsDeterministicAcrossThreads(t *testing.T) {
	file := repoFile("experiments", "scalability", "scalability_10000_e4.argos")
	var ref [][3]float64
	for _, run := range []struct {
		threads int
		method  string
	}{{0, ""}, {2, ""}, {2, "balance_quantity"}, {2, "balance_length"}} {
		threads := run.threads
		exp, err := config.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		exp.Framework.ThreadMethod = run.method
		exp.LoopFunctions = nil
		exp.Framework.Length = 3
		for _, n := range exp.PhysicsEngines {
			n.Name = "kinematics2d"
		}
		got := runToEnd(t, exp, threads)
		if ref == nil {
			ref = got
			continue
		}
		for i := range ref {
			if got[i] != ref[i] {
				t.Fatalf("threads=%d method=%q: body %d ends at %v, with threads=0 at %v", threads, run.method, i, got[i], ref[i])
			}
		}
	}
}

func runToEnd(t *testing.T, exp *config.Experiment, threads int) [][3]float64 {
	t.Helper()
	sim, err := simulator.New(exp, simulator.Options{Threads: intp(threads)})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var out [][3]float64
	for _, b := range sim.Space().Bodies {
		out = append(out, [3]float64{b.Pos.X, b.Pos.Y, b.Yaw})
	}
	return out
}
