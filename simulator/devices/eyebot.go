package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// The eye-bot's devices (ARGoS 3's plugins/robots/eye-bot and the generic
// quad-rotor devices of plugins/robots/generic/simulator; geometry in
// entity/eyebot.go, flight in physics/pointmass3d).

func init() {
	Actuators.MustRegister(ci.TagQuadrotorPosition,
		"Flies a quad-rotor (eye-bot) to position set-points (ci.QuadrotorPosition), as ARGoS's quadrotor_position: "+
			"SetAbsolutePosition/SetAbsoluteYaw in the arena's frame (metres, the Z of the bottom of the body; radians), "+
			"SetRelativePosition in the robot's frame (turned by its yaw) and SetRelativeYaw from its current pose. "+
			"The set-point holds until the controller sets another; pointmass3d flies the robot there (PD control). "+
			"Not together with quadrotor_speed. No attributes.",
		newQuadPosition)
	Actuators.MustRegister(ci.TagQuadrotorSpeed,
		"Flies a quad-rotor (eye-bot) at speed set-points (ci.QuadrotorSpeed): linear velocity in m/s in the arena's "+
			"frame and rotational speed in rad/s about Z; they hold until the controller sets others. Not together with "+
			"quadrotor_position. No attributes.",
		newQuadSpeed)
	Actuators.MustRegister(ci.TagCeilingAttachment,
		"The eye-bot's ceiling attachment (ci.CeilingAttachment): Attach flies the robot straight up until it touches the "+
			"ceiling, where it hangs with its motors off until Detach; Attached reports whether it hangs. No attributes.",
		newCeilingAttachment)
	Actuators.MustRegister(ci.TagLaserPointer,
		"The eye-bot's laser pointer (ci.LaserPointer): points straight down and, when on, makes a spot of its colour on "+
			"the floor or on top of the highest body below the robot, which other robots' ground sensors and cameras "+
			"see (entity.World.Spots). Attribute: spot_radius (m, default 0.05).",
		newLaserPointer)
	Sensors.MustRegister(ci.TagAltitude,
		"A flying robot's height above the floor (ci.Altitude), metres: the height of the bottom of its body. "+
			"Attribute: noise_std_dev (m, Gaussian noise; the reading never goes below 0).",
		newAltitude)
	Sensors.MustRegister(ci.TagEyeBotProximity,
		"The eye-bot's 24 proximity sensors (ci.Proximity): horizontal 3 m rays from the body's edge at 0.1635 m, the "+
			"first at 7.5 degrees, counter-clockwise; the foot-bot's response curve (ARGoS). Attributes: noise_level, show_rays.",
		proximityFactory(entity.EyeBot))
	light := "The eye-bot's 24 light sensors (ci.Light), as ARGoS's eyebot_light rot_z_only: each light not occluded " +
		"adds exp(-2 d/I) (d: distance in m, I: intensity; nothing beyond 2.5 m) times 1 - 2a/pi to the 13 sensors " +
		"within pi/2 of its direction (a: angle between the sensor and the light); readings clamped to [0, 1]. " +
		"Attributes: noise_level (uniform noise added to each reading), show_rays."
	Sensors.MustRegister(ci.TagEyeBotLight, light, newEyeBotLight)
	Sensors.MustRegister(Key(ci.TagEyeBotLight, "rot_z_only"), light, newEyeBotLight)
	Sensors.MustRegister(ci.TagPerspectiveCamera,
		"The eye-bot's perspective camera looking down from the bottom of its body (ci.ColoredBlobCamera), as ARGoS's "+
			"colored_blob_perspective_camera: it sees the lit LEDs of the LED medium (other robots' LEDs, lights) and the "+
			"laser spots of others (entity.World.Spots) inside its cone of view (the eye-bot's camera_aperture, a "+
			"half-angle, default 30 degrees; depth below camera_range, default 2 m) unless a body is in the way. Each blob "+
			"has its colour, its image position X (right), Y (the robot's front is up), the offset from the optical axis "+
			"over depth x tan(aperture), in [-1, 1], and its angle (counter-clockwise from the front) and distance in the "+
			"ground plane from the robot. Starts disabled. Attributes: medium (the id of an <led> medium; optional when "+
			"<media> holds one), show_rays.",
		newPerspectiveCamera)
}

// flightOf returns the flight command of a robot flown by pointmass3d,
// or an error saying how to get one.
func flightOf(r *entity.Robot, n *config.Node) (*space.Flight, error) {
	f := r.B().Flight()
	if f == nil {
		return nil, n.Errorf("devices: <%s> needs a flying robot in a pointmass3d engine, but %s %q has no flight; "+
			"use it on an eye-bot and add <pointmass3d id=\"pm3d\"/> to <physics_engines>", n.Name, r.Model.Type, r.ID)
	}
	return f, nil
}

// claimFlight makes the actuator of the given tag the one that commands
// the robot's set-points; a second one is refused, as in ARGoS.
func claimFlight(r *entity.Robot, n *config.Node, tag string) (*space.Flight, error) {
	f, err := flightOf(r, n)
	if err != nil {
		return nil, err
	}
	if f.Commander != "" && f.Commander != tag {
		return nil, n.Errorf("devices: %s %q already flies by <%s>; a quad-rotor takes either quadrotor_position or quadrotor_speed, not both",
			r.Model.Type, r.ID, f.Commander)
	}
	f.Commander = tag
	return f, nil
}

// SpotProjector is implemented by actuators that project a light spot
// (laser_pointer). The simulator collects the spots of every robot into
// entity.World.Spots once per tick, after physics and before media and
// sensors; Spot reads the space and the robot's own state only.
type SpotProjector interface {
	// Spot returns the spot the device projects now, or false when it is
	// off.
	Spot() (entity.Spot, bool)
}

// surfaceBelow returns the height of the first surface straight below
// point p at height z: the top of the highest body (other than ignore)
// whose footprint holds p and whose top is not above z, else the floor.
func surfaceBelow(sp *space.Space, p ci.Vector2, z float64, ignore int) float64 {
	top := 0.0
	sp.Near(p, p, func(i int) bool {
		b := &sp.Bodies[i]
		if i == ignore || b.Removed || b.Top() > z+1e-9 || !b.Contains(p) {
			return true
		}
		top = math.Max(top, b.Top())
		return true
	})
	return top
}
