package udpmsg

import (
	"errors"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
)

// Driver adds the messaging devices of a link to a robot's driver: the
// messages received come with Sense, those sent leave with Act.
type Driver struct {
	realrobot.Driver
	link *Link
}

// Wrap adds link's messaging to drv.
func Wrap(drv realrobot.Driver, link *Link) *Driver { return &Driver{Driver: drv, link: link} }

// Sense reads the robot, then takes the messages that arrived.
func (d *Driver) Sense() error {
	err := d.Driver.Sense()
	d.link.Receive()
	return err
}

// Act drives the robot, then sends the tick's messages. A superseded
// Act sends none of them: the tick is abandoned.
func (d *Driver) Act() error {
	err := d.Driver.Act()
	if errors.Is(err, realrobot.ErrSuperseded) {
		return err
	}
	return errors.Join(err, d.link.Flush())
}

// Sensor returns the link for "messaging".
func (d *Driver) Sensor(tag string) (any, bool) {
	if tag == ci.TagMessaging {
		return d.link, true
	}
	return d.Driver.Sensor(tag)
}

// Actuator returns the link for "messaging".
func (d *Driver) Actuator(tag string) (any, bool) {
	if tag == ci.TagMessaging {
		return d.link, true
	}
	return d.Driver.Actuator(tag)
}

// Close closes the robot's driver and the link.
func (d *Driver) Close() error { return errors.Join(d.Driver.Close(), d.link.Close()) }
