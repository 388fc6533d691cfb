package entity

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

// Spec is an entity as the .argos file describes it, before it is put in
// the arena.
type Spec struct {
	Tag string
	ID  string
	// Body is the embodiment; meaningful when Embodied.
	Body     space.Body
	Embodied bool
	// Robot and ControllerID are set for robots.
	Robot        *RobotModel
	ControllerID string
	// Light is set for lights.
	Light *Light
	// LEDs are the LEDs of a box or a cylinder (<leds medium="...">,
	// object_leds.go), shown by the LED medium LEDMedium.
	LEDs      []ObjectLED
	LEDMedium string
	// Setup is set for entities that change the world rather than add a
	// body or a light (the floor): the simulator calls it instead.
	Setup func(w *World) error
	Node  *config.Node
	// Posed says the element had its own pose (<body> or a light's
	// position); templates of <distribute> have none.
	Posed bool
}

// Light is a light source: the light sensors of issue-3 robots see it.
type Light struct {
	ID        string
	Position  ci.Vector3
	Color     ci.Color
	Intensity float64
}

// Parser reads one entity element.
type Parser func(n *config.Node) (*Spec, error)

// Types is the registry of entity tags.
var Types = ci.NewRegistry[Parser]("entity")

func init() {
	Types.MustRegister("box", "A box: id, size=\"x,y,z\" (m), movable=\"true|false\", mass (kg, movable only, default 1); <body position=\"x,y,z\" orientation=\"z,y,x\"/> (degrees). "+
		"A movable box is pushed by robots (its friction on the floor is a drag of at most 1.49 N) and is grippable. "+objectLEDsHelp, parseBox)
	Types.MustRegister("cylinder", "A cylinder: id, radius, height (m), movable=\"true|false\", mass (kg, movable only, default 1); <body position orientation/>. "+
		"A movable cylinder is pushed by robots and is grippable: the prey of foraging and gripping experiments. "+objectLEDsHelp, parseCylinder)
	Types.MustRegister("light", "A light: id, position=\"x,y,z\", orientation, color (name or r,g,b), intensity (default 1; light sensors scale distances by it), "+
		"medium (accepted; every light shows in every <led> medium, so cameras see it as a blob of its colour).", parseLight)
	Types.MustRegister("foot-bot", "The foot-bot (marXbot): id; <body position orientation/>; <controller config=\"ID\"/>; optional <battery discharge_model=\"time|motion|time_motion\" "+
		"factor time_factor pos_factor orient_factor start_charge full_charge/> (see the battery sensor). Attributes: rab_range (m, default 3), rab_data_size "+
		"(bytes, default 10), omnidirectional_camera_aperture (degrees, default 70). Radius 0.085 m; 24 proximity and 24 light sensors, 4 motor and 8 base "+
		"ground sensors, 12 ring LEDs on the turret and a beacon, omnidirectional camera 0.289 m high, range-and-bearing board 0.1 m high, gripper, turret, "+
		"distance scanner, battery.", robotParser(FootBot))
	Types.MustRegister("e-puck", "The e-puck: id; <body position orientation/>; <controller config=\"ID\"/>; optional <battery .../> as the foot-bot's. "+
		"Attributes: rab_range (m, default 0.8), rab_data_size (bytes, default 2). Radius 0.035 m; 8 proximity and 8 light sensors, 3 ground sensors, "+
		"8 LEDs, range-and-bearing board on top (0.086 m), battery.", robotParser(EPuck))
}

// SetPose places the entity: position in metres, orientation as ARGoS
// Euler angles (z, y, x) in degrees. Mobile entities stand on the floor
// plane of their engine, so only their rotation about Z may be non-zero.
func (s *Spec) SetPose(n *config.Node, pos ci.Vector3, o config.EulerDeg) error {
	if s.Light != nil {
		s.Light.Position = pos
		return nil
	}
	if s.Body.Movable && (o.Y != 0 || o.X != 0) {
		return n.Errorf("entity: %s %q: a mobile entity can only turn about Z; set the orientation to \"%g,0,0\"", s.Tag, s.ID, o.Z)
	}
	s.Body.Pos = pos.XY()
	s.Body.Z = pos.Z
	s.Body.SetYaw(ci.NormalizeAngle(ci.Radians(o.Z)))
	s.Body.SetTilt(ci.Radians(o.Y), ci.Radians(o.X))
	return nil
}

// SetID renames the entity (distribute numbers its copies).
func (s *Spec) SetID(id string) {
	s.ID = id
	s.Body.ID = id
	if s.Light != nil {
		s.Light.ID = id
	}
}

// Clone returns an independent copy.
func (s *Spec) Clone() *Spec {
	c := *s
	if s.Light != nil {
		l := *s.Light
		c.Light = &l
	}
	c.LEDs = append([]ObjectLED(nil), s.LEDs...)
	return &c
}

// parsePose reads <body>; without one the entity is a template waiting
// for <distribute> to place it.
func parsePose(s *Spec, n *config.Node) error {
	b := n.FirstChild("body")
	if b == nil {
		return nil
	}
	s.Posed = true
	if err := b.CheckAttrs("position", "orientation"); err != nil {
		return err
	}
	pos, err := b.Vector3("position")
	if err != nil {
		return err
	}
	o, err := b.EulerOr("orientation", config.EulerDeg{})
	if err != nil {
		return err
	}
	return s.SetPose(b, pos, o)
}

func parseMovable(n *config.Node, s *Spec) error {
	mov, err := n.Bool("movable")
	if err != nil {
		return err
	}
	s.Body.Movable = mov
	if !mov {
		if n.Has("mass") {
			return n.Errorf("entity: %s %q: mass only applies to movable objects; remove it or set movable=\"true\"", s.Tag, s.ID)
		}
		return nil
	}
	m, err := n.FloatOr("mass", 1)
	if err != nil {
		return err
	}
	if m <= 0 {
		return n.Errorf("entity: %s %q: mass=%g must be positive (kg)", s.Tag, s.ID, m)
	}
	s.Body.Mass = m
	// ARGoS drags pushable objects toward rest with a force just below
	// what a robot can push with.
	s.Body.MaxForce, s.Body.MaxTorque = 1.49, 1.49
	return nil
}

func parseBox(n *config.Node) (*Spec, error) {
	if err := n.CheckAttrs("id", "size", "movable", "mass"); err != nil {
		return nil, err
	}
	s, err := newSpec(n)
	if err != nil {
		return nil, err
	}
	size, err := n.Vector3("size")
	if err != nil {
		return nil, err
	}
	if size.X <= 0 || size.Y <= 0 || size.Z <= 0 {
		return nil, n.Errorf("entity: box %q: size=\"%g,%g,%g\": write three positive sizes \"x,y,z\" in metres", s.ID, size.X, size.Y, size.Z)
	}
	s.Body.Shape = space.Box
	s.Body.Half = ci.Vector2{X: size.X / 2, Y: size.Y / 2}
	s.Body.Radius = math.Hypot(size.X/2, size.Y/2)
	s.Body.Height = size.Z
	if err := parseMovable(n, s); err != nil {
		return nil, err
	}
	if err := parseObjectLEDs(s, n); err != nil {
		return nil, err
	}
	return s, parsePose(s, n)
}

func parseCylinder(n *config.Node) (*Spec, error) {
	if err := n.CheckAttrs("id", "radius", "height", "movable", "mass"); err != nil {
		return nil, err
	}
	s, err := newSpec(n)
	if err != nil {
		return nil, err
	}
	r, err := n.Float("radius")
	if err != nil {
		return nil, err
	}
	h, err := n.Float("height")
	if err != nil {
		return nil, err
	}
	if r <= 0 || h <= 0 {
		return nil, n.Errorf("entity: cylinder %q: radius=%g and height=%g must be positive (metres)", s.ID, r, h)
	}
	s.Body.Shape = space.Disc
	s.Body.Radius = r
	s.Body.Height = h
	if err := parseMovable(n, s); err != nil {
		return nil, err
	}
	if err := parseObjectLEDs(s, n); err != nil {
		return nil, err
	}
	return s, parsePose(s, n)
}

func parseLight(n *config.Node) (*Spec, error) {
	if err := n.CheckAttrs("id", "position", "orientation", "color", "intensity", "medium"); err != nil {
		return nil, err
	}
	s, err := newSpec(n)
	if err != nil {
		return nil, err
	}
	pos, err := n.Vector3Or("position", ci.Vector3{})
	if err != nil {
		return nil, err
	}
	c, err := n.ColorOr("color", ci.Yellow)
	if err != nil {
		return nil, err
	}
	in, err := n.FloatOr("intensity", 1)
	if err != nil {
		return nil, err
	}
	if in < 0 {
		return nil, n.Errorf("entity: light %q: intensity=%g must not be negative", s.ID, in)
	}
	s.Light = &Light{ID: s.ID, Position: pos, Color: c, Intensity: in}
	s.Posed = n.Has("position")
	return s, nil
}

// robotAttrs are the robot attributes of ARGoS 3 that files may carry;
// the devices that use them read them from the node.
var robotAttrs = []string{"id", "rab_range", "rab_data_size", "omnidirectional_camera_aperture",
	"perspective_camera_front", "perspective_camera_range", "perspective_camera_aperture", "battery",
	"real"} // real: the pose comes from outside (simulator/remote)

func robotParser(m *RobotModel) Parser {
	return func(n *config.Node) (*Spec, error) {
		if err := n.CheckAttrs(robotAttrs...); err != nil {
			return nil, err
		}
		s, err := newSpec(n)
		if err != nil {
			return nil, err
		}
		s.Robot = m
		s.Body.Shape = space.Disc
		s.Body.Radius, s.Body.Height, s.Body.Mass = m.Radius, m.Height, m.Mass
		s.Body.MaxForce, s.Body.MaxTorque = m.MaxForce, m.MaxTorque
		s.Body.Movable = true
		if g := m.Gripper; g != nil && g.Disc > 0 {
			s.Body.SetNub(g.Disc, m.Radius, 0) // the gripper's jaws, straight ahead
		}
		for _, c := range n.Children {
			switch c.Name {
			case "body":
			case "controller":
				if s.ControllerID, err = c.String("config"); err != nil {
					return nil, err
				}
			case "devices", "battery":
				// ARGoS 3.0 device configuration; devices read it themselves.
			default:
				return nil, c.Errorf("entity: %s %q: unknown element <%s>; a robot holds <body> and <controller config=\"...\"/>", m.Type, s.ID, c.Name)
			}
		}
		if s.ControllerID == "" {
			return nil, n.Errorf("entity: %s %q has no controller; add <controller config=\"ID\"/> naming a controller of <controllers>", m.Type, s.ID)
		}
		return s, parsePose(s, n)
	}
}

func newSpec(n *config.Node) (*Spec, error) {
	id, err := n.String("id")
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, n.Errorf("entity: <%s> has an empty id; give it a unique id", n.Name)
	}
	s := &Spec{Tag: n.Name, Node: n, Embodied: n.Name != "light"}
	s.SetID(id)
	s.Body.Type = n.Name
	s.Body.SetYaw(0) // templates without <body> keep a consistent heading
	return s, nil
}
