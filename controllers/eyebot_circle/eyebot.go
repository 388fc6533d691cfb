package eyebotcircle

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/argosgo/argos/ci"
)

// EyeBotLabel is ARGoS's label of the eye-bot's controller.
const EyeBotLabel = "eyebot_circle_controller"

// The flight of ARGoS's example.
const (
	Altitude  = 3.0  // m above the take-off point
	Radius    = 2.0  // m, of the circle
	Waypoints = 20   // on the circle
	Tolerance = 0.01 // m: a set-point counts as reached
)

func init() {
	ci.Controllers.MustRegister(EyeBotLabel,
		"ARGoS's eyebot_circle example, eye-bot side: takes off 3 m, flies 2 m along +x, goes round a circle of 20 "+
			"way-points (one per step) about its take-off column, returns to the centre and lands; it keeps the last "+
			"counter heard over range and bearing. Devices: quadrotor_position, positioning, range_and_bearing sensor.",
		func() ci.Controller { return &Flyer{} })
}

// Phase is where the eye-bot is in its flight.
type Phase int

// The phases, in order.
const (
	Start Phase = iota
	TakeOff
	LeaveCenter
	Circle
	GoToCenter
	Land
)

var phaseNames = [...]string{"start", "take off", "leave the centre", "circle", "go to the centre", "land"}

func (p Phase) String() string {
	if p >= 0 && int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// Flyer is eyebot_circle_controller.
type Flyer struct {
	fly ci.QuadrotorPosition
	pos ci.Positioning
	rab ci.RangeAndBearingSensor

	phase    Phase
	center   ci.Vector3
	target   ci.Vector3
	waypoint int
	heard    uint32
	messages int
}

// Init takes the devices.
func (c *Flyer) Init(r ci.Robot, _ ci.Params) error {
	var err error
	if c.fly, err = ci.GetActuator[ci.QuadrotorPosition](r, ci.TagQuadrotorPosition); err != nil {
		return fmt.Errorf("eyebot_circle: %w", err)
	}
	if c.pos, err = ci.GetSensor[ci.Positioning](r, ci.TagPositioning); err != nil {
		return fmt.Errorf("eyebot_circle: %w", err)
	}
	if c.rab, err = ci.GetSensor[ci.RangeAndBearingSensor](r, ci.TagRangeAndBearing); err != nil {
		return fmt.Errorf("eyebot_circle: %w", err)
	}
	c.Reset()
	return nil
}

// Phase returns the current phase.
func (c *Flyer) Phase() Phase { return c.phase }

// Heard returns the last counter received and how many steps brought a
// message.
func (c *Flyer) Heard() (counter uint32, messages int) { return c.heard, c.messages }

func (c *Flyer) here() ci.Vector3 { return c.pos.Reading().Position }

func (c *Flyer) reached() bool { return c.target.Sub(c.here()).Length() < Tolerance }

func (c *Flyer) goTo(p ci.Vector3) {
	c.target = p
	c.fly.SetAbsolutePosition(p)
}

// ControlStep listens, then runs the phase's logic; a phase's first step
// sets its target, later steps check whether it was reached.
func (c *Flyer) ControlStep() {
	if p := c.rab.Packets(); len(p) > 0 && len(p[0].Data) >= 4 {
		c.heard = binary.LittleEndian.Uint32(p[0].Data)
		c.messages++
	}
	switch c.phase {
	case Start:
		c.phase = TakeOff
		c.center = c.here().Add(ci.Vector3{Z: Altitude})
		c.goTo(c.center)
	case TakeOff:
		if c.reached() {
			c.phase = LeaveCenter
			c.goTo(c.here().Add(ci.Vector3{X: Radius}))
		}
	case LeaveCenter:
		if c.reached() {
			c.phase, c.waypoint = Circle, 0
		}
	case Circle:
		if c.waypoint >= Waypoints {
			c.phase = GoToCenter
			c.goTo(c.center)
			return
		}
		a := 2 * math.Pi / Waypoints * float64(c.waypoint)
		c.goTo(c.center.Add(ci.Vector3{X: Radius * math.Cos(a), Y: Radius * math.Sin(a)}))
		c.waypoint++
	case GoToCenter:
		if c.reached() {
			c.phase = Land
			p := c.here()
			p.Z = 0
			c.goTo(p)
		}
	}
}

// Reset starts the flight over.
func (c *Flyer) Reset() { c.phase, c.heard, c.messages, c.waypoint = Start, 0, 0, 0 }

// Destroy has nothing to release.
func (c *Flyer) Destroy() error { return nil }
