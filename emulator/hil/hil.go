// Package hil runs a robot binary against emulated hardware backed by the
// simulator (hardware in the loop without the hardware): the binary,
// natively or an ARM build under qemu-user, talks its robot's protocol to
// the emulated firmware of a robot of a simulated arena, so that the
// closed loop through sensors, controller and wheels is real.
//
// [Start] serves one emulated robot (argos emulate); [Run] checks a robot
// binary against it for a few seconds (argos robot check, a project's
// make ci): the binary must exit cleanly, its ticks must get through, the
// robot must drive and its wheels must be stopped at the end.
//
// Two links can be served to another process: the e-puck's advanced
// sercom on a pseudo-terminal (boards with a serial link) and the
// foot-bot's Aseba network over TCP. The e-puck2's I²C bus is emulated
// in-process only (package emulator/epuck), so Pi-puck binaries are
// built but not run here.
package hil

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator"
	emuaseba "github.com/argosgo/argos/emulator/aseba"
	emuepuck "github.com/argosgo/argos/emulator/epuck"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/sirupsen/logrus"
)

// Options say how to serve an emulated robot.
type Options struct {
	// Link, for serial boards, is a path made a symbolic link to the
	// pseudo-terminal ("" for none).
	Link string
	// Listen, for Aseba boards, is the address to serve the network on;
	// "" picks a free port on 127.0.0.1.
	Listen string
	// Log receives the simulator's log; nil keeps warnings on stderr.
	Log logrus.FieldLogger
}

// Emulation is one robot of a simulated arena served as hardware.
type Emulation struct {
	// Ready says where the emulation listens: "port=/dev/pts/3" or
	// "aseba=127.0.0.1:40201".
	Ready string
	// Args are the robot binary's flags that point it at the emulation:
	// -port or -aseba, and -robot-id.
	Args []string

	sim    *emulator.Sim
	robot  *emulator.Robot
	fw     *emuepuck.Firmware
	net    *emuaseba.Network
	closer func() error
}

// Emulatable reports whether board b can be emulated for a robot binary
// in another process, and if not, why.
func Emulatable(b boards.Board) error {
	switch {
	case b.Protocol == boards.ProtocolSerCom:
		return nil
	case b.Protocol == boards.ProtocolAseba && b.Model == entity.FootBot.Type:
		return nil
	case b.Protocol == boards.ProtocolAseba:
		return fmt.Errorf("hil: board %q: the %s's Aseba network is not emulated (only the foot-bot's is)", b.Name, b.Model)
	default:
		return fmt.Errorf("hil: board %q: its %s link is emulated in-process only, not for another process; only e-puck boards with a serial link and the foot-bot can be", b.Name, b.Protocol)
	}
}

// Start builds the experiment with robot id emulated (its controller is
// replaced by the emulator's bridge; the experiment is modified), serves
// its firmware for board b and starts the simulator in real time.
func Start(exp *config.Experiment, id string, b boards.Board, opt Options) (*Emulation, error) {
	if err := Emulatable(b); err != nil {
		return nil, err
	}
	sim, err := emulator.NewSim(exp, []string{id}, nil, opt.Log)
	if err != nil {
		return nil, err
	}
	e := &Emulation{sim: sim, robot: sim.Robot(id)}
	if b.Protocol == boards.ProtocolSerCom {
		e.fw = emuepuck.NewFirmware(e.robot, b)
		pty, err := emuepuck.ServePTY(e.fw, opt.Link)
		if err != nil {
			sim.Close()
			return nil, err
		}
		port := pty.Path()
		e.Ready, e.Args, e.closer = "port="+port, []string{"-port", port}, pty.Close
	} else {
		e.net = emuaseba.NewNetwork(b, e.robot)
		listen := opt.Listen
		if listen == "" {
			listen = "127.0.0.1:0"
		}
		addr, err := e.net.Listen(listen)
		if err != nil {
			sim.Close()
			return nil, err
		}
		e.Ready, e.Args, e.closer = "aseba="+addr, []string{"-aseba", addr}, e.net.Close
	}
	e.Args = append(e.Args, "-robot-id", id)
	sim.Start()
	return e, nil
}

// Robot returns the emulated robot (its trajectory, its readings).
func (e *Emulation) Robot() *emulator.Robot { return e.robot }

// Firmware returns the emulated e-puck firmware of a serial board (its
// wheel commands, fault injection), nil for an Aseba board.
func (e *Emulation) Firmware() *emuepuck.Firmware { return e.fw }

// Network returns the emulated Aseba network of an Aseba board, nil for
// a serial one.
func (e *Emulation) Network() *emuaseba.Network { return e.net }

// Wheels returns the last wheel command the firmware received, in the
// firmware's raw units, and how many it received.
func (e *Emulation) Wheels() (left, right int, n int) {
	if e.fw != nil {
		c := e.fw.Commands()
		l, r := e.fw.Speed()
		return int(l), int(r), len(c)
	}
	c := e.net.Commands()
	if len(c) == 0 {
		return 0, 0, 0
	}
	last := c[len(c)-1]
	return int(last.Left), int(last.Right), len(c)
}

// Close stops serving and stops the simulator.
func (e *Emulation) Close() error {
	err := e.closer()
	if serr := e.sim.Close(); err == nil {
		err = serr
	}
	return err
}

// checkArenas are the arenas robot binaries are checked in when the
// experiment places no robot of the board's model explicitly: the robot
// at the origin heading (almost) for a wall in a walled square.
var checkArenas = map[string]struct{ id, xml string }{
	entity.EPuck.Type: {"ep0", `
    <box id="wall_front" size="0.1,1.2,0.2" movable="false"><body position="0.3,0,0" orientation="0,0,0" /></box>
    <box id="wall_back" size="0.1,1.2,0.2" movable="false"><body position="-0.6,0,0" orientation="0,0,0" /></box>
    <box id="wall_left" size="1.2,0.1,0.2" movable="false"><body position="0,0.6,0" orientation="0,0,0" /></box>
    <box id="wall_right" size="1.2,0.1,0.2" movable="false"><body position="0,-0.6,0" orientation="0,0,0" /></box>
    <e-puck id="ep0"><body position="-0.1,0,0" orientation="10,0,0" /><controller config="CTRL" /></e-puck>`},
	entity.FootBot.Type: {"fb0", `
    <box id="wall_front" size="0.1,2,0.5" movable="false"><body position="0.5,0,0" orientation="0,0,0" /></box>
    <box id="wall_back" size="0.1,2,0.5" movable="false"><body position="-1,0,0" orientation="0,0,0" /></box>
    <box id="wall_left" size="2,0.1,0.5" movable="false"><body position="0,1,0" orientation="0,0,0" /></box>
    <box id="wall_right" size="2,0.1,0.5" movable="false"><body position="0,-1,0" orientation="0,0,0" /></box>
    <foot-bot id="fb0"><body position="0,0,0" orientation="10,0,0" /><controller config="CTRL" /></foot-bot>`},
}

// Arena returns the experiment to emulate controller entry ctrlID of exp
// for board b in, and the id of the robot to emulate: exp itself when its
// arena places a robot of the board's model with that controller
// explicitly, otherwise a walled square with one such robot heading for
// a wall (the emulated robot's controller is the bridge, so only the
// arena matters).
func Arena(exp *config.Experiment, ctrlID string, b boards.Board) (*config.Experiment, string, error) {
	for _, n := range exp.Arena.Children {
		if n.Name != b.Model {
			continue
		}
		if c := n.FirstChild("controller"); c != nil {
			if v, _ := c.Attr("config"); v == ctrlID {
				id, _ := n.Attr("id")
				return exp, id, nil
			}
		}
	}
	a, ok := checkArenas[b.Model]
	if !ok {
		return nil, "", fmt.Errorf("hil: no check arena for the %s", b.Model)
	}
	xml := fmt.Sprintf(`<?xml version="1.0" ?>
<argos-configuration>
  <framework>
    <experiment length="0" ticks_per_second="%d" random_seed="%d" />
  </framework>
  <controllers><%s id="CTRL" /></controllers>
  <arena size="2.4, 2.4, 1" center="0,0,0.5">%s
  </arena>
  <physics_engines><dynamics2d id="dyn2d" /></physics_engines>
  <media />
</argos-configuration>
`, exp.Framework.TicksPerSecond, max(exp.Framework.RandomSeed, 1), emulator.BridgeLabel, a.xml)
	out, err := config.Parse(exp.File+" (check arena)", []byte(xml))
	if err != nil {
		return nil, "", fmt.Errorf("hil: the check arena: %w", err)
	}
	return out, a.id, nil
}

// Runner returns the command prefix that runs a binary built for board b
// on this machine: nothing for the host's own target, the board's
// qemu-user command otherwise.
func Runner(b boards.Board) ([]string, error) {
	t := b.Target
	if t.GOARCH == "" || t.GOOS == runtime.GOOS && t.GOARCH == runtime.GOARCH {
		return nil, nil // the host's own build
	}
	if t.QEMU == "" {
		return nil, fmt.Errorf("hil: board %q builds for %s/%s and names no qemu-user command to run it here", b.Name, t.GOOS, t.GOARCH)
	}
	cmd := strings.Fields(t.QEMU)
	if _, err := exec.LookPath(cmd[0]); err != nil {
		return nil, fmt.Errorf("hil: board %q: its binary runs here under %s, which is not installed (Debian and Ubuntu: apt-get install qemu-user-static)", b.Name, cmd[0])
	}
	return cmd, nil
}
