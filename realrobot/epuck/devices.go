package epuck

import (
	"io"
	"math"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/sirupsen/logrus"
)

func discardLogger() logrus.FieldLogger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

// Wheels is the differential_steering actuator: it keeps the speeds the
// controller set until the driver's Act sends them.
type Wheels struct {
	left, right float64 // cm/s
}

var _ ci.DifferentialSteeringActuator = (*Wheels)(nil)

// SetLinearVelocity sets the wheel speeds in cm/s.
func (w *Wheels) SetLinearVelocity(left, right float64) { w.left, w.right = left, right }

// Encoders is the differential_steering sensor.
type Encoders struct {
	reading ci.DifferentialSteeringReading
}

var _ ci.DifferentialSteeringSensor = (*Encoders)(nil)

// Reading returns the speeds and distances of the last tick.
func (e *Encoders) Reading() ci.DifferentialSteeringReading { return e.reading }

// GroundSensors are the three ground sensors (epuck_ground, ground).
type GroundSensors struct{ readings []ci.GroundReading }

var _ ci.Ground = (*GroundSensors)(nil)

// Readings returns left, centre and right.
func (g *GroundSensors) Readings() []ci.GroundReading { return g.readings }

// ToF is the time-of-flight sensor as a one-ray distance scanner.
type ToF struct{ readings [1]ci.DistanceReading }

var _ ci.DistanceScannerSensor = (*ToF)(nil)

// Readings returns the distance straight ahead in cm (-1: nothing within
// 2 m).
func (t *ToF) Readings() []ci.DistanceReading { return t.readings[:] }

// IMU is the accelerometer and gyroscope (tag boards.TagIMU), in the
// robot's frame (X forward, Y left, Z up).
type IMU struct{ s IMUSample }

// Acceleration returns the last acceleration in m/s² (gravity included:
// about (0, 0, 9.81) at rest).
func (m *IMU) Acceleration() ci.Vector3 {
	return ci.Vector3{X: m.s.Acceleration[0], Y: m.s.Acceleration[1], Z: m.s.Acceleration[2]}
}

// AngularVelocity returns the last angular velocity in rad/s.
func (m *IMU) AngularVelocity() ci.Vector3 {
	return ci.Vector3{X: m.s.AngularVelocity[0], Y: m.s.AngularVelocity[1], Z: m.s.AngularVelocity[2]}
}

// LEDs is the leds actuator: the 8 LEDs of the ring, numbered as the
// firmware numbers them (0 at the front, clockwise).
type LEDs = realrobot.LEDs

func lit(c ci.Color) bool { return c.R != 0 || c.G != 0 || c.B != 0 }

// groundOffsets are where the ground module's sensors look (m, robot
// frame): left, centre, right, just in front of the wheels' axis.
var groundOffsets = [GroundCount]ci.Vector2{{X: 0.03, Y: 0.01}, {X: 0.03}, {X: 0.03, Y: -0.01}}

// devices are the ci devices of one e-puck, built for the declared tags.
type devices struct {
	b          boards.Board
	stepsPerCM float64

	wheels *Wheels
	leds   *LEDs
	enc    *Encoders
	prox   *realrobot.ProximityRing
	light  *realrobot.LightRing
	ground *GroundSensors
	tof    *ToF
	imu    *IMU

	sensors, actuators map[string]any

	lastSteps [2]int16
	haveSteps bool
}

func newDevices(b boards.Board, d realrobot.Devices) *devices {
	dv := &devices{b: b, stepsPerCM: b.Geometry.WheelStepsPerCM(), sensors: map[string]any{}, actuators: map[string]any{}}
	angles := b.Geometry.ProximityAngles
	for _, tag := range d.Sensors {
		switch tag {
		case ci.TagEPuckProximity, ci.TagProximity:
			if dv.prox == nil {
				dv.prox = realrobot.NewProximityRing(angles)
			}
			dv.sensors[tag] = dv.prox
		case ci.TagEPuckLight, ci.TagLight:
			if dv.light == nil {
				dv.light = realrobot.NewLightRing(angles)
			}
			dv.sensors[tag] = dv.light
		case ci.TagDifferentialSteering:
			dv.enc = &Encoders{}
			dv.enc.reading.WheelAxisLength = b.Geometry.Axle * 100
			dv.sensors[tag] = dv.enc
		case ci.TagEPuckGround, ci.TagGround:
			if dv.ground == nil {
				dv.ground = &GroundSensors{readings: make([]ci.GroundReading, GroundCount)}
				for i := range dv.ground.readings {
					dv.ground.readings[i].Offset = groundOffsets[i]
				}
			}
			dv.sensors[tag] = dv.ground
		case boards.TagToF:
			dv.tof = &ToF{readings: [1]ci.DistanceReading{{Distance: -1, Long: true}}}
			dv.sensors[tag] = dv.tof
		case boards.TagIMU:
			dv.imu = &IMU{}
			dv.sensors[tag] = dv.imu
		}
	}
	for _, tag := range d.Actuators {
		switch tag {
		case ci.TagDifferentialSteering:
			dv.wheels = &Wheels{}
			dv.actuators[tag] = dv.wheels
		case ci.TagLEDs:
			dv.leds = realrobot.NewLEDs(8)
			dv.leds.SetAllColors(ci.Black)
			dv.actuators[tag] = dv.leds
		}
	}
	return dv
}

// speedSteps converts cm/s to steps/s, rounded and clamped to the
// board's limit; NaN is 0.
func (d *devices) speedSteps(cms float64) int16 {
	if math.IsNaN(cms) {
		return 0
	}
	lim := d.b.Geometry.MaxWheelSpeed
	return int16(math.Round(math.Max(-lim, math.Min(lim, cms*d.stepsPerCM))))
}

// wheelSteps returns the commanded wheel speeds in steps/s (0 when the
// wheels are not declared).
func (d *devices) wheelSteps() (int16, int16) {
	if d.wheels == nil {
		return 0, 0
	}
	return d.speedSteps(d.wheels.left), d.speedSteps(d.wheels.right)
}

// setProximity fills the ring from the firmware's raw values (firmware
// order).
func (d *devices) setProximity(raw func(i int) float64) {
	if d.prox == nil {
		return
	}
	cal := d.b.Calibration
	for i := range d.prox.Len() {
		d.prox.Set(i, cal.Proximity.Value(raw(cal.ProximityOrder[i])))
	}
}

func (d *devices) setLight(raw func(i int) float64) {
	if d.light == nil {
		return
	}
	cal := d.b.Calibration
	for i := range d.light.Len() {
		d.light.Set(i, cal.Light.Value(raw(cal.ProximityOrder[i])))
	}
}

// setWheels fills the encoders from the wheel speeds (steps/s) and the
// step counters, whose difference since the last tick is the distance
// rolled (int16 arithmetic absorbs the counters' wrap-around).
func (d *devices) setWheels(speed, steps [2]int16) {
	if d.enc == nil {
		return
	}
	r := &d.enc.reading
	r.VelocityLeft, r.VelocityRight = float64(speed[0])/d.stepsPerCM, float64(speed[1])/d.stepsPerCM
	if d.haveSteps {
		r.CoveredDistanceLeft = float64(steps[0]-d.lastSteps[0]) / d.stepsPerCM
		r.CoveredDistanceRight = float64(steps[1]-d.lastSteps[1]) / d.stepsPerCM
	}
	d.lastSteps, d.haveSteps = steps, true
}

func (d *devices) setGround(g [GroundCount]uint16) {
	if d.ground == nil {
		return
	}
	for i, v := range g {
		d.ground.readings[i].Value = d.b.Calibration.Ground.Value(float64(v))
	}
}

func (d *devices) sensor(tag string) (any, bool) {
	v, ok := d.sensors[tag]
	return v, ok
}

func (d *devices) actuator(tag string) (any, bool) {
	v, ok := d.actuators[tag]
	return v, ok
}
