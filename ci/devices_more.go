package ci

// Device tags of the robot models of ARGoS 3 (foot-bot, e-puck, eye-bot).
const (
	TagLight                  = "light"
	TagFootBotLight           = "footbot_light"
	TagEPuckLight             = "epuck_light"
	TagEyeBotLight            = "eyebot_light"
	TagEyeBotProximity        = "eyebot_proximity"
	TagGround                 = "ground"
	TagFootBotMotorGround     = "footbot_motor_ground"
	TagFootBotBaseGround      = "footbot_base_ground"
	TagEPuckGround            = "epuck_ground"
	TagOmnidirectionalCamera  = "colored_blob_omnidirectional_camera"
	TagPerspectiveCamera      = "colored_blob_perspective_camera"
	TagRangeAndBearing        = "range_and_bearing"
	TagFootBotGripper         = "footbot_gripper"
	TagFootBotTurret          = "footbot_turret"
	TagFootBotTurretEncoder   = "footbot_turret_encoder"
	TagFootBotDistanceScanner = "footbot_distance_scanner"
	TagBattery                = "battery"
	TagQuadrotorPosition      = "quadrotor_position"
	TagQuadrotorSpeed         = "quadrotor_speed"
	TagAltitude               = "altitude"
	TagCeilingAttachment      = "ceiling_attachment"
	TagLaserPointer           = "laser_pointer"
)

// LightReading is one light sensor: Value in [0, 1] (0: no light seen)
// and the sensor's Angle in radians, counter-clockwise from the front.
type LightReading struct {
	Value float64
	Angle float64
}

// Light is a ring of light sensors (tags "footbot_light", "epuck_light",
// "eyebot_light", "light"). The slice belongs to the device and is
// overwritten at the next tick.
type Light interface {
	Readings() []LightReading
}

// GroundReading is one ground sensor: the floor's brightness under it in
// [0, 1] (0 black, 1 white) and where the sensor sits in the robot's frame
// (metres, X forward, Y left).
type GroundReading struct {
	Value  float64
	Offset Vector2
}

// Ground is a set of downward-looking sensors that read the floor (tags
// "footbot_motor_ground" (4), "footbot_base_ground" (8), "epuck_ground"
// (3), "ground").
type Ground interface {
	Readings() []GroundReading
}

// Blob is a coloured spot a camera sees: an LED, or a laser spot on the
// floor. Angle (radians, counter-clockwise from the robot's front) and
// Distance (metres, measured in the ground plane) locate it around the
// robot; perspective cameras also give its image coordinates X, Y in
// [-1, 1] (X right, Y up).
type Blob struct {
	Color    Color
	Angle    float64
	Distance float64
	X, Y     float64
}

// ColoredBlobCamera is a camera that reports coloured blobs (tags
// "colored_blob_omnidirectional_camera", "colored_blob_perspective_camera").
// A disabled camera costs nothing and sees nothing; cameras start disabled,
// as in ARGoS.
type ColoredBlobCamera interface {
	Enable()
	Disable()
	// Blobs returns what the camera saw at the last tick; the slice
	// belongs to the device.
	Blobs() []Blob
}

// RABPacket is one range-and-bearing message received: the distance to
// the sender in centimetres (ARGoS's unit), the bearing in the horizontal
// plane and the elevation, in radians, and the sender's payload.
type RABPacket struct {
	Range             float64
	HorizontalBearing float64
	VerticalBearing   float64
	Data              []byte
}

// RangeAndBearingActuator sets the payload this robot broadcasts
// (tag "range_and_bearing"); the payload has the size the robot declares
// (rab_data_size, 10 bytes on a foot-bot by default).
type RangeAndBearingActuator interface {
	// SetData copies data into the payload (extra bytes are an error the
	// device reports by panicking: a programming error).
	SetData(data []byte)
	// SetByte sets one byte of the payload.
	SetByte(i int, b byte)
	// ClearData zeroes the payload.
	ClearData()
}

// RangeAndBearingSensor receives the messages of the robots in range
// (tag "range_and_bearing"). The packets and their Data belong to the
// device and are overwritten at the next tick.
type RangeAndBearingSensor interface {
	Packets() []RABPacket
}

// Gripper is the foot-bot's gripper (tag "footbot_gripper"): Lock grips
// whatever grippable object or robot is in front of the gripper; the
// gripped body then follows the robot until Unlock.
type Gripper interface {
	Lock()
	Unlock()
	// Gripping reports whether something is held.
	Gripping() bool
}

// Turret is the foot-bot's rotating turret (tag "footbot_turret"), which
// carries the gripper.
type Turret interface {
	// SetRotation turns the turret to an angle (radians, counter-clockwise
	// from the robot's front) at its maximum speed.
	SetRotation(angle float64)
	// SetRotationSpeed turns it at a constant speed (radians/s).
	SetRotationSpeed(speed float64)
	// SetPassive lets it turn freely (it follows what the gripper holds).
	SetPassive()
}

// TurretEncoder reads the turret's angle (tag "footbot_turret_encoder").
type TurretEncoder interface {
	Rotation() float64
}

// DistanceReading is one measurement of a distance scanner: the angle of
// the ray (radians, counter-clockwise from the front), the distance in
// centimetres (ARGoS's unit) from the body's edge to what it hit (-1:
// closer than the minimum range, -2: nothing in range, as ARGoS's
// ci_footbot_distance_scanner_sensor.h says) and whether it comes from a
// long-range sensor (20-150 cm) or a short-range one (4-30 cm).
type DistanceReading struct {
	Angle    float64
	Distance float64
	Long     bool
}

// DistanceScanner is the foot-bot's rotating distance scanner, actuator
// side (tag "footbot_distance_scanner").
type DistanceScanner interface {
	Enable()
	Disable()
	// SetAngle holds the scanner at an angle (radians).
	SetAngle(angle float64)
	// SetRPM spins it at a speed in revolutions per minute.
	SetRPM(rpm float64)
}

// DistanceScannerSensor reads the distance scanner (tag
// "footbot_distance_scanner"): the readings of the last tick.
type DistanceScannerSensor interface {
	Readings() []DistanceReading
}

// BatteryReading is the state of charge: AvailableCharge in [0, 1] and the
// estimated TimeLeft in seconds.
type BatteryReading struct {
	AvailableCharge float64
	TimeLeft        float64
}

// Battery reads the battery (tag "battery").
type Battery interface {
	Reading() BatteryReading
}

// QuadrotorPosition moves a flying robot to position set-points (tag
// "quadrotor_position"), in metres and radians, in the arena's frame.
type QuadrotorPosition interface {
	SetAbsolutePosition(p Vector3)
	SetRelativePosition(d Vector3)
	SetAbsoluteYaw(yaw float64)
	SetRelativeYaw(d float64)
}

// QuadrotorSpeed drives a flying robot by velocity set-points (tag
// "quadrotor_speed"): m/s in the arena's frame and rad/s about Z.
type QuadrotorSpeed interface {
	SetLinearVelocity(v Vector3)
	SetRotationalSpeed(w float64)
}

// Altitude reads a flying robot's height above the floor in metres (tag
// "altitude").
type Altitude interface {
	Reading() float64
}

// CeilingAttachment attaches an eye-bot to the ceiling, where it hangs
// still and saves energy (tag "ceiling_attachment").
type CeilingAttachment interface {
	Attach()
	Detach()
	Attached() bool
}

// LaserPointer points a laser straight down from a flying robot (tag
// "laser_pointer"): the coloured spot it makes on the floor (or on what is
// below) is seen by the ground sensors and cameras of other robots.
type LaserPointer interface {
	On(c Color)
	Off()
	IsOn() bool
}
