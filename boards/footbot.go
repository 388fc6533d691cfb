package boards

import (
	"math"
	"time"

	"github.com/argosgo/argos/ci"
)

// TCP address of the Aseba switch on the robot.
const asebaSwitch = "127.0.0.1:33333"

func ringAngles(n int) []float64 {
	a := make([]float64, n)
	for i := range a {
		a[i] = ci.NormalizeAngle(math.Pi/float64(n) + float64(i)*2*math.Pi/float64(n))
	}
	return a
}

// FootBot is the foot-bot (marXbot): an i.MX31 (ARM1136) main board
// reaching its dsPIC modules through an Aseba switch.
func FootBot() Board {
	return Board{
		Name:        "footbot",
		Model:       "foot-bot",
		Description: "foot-bot (marXbot), i.MX31: Aseba over TCP to the robot's Aseba switch at " + asebaSwitch,
		Protocol:    ProtocolAseba,
		Target:      Target{GOOS: "linux", GOARCH: "arm", GOARM: "6", CPU: "ARM1136", QEMU: "qemu-arm-static -cpu arm1136"},
		Aseba: &Aseba{
			Transport: "tcp", Address: asebaSwitch, HostID: 1000,
			Vars: []AsebaVar{
				{Role: "wheel.left.target", Node: 1, NodeName: "motor.left", Name: "speed.target", Address: 0, Size: 1, Unit: 0.1},
				{Role: "wheel.left.speed", Node: 1, NodeName: "motor.left", Name: "speed.measured", Address: 1, Size: 1, Unit: 0.1},
				{Role: "wheel.right.target", Node: 2, NodeName: "motor.right", Name: "speed.target", Address: 0, Size: 1, Unit: 0.1},
				{Role: "wheel.right.speed", Node: 2, NodeName: "motor.right", Name: "speed.measured", Address: 1, Size: 1, Unit: 0.1},
				{Role: "wheel.left.odometry", Node: 1, NodeName: "motor.left", Name: "odometry", Address: 2, Size: 1, Unit: 0.1},
				{Role: "wheel.right.odometry", Node: 2, NodeName: "motor.right", Name: "odometry", Address: 2, Size: 1, Unit: 0.1},
				{Role: "proximity", Node: 3, NodeName: "ring", Name: "prox.values", Address: 0, Size: 24, Unit: 1.0 / 4095},
				{Role: "light", Node: 3, NodeName: "ring", Name: "light.values", Address: 24, Size: 24, Unit: 1.0 / 4095},
				{Role: "ground.base", Node: 4, NodeName: "ground", Name: "ground.base", Address: 0, Size: 8, Unit: 1.0 / 4095},
				{Role: "ground.motor", Node: 4, NodeName: "ground", Name: "ground.motor", Address: 8, Size: 4, Unit: 1.0 / 4095},
				{Role: "leds", Node: 5, NodeName: "leds", Name: "leds.rgb", Address: 0, Size: 39, Unit: 1},
				{Role: "battery.charge", Node: 6, NodeName: "power", Name: "battery.charge", Address: 0, Size: 1, Unit: 1.0 / 1000},
				{Role: "battery.time_left", Node: 6, NodeName: "power", Name: "battery.time_left", Address: 1, Size: 1, Unit: 1},
			},
		},
		Geometry: Geometry{
			Radius: 0.085036758, Axle: 0.14, WheelRadius: 0.029112741,
			MaxWheelSpeed:   300, // mm/s
			ProximityAngles: ringAngles(24),
			LEDs:            13,
		},
		Sensors: []Device{
			{ci.TagFootBotProximity, "24 IR proximity sensors (Aseba node 3, prox.values)"},
			{ci.TagProximity, "same as footbot_proximity"},
			{ci.TagFootBotLight, "24 light sensors (node 3, light.values)"},
			{ci.TagLight, "same as footbot_light"},
			{ci.TagFootBotBaseGround, "8 base ground sensors (node 4, ground.base)"},
			{ci.TagFootBotMotorGround, "4 motor ground sensors (node 4, ground.motor)"},
			{ci.TagGround, "same as footbot_motor_ground"},
			{ci.TagDifferentialSteering, "measured wheel speeds (nodes 1 and 2, speed.measured)"},
			{ci.TagBattery, "charge and time left (node 6)"},
		},
		Actuators: []Device{
			{ci.TagDifferentialSteering, "wheel speed targets in cm/s, sent in mm/s (nodes 1 and 2, speed.target)"},
			{ci.TagLEDs, "12 ring LEDs and the beacon (node 5, leds.rgb)"},
		},
		Timeout: 100 * time.Millisecond,
		Retries: 2,
	}
}

// EyeBot is the eye-bot quadrotor. Its compute board is not confirmed
// (docs/robots.md); it is assumed to be the foot-bot's.
func EyeBot() Board {
	return Board{
		Name:        "eyebot",
		Model:       "eye-bot",
		Description: "eye-bot (board assumed the foot-bot's): Aseba over TCP to the robot's Aseba switch at " + asebaSwitch,
		Protocol:    ProtocolAseba,
		Target:      Target{GOOS: "linux", GOARCH: "arm", GOARM: "6", CPU: "ARM1136", QEMU: "qemu-arm-static -cpu arm1136"},
		Aseba: &Aseba{
			Transport: "tcp", Address: asebaSwitch, HostID: 1000,
			Vars: []AsebaVar{
				{Role: "flight.mode", Node: 1, NodeName: "flight", Name: "flight.mode", Address: 0, Size: 1, Unit: 1},
				{Role: "flight.position.target", Node: 1, NodeName: "flight", Name: "position.target", Address: 1, Size: 4, Unit: 0.001},
				{Role: "flight.speed.target", Node: 1, NodeName: "flight", Name: "speed.target", Address: 5, Size: 4, Unit: 0.001},
				{Role: "flight.position", Node: 1, NodeName: "flight", Name: "position", Address: 9, Size: 4, Unit: 0.001},
				{Role: "altitude", Node: 1, NodeName: "flight", Name: "altitude", Address: 13, Size: 1, Unit: 0.001},
				{Role: "proximity", Node: 2, NodeName: "ring", Name: "prox.values", Address: 0, Size: 24, Unit: 1.0 / 4095},
				{Role: "light", Node: 2, NodeName: "ring", Name: "light.values", Address: 24, Size: 24, Unit: 1.0 / 4095},
				{Role: "leds", Node: 3, NodeName: "leds", Name: "leds.rgb", Address: 0, Size: 48, Unit: 1},
			},
		},
		Geometry: Geometry{
			Radius: 0.25, Axle: 0.5, // the frame's span; an eye-bot has no wheels
			ProximityAngles: ringAngles(24),
			LEDs:            16,
		},
		Sensors: []Device{
			{ci.TagEyeBotProximity, "24 proximity sensors (Aseba node 2, prox.values)"},
			{ci.TagProximity, "same as eyebot_proximity"},
			{ci.TagEyeBotLight, "24 light sensors (node 2, light.values)"},
			{ci.TagLight, "same as eyebot_light"},
			{ci.TagAltitude, "height above the floor (node 1, altitude, mm)"},
			{ci.TagPositioning, "the flight controller's pose estimate (node 1, position)"},
		},
		Actuators: []Device{
			{ci.TagQuadrotorPosition, "position set-points (node 1, position.target, mm and mrad)"},
			{ci.TagQuadrotorSpeed, "speed set-points (node 1, speed.target, mm/s and mrad/s)"},
			{ci.TagLEDs, "16 RGB LEDs (node 3, leds.rgb)"},
		},
		Timeout: 100 * time.Millisecond,
		Retries: 2,
	}
}
