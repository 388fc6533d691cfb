package simulator_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/devices"
)

// recording records, from ControlStep, its step count and a value drawn
// from its robot's random stream.
type recording struct {
	rec   ci.Recorder
	r     ci.Robot
	steps int
}

func (c *recording) Init(r ci.Robot, _ ci.Params) error {
	c.rec, c.r = ci.Metrics(r), r
	return nil
}
func (c *recording) ControlStep() {
	c.steps++
	c.rec.Record("steps", float64(c.steps))
	c.rec.Record("draw", c.r.Rand().Float64())
}
func (c *recording) Reset()         { c.steps = 0 }
func (c *recording) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_recording", "test: records metrics", func() ci.Controller { return &recording{} })
}

// collector drains the samples after every tick, as a run folder does.
type collector struct {
	ticks   []int
	samples [][]simulator.Sample
}

func (c *collector) Draw(sim *simulator.Simulator) error {
	c.ticks = append(c.ticks, sim.Tick())
	c.samples = append(c.samples, sim.TakeSamples(nil))
	return nil
}
func (c *collector) Close() error { return nil }

func recordingRun(t *testing.T, threads int, on bool) *collector {
	arena := ""
	for i := range 70 { // more than one chunk of robots
		arena += fmt.Sprintf(`<e-puck id="ep%d"><body position="%g,%g,0"/><controller config="rc"/></e-puck>`, i, -1.7+0.3*float64(i%12), -1.7+0.3*float64(i/12))
	}
	sim := build(t, experiment("0.3", `<test_recording id="rc"/>`, arena, ""), simulator.Options{Threads: &threads, Metrics: on})
	c := &collector{}
	if err := sim.AddVisualization(c); err != nil {
		t.Fatal(err)
	}
	if sim.MetricsEnabled() != on {
		t.Fatalf("MetricsEnabled() = %v", sim.MetricsEnabled())
	}
	for !sim.Finished() {
		sim.Metrics().Record("tick", float64(sim.Tick()+1))
		sim.RobotMetrics(1).Record("loop", 1)
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestMetrics(t *testing.T) {
	c := recordingRun(t, 0, true)
	if !reflect.DeepEqual(c.ticks, []int{0, 1, 2, 3}) {
		t.Fatalf("drew at ticks %v", c.ticks)
	}
	// tick 0: no robot has run a control step yet (the first one runs in
	// tick 1, as in ARGoS)
	if n := len(c.samples[0]); n != 0 {
		t.Fatalf("%d samples at tick 0, want none", n)
	}
	for tick := 1; tick <= 3; tick++ {
		s := c.samples[tick]
		if len(s) != 1+1+140 {
			t.Fatalf("tick %d: %d samples, want 142", tick, len(s))
		}
		// per-tick ones first, then robot by robot in arena order
		if s[0] != (simulator.Sample{Name: "tick", Value: float64(tick)}) {
			t.Errorf("tick %d: first sample %+v", tick, s[0])
		}
		if s[1].Robot != "ep0" || s[1].Name != "steps" || s[1].Value != float64(tick) {
			t.Errorf("tick %d: second sample %+v", tick, s[1])
		}
		if s[3] != (simulator.Sample{Robot: "ep1", Name: "loop", Value: 1}) {
			t.Errorf("tick %d: the loop function's sample for robot 1 is %+v", tick, s[3])
		}
	}
	// the same for any thread count
	if d := recordingRun(t, 3, true); !reflect.DeepEqual(d.samples, c.samples) {
		t.Error("3 threads recorded other samples than 0 threads")
	}
	// off, nothing is kept
	for _, s := range recordingRun(t, 2, false).samples {
		if len(s) != 0 {
			t.Fatalf("metrics off, yet %d samples", len(s))
		}
	}
}

// Every device of a robot is listed by tag, and the foundation devices
// describe themselves.
func TestRobotDevicesInspect(t *testing.T) {
	sim := build(t, experiment("1", constantController+`
    <test_positioner id="tp">
      <actuators><leds implementation="default" medium="leds"/></actuators>
      <sensors><positioning implementation="default"/><epuck_proximity implementation="default"/></sensors>
    </test_positioner>`,
		`<foot-bot id="fb"><body position="0.5,0,0" orientation="90,0,0"/><controller config="tc"/></foot-bot>
		 <e-puck id="ep"><body position="-1,1,0"/><controller config="tp"/></e-puck>`, ""), simulator.Options{})
	// tick 1 runs the first control step, tick 2 applies its wheel speeds
	for sim.Tick() < 2 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var tags []string
	for _, d := range sim.RobotDevices(0) {
		tags = append(tags, fmt.Sprintf("%s/%v", d.Tag, d.Actuator))
		if _, ok := d.Impl.(devices.Inspector); !ok {
			t.Errorf("%s (%T) has no Inspect", d.Tag, d.Impl)
		}
	}
	if want := []string{"differential_steering/false", "positioning/false", "differential_steering/true"}; !reflect.DeepEqual(tags, want) {
		t.Errorf("devices %v, want %v", tags, want)
	}
	if id, label, active := sim.RobotController(1); id != "tp" || label != "test_positioner" || !active {
		t.Errorf("RobotController(1) = %q, %q, %v", id, label, active)
	}
	for _, d := range sim.RobotDevices(0) {
		switch v := d.Impl.(devices.Inspector).Inspect().(type) {
		case devices.PoseInspection:
			if math.Abs(v.X-0.5) > 0.01 || math.Abs(v.YawDeg-90) > 1 {
				t.Errorf("positioning: %+v", v)
			}
		case devices.WheelsInspection:
			if v.LeftCmS != 10 || v.AppliedLeftCmS != 10 {
				t.Errorf("wheels: %+v", v)
			}
		case devices.EncodersInspection:
			if v.VelocityLeftCmS != 10 {
				t.Errorf("encoders: %+v", v)
			}
		default:
			t.Errorf("%s: %T", d.Tag, v)
		}
	}
	for _, d := range sim.RobotDevices(1) {
		switch v := d.Impl.(devices.Inspector).Inspect().(type) {
		case devices.RingInspection:
			if len(v.Values) != 8 || len(v.AnglesDeg) != 8 || math.Abs(v.AnglesDeg[0]-17) > 1 {
				t.Errorf("proximity: %+v", v)
			}
		case devices.LEDsInspection:
			if len(v.Colors) != 8 || v.Colors[0] != "#000000" {
				t.Errorf("leds: %+v", v)
			}
		case devices.PoseInspection:
		default:
			t.Errorf("%s: %T", d.Tag, v)
		}
	}
}

// Execute runs the loop through a Driver visualization when there is
// one, and stops the robots and calls PostExperiment after it.
type driver struct {
	collector
	drove bool
}

func (d *driver) Drive(ctx context.Context, sim *simulator.Simulator) error {
	d.drove = true
	for range 2 {
		if err := sim.Step(); err != nil {
			return err
		}
	}
	return nil
}

func TestExecuteWithADriver(t *testing.T) {
	sim := build(t, experiment("10", constantController, `<foot-bot id="fb"><body position="0,0,0"/><controller config="tc"/></foot-bot>`, ""), simulator.Options{})
	d := &driver{}
	if err := sim.AddVisualization(d); err != nil {
		t.Fatal(err)
	}
	if err := sim.Execute(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !d.drove || sim.Tick() != 2 || !reflect.DeepEqual(d.ticks, []int{0, 1, 2}) {
		t.Errorf("drove %v, tick %d, drawn at %v", d.drove, sim.Tick(), d.ticks)
	}
	if w := sim.Robot(0).Wheels; w != [2]float64{} {
		t.Errorf("wheels %v after Execute, want stopped", w)
	}
	if sim.OutputPath("x.tsv") != "x.tsv" {
		t.Errorf("OutputPath without an output dir: %q", sim.OutputPath("x.tsv"))
	}
}
