package sensor_probe

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Label is the label under which the controller is registered.
const Label = "sensor_probe_controller"

const description = "Sensor probe: reads sensors and acts on nothing. At every control step it keeps every reading of the sensors the robot " +
	"declares (epuck_proximity, footbot_proximity, eyebot_proximity, proximity, footbot_light, epuck_light, eyebot_light, light, " +
	"footbot_motor_ground, footbot_base_ground, epuck_ground, ground, range_and_bearing), each with its sensor, index, value and angle, for " +
	"loop functions such as pose_sweep_loop_functions to tabulate. Param: send (optional, bytes in decimal like \"1,2,3\") broadcasts those " +
	"bytes through the range_and_bearing actuator at every step. Declared with no sensors it is an idle robot."

func init() {
	ci.Controllers.MustRegister(Label, description, func() ci.Controller { return New() })
}

// The sensors the probe reads, in the order it lists their readings.
var (
	proximityTags = []string{ci.TagEPuckProximity, ci.TagFootBotProximity, ci.TagEyeBotProximity, ci.TagProximity}
	lightTags     = []string{ci.TagFootBotLight, ci.TagEPuckLight, ci.TagEyeBotLight, ci.TagLight}
	groundTags    = []string{ci.TagFootBotMotorGround, ci.TagFootBotBaseGround, ci.TagEPuckGround, ci.TagGround}
)

// Reading is one reading the probe kept: the sensor's tag, the reading's
// index in the sensor's list, its value, and its angle in radians
// (counter-clockwise from the robot's front; for a ground sensor the
// direction of its offset). For a range-and-bearing packet Value is the
// range in centimetres and Angle the horizontal bearing.
type Reading struct {
	Sensor string
	Index  int
	Value  float64
	Angle  float64
}

// Controller is the sensor probe. Make one with New; it is ready after
// Init.
type Controller struct {
	proximity []tagged[ci.Proximity]
	light     []tagged[ci.Light]
	ground    []tagged[ci.Ground]
	rab       ci.RangeAndBearingSensor
	emitter   ci.RangeAndBearingActuator
	send      []byte

	steps    int
	readings []Reading
	packets  []ci.RABPacket
	data     []byte // the packets' payloads
}

type tagged[T any] struct {
	tag string
	dev T
}

var _ ci.Controller = (*Controller)(nil)

// New returns a probe that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes every sensor of the list the robot declares, and the
// range_and_bearing actuator when send is given.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	*c = Controller{}
	var err error
	if c.proximity, err = declared[ci.Proximity](r, proximityTags); err != nil {
		return err
	}
	if c.light, err = declared[ci.Light](r, lightTags); err != nil {
		return err
	}
	if c.ground, err = declared[ci.Ground](r, groundTags); err != nil {
		return err
	}
	if _, ok := r.Sensor(ci.TagRangeAndBearing); ok {
		if c.rab, err = ci.GetSensor[ci.RangeAndBearingSensor](r, ci.TagRangeAndBearing); err != nil {
			return err
		}
	}
	if s, ok := p.Lookup("send"); ok {
		if c.send, err = parseBytes(s); err != nil {
			return fmt.Errorf("sensor_probe: %s: send=%q: %v; write bytes in decimal separated by commas, like send=\"1,2,3\"", p.Location(), s, err)
		}
		if c.emitter, err = ci.GetActuator[ci.RangeAndBearingActuator](r, ci.TagRangeAndBearing); err != nil {
			return fmt.Errorf("sensor_probe: %s: send needs the range_and_bearing actuator: %w", p.Location(), err)
		}
		if err := c.sendOnce(); err != nil {
			return fmt.Errorf("sensor_probe: %s: send=%q: %v", p.Location(), s, err)
		}
	}
	return nil
}

// declared returns the devices of tags that r declares, as T.
func declared[T any](r ci.Robot, tags []string) ([]tagged[T], error) {
	var out []tagged[T]
	for _, tag := range tags {
		if _, ok := r.Sensor(tag); !ok {
			continue
		}
		d, err := ci.GetSensor[T](r, tag)
		if err != nil {
			return nil, err
		}
		out = append(out, tagged[T]{tag, d})
	}
	return out, nil
}

func parseBytes(s string) ([]byte, error) {
	var out []byte
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseUint(f, 10, 8)
		if err != nil {
			return nil, fmt.Errorf("%q is not a byte (0 to 255)", f)
		}
		out = append(out, byte(v))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no byte")
	}
	return out, nil
}

// sendOnce hands the bytes to the actuator, turning its panic on a
// payload too small into an error.
func (c *Controller) sendOnce() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v; send at most rab_data_size bytes", r)
		}
	}()
	c.emitter.SetData(c.send)
	return nil
}

// ControlStep empties the list of readings and fills it with every
// reading of every declared sensor; it sends the bytes of send, if any.
func (c *Controller) ControlStep() {
	c.steps++
	c.readings = c.readings[:0]
	for _, s := range c.proximity {
		for i, rd := range s.dev.Readings() {
			c.readings = append(c.readings, Reading{Sensor: s.tag, Index: i, Value: rd.Value, Angle: rd.Angle})
		}
	}
	for _, s := range c.light {
		for i, rd := range s.dev.Readings() {
			c.readings = append(c.readings, Reading{Sensor: s.tag, Index: i, Value: rd.Value, Angle: rd.Angle})
		}
	}
	for _, s := range c.ground {
		for i, rd := range s.dev.Readings() {
			c.readings = append(c.readings, Reading{Sensor: s.tag, Index: i, Value: rd.Value, Angle: math.Atan2(rd.Offset.Y, rd.Offset.X)})
		}
	}
	c.packets, c.data = c.packets[:0], c.data[:0]
	if c.rab != nil {
		for i, p := range c.rab.Packets() {
			c.readings = append(c.readings, Reading{Sensor: ci.TagRangeAndBearing, Index: i, Value: p.Range, Angle: p.HorizontalBearing})
			c.data = append(c.data, p.Data...)
			c.packets = append(c.packets, p)
		}
		// the packets keep copies of the payloads, which the sensor
		// overwrites at its next update
		at := 0
		for i := range c.packets {
			n := len(c.packets[i].Data)
			c.packets[i].Data = c.data[at : at+n : at+n]
			at += n
		}
	}
	if c.emitter != nil {
		c.emitter.SetData(c.send)
	}
}

// Readings returns what the last control step read, in the order of the
// package comment; the slice is overwritten at the next step.
func (c *Controller) Readings() []Reading { return c.readings }

// Packets returns the range-and-bearing packets of the last control step,
// in the sensor's order; they are overwritten at the next step.
func (c *Controller) Packets() []ci.RABPacket { return c.packets }

// Steps returns how many control steps ran since Init or Reset.
func (c *Controller) Steps() int { return c.steps }

// Reset forgets the readings and the count of steps.
func (c *Controller) Reset() {
	c.steps = 0
	c.readings, c.packets, c.data = c.readings[:0], c.packets[:0], c.data[:0]
}

// Destroy does nothing.
func (c *Controller) Destroy() error { return nil }
