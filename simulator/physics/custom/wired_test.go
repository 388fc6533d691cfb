package custom_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/simulator/physics/custom"
)

// circler drives its agent at constant controls (params v and w) and
// keeps the states it reads.
type circler struct {
	state   ci.DynamicsState
	control ci.DynamicsControl
	v, w    float64
	seen    []float64
}

func (c *circler) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.state, err = ci.GetSensor[ci.DynamicsState](r, ci.TagDynamicsState); err != nil {
		return err
	}
	if c.control, err = ci.GetActuator[ci.DynamicsControl](r, ci.TagDynamicsControl); err != nil {
		return err
	}
	if c.v, err = p.FloatOr("v", 0); err != nil {
		return err
	}
	c.w, err = p.FloatOr("w", 0)
	return err
}

func (c *circler) ControlStep() {
	c.seen = append(c.seen[:0], c.state.Values()...)
	c.control.Set(c.control.Index("v"), c.v)
	c.control.Set(c.control.Index("w"), c.w)
}

func (c *circler) Reset()         {}
func (c *circler) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("custom_test_circler", "drives at constant v and w", func() ci.Controller { return &circler{} })
}

// experiment returns an experiment file with the given arena content and
// dynamics; line 1 is the <argos-configuration> element, each line of
// the arguments keeps its own line.
func experiment(arena, dynamics string, ticksPerSecond int) string {
	return `<argos-configuration>
<framework><system threads="0"/><experiment length="0" ticks_per_second="` + fmt.Sprint(ticksPerSecond) + `" random_seed="7"/></framework>
<controllers><custom_test_circler id="c"><actuators><dynamics_control implementation="default"/></actuators>
<sensors><dynamics_state implementation="default"/></sensors><params v="0.2" w="1"/></custom_test_circler></controllers>
<physics_engines>
<custom id="agents">
` + dynamics + `
</custom>
</physics_engines>
<arena size="20,20,1" center="0,0,0.5">
` + arena + `
</arena>
<media/>
</argos-configuration>`
}

const unicycle = `<dynamics name="unicycle" states="x, y, theta, fuel" controls="v, w">
<equation>x' = v*cos(theta)</equation>
<equation>y' = v*sin(theta)</equation>
<equation>theta' = w</equation>
<equation>fuel' = -0.1*abs(v)</equation>
</dynamics>`

func newSim(t *testing.T, xml string, threads int) (*simulator.Simulator, error) {
	t.Helper()
	exp, err := config.Parse("agents.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true, Threads: &threads, OutputDir: t.TempDir()})
	if err == nil {
		t.Cleanup(func() { sim.Close() })
	}
	return sim, err
}

// An agent at constant v and w drives the circle of radius v/w, its fuel
// state (set at the start by <state>) falls as the equation says, and its
// controller reads the states the engine computed.
func TestAgentDrivesItsCircle(t *testing.T) {
	sim, err := newSim(t, experiment(`<agent id="a0" dynamics="unicycle" radius="0.05">
<body position="1,2,0" orientation="90,0,0"/><state fuel="3"/><controller config="c"/></agent>`, unicycle, 100), 0)
	if err != nil {
		t.Fatal(err)
	}
	const ticks = 300 // 3 s; the controls hold from the second tick on
	for i := 0; i < ticks; i++ {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	// heading 90 degrees at (1, 2), turning left at w = 1: the centre is
	// at (1 - 0.2, 2)
	dt := float64(ticks-1) / 100
	b := sim.Space().Bodies[sim.Robot(0).Body]
	wantX, wantY := 0.8+0.2*math.Cos(dt), 2+0.2*math.Sin(dt)
	if math.Hypot(b.Pos.X-wantX, b.Pos.Y-wantY) > 1e-6 {
		t.Errorf("agent at (%.7f, %.7f), want (%.7f, %.7f)", b.Pos.X, b.Pos.Y, wantX, wantY)
	}
	if want := ci.NormalizeAngle(math.Pi/2 + dt); math.Abs(b.Yaw-want) > 1e-9 {
		t.Errorf("heading %v, want %v", b.Yaw, want)
	}
	seen := sim.Controller(0).(*circler).seen
	// the sensor read at the last control step the states of the last
	// physics step
	if len(seen) != 4 || seen[0] != b.Pos.X || seen[1] != b.Pos.Y || math.Abs(seen[3]-(3-0.1*0.2*dt)) > 1e-9 {
		t.Errorf("states read %v, want (%v, %v, ..., fuel %v)", seen, b.Pos.X, b.Pos.Y, 3-0.1*0.2*dt)
	}
}

// The errors of the dynamics and of the agents are at the file's line.
func TestErrorsAtFileLine(t *testing.T) {
	agent := `<agent id="a0" dynamics="unicycle"><body position="0,0,0"/><controller config="c"/></agent>`
	for _, tc := range []struct{ name, arena, dyn, want string }{
		{"unknown symbol", agent, strings.Replace(unicycle, "-0.1*abs(v)", "-k*abs(v)", 1),
			`agents.argos:11: <equation> in <custom id="agents">: custom: "fuel' = -k*abs(v)": unknown symbol "k"`},
		{"division by constant zero", agent, strings.Replace(unicycle, "-0.1*abs(v)", "v/(1-1)", 1),
			`agents.argos:11: <equation> in <custom id="agents">: custom: "fuel' = v/(1-1)": division by zero`},
		{"unknown dynamics", strings.Replace(agent, `dynamics="unicycle"`, `dynamics="bicycle"`, 1), unicycle,
			`agents.argos:16: <agent id="a0">: custom: agent "a0" names dynamics "bicycle", which no <custom> engine defines (they define "unicycle")`},
		{"agent without controller", `<agent id="a0" dynamics="unicycle"><body position="0,0,0"/></agent>`, unicycle,
			`agents.argos:16: <agent id="a0">: custom: agent "a0" has no controller`},
		{"unknown state", strings.Replace(agent, `<controller`, `<state oil="1"/><controller`, 1), unicycle,
			`agents.argos:16: <state> in <agent id="a0">: custom: agent "a0": "oil" is not a state of dynamics "unicycle"`},
	} {
		_, err := newSim(t, experiment(tc.arena, tc.dyn, 10), 0)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.name, err, tc.want)
		}
	}
}

// Two hundred agents (four chunks) on different circles end in the same
// states, bit for bit, with 0 and 2 threads.
func TestSameResultsWhateverTheThreads(t *testing.T) {
	arena := `<distribute><position method="uniform" min="-9,-9,0" max="9,9,0"/><orientation method="uniform" min="0,0,0" max="360,0,0"/>
<entity quantity="200" max_trials="100"><agent id="a" dynamics="unicycle"><controller config="c"/></agent></entity></distribute>`
	var ref []float64
	for _, threads := range []int{0, 2} {
		sim, err := newSim(t, experiment(arena, unicycle, 50), threads)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 100; i++ {
			if err := sim.Step(); err != nil {
				t.Fatal(err)
			}
		}
		var got []float64
		for k := 0; k < sim.NumRobots(); k++ {
			b := sim.Space().Bodies[sim.Robot(k).Body]
			got = append(got, b.Pos.X, b.Pos.Y, b.Yaw)
			got = append(got, sim.Controller(k).(*circler).seen...)
		}
		if ref == nil {
			ref = got
			continue
		}
		for i := range got {
			if got[i] != ref[i] {
				t.Fatalf("threads %d: value %d is %v, with 0 threads %v", threads, i, got[i], ref[i])
			}
		}
	}
}
