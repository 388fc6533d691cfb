package simulator

import (
	"context"
	"path/filepath"
)

// Driver is an optional interface of a Visualization that runs the loop
// itself, as ARGoS's Qt window does: an interactive viewer with play,
// pause, step and reset. Drive calls Step, Reset, MoveBody... from the
// goroutine that called it and returns when ctx is done (or the viewer
// decides the run is over).
type Driver interface {
	Drive(ctx context.Context, sim *Simulator) error
}

// Execute runs the experiment: through the first visualization that is a
// Driver, or else with Run. Either way the robots are stopped and the
// loop functions' PostExperiment runs once at the end.
func (s *Simulator) Execute(ctx context.Context) error {
	for _, v := range s.vis {
		if d, ok := v.(Driver); ok {
			err := d.Drive(ctx, s)
			s.stopRobots()
			if s.loop != nil {
				s.loop.PostExperiment()
			}
			return err
		}
	}
	return s.Run(ctx)
}

// AddVisualization attaches a visualization built outside the experiment
// file (a recorder the command line asks for: run folder, frames,
// progress) and draws the current state into it once. Close closes it
// with the others.
func (s *Simulator) AddVisualization(v Visualization) error {
	if s.closed {
		return errStopped
	}
	s.vis = append(s.vis, v)
	return v.Draw(s)
}

// Visualizations returns the visualizations, those of the experiment file
// first.
func (s *Simulator) Visualizations() []Visualization { return s.vis }

// OutputPath returns where a recorder writes a file its element names:
// relative names go in Options.OutputDir (the run folder of argos --out).
func (s *Simulator) OutputPath(name string) string {
	if s.outDir == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(s.outDir, name)
}

// Device is one device of a robot, as its controller's <sensors> or
// <actuators> declare it.
type Device struct {
	Tag      string
	Actuator bool
	// Impl is the device; a viewer asks it for devices.Inspector.
	Impl any
}

// RobotDevices returns robot i's devices, sensors first, in the order of
// the experiment file.
func (s *Simulator) RobotDevices(i int) []Device {
	r := s.robots[i]
	c := r.entry
	if c == nil {
		return nil
	}
	var out []Device
	for _, d := range c.Sensors {
		if dev, ok := r.device(d.Tag, false); ok {
			out = append(out, Device{Tag: d.Tag, Impl: dev})
		}
	}
	for _, d := range c.Actuators {
		if dev, ok := r.device(d.Tag, true); ok {
			out = append(out, Device{Tag: d.Tag, Actuator: true, Impl: dev})
		}
	}
	return out
}

// RobotController returns the id (in <controllers>) and the label of the
// controller of robot i, and whether the robot is still in the arena.
func (s *Simulator) RobotController(i int) (id, label string, active bool) {
	r := s.robots[i]
	label = ""
	if r.entry != nil {
		label = r.entry.Label
	}
	return s.ctrlID(r), label, !r.removed
}
