package devices_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type lightSensor interface {
	devices.Sensor
	ci.Light
}

// rotzWant is ARGoS's footbot_light reading of a sensor at angle a for a
// light at distance d (m), direction dir (radians, robot frame), of
// intensity in, written out from footbot_light_rotzonly_sensor.cpp.
func rotzWant(a, d, dir, in float64) float64 {
	x := d / in
	if x > 2.5 {
		return 0
	}
	diff := math.Abs(ci.NormalizeAngle(dir - a))
	if diff > math.Pi/2 {
		return 0
	}
	return math.Exp(-2*x) * (1 - 2*diff/math.Pi)
}

// A light placed around a robot peaks the sensor that faces it; every
// reading follows ARGoS's curve (exp(-2 d/I) times the angular falloff);
// the sensors facing away read 0. The robot is turned to check frames.
func TestRotZLight(t *testing.T) {
	tests := []struct {
		name      string
		m         *entity.RobotModel
		tag       string
		yawDeg    float64
		dirDeg    float64 // direction of the light in the robot's frame
		dist, z   float64
		intensity float64
		peak      []int // indices of the sensors that must read the most
	}{
		{"foot-bot, light to the left", entity.FootBot, "footbot_light implementation=\"rot_z_only\"", 0, 90, 1, 0.2, 1, []int{5, 6}},
		{"foot-bot, light left-front on sensor 5", entity.FootBot, "footbot_light", 0, 82.5, 0.8, 0, 1, []int{5}},
		{"foot-bot turned, light to its left", entity.FootBot, "footbot_light", 30, 90, 1.2, 0.5, 2, []int{5, 6}},
		{"foot-bot, light to the right", entity.FootBot, "footbot_light", -100, -90, 0.7, 0.3, 1, []int{17, 18}},
		{"foot-bot, behind", entity.FootBot, "footbot_light", 45, 180, 1.5, 0.2, 1, []int{11, 12}},
		{"e-puck, light to the left", entity.EPuck, "epuck_light", 10, 90, 0.5, 0.1, 1, []int{1, 2}},
		{"e-puck, on sensor 0", entity.EPuck, "epuck_light", -60, 22.5, 0.5, 0, 0.5, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newWorld(t, 10, true)
			r := a.robot(tt.m, "me", 0.3, -0.2, tt.yawDeg, "")
			world := ci.Radians(tt.yawDeg + tt.dirDeg)
			a.light(0.3+tt.dist*math.Cos(world), -0.2+tt.dist*math.Sin(world), tt.z, tt.intensity, ci.Yellow)
			a.update()
			l := dev[lightSensor](t, r, "sensors", `<`+tt.tag+` show_rays="false"/>`)
			l.Update()
			rd := l.Readings()
			if len(rd) != len(tt.m.Light.Angles) {
				t.Fatalf("%d readings, want %d", len(rd), len(tt.m.Light.Angles))
			}
			d := math.Hypot(tt.dist, tt.z)
			best := 0.0
			for i, x := range rd {
				want := rotzWant(tt.m.Light.Angles[i], d, ci.Radians(tt.dirDeg), tt.intensity)
				if math.Abs(x.Value-want) > 1e-9 {
					t.Errorf("sensor %d (%.1f deg) reads %.6f, want %.6f", i, ci.Degrees(x.Angle), x.Value, want)
				}
				best = math.Max(best, x.Value)
				if math.Abs(ci.NormalizeAngle(x.Angle-ci.Radians(tt.dirDeg))) > math.Pi/2 && x.Value != 0 {
					t.Errorf("sensor %d faces away from the light but reads %g", i, x.Value)
				}
			}
			for _, i := range tt.peak {
				if rd[i].Value < best-1e-12 || best <= 0 {
					t.Errorf("sensor %d (%.1f deg) reads %g, but the peak is %g: the sensor facing the light must peak", i, ci.Degrees(rd[i].Angle), rd[i].Value, best)
				}
			}
		})
	}
}

// A wall between the robot and the light hides it; a second light adds
// up; a light beyond 2.5 intensity-metres is not seen; noise stays in its
// band and readings stay in [0, 1].
func TestRotZLightOcclusionAndSum(t *testing.T) {
	a := newWorld(t, 10, true)
	r := a.robot(entity.FootBot, "me", 0, 0, 0, "")
	a.light(0, 1, 0.1, 1, ci.Yellow)
	addBox(a.sp, 0, 0.5, 1, 0.05, 0.5, 0) // a wall between, higher than the light
	a.update()
	l := dev[lightSensor](t, r, "sensors", `<footbot_light implementation="rot_z_only"/>`)
	l.Update()
	for i, x := range l.Readings() {
		if x.Value != 0 {
			t.Fatalf("sensor %d reads %g through a wall", i, x.Value)
		}
	}
	// another light, in front and visible
	a.light(1, 0, 0, 1, ci.Yellow)
	// and one too far to be seen
	a.light(-3, 0, 0, 1, ci.Yellow)
	l.Update()
	rd := l.Readings()
	if want := rotzWant(rd[0].Angle, 1, 0, 1); math.Abs(rd[0].Value-want) > 1e-9 || want == 0 {
		t.Errorf("front sensor reads %g, want %g from the light in front only", rd[0].Value, want)
	}
	if rd[12].Value != 0 {
		t.Errorf("back sensor reads %g; the light 3 m behind is out of range", rd[12].Value)
	}
	noisy := dev[lightSensor](t, r, "sensors", `<footbot_light noise_level="0.05"/>`)
	for k := 0; k < 50; k++ {
		noisy.Update()
		for i, x := range noisy.Readings() {
			if x.Value < 0 || x.Value > 1 || math.Abs(x.Value-rd[i].Value) > 0.05+1e-12 {
				t.Fatalf("noisy sensor %d reads %g, want %g +- 0.05 in [0, 1]", i, x.Value, rd[i].Value)
			}
		}
	}
}

// The generic light sensor reads (I/d)^2 from each sensor to the light,
// and 0 on the sensors the robot's own body hides.
func TestGenericLight(t *testing.T) {
	a := newWorld(t, 10, true)
	r := a.robot(entity.EPuck, "me", 0, 0, 90, "")
	lt := a.light(0, 0.6, 0.06, 0.2, ci.Yellow) // straight ahead of the turned robot
	a.update()
	l := dev[lightSensor](t, r, "sensors", `<light implementation="default"/>`)
	l.Update()
	ring := entity.EPuck.Light
	lit := 0
	for i, x := range l.Readings() {
		a := math.Pi/2 + ring.Angles[i]
		at := ci.Vector3{X: ring.Radius * math.Cos(a), Y: ring.Radius * math.Sin(a), Z: ring.Height}
		d := lt.Position.Sub(at)
		want := 0.0
		if math.Abs(ring.Angles[i]) < math.Pi/2 {
			want = math.Min(1, lt.Intensity*lt.Intensity/(d.X*d.X+d.Y*d.Y+d.Z*d.Z))
			lit++
		}
		if math.Abs(x.Value-want) > 1e-9 {
			t.Errorf("sensor %d (%.1f deg) reads %g, want %g", i, ci.Degrees(x.Angle), x.Value, want)
		}
	}
	if lit != 4 {
		t.Fatalf("%d sensors face the light, want 4", lit)
	}
	if _, err := build(t, r, "sensors", `<footbot_light/>`); err == nil {
		t.Error("footbot_light was built for an e-puck")
	}
}
