package entity

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

// The eye-bot is the flying robot of the Swarmanoid project, a quad-rotor
// that hangs at the ceiling or hovers and looks down with its camera. The
// values below are those of ARGoS 3's model:
//
//   - plugins/robots/eye-bot/simulator/eyebot_entity.cpp: BODY_RADIUS
//     0.25, BODY_HEIGHT 0.566; two rings of 16 RGB LEDs at LED_RING_RADIUS
//     = BODY_RADIUS + 0.005 and elevations 0.1535 (lower) and 0.1635
//     (upper), the first at half a slice (pi/16) from the front, plus one
//     LED at (0.7 * LED_RING_RADIUS, 135 degrees, 0.1435); 24 proximity and
//     24 light sensors on a ring of radius LED_RING_RADIUS at the upper
//     ring's elevation, the first at pi/24, range 3 m; range-and-bearing
//     range 3 m and 10-byte payload (rab_range, rab_data_size); perspective
//     camera looking down from the body's origin, aperture 30 degrees,
//     focal length 0.035 m, range 2 m, 640x480 pixels;
//   - plugins/robots/eye-bot/simulator/eyebot_proximity_default_sensor.cpp:
//     the proximity response is the foot-bot's curve;
//   - plugins/robots/eye-bot/simulator/pointmass3d_eyebot_model.cpp: mass
//     1 kg (the flight model lives in physics/pointmass3d).
//
// (ARGoS writes them as float literals: 0.566f, ...)
var (
	eyeBotRadius           = f32(0.25)
	eyeBotHeight           = f32(0.566)
	eyeBotLEDRingRadius    = eyeBotRadius + 0.005
	eyeBotLowerRing        = f32(0.1535)
	eyeBotUpperRing        = f32(0.1635)
	eyeBotSensorRingHeight = eyeBotUpperRing
)

const eyeBotLEDsPerRing = 16

// EyeBot is the eye-bot model. It has no wheels: its Axle is a nominal
// value only so that Robot.SetWheels, which the simulator calls to stop
// every robot, gives finite drives (a flying robot ignores them).
var EyeBot = &RobotModel{
	Type: "eye-bot", Radius: eyeBotRadius, Height: eyeBotHeight, Mass: 1,
	Axle: 2 * eyeBotRadius,
	Proximity: ProximityRing{
		// the rays start on the LED ring, 5 mm out of the body
		Tag: ci.TagEyeBotProximity, Angles: footBotProximityAngles(), Radius: eyeBotLEDRingRadius, Range: 3, Height: eyeBotSensorRingHeight,
		Response: FootBotProximityResponse,
	},
	LEDs:      2*eyeBotLEDsPerRing + 1,
	LEDMounts: eyeBotLEDs(),
	Light: LightRing{
		Tag: ci.TagEyeBotLight, Angles: footBotProximityAngles(), Radius: eyeBotLEDRingRadius, Height: eyeBotSensorRingHeight,
	},
	// ARGoS anchors the board at the robot's origin (the bottom).
	RAB: RABBoard{Range: 3, DataSize: 10, Height: 0},
}

// eyeBotLEDs are the two rings of 16 LEDs, the first at half a slice from
// the front, and the LED under the body.
func eyeBotLEDs() []Mount {
	slice := 2 * math.Pi / eyeBotLEDsPerRing
	m := append(ledRing(eyeBotLEDsPerRing, slice/2, eyeBotLEDRingRadius, eyeBotLowerRing),
		ledRing(eyeBotLEDsPerRing, slice/2, eyeBotLEDRingRadius, eyeBotUpperRing)...)
	return append(m, Mount{Angle: 3 * math.Pi / 4, Radius: 0.7 * eyeBotLEDRingRadius, Height: eyeBotLowerRing - 0.01})
}

// EyeBotLayout is the eye-bot's equipment that RobotModel does not
// describe: the defaults of its downward perspective camera.
type EyeBotLayout struct {
	// CameraAperture is the half-angle of the camera's cone of view
	// (radians), CameraRange the farthest depth it sees along its axis
	// (metres), CameraFocalLength its focal length (metres).
	CameraAperture, CameraRange, CameraFocalLength float64
	// CameraWidth and CameraHeight are the image size in pixels.
	CameraWidth, CameraHeight int
}

// EyeBotDevices returns the eye-bot's camera defaults.
func EyeBotDevices() EyeBotLayout {
	return EyeBotLayout{
		CameraAperture: ci.Radians(30), CameraRange: 2, CameraFocalLength: 0.035,
		CameraWidth: 640, CameraHeight: 480,
	}
}

// eyeBotAttrs are the attributes ARGoS 3 reads on <eye-bot>.
var eyeBotAttrs = []string{"id", "rab_range", "rab_data_size", "camera_aperture", "camera_focal_length",
	"camera_range", "camera_front", "bat_full_capacity", "bat_ideal_discharge", "bat_moving_discharge", "battery"}

// EyeBotCamera is the camera configuration of one eye-bot element: its
// camera_aperture (degrees in the file, radians here), camera_range and
// camera_focal_length attributes, or the defaults.
func EyeBotCamera(n *config.Node) (aperture, rng, focal float64, err error) {
	d := EyeBotDevices()
	deg, err := n.FloatOr("camera_aperture", ci.Degrees(d.CameraAperture))
	if err != nil {
		return 0, 0, 0, err
	}
	if deg <= 0 || deg >= 90 {
		return 0, 0, 0, n.Errorf("entity: eye-bot: camera_aperture=%g: give the half-angle of the camera's cone in degrees, between 0 and 90 (ARGoS's default is 30)", deg)
	}
	if rng, err = n.FloatOr("camera_range", d.CameraRange); err != nil {
		return 0, 0, 0, err
	}
	if focal, err = n.FloatOr("camera_focal_length", d.CameraFocalLength); err != nil {
		return 0, 0, 0, err
	}
	if rng <= 0 || focal <= 0 {
		return 0, 0, 0, n.Errorf("entity: eye-bot: camera_range=%g and camera_focal_length=%g must be positive (metres)", rng, focal)
	}
	return ci.Radians(deg), rng, focal, nil
}

func init() {
	Types.MustRegister("eye-bot",
		"The eye-bot (Swarmanoid's quad-rotor): id; <body position orientation/> (position of the bottom of the body; it may "+
			"start on the floor and take off); <controller config=\"ID\"/>. Radius 0.25 m, height 0.566 m, mass 1 kg; flown by "+
			"a pointmass3d engine. Devices: quadrotor_position or quadrotor_speed, positioning, altitude, eyebot_proximity (24, "+
			"3 m), eyebot_light (24), colored_blob_perspective_camera (looking down), leds (33: 16 on the lower ring, 16 on the "+
			"upper, 1 below), range_and_bearing, ceiling_attachment, laser_pointer. Attributes as in ARGoS: rab_range (m, "+
			"default 3), rab_data_size (bytes, default 10), camera_aperture (degrees, half-angle, default 30), camera_range "+
			"(m, default 2), camera_focal_length (m, default 0.035); camera_front, bat_full_capacity, bat_ideal_discharge and "+
			"bat_moving_discharge are accepted and ignored (the battery sensor reads a <battery> child, as on the foot-bot).",
		parseEyeBot)
}

func parseEyeBot(n *config.Node) (*Spec, error) {
	if err := n.CheckAttrs(eyeBotAttrs...); err != nil {
		return nil, err
	}
	s, err := newSpec(n)
	if err != nil {
		return nil, err
	}
	if _, _, _, err := EyeBotCamera(n); err != nil {
		return nil, err
	}
	if r, err := n.FloatOr("rab_range", EyeBot.RAB.Range); err != nil {
		return nil, err
	} else if r <= 0 {
		return nil, n.Errorf("entity: eye-bot %q: rab_range=%g must be positive (metres)", s.ID, r)
	}
	if d, err := n.IntOr("rab_data_size", EyeBot.RAB.DataSize); err != nil {
		return nil, err
	} else if d < 0 {
		return nil, n.Errorf("entity: eye-bot %q: rab_data_size=%d must not be negative (bytes)", s.ID, d)
	}
	m := EyeBot
	s.Robot = m
	s.Body.Shape = space.Disc
	s.Body.Radius, s.Body.Height, s.Body.Mass = m.Radius, m.Height, m.Mass
	s.Body.Movable = true
	for _, c := range n.Children {
		switch c.Name {
		case "body":
		case "controller":
			if s.ControllerID, err = c.String("config"); err != nil {
				return nil, err
			}
		case "devices", "battery", "perspective_camera":
			// ARGoS 3 device configuration; devices read it themselves.
		default:
			return nil, c.Errorf("entity: eye-bot %q: unknown element <%s>; an eye-bot holds <body> and <controller config=\"...\"/>", s.ID, c.Name)
		}
	}
	if s.ControllerID == "" {
		return nil, n.Errorf("entity: eye-bot %q has no controller; add <controller config=\"ID\"/> naming a controller of <controllers>", s.ID)
	}
	if err := parsePose(s, n); err != nil {
		return nil, err
	}
	if s.Posed && s.Body.Z < 0 {
		return nil, n.Errorf("entity: eye-bot %q: position z=%g is below the floor; give the height of the bottom of the body (0 on the floor)", s.ID, s.Body.Z)
	}
	return s, nil
}
