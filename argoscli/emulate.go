package argoscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"
	"github.com/argosgo/argos/emulator/hil"
	"github.com/sirupsen/logrus"
)

// runEmulate implements argos emulate: one robot of an arena served as
// hardware to a robot binary in another process, in real time.
func runEmulate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos emulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("c", "", "experiment `file` with the arena")
	var id, board string
	fs.StringVar(&id, "robot", "", "`id` of the robot of the arena to emulate (default: the first one of the board's model placed explicitly)")
	fs.StringVar(&id, "i", "", "same as -robot")
	fs.StringVar(&board, "b", "epuck", "`board` whose firmware to emulate: epuck, epuck-bt (a pseudo-terminal) or footbot (Aseba over TCP)")
	fs.StringVar(&board, "board", "epuck", "same as -b")
	link := fs.String("link", "", "make this `path` a symbolic link to the pseudo-terminal")
	listen := fs.String("listen", "127.0.0.1:33333", "Aseba `address` to listen on (port 0: any free port)")
	duration := fs.Duration("duration", 0, "stop after this long (0: at SIGINT or SIGTERM)")
	traj := fs.String("trajectory", "", "write the robot's poses to `file` (TSV: tick, seconds, x, y, yaw in degrees)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: argos emulate -c FILE.argos [-robot ID] [-b BOARD] [-link PATH] [-listen ADDR]

Runs the experiment in real time with one robot's controller replaced by
its emulated firmware, served to a robot binary in another process:
advanced sercom on a pseudo-terminal (e-puck boards with a serial link) or
an Aseba network over TCP (foot-bot). It prints one line when ready,
	EMULATOR READY port=/dev/pts/5      (or aseba=127.0.0.1:33333)
and at the end a summary of the robot's path.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitOf(err)
	}
	fail := func(err error) int { fmt.Fprintf(stderr, "argos emulate: %v\n", err); return 1 }
	if *file == "" {
		return fail(errors.New("give the experiment: argos emulate -c FILE.argos -robot ID -b BOARD"))
	}
	b, err := boards.Lookup(board)
	if err != nil {
		return fail(err)
	}
	exp, err := config.Load(*file)
	if err != nil {
		return fail(err)
	}
	if id == "" {
		for _, n := range exp.Arena.Children {
			if n.Name == b.Model {
				id, _ = n.Attr("id")
				break
			}
		}
		if id == "" {
			return fail(fmt.Errorf("%s places no %s explicitly in its arena; add one, or name the robot with -robot ID", *file, b.Model))
		}
	}
	log := logrus.New()
	log.SetOutput(stderr)
	log.SetLevel(logrus.WarnLevel)
	emu, err := hil.Start(exp, id, b, hil.Options{Link: *link, Listen: *listen, Log: log})
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "EMULATOR READY %s\n", emu.Ready)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	<-ctx.Done()
	err = emu.Close()
	poses := emu.Robot().Trajectory()
	fmt.Fprintf(stdout, "EMULATOR DONE %s\n", emulator.Summary(poses))
	if *traj != "" {
		if werr := writeTrajectory(*traj, poses); werr != nil {
			return fail(werr)
		}
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

func writeTrajectory(path string, poses []emulator.Pose) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	fmt.Fprintln(f, "tick\tt_s\tx\ty\tyaw_deg")
	t0 := time.Time{}
	if len(poses) > 0 {
		t0 = poses[0].At
	}
	for _, p := range poses {
		fmt.Fprintf(f, "%d\t%.3f\t%.4f\t%.4f\t%.1f\n", p.Tick, p.At.Sub(t0).Seconds(), p.X, p.Y, p.Yaw*180/math.Pi)
	}
	return f.Close()
}
