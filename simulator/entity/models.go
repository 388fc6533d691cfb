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
// sensor, starting at the body's edge, Range long, Height above the
// robot's bottom, along Angles (radians counter-clockwise from the front,
// in the model's reading order).
type ProximityRing struct {
	Tag      string
	Angles   []float64
	Range    float64
	Height   float64
	Response func(d float64) float64
}

// FootBot is the foot-bot (marXbot) model.
var FootBot = &RobotModel{
	Type: "foot-bot", Radius: 0.085036758, Height: 0.146899733, Mass: 1.6,
	Axle: 0.14, WheelRadius: 0.029112741,
	MaxForce: 15, MaxTorque: 150,
	Proximity: ProximityRing{
		Tag: ci.TagFootBotProximity, Angles: footBotProximityAngles(), Range: 0.1, Height: 0.06,
		Response: FootBotProximityResponse,
	},
	LEDs: 13, // 12 on the ring and the beacon
	// ARGoS 3's footbot_entity.cpp.
	LEDMounts:    footBotLEDs(),
	LEDsOnTurret: true,
	Light:        LightRing{Tag: ci.TagFootBotLight, Angles: footBotProximityAngles(), Radius: 0.085036758, Height: 0.06},
	Ground:       footBotGround(),
	RAB:          RABBoard{Range: 3, DataSize: 10, Height: 0.1},
	OmniCamera:   Camera{Height: 0.288699733, Aperture: ci.Radians(70)},
	Gripper:      &Gripper{Height: 0.085, Reach: 0.01},
}

// EPuck is the e-puck model.
var EPuck = &RobotModel{
	Type: "e-puck", Radius: 0.035, Height: 0.086, Mass: 0.4,
	Axle: 0.053, WheelRadius: 0.0205,
	MaxForce: 1.5, MaxTorque: 1.5,
	Proximity: ProximityRing{
		Tag: ci.TagEPuckProximity, Angles: degreesCCW(17, 50, 90, 150, 210, 270, 310, 343), Range: 0.1, Height: 0.06,
		Response: EPuckProximityResponse,
	},
	LEDs: 8,
	// ARGoS 3's epuck_entity.cpp.
	LEDMounts: ledRing(8, math.Pi/16, 0.035+0.007, 0.086),
	Light:     LightRing{Tag: ci.TagEPuckLight, Angles: ringAngles(8, math.Pi/8), Radius: 0.035, Height: 0.06},
	Ground: []GroundSensor{
		{Offset: ci.Vector2{X: 0.03, Y: -0.009}}, {Offset: ci.Vector2{X: 0.03}}, {Offset: ci.Vector2{X: 0.03, Y: 0.009}},
	},
	RAB: RABBoard{Range: 0.8, DataSize: 2, Height: 0.086},
}

func footBotProximityAngles() []float64 {
	a := make([]float64, 24)
	for i := range a {
		a[i] = ci.NormalizeAngle(math.Pi/24 + float64(i)*math.Pi/12)
	}
	return a
}

func degreesCCW(deg ...float64) []float64 {
	a := make([]float64, len(deg))
	for i, d := range deg {
		a[i] = ci.NormalizeAngle(ci.Radians(d))
	}
	return a
}

// FootBotProximityResponse is ARGoS's foot-bot proximity reading for an
// obstacle at distance d (metres) from the sensor.
func FootBotProximityResponse(d float64) float64 {
	if d < 0.009889556 {
		return 1
	}
	return clamp01(0.0100527 / (d + 0.000163144))
}

// EPuckProximityResponse is ARGoS's e-puck proximity reading for an
// obstacle at distance d (metres) from the sensor.
func EPuckProximityResponse(d float64) float64 {
	if d > 0.05 {
		return 0
	}
	return clamp01(298.701*d*d - 36.8961*d + 1.08212)
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }
