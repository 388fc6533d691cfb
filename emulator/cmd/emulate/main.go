// Command emulate runs emulated robot hardware backed by the simulator,
// for hardware-in-the-loop runs of the robot binary (see the README's
// "Deploying to a robot"):
//
//	emulate -c experiment.argos -robot ep0 -b epuck [-link /tmp/ttyEPUCK]
//	emulate -c experiment.argos -robot fb0 -b footbot [-listen 127.0.0.1:33333]
//
// It runs the experiment in real time with the robot's controller
// replaced by the emulated firmware: advanced sercom on a pseudo-terminal
// for e-puck boards with a serial link, an Aseba network over TCP for the
// foot-bot. It prints one line to stdout when ready:
//
//	EMULATOR READY port=/dev/pts/5        (or aseba=127.0.0.1:33333)
//
// and runs until -duration has passed or SIGINT/SIGTERM; then it prints
// the robot's trajectory summary and, with -trajectory FILE, writes the
// poses (tick, seconds, x, y, yaw in degrees) as tab-separated values.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"
	emuaseba "github.com/argosgo/argos/emulator/aseba"
	"github.com/argosgo/argos/emulator/emulatortest"
	emuepuck "github.com/argosgo/argos/emulator/epuck"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/sirupsen/logrus"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
	_ "github.com/argosgo/argos/simulator/physics/kinematics2d"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("emulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("c", "", "experiment `file` with the arena")
	id := fs.String("robot", "", "`id` of the robot of the arena to emulate")
	board := fs.String("b", "epuck", "board whose firmware to emulate: epuck, epuck-bt (pty) or footbot (Aseba over TCP)")
	link := fs.String("link", "", "make this `path` a symbolic link to the pseudo-terminal")
	listen := fs.String("listen", "127.0.0.1:33333", "Aseba `address` to listen on")
	duration := fs.Duration("duration", 0, "stop after this long (0: until SIGINT or SIGTERM)")
	traj := fs.String("trajectory", "", "write the robot's poses to `file` (TSV)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintf(stderr, "emulate: %v\n", err); return 1 }
	if *file == "" || *id == "" {
		return fail(fmt.Errorf("give the experiment and the robot: emulate -c FILE -robot ID -b BOARD"))
	}
	b, err := boards.Lookup(*board)
	if err != nil {
		return fail(err)
	}
	exp, err := config.Load(*file)
	if err != nil {
		return fail(err)
	}
	log := logrus.New()
	log.SetOutput(stderr)
	sim, err := emulator.NewSim(exp, []string{*id}, nil, log)
	if err != nil {
		return fail(err)
	}
	robot := sim.Robot(*id)
	var ready string
	var closer func() error
	switch {
	case b.Protocol == boards.ProtocolSerCom:
		pty, err := emuepuck.ServePTY(emuepuck.NewFirmware(robot, b), *link)
		if err != nil {
			return fail(err)
		}
		ready, closer = "port="+pty.Path(), pty.Close
	case b.Protocol == boards.ProtocolAseba && b.Model == entity.FootBot.Type:
		n := emuaseba.NewNetwork(b, robot)
		addr, err := n.Listen(*listen)
		if err != nil {
			return fail(err)
		}
		ready, closer = "aseba="+addr, n.Close
	default:
		return fail(fmt.Errorf("board %q: only e-puck boards with a serial link and the foot-bot can be emulated in another process (the e-puck2's I²C bus is emulated in-process, see package emulator/epuck)", b.Name))
	}
	defer closer()
	sim.Start()
	fmt.Fprintf(stdout, "EMULATOR READY %s\n", ready)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	<-ctx.Done()
	err = sim.Close()
	poses := robot.Trajectory()
	fmt.Fprintf(stdout, "EMULATOR DONE %s\n", emulatortest.Summary(poses))
	if *traj != "" {
		f, ferr := os.Create(*traj)
		if ferr != nil {
			return fail(ferr)
		}
		fmt.Fprintln(f, "tick\tt_s\tx\ty\tyaw_deg")
		t0 := time.Time{}
		if len(poses) > 0 {
			t0 = poses[0].At
		}
		for _, p := range poses {
			fmt.Fprintf(f, "%d\t%.3f\t%.4f\t%.4f\t%.1f\n", p.Tick, p.At.Sub(t0).Seconds(), p.X, p.Y, p.Yaw*180/3.141592653589793)
		}
		if cerr := f.Close(); cerr != nil {
			return fail(cerr)
		}
	}
	if err != nil {
		return fail(err)
	}
	return 0
}
