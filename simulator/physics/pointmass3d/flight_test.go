package pointmass3d_test

// Whole-simulator tests of the eye-bot: pointmass3d with its devices, the
// LED medium and foot-bots with their ground sensors and cameras.

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/physics/kinematics2d"
	"github.com/argosgo/argos/simulator/physics/pointmass3d"
)

// flier flies to the set-point of its params (from the first tick on),
// keeps its laser on (colour param laser, if any), asks for the ceiling at
// tick attach (if > 0) and records what its camera and sensors give.
type flier struct {
	fly     ci.QuadrotorPosition
	alt     ci.Altitude
	laser   ci.LaserPointer
	ceiling ci.CeilingAttachment
	camera  ci.ColoredBlobCamera
	target  ci.Vector3
	color   ci.Color
	attach  int
	tick    int
	blobs   []ci.Blob
	reading float64
}

func (f *flier) Init(r ci.Robot, p ci.Params) error {
	var err error
	if f.fly, err = ci.GetActuator[ci.QuadrotorPosition](r, ci.TagQuadrotorPosition); err != nil {
		return err
	}
	if f.alt, err = ci.GetSensor[ci.Altitude](r, ci.TagAltitude); err != nil {
		return err
	}
	if _, ok := r.Actuator(ci.TagLaserPointer); ok {
		if f.laser, err = ci.GetActuator[ci.LaserPointer](r, ci.TagLaserPointer); err != nil {
			return err
		}
	}
	if _, ok := r.Actuator(ci.TagCeilingAttachment); ok {
		if f.ceiling, err = ci.GetActuator[ci.CeilingAttachment](r, ci.TagCeilingAttachment); err != nil {
			return err
		}
	}
	if _, ok := r.Sensor(ci.TagPerspectiveCamera); ok {
		if f.camera, err = ci.GetSensor[ci.ColoredBlobCamera](r, ci.TagPerspectiveCamera); err != nil {
			return err
		}
		f.camera.Enable()
	}
	for _, a := range []struct {
		name string
		v    *float64
	}{{"x", &f.target.X}, {"y", &f.target.Y}, {"z", &f.target.Z}} {
		if *a.v, err = p.FloatOr(a.name, 0); err != nil {
			return err
		}
	}
	if f.attach, err = p.IntOr("attach", 0); err != nil {
		return err
	}
	if c := p.StringOr("laser", ""); c != "" {
		if f.color, err = ci.ParseColor(c); err != nil {
			return err
		}
	}
	return nil
}

func (f *flier) ControlStep() {
	f.tick++
	f.reading = f.alt.Reading()
	if f.tick == 1 {
		f.fly.SetAbsolutePosition(f.target)
		if f.laser != nil && f.color != (ci.Color{}) {
			f.laser.On(f.color)
		}
	}
	if f.ceiling != nil && f.attach > 0 && f.tick == f.attach {
		f.ceiling.Attach()
	}
	if f.camera != nil {
		f.blobs = append(f.blobs[:0], f.camera.Blobs()...)
	}
}
func (f *flier) Reset()         { f.tick = 0 }
func (f *flier) Destroy() error { return nil }

// watcher is a foot-bot that stands still, lights one LED (params led,
// color) and records its ground sensors and omnidirectional camera.
type watcher struct {
	motor, base ci.Ground
	camera      ci.ColoredBlobCamera
	leds        ci.LEDs
	led         int
	color       ci.Color
	motorRead   []ci.GroundReading
	baseRead    []ci.GroundReading
	blobs       []ci.Blob
}

func (w *watcher) Init(r ci.Robot, p ci.Params) error {
	var err error
	if w.motor, err = ci.GetSensor[ci.Ground](r, ci.TagFootBotMotorGround); err != nil {
		return err
	}
	if w.base, err = ci.GetSensor[ci.Ground](r, ci.TagFootBotBaseGround); err != nil {
		return err
	}
	if w.camera, err = ci.GetSensor[ci.ColoredBlobCamera](r, ci.TagOmnidirectionalCamera); err != nil {
		return err
	}
	if w.leds, err = ci.GetActuator[ci.LEDs](r, ci.TagLEDs); err != nil {
		return err
	}
	if w.led, err = p.IntOr("led", -1); err != nil {
		return err
	}
	w.color, err = ci.ParseColor(p.StringOr("color", "black"))
	return err
}

func (w *watcher) ControlStep() {
	// Enabled here rather than in Init: the LED medium has indexed
	// nothing before the first tick.
	w.camera.Enable()
	w.leds.SetAllColors(ci.Black)
	if w.led >= 0 {
		w.leds.SetSingleColor(w.led, w.color)
	}
	w.motorRead = append(w.motorRead[:0], w.motor.Readings()...)
	w.baseRead = append(w.baseRead[:0], w.base.Readings()...)
	w.blobs = append(w.blobs[:0], w.camera.Blobs()...)
}
func (w *watcher) Reset()         {}
func (w *watcher) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_pm3d_flier", "test: flies to params x,y,z; laser; attach at tick", func() ci.Controller { return &flier{} })
	ci.Controllers.MustRegister("test_pm3d_watcher", "test: a still foot-bot with one LED lit, recording its sensors", func() ci.Controller { return &watcher{} })
}

const flightControllers = `
    <test_pm3d_flier id="fly">
      <actuators>
        <quadrotor_position implementation="default"/>
        <laser_pointer implementation="default"/>
        <ceiling_attachment implementation="default"/>
      </actuators>
      <sensors>
        <altitude implementation="default"/>
        <positioning implementation="default"/>
        <colored_blob_perspective_camera implementation="default" medium="leds"/>
      </sensors>
      <params %s/>
    </test_pm3d_flier>
    <test_pm3d_watcher id="watch">
      <actuators><leds implementation="default" medium="leds"/></actuators>
      <sensors>
        <footbot_motor_ground implementation="rot_z_only"/>
        <footbot_base_ground implementation="rot_z_only"/>
        <colored_blob_omnidirectional_camera implementation="rot_z_only" medium="leds"/>
      </sensors>
      <params/>
    </test_pm3d_watcher>
    <test_pm3d_watcher id="beacon">
      <actuators><leds implementation="default" medium="leds"/></actuators>
      <sensors>
        <footbot_motor_ground implementation="rot_z_only"/>
        <footbot_base_ground implementation="rot_z_only"/>
        <colored_blob_omnidirectional_camera implementation="rot_z_only" medium="leds"/>
      </sensors>
      <params led="12" color="red"/>
    </test_pm3d_watcher>`

// flightExperiment: an eye-bot on the floor at (-1, -1) that flies to
// (0, 0, 1.5) with its laser on; a foot-bot "fb" just beside the spot
// (its front ground sensors within the spot's 5 cm); a foot-bot "fb2"
// with its red beacon on, in the eye-bot's view. engines lists the
// physics engines in order.
func flightExperiment(t *testing.T, engines, flierParams string, threads int) *simulator.Simulator {
	t.Helper()
	if flierParams == "" {
		flierParams = hover
	}
	doc := fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><system threads="%d"/><experiment length="0" ticks_per_second="10" random_seed="7"/></framework>
  <controllers>%s
  </controllers>
  <arena size="4,4,3" center="0,0,1.5">
    <eye-bot id="eb"><body position="-1,-1,0" orientation="0,0,0"/><controller config="fly"/></eye-bot>
    <foot-bot id="fb"><body position="-0.1,0,0" orientation="0,0,0"/><controller config="watch"/></foot-bot>
    <foot-bot id="fb2"><body position="0.3,0.5,0" orientation="90,0,0"/><controller config="beacon"/></foot-bot>
  </arena>
  <physics_engines>%s</physics_engines>
  <media><led id="leds"/></media>
</argos-configuration>`, threads, fmt.Sprintf(flightControllers, flierParams), engines)
	exp, err := config.Parse("flight.argos", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

const bothEngines = `<pointmass3d id="pm3d"/><dynamics2d id="dyn2d"/>`

// hover is the flier's default: to (0, 0, 1.5), laser red.
const hover = `x="0" y="0" z="1.5" laser="red"`

func step(t *testing.T, sim *simulator.Simulator, n int) {
	t.Helper()
	for range n {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

func bodyPos(sim *simulator.Simulator, i int) ci.Vector3 {
	b := sim.Robot(i).B()
	return ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
}

// An eye-bot takes off from the floor, flies to its set-point, holds its
// altitude, and its laser spot is seen by the foot-bot below it.
func TestEyeBotFliesAndMarksTheFloor(t *testing.T) {
	sim := flightExperiment(t, bothEngines, ``, 2)
	eb := sim.Robot(0)
	if eng := sim.Engines()[eb.B().Engine]; eng.ID() != "pm3d" {
		t.Fatalf("the eye-bot is in engine %q, want pm3d", eng.ID())
	}
	for i := 1; i < 3; i++ {
		if eng := sim.Engines()[sim.Robot(i).B().Engine]; eng.ID() != "dyn2d" {
			t.Fatalf("foot-bot %s is in engine %q, want dyn2d", sim.Robot(i).ID, eng.ID())
		}
	}
	target := ci.Vector3{Z: 1.5}
	const tol = 1e-3 // m: how well it holds the set-point and the altitude
	reached := -1
	for sim.Tick() < 60 && reached < 0 {
		step(t, sim, 1)
		if p := bodyPos(sim, 0); p.Z < 0 {
			t.Fatalf("tick %d: under the floor at %v", sim.Tick(), p)
		} else if p.Sub(target).Length() < tol {
			reached = sim.Tick()
		}
	}
	if reached < 0 {
		t.Fatalf("the eye-bot did not reach %v within %g m in 6 s; it is at %v", target, tol, bodyPos(sim, 0))
	}
	// It holds its altitude and position for 30 s; the altitude sensor
	// agrees.
	f := sim.Controller(0).(*flier)
	for range 300 {
		step(t, sim, 1)
		p := bodyPos(sim, 0)
		if math.Abs(p.Z-target.Z) > tol || p.Sub(target).Length() > tol {
			t.Fatalf("tick %d: drifted to %v (set-point %v, tolerance %g m)", sim.Tick(), p, target, tol)
		}
		if math.Abs(f.reading-p.Z) > tol {
			t.Fatalf("tick %d: the altitude sensor reads %g at z = %g", sim.Tick(), f.reading, p.Z)
		}
	}

	// The laser spot: on the floor straight below, in World.Spots.
	spots := sim.World().Spots
	if len(spots) != 1 {
		t.Fatalf("World.Spots = %+v, want the eye-bot's spot", spots)
	}
	if s := spots[0]; s.Pos.Sub(ci.Vector3{X: bodyPos(sim, 0).X, Y: bodyPos(sim, 0).Y}).Length() > 1e-12 ||
		s.Color != ci.Red || s.Source != 0 || s.Radius != 0.05 {
		t.Fatalf("spot %+v, want red, radius 0.05, on the floor under the eye-bot at %v", s, bodyPos(sim, 0))
	}
	// The foot-bot beside it sees it with its ground sensors (red is grey
	// level 0.299 on a white floor) and its omnidirectional camera.
	w := sim.Controller(1).(*watcher)
	gray := entity.Gray(ci.Red)
	for i, r := range w.motorRead {
		front := r.Offset.X > 0 // the front sensors lie within the spot's 5 cm
		if front && math.Abs(r.Value-gray) > 1e-9 || !front && r.Value != 1 {
			t.Errorf("motor ground sensor %d at %v reads %g; want %g under the spot, 1 on the white floor", i, r.Offset, r.Value, gray)
		}
	}
	if r := w.baseRead[0]; r.Offset != (ci.Vector2{X: 0.08}) || r.Value != 0 {
		t.Errorf("base ground sensor 0 (front, under the spot) reads %+v, want 0 (black: grey 0.299 < 0.5)", r)
	}
	if r := w.baseRead[4]; r.Value != 1 {
		t.Errorf("base ground sensor 4 (back, on the white floor) reads %+v, want 1", r)
	}
	var red []ci.Blob
	for _, b := range w.blobs {
		if b.Color == ci.Red {
			red = append(red, b)
		}
	}
	// fb2's beacon is 0.61 m away, also in the foot-bot's camera; the spot
	// is the red blob straight ahead at 0.1 m.
	found := false
	for _, b := range red {
		if math.Abs(b.Angle) < 1e-9 && math.Abs(b.Distance-0.1) < 1e-9 {
			found = true
		}
	}
	if !found {
		t.Errorf("the foot-bot's omnidirectional camera does not see the spot 0.1 m ahead: %+v", w.blobs)
	}

	// The eye-bot's camera sees fb2's red beacon (0.174 m up at the centre
	// of fb2) at the right place in its image: the eye-bot faces +X.
	depth := 1.5 - float64(float32(0.174249733)) // ARGoS's 0.174249733f
	k := depth * math.Tan(ci.Radians(30))
	wantX, wantY := -0.5/k, 0.3/k // left 0.5 m, front 0.3 m
	var seen []ci.Blob
	for _, b := range f.blobs {
		if b.Color == ci.Red {
			seen = append(seen, b)
		}
	}
	if len(seen) != 1 || math.Abs(seen[0].X-wantX) > 1e-9 || math.Abs(seen[0].Y-wantY) > 1e-9 ||
		math.Abs(seen[0].Distance-math.Hypot(0.3, 0.5)) > 1e-9 || math.Abs(seen[0].Angle-math.Atan2(0.5, 0.3)) > 1e-9 {
		t.Errorf("the eye-bot's camera sees %+v; want one red blob (fb2's beacon) at image (%.4f, %.4f)", f.blobs, wantX, wantY)
	}
}

// The spot lands on top of what is below: here a foot-bot.
func TestEyeBotSpotOnARobot(t *testing.T) {
	sim := flightExperiment(t, bothEngines, `x="0.3" y="0.5" z="1" laser="green"`, 0)
	step(t, sim, 60)
	spots := sim.World().Spots
	if len(spots) != 1 || math.Abs(spots[0].Pos.Z-entity.FootBot.Height) > 1e-12 {
		t.Fatalf("spots %+v, want one on top of fb2 (%g m)", spots, entity.FootBot.Height)
	}
}

// The ceiling attachment holds: the eye-bot rises to the ceiling and hangs
// there, still.
func TestEyeBotCeilingAttachmentHolds(t *testing.T) {
	sim := flightExperiment(t, bothEngines, hover+` attach="40"`, 0)
	step(t, sim, 40)
	hang := 3 - entity.EyeBot.Height // the arena's top is the ceiling
	var at ci.Vector3
	attachedAt := -1
	for range 100 {
		step(t, sim, 1)
		if sim.Robot(0).B().Flight().Attached {
			attachedAt = sim.Tick()
			at = bodyPos(sim, 0)
			break
		}
	}
	if attachedAt < 0 {
		t.Fatalf("not attached 10 s after Attach, at %v", bodyPos(sim, 0))
	}
	if math.Abs(at.Z-hang) > 1e-12 || math.Hypot(at.X, at.Y) > 1e-3 {
		t.Fatalf("attached at %v, want straight above (0, 0) at z = %g", at, hang)
	}
	f := sim.Controller(0).(*flier)
	for range 200 {
		step(t, sim, 1)
		if p := bodyPos(sim, 0); p != at || !f.ceiling.Attached() {
			t.Fatalf("tick %d: at %v attached %v; it should hang still at %v", sim.Tick(), p, f.ceiling.Attached(), at)
		}
	}
	// Its laser spot is still on the floor, 2.43 m below.
	if s := sim.World().Spots; len(s) != 1 || s[0].Pos.Z != 0 {
		t.Errorf("spots while hanging: %+v", s)
	}
}

// Eye-bots go to pointmass3d and foot-bots to the 2D engine whatever the
// engine order, and the run is the same with any order and thread count.
func TestEngineOrderAndThreads(t *testing.T) {
	trajectory := func(engines string, threads int) []ci.Vector3 {
		sim := flightExperiment(t, engines, ``, threads)
		var out []ci.Vector3
		for range 80 {
			step(t, sim, 1)
			for i := range sim.NumRobots() {
				out = append(out, bodyPos(sim, i))
			}
		}
		for i := range sim.NumRobots() {
			want := "pm3d"
			if sim.Robot(i).Model != entity.EyeBot {
				want = "dyn2d"
			}
			if id := sim.Engines()[sim.Robot(i).B().Engine].ID(); !strings.HasPrefix(id, want) {
				t.Errorf("%s: robot %s in engine %q, want %q", engines, sim.Robot(i).ID, id, want)
			}
		}
		return out
	}
	ref := trajectory(bothEngines, 0)
	for _, tc := range []struct {
		engines string
		threads int
	}{
		{`<dynamics2d id="dyn2d"/><pointmass3d id="pm3d"/>`, 0},
		{bothEngines, 2},
		{`<dynamics2d id="dyn2d"/><pointmass3d id="pm3d"/>`, 3},
	} {
		got := trajectory(tc.engines, tc.threads)
		for k := range ref {
			if got[k] != ref[k] {
				t.Fatalf("%s with %d threads: pose %d is %v, %v in the reference run", tc.engines, tc.threads, k, got[k], ref[k])
			}
		}
	}
	// kinematics2d (which claims the floor plane) first: the eye-bot on the
	// floor still goes to pointmass3d.
	sim := flightExperiment(t, `<kinematics2d id="k2d"/><pointmass3d id="pm3d"/>`, ``, 0)
	if id := sim.Engines()[sim.Robot(0).B().Engine].ID(); id != "pm3d" {
		t.Errorf("with kinematics2d first, the eye-bot is in %q", id)
	}
	step(t, sim, 60)
	if z := bodyPos(sim, 0).Z; math.Abs(z-1.5) > 1e-3 {
		t.Errorf("with kinematics2d first, the eye-bot flew to z = %g", z)
	}
}

// Without a pointmass3d engine the eye-bot's flight actuators say what is
// missing.
func TestEyeBotNeedsPointMass3D(t *testing.T) {
	doc := fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="0" ticks_per_second="10"/></framework>
  <controllers>%s</controllers>
  <arena size="4,4,3" center="0,0,1.5">
    <eye-bot id="eb"><body position="0,0,0"/><controller config="fly"/></eye-bot>
  </arena>
  <physics_engines><dynamics2d id="dyn2d"/></physics_engines>
  <media><led id="leds"/></media>
</argos-configuration>`, fmt.Sprintf(flightControllers, hover))
	exp, err := config.Parse("flight.argos", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{})
	if err == nil {
		sim.Close()
		t.Fatal("an eye-bot with quadrotor_position and no pointmass3d: no error")
	}
	if !strings.Contains(err.Error(), "pointmass3d") {
		t.Errorf("error %q does not say to add pointmass3d", err)
	}
}

// Reset puts the eye-bot back on the floor, hovering, and the same run
// follows.
func TestEyeBotReset(t *testing.T) {
	sim := flightExperiment(t, bothEngines, ``, 0)
	var first []ci.Vector3
	for range 30 {
		step(t, sim, 1)
		first = append(first, bodyPos(sim, 0))
	}
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if p := bodyPos(sim, 0); p != (ci.Vector3{X: -1, Y: -1}) {
		t.Fatalf("after Reset the eye-bot is at %v", p)
	}
	if len(sim.World().Spots) != 0 {
		t.Fatalf("after Reset the spots are %+v, want none until the laser is turned on again", sim.World().Spots)
	}
	for k := range 30 {
		step(t, sim, 1)
		if p := bodyPos(sim, 0); p != first[k] {
			t.Fatalf("tick %d after Reset: at %v, before at %v", k+1, p, first[k])
		}
	}
}

var _ = pointmass3d.NewEngine
