package devices_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type turretAct interface {
	devices.Actuator
	ci.Turret
}

type turretEnc interface {
	devices.Sensor
	ci.TurretEncoder
}

// The turret reaches a set angle under ARGoS's PD control, turns at a set
// speed, and stays put when passive; the encoder reads it.
func TestTurretAndEncoder(t *testing.T) {
	a := newWorld(t, 4, true)
	r := a.robot(entity.FootBot, "fb", 0, 0, 0, "")
	tur := dev[turretAct](t, r, "actuators", `<footbot_turret implementation="default"/>`)
	enc := dev[turretEnc](t, r, "sensors", `<footbot_turret_encoder implementation="default"/>`)
	tick := func(n int) {
		for k := 0; k < n; k++ {
			tur.Apply()
			enc.Update()
		}
	}
	tur.SetRotation(math.Pi / 2)
	tick(1)
	// first step: P 0.4 plus D 0.2 on the whole error over one tick
	if want := (0.4*math.Pi/2 + 0.2*(math.Pi/2)/0.1) * 0.1; !near(enc.Rotation(), want, 1e-12) {
		t.Errorf("after one tick the turret is at %.5f rad, want %.5f", enc.Rotation(), want)
	}
	tick(300)
	if !near(enc.Rotation(), math.Pi/2, 1e-3) {
		t.Errorf("after 30 s the turret is at %.4f rad, want pi/2", enc.Rotation())
	}
	tur.SetRotation(-math.Pi / 4) // the short way round
	tick(300)
	if !near(enc.Rotation(), -math.Pi/4, 1e-3) {
		t.Errorf("turret at %.4f rad, want -pi/4", enc.Rotation())
	}
	tur.SetRotationSpeed(1) // rad/s
	start := enc.Rotation()
	tick(10)
	if !near(enc.Rotation(), start+1, 1e-9) {
		t.Errorf("after 1 s at 1 rad/s the turret is at %.4f, want %.4f", enc.Rotation(), start+1)
	}
	tur.SetPassive()
	before := enc.Rotation()
	tick(10)
	if enc.Rotation() != before {
		t.Errorf("a passive turret moved from %g to %g", before, enc.Rotation())
	}
	// the gripper's disc, which rays meet, turns with the turret
	if got, want := r.B().NubCenter(), ci.FromPolar(r.Model.Radius, before); !near(got.X, want.X, 1e-12) || !near(got.Y, want.Y, 1e-12) {
		t.Errorf("the gripper's disc is at %v with the turret at %.4f rad, want %v", got, before, want)
	}
	tur.(interface{ Reset() }).Reset()
	if got := r.B().NubCenter(); !near(got.X, r.Model.Radius, 1e-12) || !near(got.Y, 0, 1e-12) {
		t.Errorf("after Reset the gripper's disc is at %v, want straight ahead", got)
	}
	if _, err := build(t, a.robot(entity.EPuck, "ep", 1, 1, 0, ""), "actuators", `<footbot_turret/>`); err == nil {
		t.Error("an e-puck got a turret")
	}
}

type scannerAct interface {
	devices.Actuator
	ci.DistanceScanner
}

type scannerSensor interface {
	devices.Sensor
	ci.DistanceScannerSensor
}

// The distance scanner measures from the body's edge in cm, says -1 when
// an obstacle is closer than the sensor's minimum and -2 when nothing is
// in range; held still it gives 4 readings, spinning 24.
func TestDistanceScanner(t *testing.T) {
	a := newWorld(t, 6, true)
	r := a.robot(entity.FootBot, "fb", 0, 0, 0, "")
	rad := entity.FootBot.Radius
	addBox(a.sp, rad+0.15+0.05, 0, 0.1, 2, 0.5, 0)         // 15 cm in front
	addBox(a.sp, 0, rad+1.0+0.05, 2, 0.1, 0.5, 0)          // 100 cm to the left
	addBox(a.sp, 0, -(rad + 0.1 + 0.05), 0.3, 0.1, 0.5, 0) // 10 cm to the right: too close for the long sensor
	a.update()
	act := dev[scannerAct](t, r, "actuators", `<footbot_distance_scanner implementation="default"/>`)
	sen := dev[scannerSensor](t, r, "sensors", `<footbot_distance_scanner implementation="rot_z_only"/>`)
	act.Apply()
	sen.Update()
	if n := len(sen.Readings()); n != 0 {
		t.Fatalf("a disabled scanner gives %d readings", n)
	}
	act.SetAngle(0)
	act.Apply()
	sen.Update()
	want := []ci.DistanceReading{
		{Angle: 0, Distance: 15, Long: false},
		{Angle: math.Pi / 2, Distance: 100, Long: true},
		{Angle: math.Pi, Distance: devices.ScannerNothing, Long: false},
		{Angle: -math.Pi / 2, Distance: devices.ScannerTooClose, Long: true},
	}
	got := sen.Readings()
	if len(got) != len(want) {
		t.Fatalf("%d readings, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if !near(ci.NormalizeAngle(got[i].Angle-want[i].Angle), 0, 1e-9) || !near(got[i].Distance, want[i].Distance, 1e-6) || got[i].Long != want[i].Long {
			t.Errorf("reading %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// turned by 90 degrees: the short sensors look left (100 cm: beyond
	// their 30 cm) and right (10 cm), the long ones back (nothing) and
	// front (15 cm: closer than their 20 cm)
	act.SetAngle(math.Pi / 2)
	act.Apply()
	sen.Update()
	got = sen.Readings()
	if got[0].Distance != devices.ScannerNothing || got[1].Distance != devices.ScannerNothing ||
		!near(got[2].Distance, 10, 1e-6) || got[3].Distance != devices.ScannerTooClose {
		t.Errorf("turned scanner reads %v; want -2 (short, left), -2 (long, back), 10 (short, right), -1 (long, front)", got)
	}
	// spinning at 60 rpm: a sixth of a turn per tick, 6 rays per sensor
	act.SetRPM(60)
	act.Apply()
	sen.Update()
	got = sen.Readings()
	if len(got) != 24 {
		t.Fatalf("a spinning scanner gives %d readings, want 24", len(got))
	}
	step := 2 * math.Pi * 0.1 / 6
	for k := 0; k < 6; k++ {
		if a := ci.NormalizeAngle(got[k].Angle - (math.Pi/2 + float64(k)*step)); math.Abs(a) > 1e-9 {
			t.Errorf("short ray %d at %.4f rad, want %.4f", k, got[k].Angle, math.Pi/2+float64(k)*step)
		}
	}
	act.Disable()
	act.Apply()
	sen.Update()
	if len(sen.Readings()) != 0 {
		t.Error("disabled scanner still reads")
	}
}

type batterySensor interface {
	devices.Sensor
	ci.Battery
}

// The battery loses charge with time and with motion as ARGoS's models
// say, and estimates the time left.
func TestBattery(t *testing.T) {
	a := newWorld(t, 6, true)
	timeBot := a.robot(entity.FootBot, "t", 0, 0, 0, `<foot-bot id="t"><battery model="time" factor="1e-3"/></foot-bot>`)
	moveBot := a.robot(entity.EPuck, "m", 1, 1, 0, `<e-puck id="m"><battery discharge_model="time_motion" time_factor="1e-4" pos_factor="0.1" orient_factor="0.01" full_charge="2"/></e-puck>`)
	plain := a.robot(entity.FootBot, "p", -1, -1, 0, "")
	bt := dev[batterySensor](t, timeBot, "sensors", `<battery implementation="default"/>`)
	bm := dev[batterySensor](t, moveBot, "sensors", `<battery/>`)
	bp := dev[batterySensor](t, plain, "sensors", `<battery/>`)
	for _, b := range []batterySensor{bt, bm, bp} {
		b.Update() // the start
		if c := b.Reading().AvailableCharge; c != 1 {
			t.Fatalf("full battery reads %g", c)
		}
	}
	for k := 0; k < 100; k++ {
		bt.Update()
		bp.Update()
	}
	if c := bt.Reading().AvailableCharge; !near(c, 0.9, 1e-9) {
		t.Errorf("after 100 ticks at 1e-3 the charge is %g, want 0.9", c)
	}
	if tl := bt.Reading().TimeLeft; !near(tl, 0.9/1e-3*0.1, 1e-6) {
		t.Errorf("time left %g s, want %g", tl, 0.9/1e-3*0.1)
	}
	if c := bp.Reading().AvailableCharge; !near(c, 1-100*1e-5, 1e-9) {
		t.Errorf("default battery at %g after 100 ticks, want %g (time model, 1e-5 per tick)", c, 1-100*1e-5)
	}
	// move the e-puck 0.5 m and turn it by 0.2 rad in one tick
	b := moveBot.B()
	b.Pos.X += 0.3
	b.Pos.Y += 0.4
	b.SetYaw(0.2)
	bm.Update()
	if want := (2 - 1e-4 - 0.1*0.5 - 0.01*0.2) / 2; !near(bm.Reading().AvailableCharge, want, 1e-9) {
		t.Errorf("after moving, charge %g, want %g", bm.Reading().AvailableCharge, want)
	}
	bm.Update() // standing still: time only
	if want := (2 - 2e-4 - 0.1*0.5 - 0.01*0.2) / 2; !near(bm.Reading().AvailableCharge, want, 1e-9) {
		t.Errorf("standing, charge %g, want %g", bm.Reading().AvailableCharge, want)
	}
	bt.(devices.Resetter).Reset()
	bt.Update()
	if bt.Reading().AvailableCharge != 1 {
		t.Error("Reset does not recharge the battery")
	}
	bad := a.robot(entity.FootBot, "b", 2, 2, 0, `<foot-bot id="b"><battery model="nuclear"/></foot-bot>`)
	if _, err := build(t, bad, "sensors", `<battery/>`); err == nil {
		t.Error("an unknown discharge model was accepted")
	}
}

type positioningSensor interface {
	devices.Sensor
	ci.Positioning
}

// ARGoS's noise ranges keep positioning and wheel encoders within their
// bounds, and cover them.
func TestPositioningAndEncoderNoise(t *testing.T) {
	a := newWorld(t, 6, true)
	r := a.robot(entity.FootBot, "fb", 0.5, -0.5, 40, "")
	p := dev[positioningSensor](t, r, "sensors", `<positioning implementation="default" pos_noise_range="-0.1:0.2" angle_noise_range="-10:10"/>`)
	var lo, hi, alo, ahi float64 = 1, -1, 1, -1
	for k := 0; k < 500; k++ {
		p.Update()
		rd := p.Reading()
		for _, d := range []float64{rd.Position.X - 0.5, rd.Position.Y + 0.5, rd.Position.Z} {
			lo, hi = math.Min(lo, d), math.Max(hi, d)
		}
		da := ci.Degrees(ci.NormalizeAngle(rd.Orientation.Yaw() - ci.Radians(40)))
		alo, ahi = math.Min(alo, da), math.Max(ahi, da)
	}
	if lo < -0.1 || hi > 0.2 || lo > -0.09 || hi < 0.19 {
		t.Errorf("position noise spans [%g, %g], want [-0.1, 0.2]", lo, hi)
	}
	if alo < -10-1e-9 || ahi > 10+1e-9 || alo > -9 || ahi < 9 {
		t.Errorf("angle noise spans [%g, %g] degrees, want [-10, 10]", alo, ahi)
	}
	enc := sensor[ci.DifferentialSteeringReading](t, r, `<differential_steering vel_noise_range="-1:1" dist_noise_range="0:0.5"/>`)
	r.SetWheels(0.1, 0.1)
	for k := 0; k < 100; k++ {
		enc.Update()
		rd := enc.Reading()
		if math.Abs(rd.VelocityLeft-10) > 1 || rd.CoveredDistanceRight < 1 || rd.CoveredDistanceRight > 1.5 {
			t.Fatalf("noisy encoders read %+v", rd)
		}
	}
	if _, err := build(t, r, "sensors", `<positioning pos_noise_range="0.2:-0.1"/>`); err == nil {
		t.Error("an inverted range was accepted")
	}
	if _, err := build(t, r, "sensors", `<positioning pos_noise_range="0.2"/>`); err == nil {
		t.Error("a range without a colon was accepted")
	}
}
