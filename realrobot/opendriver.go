package realrobot

import (
	"fmt"

	"github.com/argosgo/argos/boards"
	"github.com/sirupsen/logrus"
)

// OpenDriver opens the driver of board b for devs without a controller
// (the robot command combines it with a link to a simulation before it
// makes the runtime with New).
func OpenDriver(b boards.Board, devs Devices, log logrus.FieldLogger) (Driver, error) {
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("realrobot: %w", err)
	}
	open, err := Protocols.Lookup(string(b.Protocol) + "/" + b.Model)
	if err != nil {
		open, err = Protocols.Lookup(string(b.Protocol))
	}
	if err != nil {
		return nil, fmt.Errorf("realrobot: board %q: %w", b.Name, err)
	}
	drv, err := open(b, devs, log)
	if err != nil {
		return nil, fmt.Errorf("realrobot: board %q: %w", b.Name, err)
	}
	return drv, nil
}
