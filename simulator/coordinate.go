package simulator

import (
	"fmt"

	"github.com/argosgo/argos/simulator/devices"
)

// coordState lists the actuators that implement devices.Coordinator
// (grippers), rebuilt when robots are added.
type coordState struct {
	robots int // len(s.robots) when the list was built
	list   []coordinated
}

type coordinated struct {
	r *robot
	c devices.Coordinator
}

// coordinate runs, on the coordinating goroutine between the act phase
// and physics, the actuators that change the engines' structure (a
// gripper's joint), robot after robot.
func (s *Simulator) coordinate() error {
	if s.coord.robots != len(s.robots) {
		s.coord.list = s.coord.list[:0]
		for _, r := range s.robots {
			for _, a := range r.actuators() {
				if c, ok := a.(devices.Coordinator); ok {
					s.coord.list = append(s.coord.list, coordinated{r, c})
				}
			}
		}
		s.coord.robots = len(s.robots)
	}
	for _, c := range s.coord.list {
		if c.r.removed {
			continue
		}
		if err := c.c.Coordinate(s.engines); err != nil {
			return fmt.Errorf("simulator: %s %q: %w", c.r.Model.Type, c.r.ID, err)
		}
	}
	return nil
}

// resetDevices brings the robot's devices that keep state back to their
// start (devices.Resetter).
func (r *robot) resetDevices() {
	for _, a := range r.actuators() {
		if d, ok := a.(devices.Resetter); ok {
			d.Reset()
		}
	}
	for _, sen := range r.sensors() {
		if d, ok := sen.(devices.Resetter); ok {
			d.Reset()
		}
	}
}
