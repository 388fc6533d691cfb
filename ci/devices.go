package ci

// Device tags of the foundation devices, as they appear in .argos files.
const (
	TagDifferentialSteering = "differential_steering"
	TagProximity            = "proximity"
	TagFootBotProximity     = "footbot_proximity"
	TagEPuckProximity       = "epuck_proximity"
	TagPositioning          = "positioning"
	TagLEDs                 = "leds"
)

// DifferentialSteeringActuator drives a two-wheeled robot
// (tag "differential_steering").
type DifferentialSteeringActuator interface {
	// SetLinearVelocity sets the speed of the left and right wheel in cm/s.
	// The values are applied after ControlStep returns.
	SetLinearVelocity(left, right float64)
}

// DifferentialSteeringReading is what the wheel encoders measured during
// the last tick.
type DifferentialSteeringReading struct {
	// VelocityLeft and VelocityRight are the wheel speeds in cm/s.
	VelocityLeft, VelocityRight float64
	// CoveredDistanceLeft and CoveredDistanceRight are the distances in cm
	// each wheel rolled during the last tick.
	CoveredDistanceLeft, CoveredDistanceRight float64
	// WheelAxisLength is the distance between the wheels in cm.
	WheelAxisLength float64
}

// DifferentialSteeringSensor reads the wheel encoders
// (tag "differential_steering").
type DifferentialSteeringSensor interface {
	Reading() DifferentialSteeringReading
}

// ProximityReading is one infrared proximity sensor: Value in [0, 1]
// (0: nothing in range, 1: touching) and the Angle of the sensor in
// radians, counter-clockwise from the robot's front.
type ProximityReading struct {
	Value float64
	Angle float64
}

// Proximity is a ring of proximity sensors (tags "footbot_proximity",
// "epuck_proximity", "proximity"). Readings returns every sensor of the
// ring, in the order of the robot model (docs/robots.md); the slice belongs to
// the device and is overwritten at the next tick.
type Proximity interface {
	Readings() []ProximityReading
}

// PositioningReading is the robot's pose in the arena: position in metres
// and orientation.
type PositioningReading struct {
	Position    Vector3
	Orientation Quaternion
}

// Positioning reads the robot's pose (tag "positioning"), as a GPS or a
// tracking system would.
type Positioning interface {
	Reading() PositioningReading
}

// LEDs is a ring of RGB LEDs (tag "leds"). Colours set during ControlStep
// are shown after it returns.
type LEDs interface {
	// Len is the number of LEDs.
	Len() int
	// SetSingleColor sets LED i (0-based); an index out of range is ignored.
	SetSingleColor(i int, c Color)
	// SetAllColors sets every LED.
	SetAllColors(c Color)
}
