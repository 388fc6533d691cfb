package devices_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/pointmass3d"
	"github.com/argosgo/argos/simulator/space"
)

// flyingEyeBot adds an eye-bot at (x, y, z) facing yawDeg and gives it
// to a pointmass3d engine, which gives it its Flight.
func (a *arena) flyingEyeBot(id string, x, y, z, yawDeg float64, node string) (*entity.Robot, *pointmass3d.Engine) {
	a.tb.Helper()
	r := a.robot(entity.EyeBot, id, x, y, yawDeg, node)
	r.B().Z = z
	e := pointmass3d.NewEngine("pm3d", physics.Env{Space: a.sp, TickLength: 0.1})
	if err := e.Add(r.Body); err != nil {
		a.tb.Fatal(err)
	}
	return r, e
}

func TestEyeBotDevicesRegistered(t *testing.T) {
	for _, k := range []struct {
		reg interface {
			Lookup(string) (devices.Factory, error)
		}
		key string
	}{
		{devices.Actuators, ci.TagQuadrotorPosition}, {devices.Actuators, ci.TagQuadrotorSpeed},
		{devices.Actuators, ci.TagCeilingAttachment}, {devices.Actuators, ci.TagLaserPointer},
		{devices.Sensors, ci.TagAltitude}, {devices.Sensors, ci.TagEyeBotProximity},
		{devices.Sensors, ci.TagEyeBotLight}, {devices.Sensors, devices.Key(ci.TagEyeBotLight, "rot_z_only")},
		{devices.Sensors, ci.TagPerspectiveCamera},
	} {
		if _, err := k.reg.Lookup(k.key); err != nil {
			t.Errorf("%s: %v", k.key, err)
		}
	}
}

type eyeBotPosition interface {
	devices.Actuator
	ci.QuadrotorPosition
}

func TestQuadrotorPosition(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 1, 2, 0.5, 90, "")
	q := dev[eyeBotPosition](t, r, "actuators", `<quadrotor_position implementation="default"/>`)
	f := r.B().Flight()
	q.SetAbsolutePosition(ci.Vector3{X: -1, Y: 0, Z: 1.5})
	if f.Mode != space.Hover {
		t.Fatalf("the set-point reached the Flight before Apply: %+v", *f)
	}
	q.Apply()
	// The yaw set-point starts at the robot's yaw.
	if f.Mode != space.ToPosition || f.Position != (ci.Vector3{X: -1, Z: 1.5}) || math.Abs(f.Yaw-math.Pi/2) > 1e-12 {
		t.Fatalf("after SetAbsolutePosition: %+v", *f)
	}
	// Relative moves are in the robot's frame: it faces +Y, so its front
	// (1, 0) is +Y and its left (0, 1) is -X.
	q.SetRelativePosition(ci.Vector3{X: 1, Y: 0.5, Z: 0.25})
	q.SetRelativeYaw(math.Pi)
	q.Apply()
	want := ci.Vector3{X: 1 - 0.5, Y: 2 + 1, Z: 0.75}
	if f.Position.Sub(want).Length() > 1e-12 || math.Abs(ci.NormalizeAngle(f.Yaw+math.Pi/2)) > 1e-12 {
		t.Fatalf("after the relative moves: %+v, want position %v yaw -pi/2", *f, want)
	}
	q.SetAbsoluteYaw(7)
	q.Apply()
	if math.Abs(f.Yaw-ci.NormalizeAngle(7)) > 1e-12 || f.Position.Sub(want).Length() > 1e-12 {
		t.Fatalf("SetAbsoluteYaw changed the position or did not normalise: %+v", *f)
	}
	// The set-point holds until changed: another Apply changes nothing,
	// even after the Flight was reset to Hover (what a reset does).
	f.Mode = space.Hover
	q.Apply()
	if f.Mode != space.Hover {
		t.Errorf("Apply without a new set-point overwrote the Flight")
	}
	// a second commander is refused
	if _, err := build(t, r, "actuators", `<quadrotor_speed implementation="default"/>`); err == nil ||
		!strings.Contains(err.Error(), "quadrotor_position") {
		t.Errorf("quadrotor_speed next to quadrotor_position: error %v", err)
	}
	// a robot that does not fly
	fb := a.robot(entity.FootBot, "fb", -2, -2, 0, "")
	if _, err := build(t, fb, "actuators", `<quadrotor_position implementation="default"/>`); err == nil ||
		!strings.Contains(err.Error(), "pointmass3d") {
		t.Errorf("quadrotor_position on a foot-bot: error %v", err)
	}
}

type eyeBotSpeed interface {
	devices.Actuator
	ci.QuadrotorSpeed
}

func TestQuadrotorSpeed(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 0, 0, 1, 0, "")
	q := dev[eyeBotSpeed](t, r, "actuators", `<quadrotor_speed implementation="default"/>`)
	f := r.B().Flight()
	q.SetLinearVelocity(ci.Vector3{X: 0.1, Y: -0.2, Z: 0.3})
	q.Apply()
	if f.Mode != space.AtSpeed || f.Velocity != (ci.Vector3{X: 0.1, Y: -0.2, Z: 0.3}) || f.RotSpeed != 0 {
		t.Fatalf("after SetLinearVelocity: %+v", *f)
	}
	q.SetRotationalSpeed(-0.5)
	q.Apply()
	if f.Velocity != (ci.Vector3{X: 0.1, Y: -0.2, Z: 0.3}) || f.RotSpeed != -0.5 {
		t.Fatalf("after SetRotationalSpeed: %+v", *f)
	}
	// After a reset the other half of the set-point starts at rest.
	f.Mode = space.Hover
	q.SetRotationalSpeed(0.25)
	q.Apply()
	if f.Velocity != (ci.Vector3{}) || f.RotSpeed != 0.25 {
		t.Fatalf("after a reset, SetRotationalSpeed alone: %+v", *f)
	}
	if _, err := build(t, r, "actuators", `<quadrotor_position implementation="default"/>`); err == nil {
		t.Errorf("quadrotor_position next to quadrotor_speed: no error")
	}
}

type eyeBotCeiling interface {
	devices.Actuator
	ci.CeilingAttachment
}

func TestCeilingAttachmentActuator(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 0, 0, 1, 0, "")
	c := dev[eyeBotCeiling](t, r, "actuators", `<ceiling_attachment implementation="default"/>`)
	f := r.B().Flight()
	c.Attach()
	if f.Attach {
		t.Fatalf("Attach reached the Flight before Apply")
	}
	c.Apply()
	if !f.Attach || c.Attached() {
		t.Fatalf("after Attach and Apply: request %v, Attached() %v (the engine has not attached it yet)", f.Attach, c.Attached())
	}
	f.Attached = true // what the engine reports
	if !c.Attached() {
		t.Errorf("Attached() does not report the engine's state")
	}
	c.Detach()
	c.Apply()
	if f.Attach {
		t.Errorf("Detach did not clear the request")
	}
}

func TestAltitude(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 0, 0, 1.25, 0, "")
	alt := sensor[float64](t, r, `<altitude implementation="default"/>`)
	alt.Update()
	if alt.Reading() != 1.25 {
		t.Errorf("Reading %g at z = 1.25", alt.Reading())
	}
	r.B().Z = 0
	noisy := sensor[float64](t, r, `<altitude implementation="default" noise_std_dev="0.01"/>`)
	for range 100 {
		noisy.Update()
		if v := noisy.Reading(); v < 0 || v > 0.06 {
			t.Fatalf("noisy reading on the floor %g, want in [0, 0.06]", v)
		}
	}
}

func TestEyeBotProximity(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 0, 0, 0.5, 0, "")
	// A 2 m high wall 1 m in front of the body's edge; the sensors sit at
	// 0.5 + 0.1635 m.
	addBox(a.sp, 1.25+0.05, 0, 0.1, 6, 2, 0)
	p := proximitySensor(t, r, `<eyebot_proximity implementation="default"/>`)
	a.update()
	p.Update()
	rd := p.Readings()
	if len(rd) != 24 || math.Abs(rd[0].Angle-math.Pi/24) > 1e-12 {
		t.Fatalf("%d readings, first at %g", len(rd), rd[0].Angle)
	}
	// ARGoS: the foot-bot's response at the ray's length to the wall; the
	// rays start on the LED ring, 0.255 m from the centre
	want := 0.0100527 / ((1.25/math.Cos(math.Pi/24) - 0.255) + 0.000163144)
	if !near(rd[0].Value, want, 1e-9) || !near(rd[23].Value, want, 1e-9) {
		t.Errorf("front sensors read %g and %g, want %g", rd[0].Value, rd[23].Value, want)
	}
	if rd[12].Value != 0 {
		t.Errorf("the back sensor reads %g, want 0", rd[12].Value)
	}
	// Above the wall, nothing.
	r.B().Z = 2
	a.update()
	p.Update()
	for i, v := range p.Readings() {
		if v.Value != 0 {
			t.Fatalf("flying above the wall, sensor %d reads %g", i, v.Value)
		}
	}
	fb := a.robot(entity.FootBot, "fb", -3, -3, 0, "")
	if _, err := build(t, fb, "sensors", `<eyebot_proximity implementation="default"/>`); err == nil {
		t.Errorf("eyebot_proximity on a foot-bot: no error")
	}
}

type eyeBotLightSensor interface {
	devices.Sensor
	ci.Light
}

func TestEyeBotLight(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 0, 0, 1, 30, "")
	l := dev[eyeBotLightSensor](t, r, "sensors", `<eyebot_light implementation="rot_z_only"/>`)
	// A light 1 m to the robot's left (30 + 90 degrees), at the height of
	// its origin, of intensity 2: d = 0.5.
	dir := ci.Radians(120)
	a.light(math.Cos(dir), math.Sin(dir), 1, 2, ci.Yellow)
	a.update()
	l.Update()
	rd := l.Readings()
	if len(rd) != 24 {
		t.Fatalf("%d readings", len(rd))
	}
	for i, v := range rd {
		off := math.Abs(ci.NormalizeAngle(math.Pi/2 - v.Angle))
		want := 0.0
		if off <= math.Pi/2 {
			want = math.Exp(-2*0.5) * (1 - 2*off/math.Pi)
		}
		if !near(v.Value, want, 1e-9) {
			t.Errorf("sensor %d at %.1f degrees reads %g, want %g", i, ci.Degrees(v.Angle), v.Value, want)
		}
	}
	if !(rd[5].Value > rd[3].Value && rd[6].Value > rd[8].Value && rd[17].Value == 0) {
		t.Errorf("the left sensors (82.5, 97.5 degrees) should peak: %v", rd)
	}
	// A box between the light and the robot hides it.
	addBox(a.sp, 0.5*math.Cos(dir), 0.5*math.Sin(dir), 0.2, 0.2, 3, 0)
	a.update()
	l.Update()
	for i, v := range l.Readings() {
		if v.Value != 0 {
			t.Fatalf("occluded light: sensor %d reads %g", i, v.Value)
		}
	}
}

type eyeBotCamera interface {
	devices.Sensor
	ci.ColoredBlobCamera
}

// TestPerspectiveCamera looks down from an eye-bot at a foot-bot with one
// red LED and at another robot's laser spot.
func TestPerspectiveCamera(t *testing.T) {
	a := newWorld(t, 10, false)
	eb, _ := a.flyingEyeBot("eb", 0, 0, 1.5, 30, "")
	cam := dev[eyeBotCamera](t, eb, "sensors", `<colored_blob_perspective_camera implementation="default" medium="leds"/>`)
	fb := a.robot(entity.FootBot, "fb", 0.2, 0.45, 0, "")
	fb.LEDs = make([]ci.Color, 13)
	for i := range fb.LEDs {
		fb.LEDs[i] = ci.Black
	}
	// On the ring at 255 degrees (facing the eye-bot), 0.090 m out, 0.085 m
	// up; the LEDs on the far side are hidden by the foot-bot's body.
	fb.LEDs[8] = ci.Red
	a.update()
	cam.Update()
	if len(cam.Blobs()) != 0 {
		t.Fatalf("a disabled camera sees %v", cam.Blobs())
	}
	cam.Enable()
	cam.Update()
	blobs := cam.Blobs()
	if len(blobs) != 1 {
		t.Fatalf("sees %d blobs, want the red LED: %+v", len(blobs), blobs)
	}
	// Where the LED is, in the eye-bot's frame (yaw 30 degrees).
	led := ci.Vector2{X: 0.2, Y: 0.45}.Add(ci.FromPolar(float64(float32(0.085036758))+0.005, ci.Radians(255)))
	local := led.Rotate(-ci.Radians(30))
	depth := 1.5 - float64(float32(0.085)) // ARGoS's 0.085f
	k := depth * math.Tan(ci.Radians(30))
	b := blobs[0]
	if b.Color != ci.Red || !near(b.X, -local.Y/k, 1e-9) || !near(b.Y, local.X/k, 1e-9) ||
		!near(b.Angle, local.Angle(), 1e-9) || !near(b.Distance, local.Length(), 1e-9) {
		t.Errorf("blob %+v, want red at X %.4f Y %.4f, angle %.4f, distance %.4f", b, -local.Y/k, local.X/k, local.Angle(), local.Length())
	}
	// Sanity of the image: the LED is in front of and to the left of the
	// eye-bot's axis, so up and to the left in the image.
	if !(b.Y > 0 && b.X < 0 && b.X > -1 && b.Y < 1) {
		t.Errorf("image position (%g, %g): want up-left inside the image", b.X, b.Y)
	}

	// A laser spot of another robot on the floor is seen; the robot's own
	// spot is not.
	a.w.Spots = []entity.Spot{
		{Pos: ci.Vector3{X: -0.3, Y: 0}, Radius: 0.05, Color: ci.Green, Source: fb.Index},
		{Pos: ci.Vector3{X: 0, Y: 0}, Radius: 0.05, Color: ci.Blue, Source: eb.Index},
	}
	cam.Update()
	if blobs := cam.Blobs(); len(blobs) != 2 || blobs[1].Color != ci.Green ||
		!near(blobs[1].Distance, 0.3, 1e-9) || !near(math.Abs(blobs[1].Angle), math.Pi-ci.Radians(30), 1e-9) {
		t.Errorf("with two spots (one its own): %+v", blobs)
	}
	a.w.Spots = nil

	// Out of the cone (30 degrees off the axis at most): not seen.
	fb.B().Pos = ci.Vector2{X: 1.2, Y: 0}
	a.update()
	cam.Update()
	if len(cam.Blobs()) != 0 {
		t.Errorf("an LED %g degrees off the axis is seen: %+v", ci.Degrees(math.Atan2(1.29, 1.415)), cam.Blobs())
	}
	// A box between the camera and the LED hides it.
	fb.B().Pos = ci.Vector2{X: 0.2, Y: 0.45}
	addBox(a.sp, 0.1, 0.2, 0.1, 0.1, 1, 0)
	a.update()
	cam.Update()
	if len(cam.Blobs()) != 0 {
		t.Errorf("an occluded LED is seen: %+v", cam.Blobs())
	}
	cam.Disable()
	if len(cam.Blobs()) != 0 {
		t.Errorf("Disable keeps the blobs")
	}
}

func TestPerspectiveCameraRange(t *testing.T) {
	// camera_range and camera_aperture come from the eye-bot's element.
	a := newWorld(t, 10, false)
	eb, _ := a.flyingEyeBot("eb", 0, 0, 1.5, 0, `<eye-bot id="eb" camera_range="1" camera_aperture="60"/>`)
	cam := dev[eyeBotCamera](t, eb, "sensors", `<colored_blob_perspective_camera implementation="default"/>`)
	cam.Enable()
	a.w.Spots = []entity.Spot{
		{Pos: ci.Vector3{X: 1, Y: 0, Z: 0}, Color: ci.Red, Source: 5},     // depth 1.5: beyond range
		{Pos: ci.Vector3{X: 1, Y: 0, Z: 0.6}, Color: ci.Green, Source: 5}, // depth 0.9, 48 degrees off
	}
	cam.Update()
	if b := cam.Blobs(); len(b) != 1 || b[0].Color != ci.Green || !near(b[0].Y, 1/(0.9*math.Tan(ci.Radians(60))), 1e-9) {
		t.Errorf("range 1 m, aperture 60 degrees: %+v", b)
	}
	fb := a.robot(entity.FootBot, "fb", -3, -3, 0, "")
	if _, err := build(t, fb, "sensors", `<colored_blob_perspective_camera implementation="default"/>`); err == nil {
		t.Errorf("the perspective camera on a foot-bot: no error")
	}
}

type eyeBotLaser interface {
	devices.Actuator
	ci.LaserPointer
	devices.SpotProjector
}

func TestLaserPointer(t *testing.T) {
	a := newWorld(t, 10, false)
	eb, _ := a.flyingEyeBot("eb", 1, -1, 1.2, 0, "")
	l := dev[eyeBotLaser](t, eb, "actuators", `<laser_pointer implementation="default" spot_radius="0.03"/>`)
	if _, on := l.Spot(); on || l.IsOn() {
		t.Fatalf("the laser starts on")
	}
	l.On(ci.Red)
	if _, on := l.Spot(); on || !l.IsOn() {
		t.Fatalf("before Apply: spot %v, IsOn %v; want no spot yet, IsOn true", on, l.IsOn())
	}
	l.Apply()
	s, on := l.Spot()
	if !on || s.Pos != (ci.Vector3{X: 1, Y: -1}) || s.Color != ci.Red || s.Radius != 0.03 || s.Source != eb.Index {
		t.Fatalf("over the floor: %+v %v", s, on)
	}
	// On top of the highest body under the robot.
	addBox(a.sp, 1.1, -1, 0.4, 0.4, 0.3, 0)
	addCylinder(a.sp, 0.95, -1.05, 0.1, 0.5)
	a.sp.Reindex()
	if s, _ := l.Spot(); s.Pos != (ci.Vector3{X: 1, Y: -1, Z: 0.5}) {
		t.Errorf("over a box and a cylinder: spot at %v, want on the cylinder's top (0.5 m)", s.Pos)
	}
	// A body taller than the robot's bottom does not catch the spot.
	addCylinder(a.sp, 1, -1, 0.02, 1.5)
	a.sp.Reindex()
	if s, _ := l.Spot(); s.Pos.Z != 0.5 {
		t.Errorf("a body reaching above the robot caught the spot at %v", s.Pos)
	}
	l.On(ci.Black)
	l.Apply()
	if _, on := l.Spot(); on {
		t.Errorf("a black laser makes a spot")
	}
	l.Off()
	l.Apply()
	if _, on := l.Spot(); on || l.IsOn() {
		t.Errorf("Off: spot %v, IsOn %v", on, l.IsOn())
	}
	if _, err := build(t, eb, "actuators", `<laser_pointer spot_radius="0"/>`); err == nil {
		t.Errorf("spot_radius 0: no error")
	}
}

// The eye-bot takes the range-and-bearing devices of the foot-bot: its
// board (ARGoS: at the robot's origin, range 3 m unless rab_range says
// otherwise, 10-byte payload) talks to a foot-bot's, across heights.
func TestEyeBotRangeAndBearing(t *testing.T) {
	a := newWorld(t, 12, true)
	eb, _ := a.flyingEyeBot("eb", 0, 0, 1, 0, `<eye-bot id="eb" rab_range="5"/>`)
	fb := a.robot(entity.FootBot, "fb", 3.5, 0, 180, "")
	rxE := rabPair(t, eb, "", 'E', 1, 2, 3, 4, 5, 6, 7, 8, 9)
	rxF := rabPair(t, fb, "", 'F', 1, 2, 3, 4, 5, 6, 7, 8, 9)
	a.update()
	rxE.Update()
	rxF.Update()
	// The foot-bot's emitter is 0.1 m up, the eye-bot's at its bottom (1 m).
	dz := 1 - float64(float32(0.1)) // ARGoS's 0.1f
	rng := 100 * math.Hypot(3.5, dz)
	// The foot-bot (range 3 m) does not reach the eye-bot 3.6 m away; the
	// eye-bot (rab_range 5) reaches the foot-bot.
	if ps := from(rxE, 'F'); len(ps) != 0 {
		t.Errorf("the eye-bot hears the foot-bot beyond the foot-bot's 3 m: %+v", ps)
	}
	ps := from(rxF, 'E')
	if len(ps) != 1 || !near(ps[0].Range, rng, 1e-9) || !near(ps[0].HorizontalBearing, 0, 1e-9) ||
		!near(ps[0].VerticalBearing, math.Atan2(dz, 3.5), 1e-9) || len(ps[0].Data) != 10 {
		t.Errorf("the foot-bot hears %+v; want one 10-byte packet from the eye-bot at %.2f cm, ahead, %.4f rad up", ps, rng, math.Atan2(dz, 3.5))
	}
}

// The generic positioning sensor gives a flying robot's height and yaw.
func TestEyeBotPositioning(t *testing.T) {
	a := newWorld(t, 10, false)
	r, _ := a.flyingEyeBot("eb", 1, -2, 1.75, 120, "")
	p := sensor[ci.PositioningReading](t, r, `<positioning implementation="default"/>`)
	p.Update()
	got := p.Reading()
	if got.Position != (ci.Vector3{X: 1, Y: -2, Z: 1.75}) || math.Abs(got.Orientation.Yaw()-ci.Radians(120)) > 1e-12 {
		t.Errorf("reading %+v, want (1, -2, 1.75) at 120 degrees", got)
	}
}

type eyeBotLEDs interface {
	devices.Actuator
	ci.LEDs
}

// The leds actuator drives the eye-bot's 33 LEDs (ARGoS: two rings of 16
// and one under the body), which the LED medium places on the body: an
// eye-bot flying above another sees its lit LEDs.
func TestEyeBotLEDs(t *testing.T) {
	a := newWorld(t, 10, false)
	low, _ := a.flyingEyeBot("low", 0.3, 0, 0.5, 0, "")
	high, _ := a.flyingEyeBot("high", 0, 0, 1.8, 0, "")
	l := dev[eyeBotLEDs](t, low, "actuators", `<leds implementation="default" medium="leds"/>`)
	if l.Len() != 33 {
		t.Fatalf("%d LEDs, want 33", l.Len())
	}
	l.SetSingleColor(32, ci.Magenta) // the one under the body: hidden from above
	l.SetSingleColor(8, ci.Cyan)     // lower ring, at 180 + 11.25 degrees: toward the high eye-bot
	l.Apply()
	cam := dev[eyeBotCamera](t, high, "sensors", `<colored_blob_perspective_camera implementation="default"/>`)
	cam.Enable()
	a.update()
	cam.Update()
	b := cam.Blobs()
	if len(b) != 1 || b[0].Color != ci.Cyan {
		t.Fatalf("the high eye-bot sees %+v; want the cyan LED only (the magenta one is under the low eye-bot's body)", b)
	}
	led := ci.Vector2{X: 0.3}.Add(ci.FromPolar(0.255, math.Pi+math.Pi/16))
	if !near(b[0].Distance, led.Length(), 1e-9) || !near(b[0].Angle, led.Angle(), 1e-9) {
		t.Errorf("blob %+v, want at distance %g angle %g", b[0], led.Length(), led.Angle())
	}
}
