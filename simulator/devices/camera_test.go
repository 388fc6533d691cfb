package devices_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type camera interface {
	devices.Sensor
	ci.ColoredBlobCamera
}

type ledActuator interface {
	devices.Actuator
	ci.LEDs
}

// expectBlob is where the camera of observer o must see LED k of robot r:
// the angle from o's front and the ground distance from o's centre.
func expectBlob(o, r *entity.Robot, k int) (angle, dist float64) {
	mt := r.Model.LEDMounts[k]
	b := r.B()
	p := b.Pos.Add(mt.Offset(r.Turret).Rotate(b.Yaw))
	rel := p.Sub(o.B().Pos)
	return ci.NormalizeAngle(rel.Angle() - o.B().Yaw), rel.Length()
}

// A foot-bot's camera sees a red LED of another foot-bot at the right
// angle and distance, its beacon on top, not the LEDs its body hides, not
// its own LEDs, nothing through a wall, nothing out of range, nothing
// while disabled.
func TestOmnidirectionalCamera(t *testing.T) {
	a := newWorld(t, 8, true)
	o := a.robot(entity.FootBot, "observer", 0, 0, 30, "")
	other := a.robot(entity.FootBot, "other", 0, 0.5, 0, "") // 60 degrees left of the observer's front
	far := a.robot(entity.FootBot, "far", 2, 0, 0, "")       // beyond the 0.79 m ground range
	mine := dev[ledActuator](t, o, "actuators", `<leds implementation="default" medium="leds"/>`)
	theirs := dev[ledActuator](t, other, "actuators", `<leds medium="leds"/>`)
	farLEDs := dev[ledActuator](t, far, "actuators", `<leds medium="leds"/>`)
	mine.SetAllColors(ci.Green)
	farLEDs.SetAllColors(ci.Red)
	const near, hidden = 9, 3 // LED 9 (-75 deg) faces the observer, LED 3 (105 deg) looks away
	theirs.SetSingleColor(near, ci.Red)
	theirs.SetSingleColor(hidden, ci.Blue)
	theirs.SetSingleColor(12, ci.Yellow) // the beacon
	for _, l := range []ledActuator{mine, theirs, farLEDs} {
		l.Apply()
	}
	a.update()
	cam := dev[camera](t, o, "sensors", `<colored_blob_omnidirectional_camera implementation="rot_z_only" medium="leds" show_rays="false"/>`)
	cam.Update()
	if n := len(cam.Blobs()); n != 0 {
		t.Fatalf("a disabled camera sees %d blobs", n)
	}
	cam.Enable()
	cam.Update()
	blobs := cam.Blobs()
	if len(blobs) != 2 {
		t.Fatalf("camera sees %v, want the red LED and the yellow beacon", blobs)
	}
	for _, bl := range blobs {
		switch bl.Color {
		case ci.Red:
			ang, d := expectBlob(o, other, near)
			if !near3(bl.Angle, ang, 1e-9) || !near3(bl.Distance, d, 1e-9) {
				t.Errorf("red LED seen at %.4f rad, %.4f m; want %.4f rad, %.4f m", bl.Angle, bl.Distance, ang, d)
			}
			if math.Abs(ci.Degrees(bl.Angle)-60) > 10 || math.Abs(bl.Distance-0.5) > 0.1 {
				t.Errorf("red LED at %.1f deg, %.3f m: not where the other robot is (60 deg, 0.5 m)", ci.Degrees(bl.Angle), bl.Distance)
			}
		case ci.Yellow:
			if !near3(ci.Degrees(bl.Angle), 60, 1e-9) || !near3(bl.Distance, 0.5, 1e-9) {
				t.Errorf("beacon seen at %.4f deg, %.4f m; want 60 deg, 0.5 m", ci.Degrees(bl.Angle), bl.Distance)
			}
		default:
			t.Errorf("unexpected blob %v", bl)
		}
	}
	// a wall between the robots hides everything
	addBox(a.sp, 0, 0.25, 1, 0.05, 0.5, 0)
	a.update()
	cam.Update()
	if n := len(cam.Blobs()); n != 0 {
		t.Errorf("camera sees %v through a wall", cam.Blobs())
	}
	cam.Disable()
	cam.Update()
	if n := len(cam.Blobs()); n != 0 {
		t.Errorf("camera disabled again sees %d blobs", n)
	}
}

// The LEDs turn with the turret; the camera sees a laser spot on the
// floor; lights are blobs too; noise moves the distance only.
func TestCameraTurretSpotsLights(t *testing.T) {
	a := newWorld(t, 8, true)
	o := a.robot(entity.FootBot, "observer", 0, 0, 0, "")
	other := a.robot(entity.FootBot, "other", 0.5, 0, 0, "")
	other.Turret = ci.Radians(30)
	l := dev[ledActuator](t, other, "actuators", `<leds/>`)
	l.SetSingleColor(5, ci.Red) // at 15+150 = 165 deg, +30 deg of turret: 195 deg, facing the observer
	l.Apply()
	a.w.Spots = []entity.Spot{{Pos: ci.Vector3{X: -0.3, Y: -0.3}, Radius: 0.01, Color: ci.Green}}
	a.light(0, 0.6, 0.1, 1, ci.Yellow)
	a.light(0, -0.6, 0.5, 1, ci.Yellow) // above the camera: not seen
	a.update()
	cam := dev[camera](t, o, "sensors", `<colored_blob_omnidirectional_camera medium="leds" noise_std_dev="0.01"/>`)
	cam.Enable()
	seen := map[ci.Color]ci.Blob{}
	for k := 0; k < 20; k++ {
		cam.Update()
		if len(cam.Blobs()) != 3 {
			t.Fatalf("camera sees %v, want a red LED, a green spot and a yellow light", cam.Blobs())
		}
		for _, bl := range cam.Blobs() {
			seen[bl.Color] = bl
		}
		ang, d := expectBlob(o, other, 5)
		r := seen[ci.Red]
		if !near3(r.Angle, ang, 1e-9) || math.Abs(r.Distance-d) > 0.06 {
			t.Fatalf("turned LED at %.4f rad, %.4f m; want %.4f rad, %.4f m +- noise", r.Angle, r.Distance, ang, d)
		}
	}
	if g := seen[ci.Green]; !near3(ci.Degrees(g.Angle), -135, 1e-6) || math.Abs(g.Distance-math.Sqrt(0.18)) > 0.06 {
		t.Errorf("laser spot at %.2f deg, %.3f m; want -135 deg, 0.424 m", ci.Degrees(g.Angle), g.Distance)
	}
	if y := seen[ci.Yellow]; !near3(ci.Degrees(y.Angle), 90, 1e-6) {
		t.Errorf("light at %.2f deg; want 90", ci.Degrees(y.Angle))
	}
	if _, err := build(t, o, "sensors", `<colored_blob_omnidirectional_camera/>`); err == nil {
		t.Error("a camera without a medium was built")
	}
	if _, err := build(t, o, "sensors", `<colored_blob_omnidirectional_camera medium="rab"/>`); err == nil {
		t.Error("a camera on the range-and-bearing medium was built")
	}
}

func near3(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// A camera that senses before its medium's first update sees nothing and
// does not fail (the simulator's first sense comes before any tick).
func TestCameraBeforeFirstUpdate(t *testing.T) {
	a := newWorld(t, 4, true)
	o := a.robot(entity.FootBot, "observer", 0, 0, 0, "")
	cam := dev[camera](t, o, "sensors", `<colored_blob_omnidirectional_camera medium="leds"/>`)
	rx := rabPair(t, o, "")
	cam.Enable()
	cam.Update()
	rx.Update()
	if len(cam.Blobs()) != 0 || len(rx.Packets()) != 0 {
		t.Errorf("before any update: %v, %v", cam.Blobs(), rx.Packets())
	}
}
