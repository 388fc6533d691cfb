package eyebotcircle

import (
	"encoding/binary"
	"fmt"

	"github.com/argosgo/argos/ci"
)

// FootBotLabel is ARGoS's label of the foot-bot's controller.
const FootBotLabel = "footbot_circle_controller"

func init() {
	ci.Controllers.MustRegister(FootBotLabel,
		"ARGoS's eyebot_circle example, foot-bot side: every step it broadcasts a counter (4 bytes, little-endian, "+
			"at the start of its range-and-bearing payload) and counts up. Devices: range_and_bearing actuator.",
		func() ci.Controller { return &Sender{} })
}

// Sender is footbot_circle_controller.
type Sender struct {
	rab     ci.RangeAndBearingActuator
	counter uint32
	buf     [4]byte
}

// Init takes the range-and-bearing actuator.
func (c *Sender) Init(r ci.Robot, _ ci.Params) error {
	var err error
	if c.rab, err = ci.GetActuator[ci.RangeAndBearingActuator](r, ci.TagRangeAndBearing); err != nil {
		return fmt.Errorf("footbot_circle: %w", err)
	}
	c.counter = 0
	return nil
}

// ControlStep sends the counter and increments it.
func (c *Sender) ControlStep() {
	binary.LittleEndian.PutUint32(c.buf[:], c.counter)
	for i, b := range c.buf {
		c.rab.SetByte(i, b)
	}
	c.counter++
}

// Counter returns the next value to send.
func (c *Sender) Counter() uint32 { return c.counter }

// Reset starts counting from 0 again.
func (c *Sender) Reset() { c.counter = 0 }

// Destroy has nothing to release.
func (c *Sender) Destroy() error { return nil }
