package entity

import (
	"math"

	"github.com/argosgo/argos/ci"
)

// RobotModel is the geometry and device layout of a robot type, with the
// values of ARGoS 3's models (docs/robots.md).
type RobotModel struct {
	// Type is the .argos tag ("foot-bot", "e-puck").
	Type string
	// Body: a disc of Radius and Height, of Mass kilograms.
	Radius, Height, Mass float64
	// Wheels: distance between the wheels and wheel radius, in metres.
	Axle, WheelRadius float64
	// Drive limits of the dynamics model (N and N*m).
	MaxForce, MaxTorque float64
	// Proximity is the infrared proximity ring.
	Proximity ProximityRing
	// LEDs is the number of LEDs the leds actuator drives.
	LEDs int

	// The rest of the equipment (equipment.go); zero values mean the
	// model lacks the device.

	// LEDMounts place the LEDs on the body (len LEDs); LEDsOnTurret turns
	// them with the turret (foot-bot).
	LEDMounts    []Mount
	LEDsOnTurret bool
	// Light is the ring of light sensors.
	Light LightRing
	// Ground are the downward-looking floor sensors, in reading order.
	Ground []GroundSensor
	// RAB is the range-and-bearing board.
	RAB RABBoard
	// OmniCamera is the omnidirectional camera.
	OmniCamera Camera
	// Gripper is the gripper on the turret (foot-bot).
	Gripper *Gripper
}

// ProximityRing is a ring of infrared proximity sensors: one ray per
// sensor, starting Radius from the robot's centre (0: at the body's edge),
// Range long, Height above the robot's bottom, along Angles (radians
// counter-clockwise from the front, in the model's reading order).
// Response reads +0 at every distance beyond ZeroBeyond when it is above
// 0 (the e-puck's beyond 5 cm): the simulator's sensor then gathers only
// the bodies that come that near.
type ProximityRing struct {
	Tag        string
	Angles     []float64
	Radius     float64
	Range      float64
	Height     float64
	Response   func(d float64) float64
	ZeroBeyond float64
}

// f32 is x rounded to single precision: ARGoS 3 writes many of its model
// constants as float literals (0.085036758f), and its sensors compute
// with those values.
func f32(x float64) float64 { return float64(float32(x)) }

// FootBot is the foot-bot (marXbot) model.
var FootBot = &RobotModel{
	Type: "foot-bot", Radius: f32(0.085036758), Height: f32(0.146899733), Mass: 1.6,
	Axle: 0.14, WheelRadius: 0.029112741,
	MaxForce: 15, MaxTorque: 150,
	Proximity: ProximityRing{
		Tag: ci.TagFootBotProximity, Angles: footBotProximityAngles(), Range: f32(0.1), Height: f32(0.06),
		Response: FootBotProximityResponse,
	},
	LEDs: 13, // 12 on the ring and the beacon
	// ARGoS 3's footbot_entity.cpp.
	LEDMounts:    footBotLEDs(),
	LEDsOnTurret: true,
	Light:        LightRing{Tag: ci.TagFootBotLight, Angles: footBotProximityAngles(), Radius: f32(0.085036758), Height: f32(0.06)},
	Ground:       footBotGround(),
	RAB:          RABBoard{Range: 3, DataSize: 10, Height: f32(0.1)},
	OmniCamera:   Camera{Height: f32(0.288699733), Aperture: ci.Radians(70)},
	// ARGoS's dynamics2d gives the gripper a disc of 0.01 m on the body's
	// edge (dynamics2d_footbot_model.cpp)
	Gripper: &Gripper{Height: f32(0.085), Reach: 0.01, Disc: f32(0.01)},
}

// EPuck is the e-puck model.
var EPuck = &RobotModel{
	Type: "e-puck", Radius: f32(0.035), Height: f32(0.086), Mass: 0.4,
	Axle: 0.053, WheelRadius: 0.0205,
	MaxForce: 1.5, MaxTorque: 1.5,
	Proximity: ProximityRing{
		Tag: ci.TagEPuckProximity, Angles: ePuckProximityAngles(), Range: f32(0.1), Height: f32(0.06),
		Response: EPuckProximityResponse, ZeroBeyond: 0.05,
	},
	LEDs: 8,
	// ARGoS 3's epuck_entity.cpp.
	LEDMounts: ledRing(8, math.Pi/16, f32(0.035)+0.007, f32(0.086)),
	Light:     LightRing{Tag: ci.TagEPuckLight, Angles: ringAngles(8, math.Pi/8), Radius: f32(0.035), Height: f32(0.06)},
	Ground: []GroundSensor{
		{Offset: ci.Vector2{X: f32(0.03), Y: f32(-0.009)}}, {Offset: ci.Vector2{X: f32(0.03)}}, {Offset: ci.Vector2{X: f32(0.03), Y: f32(0.009)}},
	},
	RAB: RABBoard{Range: f32(0.8), DataSize: 2, Height: f32(0.086)},
}

func footBotProximityAngles() []float64 {
	a := make([]float64, 24)
	for i := range a {
		a[i] = ci.NormalizeAngle(math.Pi/24 + float64(i)*math.Pi/12)
	}
	return a
}

// ePuckProximityAngles are the directions of the e-puck's proximity rays
// as ARGoS 3 (epuck_entity.cpp) sets them: pi divided by a single-precision
// divisor each (about 17.0, 50.0, 90, 150.0, -150.0, -90.0, -50.0 and
// -16.9 degrees, not the nominal 17, 50, 90, 150, 210, 270, 310, 343),
// taken into (-pi, pi].
func ePuckProximityAngles() []float64 {
	a := make([]float64, 8)
	for i, div := range [8]float64{10.5884, 3.5999, 2, 1.2, 0.8571, 0.6667, 0.5806, 0.5247} {
		a[i] = math.Pi / f32(div)
		if a[i] > math.Pi {
			a[i] -= 2 * math.Pi
		}
	}
	return a
}

// FootBotProximityResponse is ARGoS's foot-bot proximity reading for an
// obstacle at distance d (metres) from the sensor.
func FootBotProximityResponse(d float64) float64 {
	if d < 0.009889556 {
		return 1
	}
	return Clamp01(0.0100527 / (d + 0.000163144))
}

// EPuckProximityResponse is ARGoS's e-puck proximity reading for an
// obstacle at distance d (metres) from the sensor, with ARGoS's
// single-precision coefficients.
func EPuckProximityResponse(d float64) float64 {
	if d > 0.05 {
		return 0
	}
	// the conversions keep the compiler from fusing a product and a sum,
	// which would round differently from ARGoS
	return Clamp01(float64(f32(298.701)*(d*d)) - float64(f32(36.8961)*d) + f32(1.08212))
}

// Clamp01 is math.Max(0, math.Min(1, v)) bit for bit, for every v: 1
// above 1 (+Inf too), +0 at or below 0 (-0 and -Inf too), v in between,
// and math.NaN() (math's own NaN, whatever v's payload) for a NaN. It
// saves the two calls, which the compiler does not inline on amd64 (they
// are assembly there): a million e-pucks clamp eight readings each per
// tick, and the calls cost as much as the response they clamp. The
// simulator's light, ground, battery and noisy proximity sensors clamp
// their readings with it too.
func Clamp01(v float64) float64 {
	if v > 1 {
		return 1
	}
	if v > 0 {
		return v
	}
	if v <= 0 {
		return 0
	}
	return math.NaN()
}
