package hil

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strings"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"
	"github.com/sirupsen/logrus"
)

// Check is one run of a robot binary against an emulated robot.
type Check struct {
	// Binary is the robot binary; Board the board it was built for.
	Binary string
	Board  boards.Board
	// File is the experiment file the binary reads (-c), Experiment its
	// content, ControllerID the controller entry it runs (-i).
	File         string
	Experiment   *config.Experiment
	ControllerID string
	// Seconds is how long the binary runs (its -ticks at the
	// experiment's rate); 0 means 5.
	Seconds float64
	// MinMove is how far the robot must get from its start, in metres,
	// or MinTurn how far it must turn, in radians, to count as driving;
	// zero values mean 2 cm and 30 degrees.
	MinMove, MinTurn float64
	// Log receives the simulator's log.
	Log logrus.FieldLogger
}

// Report is what a check saw.
type Report struct {
	// Robot is the emulated robot's id, Command the robot binary's
	// command line.
	Robot   string
	Command []string
	// Ticks and Failed come from the binary's ROBOT-STATS line.
	Ticks, Failed int
	// Moved is the farthest the robot got from its start (m), Turned the
	// largest change of heading (rad).
	Moved, Turned float64
	// Commands is the number of wheel commands the firmware received;
	// Left and Right the last one.
	Commands, Left, Right int
	// Trajectory is the emulated robot's path, one pose per tick.
	Trajectory []emulator.Pose
	// Stderr is the end of the binary's log.
	Stderr string
}

// String is the report in one line.
func (r Report) String() string {
	return fmt.Sprintf("robot %s: %d ticks (%d failed), moved %.3f m, turned %.0f°, %d wheel commands, last %d,%d; %s",
		r.Robot, r.Ticks, r.Failed, r.Moved, r.Turned*180/math.Pi, r.Commands, r.Left, r.Right, emulator.Summary(r.Trajectory))
}

// Run starts the emulation, runs the binary against it and checks that
// the binary exited 0 without faults (no more than one tick in 20
// failed), that the robot drove, and that the wheels were stopped at the
// end. The error says which of these failed.
func Run(ctx context.Context, c Check) (Report, error) {
	var rep Report
	if c.Seconds <= 0 {
		c.Seconds = 5
	}
	if c.MinMove <= 0 {
		c.MinMove = 0.02
	}
	if c.MinTurn <= 0 {
		c.MinTurn = math.Pi / 6
	}
	runner, err := Runner(c.Board)
	if err != nil {
		return rep, err
	}
	arena, id, err := Arena(c.Experiment, c.ControllerID, c.Board)
	if err != nil {
		return rep, err
	}
	rep.Robot = id
	emu, err := Start(arena, id, c.Board, Options{Log: c.Log})
	if err != nil {
		return rep, err
	}
	defer emu.Close()
	ticks := int(math.Round(c.Seconds * float64(c.Experiment.Framework.TicksPerSecond)))
	args := append([]string{c.Binary, "-c", c.File, "-i", c.ControllerID, "-b", c.Board.Name, "-ticks", fmt.Sprint(ticks), "-stats"}, emu.Args...)
	rep.Command = append(runner, args...)
	// The binary gets the run's length plus a generous start-up (qemu
	// is slow to load a large binary on a busy machine).
	run, cancel := context.WithTimeout(ctx, time.Duration(c.Seconds*float64(time.Second))+2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(run, rep.Command[0], rep.Command[1:]...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &tailWriter{buf: &stderr, max: 16 << 10}
	runErr := cmd.Run()
	rep.Stderr = lastLines(stderr.String(), 15)
	rep.Trajectory = emu.Robot().Trajectory()
	rep.Left, rep.Right, rep.Commands = emu.Wheels()
	rep.Moved, rep.Turned = motion(rep.Trajectory)
	if i := strings.Index(stdout.String(), "ROBOT-STATS"); i >= 0 {
		fmt.Sscanf(stdout.String()[i:], "ROBOT-STATS ticks=%d failed=%d", &rep.Ticks, &rep.Failed)
	}
	var errs []error
	switch {
	case ctx.Err() != nil:
		return rep, ctx.Err()
	case runErr != nil:
		errs = append(errs, fmt.Errorf("the robot binary failed: %v", runErr))
	case rep.Ticks == 0:
		errs = append(errs, errors.New("the robot binary printed no ROBOT-STATS line"))
	case rep.Failed > rep.Ticks/20:
		errs = append(errs, fmt.Errorf("%d of %d ticks failed: the link to the emulated hardware does not work", rep.Failed, rep.Ticks))
	}
	if rep.Moved < c.MinMove && rep.Turned < c.MinTurn {
		errs = append(errs, fmt.Errorf("the robot did not drive: it got %.3f m from its start and turned %.0f°; want %.3f m or %.0f° (does the controller set its wheels?)",
			rep.Moved, rep.Turned*180/math.Pi, c.MinMove, c.MinTurn*180/math.Pi))
	}
	if rep.Left != 0 || rep.Right != 0 {
		errs = append(errs, fmt.Errorf("the binary left the wheels running (last command %d, %d)", rep.Left, rep.Right))
	}
	if len(errs) > 0 {
		return rep, fmt.Errorf("hil: %s: %w\n%s", strings.Join(rep.Command, " "), errors.Join(errs...), rep.Stderr)
	}
	return rep, nil
}

// motion returns the farthest distance from the start and the largest
// change of heading along a trajectory.
func motion(traj []emulator.Pose) (moved, turned float64) {
	if len(traj) == 0 {
		return 0, 0
	}
	s := traj[0]
	for _, p := range traj {
		moved = math.Max(moved, math.Hypot(p.X-s.X, p.Y-s.Y))
		turned = math.Max(turned, math.Abs(math.Remainder(p.Yaw-s.Yaw, 2*math.Pi)))
	}
	return moved, turned
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// tailWriter keeps the last max bytes written to it (roughly: it drops
// the older half when full), so that a chatty binary cannot fill memory.
type tailWriter struct {
	buf *bytes.Buffer
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.max {
		keep := append([]byte(nil), w.buf.Bytes()[w.buf.Len()/2:]...)
		w.buf.Reset()
		w.buf.Write(keep)
	}
	if len(p) > w.max {
		w.buf.Write(p[len(p)-w.max:])
		return len(p), nil
	}
	return w.buf.Write(p)
}

var _ io.Writer = (*tailWriter)(nil)
