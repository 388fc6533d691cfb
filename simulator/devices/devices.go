package devices

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// Sensor is the simulator side of a sensor. Update reads the world into the
// sensor's readings; it runs in parallel over robots and must only read
// the space.
type Sensor interface {
	Update()
}

// Actuator is the simulator side of an actuator. Apply writes what the
// controller asked for into the robot; it runs in parallel over robots
// and must only write the robot's own state.
type Actuator interface {
	Apply()
}

// Factory builds a device for a robot from its element under <sensors> or
// <actuators>. The value it returns implements Sensor or Actuator and the
// ci interface of its device group.
type Factory func(r *entity.Robot, n *config.Node) (any, error)

// Cloner is an optional interface of devices whose making depends on
// their element and the robot's model only (not on the robot's own
// element or state): the simulator makes the device of the first robot
// of a controller entry and model with the factory, and the devices of
// the other such robots with CloneFor, which gives robot r a device of
// its own, as the factory would, without reading the element again (a
// million robots are made in a second).
type Cloner interface {
	CloneFor(r *entity.Robot) any
}

// The registries of simulated devices, keyed by Key(tag, implementation).
var (
	Sensors   = ci.NewRegistry[Factory]("sensor")
	Actuators = ci.NewRegistry[Factory]("actuator")
)

// Key is the registry key of a device: its tag, followed by ":" and the
// implementation when that is not "default".
func Key(tag, implementation string) string {
	if implementation == "" || implementation == "default" {
		return tag
	}
	return tag + ":" + implementation
}

func init() {
	Actuators.MustRegister(ci.TagDifferentialSteering,
		"Wheel speeds of a foot-bot or e-puck, in cm/s (ci.DifferentialSteeringActuator). "+
			"Attributes: noise_std_dev (cm/s, Gaussian noise added to each wheel), noise_factor_avg and noise_factor_stddev (Gaussian factor).",
		newWheels)
	Sensors.MustRegister(ci.TagDifferentialSteering,
		"Wheel encoders: wheel speeds (cm/s), distance each wheel covered in the last tick (cm), axle length (ci.DifferentialSteeringSensor). "+
			"Attributes: vel_noise_range and dist_noise_range (\"min:max\", uniform noise added to the speeds in cm/s and the distances in cm, as ARGoS).",
		newEncoders)
	Sensors.MustRegister(ci.TagFootBotProximity,
		"The foot-bot's 24 infrared proximity sensors (ci.Proximity): 0.1 m rays from the body edge at 0.06 m, ARGoS's response curve. "+
			"Attributes: noise_level (uniform noise added to each reading), show_rays.",
		proximityFactory(entity.FootBot))
	Sensors.MustRegister(ci.TagEPuckProximity,
		"The e-puck's 8 infrared proximity sensors (ci.Proximity), ARGoS's e-puck response curve. Attributes: noise_level, show_rays.",
		proximityFactory(entity.EPuck))
	Sensors.MustRegister(ci.TagProximity,
		"The proximity ring of whatever robot declares it (ci.Proximity), ARGoS's generic proximity sensor: the model's rays, but each reads "+
			"exp(-d) for an obstacle d metres from the sensor (so 0.905 to 1 when something is in range), 0 when the ray meets nothing. "+
			"Attributes: noise_level, show_rays.",
		proximityFactory(nil))
	Sensors.MustRegister(ci.TagPositioning,
		"The robot's position and orientation in the arena (ci.Positioning). Attributes (ARGoS's uniform noise, \"min:max\"): "+
			"pos_noise_range (m, on each coordinate), angle_noise_range (degrees) and axis_noise_range, on the angle and axis of the orientation.",
		newPositioning)
	Actuators.MustRegister(ci.TagLEDs,
		"The robot's RGB LEDs (ci.LEDs): 13 on a foot-bot (12 on the ring, then the beacon), 8 on an e-puck. Attribute: medium.",
		newLEDs)
}
