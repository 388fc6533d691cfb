package eyebothover

import (
	"fmt"
	"math"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Label is the name .argos files use for the controller.
const Label = "eyebot_hover_controller"

func init() {
	ci.Controllers.MustRegister(Label,
		"Eye-bot demo: takes off, flies through way-points at an altitude and hovers over each with its laser on, "+
			"counting the blobs its downward camera sees (LEDs blue while it sees some). Params: altitude (m, default "+
			"1.5), waypoints (\"x,y; x,y\", default the take-off point), hold (ticks, default 50), tolerance (m, default "+
			"0.02), laser (colour or \"off\", default red), loop (default true; false lands after the last). Devices: "+
			"quadrotor_position, positioning; optional laser_pointer, leds, colored_blob_perspective_camera.",
		func() ci.Controller { return New() })
}

// State is where the controller is in its flight.
type State int

// The states, in flight order.
const (
	TakingOff State = iota
	Flying          // to the current way-point
	Hovering        // over it, laser on
	Landing
	Landed
)

var stateNames = [...]string{"taking off", "flying", "hovering", "landing", "landed"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Controller is the eye-bot demo controller. Make one with New.
type Controller struct {
	fly    ci.QuadrotorPosition
	pos    ci.Positioning
	laser  ci.LaserPointer      // nil when not declared
	leds   ci.LEDs              // nil when not declared
	camera ci.ColoredBlobCamera // nil when not declared

	altitude  float64
	waypoints []ci.Vector2
	hold      int
	tolerance float64
	laserOn   bool
	color     ci.Color
	loop      bool

	state   State
	wp      int // current way-point
	held    int // ticks hovered over it
	blobs   int // blobs seen at the last step
	visits  int // way-points reached so far
	started bool
	home    ci.Vector2
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the devices and reads the parameters.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	*c = Controller{}
	var err error
	if c.fly, err = ci.GetActuator[ci.QuadrotorPosition](r, ci.TagQuadrotorPosition); err != nil {
		return fmt.Errorf("eyebot_hover: %w", err)
	}
	if c.pos, err = ci.GetSensor[ci.Positioning](r, ci.TagPositioning); err != nil {
		return fmt.Errorf("eyebot_hover: %w", err)
	}
	if _, ok := r.Actuator(ci.TagLaserPointer); ok {
		if c.laser, err = ci.GetActuator[ci.LaserPointer](r, ci.TagLaserPointer); err != nil {
			return fmt.Errorf("eyebot_hover: %w", err)
		}
	}
	if _, ok := r.Actuator(ci.TagLEDs); ok {
		if c.leds, err = ci.GetActuator[ci.LEDs](r, ci.TagLEDs); err != nil {
			return fmt.Errorf("eyebot_hover: %w", err)
		}
	}
	if _, ok := r.Sensor(ci.TagPerspectiveCamera); ok {
		if c.camera, err = ci.GetSensor[ci.ColoredBlobCamera](r, ci.TagPerspectiveCamera); err != nil {
			return fmt.Errorf("eyebot_hover: %w", err)
		}
		c.camera.Enable()
	}
	if c.altitude, err = p.FloatOr("altitude", 1.5); err != nil {
		return fmt.Errorf("eyebot_hover: %w", err)
	}
	if !(c.altitude >= 0) || math.IsInf(c.altitude, 0) {
		return fmt.Errorf("eyebot_hover: altitude=%v: give the flight altitude in metres, like 1.5", p.Attrs["altitude"])
	}
	if c.hold, err = p.IntOr("hold", 50); err != nil {
		return fmt.Errorf("eyebot_hover: %w", err)
	}
	if c.hold < 0 {
		return fmt.Errorf("eyebot_hover: hold=%d: give a number of ticks, 0 or more", c.hold)
	}
	if c.tolerance, err = p.FloatOr("tolerance", 0.02); err != nil {
		return fmt.Errorf("eyebot_hover: %w", err)
	}
	if !(c.tolerance > 0) {
		return fmt.Errorf("eyebot_hover: tolerance=%v: give a positive distance in metres, like 0.02", p.Attrs["tolerance"])
	}
	if c.loop, err = p.BoolOr("loop", true); err != nil {
		return fmt.Errorf("eyebot_hover: %w", err)
	}
	switch l := strings.TrimSpace(p.StringOr("laser", "red")); l {
	case "off", "":
	default:
		if c.color, err = ci.ParseColor(l); err != nil {
			return fmt.Errorf("eyebot_hover: laser=%q: %w", l, err)
		}
		c.laserOn = true
	}
	if c.waypoints, err = parseWaypoints(p.StringOr("waypoints", "")); err != nil {
		return err
	}
	return nil
}

// parseWaypoints reads "x,y; x,y; ...".
func parseWaypoints(s string) ([]ci.Vector2, error) {
	var out []ci.Vector2
	for _, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		var x, y float64
		if n, err := fmt.Sscanf(strings.ReplaceAll(part, ",", " "), "%g %g", &x, &y); n != 2 || err != nil ||
			math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return nil, fmt.Errorf("eyebot_hover: waypoints: %q is not a point; write \"x,y; x,y; ...\" in metres", part)
		}
		out = append(out, ci.Vector2{X: x, Y: y})
	}
	return out, nil
}

// ControlStep flies the state machine one tick further.
func (c *Controller) ControlStep() {
	r := c.pos.Reading()
	here := r.Position
	if !c.started {
		c.started = true
		c.home = here.XY()
		if len(c.waypoints) == 0 {
			c.waypoints = []ci.Vector2{c.home}
		}
		c.fly.SetAbsolutePosition(ci.Vector3{X: here.X, Y: here.Y, Z: c.altitude})
	}
	c.look()
	switch c.state {
	case TakingOff:
		if math.Abs(here.Z-c.altitude) < c.tolerance {
			c.goTo(0)
		}
	case Flying:
		if c.at(here, c.target()) {
			c.state, c.held = Hovering, 0
			c.visits++
			if c.laser != nil && c.laserOn {
				c.laser.On(c.color)
			}
		}
	case Hovering:
		c.held++
		if c.held >= c.hold {
			if c.laser != nil {
				c.laser.Off()
			}
			switch {
			case c.wp+1 < len(c.waypoints):
				c.goTo(c.wp + 1)
			case c.loop:
				c.goTo(0)
			default:
				c.state = Landing
				w := c.target()
				c.fly.SetAbsolutePosition(ci.Vector3{X: w.X, Y: w.Y, Z: 0})
			}
		}
	case Landing:
		if here.Z < c.tolerance {
			c.state = Landed
		}
	}
}

// look counts the blobs below and shows it with the LEDs.
func (c *Controller) look() {
	if c.camera == nil {
		return
	}
	c.blobs = len(c.camera.Blobs())
	if c.leds != nil {
		if c.blobs > 0 {
			c.leds.SetAllColors(ci.Blue)
		} else {
			c.leds.SetAllColors(ci.Black)
		}
	}
}

func (c *Controller) goTo(i int) {
	c.wp, c.state = i, Flying
	w := c.waypoints[i]
	c.fly.SetAbsolutePosition(ci.Vector3{X: w.X, Y: w.Y, Z: c.altitude})
}

func (c *Controller) target() ci.Vector2 { return c.waypoints[c.wp] }

func (c *Controller) at(p ci.Vector3, w ci.Vector2) bool {
	return math.Hypot(p.X-w.X, p.Y-w.Y) < c.tolerance && math.Abs(p.Z-c.altitude) < c.tolerance
}

// State returns the current state.
func (c *Controller) State() State { return c.state }

// Waypoint returns the index of the current way-point.
func (c *Controller) Waypoint() int { return c.wp }

// Visits returns how many way-points the robot has reached so far.
func (c *Controller) Visits() int { return c.visits }

// BlobsSeen returns how many blobs the camera saw at the last step (0
// without a camera).
func (c *Controller) BlobsSeen() int { return c.blobs }

// Reset starts the flight again from the take-off.
func (c *Controller) Reset() {
	c.state, c.wp, c.held, c.blobs, c.visits, c.started = TakingOff, 0, 0, 0, 0, false
	if c.laser != nil {
		c.laser.Off()
	}
	if c.camera != nil {
		c.camera.Enable()
	}
}

// Destroy releases nothing.
func (c *Controller) Destroy() error { return nil }
