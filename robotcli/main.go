// Package robotcli is the robot runtime command as a library, so that a
// project's cmd/robot/main.go is a few lines:
//
//	package main
//
//	import (
//		"github.com/argosgo/argos/robotcli"
//
//		_ "example.com/mybots/controllers/wander"
//	)
//
//	func main() { robotcli.Main() }
//
// It links the drivers of every robot model and the controllers its main
// imports, and no simulator, emulator or physics code. The command reads the same
// .argos file as the simulator, picks the controller by id, opens the
// devices its <sensors> and <actuators> name on the robot's board, and
// runs sense -> ControlStep -> act at the experiment's ticks_per_second.
//
//	robot -c experiment.argos -i CONTROLLER_ID [-b BOARD] [flags]
//
// Flags:
//
//	-c FILE          the experiment file
//	-i ID            the id of the controller entry under <controllers>
//	-b BOARD         the board (boards.Names; the build's default when set)
//	-robot-id NAME   the robot's id for the controller (default: the host name)
//	-port PATH       serial port, replacing the board's (e-puck, Aseba over serial)
//	-baud N          baud rate, replacing the board's
//	-bus NAME        I²C bus (periph name), replacing the board's (Pi-puck)
//	-aseba ADDR      Aseba switch host:port or serial port, replacing the board's
//	-sim-addr ADDR   attach to a simulation's <remote> at host:port: with -b sim the
//	                 controller drives the simulated robot -robot-id (docs/remote.md)
//	-sim-token T     the experiment's token (default: $ARGOS_REMOTE_TOKEN)
//	                 With a robot's board, -sim-addr makes the robot a real robot of a
//	                 mixed experiment: its sensors are merged with the virtual readings
//	                 of its body in the simulation as <remote merge="..."> says, and the
//	                 devices its board lacks (messaging) go through the simulation.
//	-ticks N         stop after N ticks (default: the experiment's length; 0 runs until stopped)
//	-stats           print a ROBOT-STATS line with the tick timings at the end
//	-q WHAT          list "boards", "controllers" or "protocols" and exit
//	-l FILE          log to FILE instead of stderr
//	-log-level L     debug, info (default), warn, error
//
// On a terminating signal (SIGINT, SIGTERM, SIGHUP as when the ssh
// session that started it closes, SIGQUIT) the robot finishes its tick,
// stops its wheels, calls the controller's Destroy and exits 0; nothing
// about the end of the run is logged before the wheels are stopped. A
// log output that breaks (the reader of a pipe such as "| tee log" is
// gone) is ignored: SIGPIPE is caught and failed log writes are dropped,
// so a dead pipe cannot kill the runtime with its wheels turning.
// Exit status: 0 success, 1
// bad set-up (file, board, devices that do not answer at start), 2 the
// controller panicked, 3 the hardware stopped answering, 4 a tick
// stalled, 5 shutting down failed (the wheels could not be stopped, or
// Destroy failed). In every failure the wheels are commanded to zero
// first.
package robotcli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/attach"
	"github.com/argosgo/argos/realrobot/udpmsg"
	"github.com/argosgo/argos/wire/simlink"
	"github.com/sirupsen/logrus"

	_ "github.com/argosgo/argos/realrobot/epuck"
	_ "github.com/argosgo/argos/realrobot/eyebot"
	_ "github.com/argosgo/argos/realrobot/footbot"
)

// defaultBoard is the board of a robot build: argos robot build sets it
// with -ldflags "-X github.com/argosgo/argos/robotcli.defaultBoard=NAME".
var defaultBoard = ""

// DefaultBoardSymbol is the linker symbol of the build's default board,
// for -ldflags -X.
const DefaultBoardSymbol = "github.com/argosgo/argos/robotcli.defaultBoard"

// Exit statuses.
const (
	exitOK       = 0
	exitSetup    = 1
	exitPanic    = 2
	exitLost     = 3
	exitStalled  = 4
	exitShutdown = 5
)

// Main runs the robot command with the process's arguments and exits
// with its status.
func Main() {
	start := time.Now()
	os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr, start))
}

type flags struct {
	file, id, board, robotID, port, bus, aseba, query, logFile, logLevel string
	simAddr, simToken                                                    string
	baud, ticks                                                          int
	stats                                                                bool
	ticksSet                                                             bool
}

func parse(args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet("robot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.file, "c", "", "experiment `file` (.argos)")
	fs.StringVar(&f.id, "i", "", "`id` of the controller entry to run")
	fs.StringVar(&f.board, "b", defaultBoard, "`board`: "+strings.Join(boards.Names(), ", ")+", or "+SimBoard+" (attach to a simulation)")
	fs.StringVar(&f.robotID, "robot-id", "", "robot id the controller sees (default: the host name)")
	fs.StringVar(&f.port, "port", "", "serial `port`, replacing the board's")
	fs.IntVar(&f.baud, "baud", 0, "baud rate, replacing the board's")
	fs.StringVar(&f.bus, "bus", "", "I²C bus `name`, replacing the board's")
	fs.StringVar(&f.aseba, "aseba", "", "Aseba switch host:port (or serial port), replacing the board's")
	fs.StringVar(&f.simAddr, "sim-addr", "", "attach to the simulation's <remote> at `host:port` (with -b sim)")
	fs.StringVar(&f.simToken, "sim-token", "", "the simulation's `token` (default: $ARGOS_REMOTE_TOKEN)")
	fs.IntVar(&f.ticks, "ticks", 0, "stop after `N` ticks (default: the experiment's length)")
	fs.BoolVar(&f.stats, "stats", false, "print a ROBOT-STATS line with tick timings at the end")
	fs.StringVar(&f.query, "q", "", "list boards, controllers or protocols, and exit")
	fs.StringVar(&f.logFile, "l", "", "write the log to `file`")
	fs.StringVar(&f.logLevel, "log-level", "info", "log `level`: debug, info, warn, error")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: robot -c experiment.argos -i CONTROLLER_ID [-b BOARD] [flags]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	fs.Visit(func(fl *flag.Flag) { f.ticksSet = f.ticksSet || fl.Name == "ticks" })
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q; flags go before it, as -c FILE -i ID", fs.Arg(0))
	}
	if f.ticks < 0 {
		return nil, fmt.Errorf("-ticks %d: give a number of ticks, or 0 to run until stopped", f.ticks)
	}
	return f, nil
}

// Signals returns the signals that end a run cleanly: the wheels are
// stopped and the controller destroyed before the command exits 0.
func Signals() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}
}

// Run runs the robot command with args (without the program name) and
// returns the exit status; start is when the process started, for the
// start-up figure of -stats. While it runs, the Signals end the run
// cleanly and SIGPIPE is caught (a write to a closed pipe then fails
// instead of killing the process); writes to stdout and stderr that fail
// are dropped.
func Run(args []string, stdout, stderr io.Writer, start time.Time) (code int) {
	// Go kills a program that writes to a broken pipe on fd 1 or 2 unless
	// SIGPIPE is notified or ignored (os/signal): a closed "| tee" must
	// not stop the runtime before the wheels are.
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE)
	defer signal.Stop(pipe)
	stdout, stderr = &dropErrors{w: stdout}, &dropErrors{w: stderr}
	// The terminating signals are caught from the start: one that comes
	// during set-up ends the run before its first tick.
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, Signals()...)
	defer signal.Stop(sigs)
	go func() {
		select {
		case s := <-sigs:
			cancel(fmt.Errorf("%v", s))
		case <-ctx.Done():
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "robot: internal error: %v\n%s\nThis is a bug in the robot runtime; please report it.\n", r, debug.Stack())
			code = exitPanic
		}
	}()
	if err := errors.Join(ci.Controllers.Err(), realrobot.Protocols.Err()); err != nil {
		fmt.Fprintf(stderr, "robot: %v\n", err)
		return exitSetup
	}
	f, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "robot: %v\n", err)
		return exitSetup
	}
	if f.query != "" {
		return query(f.query, stdout, stderr)
	}
	log := logrus.New()
	log.SetOutput(stderr)
	log.SetFormatter(&logrus.TextFormatter{FullTimestamp: true, TimestampFormat: "15:04:05.000"})
	if lvl, err := logrus.ParseLevel(f.logLevel); err != nil {
		fmt.Fprintf(stderr, "robot: -log-level %q: use debug, info, warn or error\n", f.logLevel)
		return exitSetup
	} else {
		log.SetLevel(lvl)
	}
	if f.logFile != "" {
		lf, err := os.OpenFile(f.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintf(stderr, "robot: cannot write the log: %v\n", err)
			return exitSetup
		}
		defer lf.Close()
		log.SetOutput(&dropErrors{w: lf})
	}

	st := newStats(start)
	rt, opt, err := setup(f, log, st.add)
	if err != nil {
		if f.logFile != "" {
			log.Error(err)
		}
		fmt.Fprintf(stderr, "robot: %v\n", err)
		return exitSetup
	}
	if l, ok := rt.Driver().(interface {
		Done() <-chan struct{}
		Err() error
	}); ok {
		// A simulation that ends ends the run, without an error.
		go func() {
			select {
			case <-l.Done():
				cancel(l.Err())
			case <-ctx.Done():
			}
		}()
	}

	log.Infof("running controller %q at %d ticks/s on board %q (set-up took %v)", f.id, opt.TicksPerSecond, f.board, time.Since(start).Round(time.Millisecond))
	runErr := rt.Run(ctx)
	closeErr := rt.Close()
	if f.stats {
		fmt.Fprintln(stdout, st.line())
	}
	code = exitOK
	switch {
	case errors.Is(runErr, realrobot.ErrStalled):
		code = exitStalled
	case errors.Is(runErr, realrobot.ErrControllerPanic):
		code = exitPanic
	case errors.Is(runErr, realrobot.ErrDeviceLost):
		code = exitLost
	case runErr != nil || closeErr != nil:
		code = exitShutdown
	}
	if err := errors.Join(runErr, closeErr); err != nil {
		if f.logFile != "" {
			log.Error(err)
		}
		fmt.Fprintf(stderr, "robot: %v\n", err)
	} else {
		log.Infof("stopped after %d ticks", rt.Ticks())
	}
	return code
}

// dropErrors passes writes to w and drops its errors: a log output that
// fails (a closed pipe, a full disk) must not stop the runtime, and
// logrus would otherwise report each failure on stderr again.
type dropErrors struct {
	mu sync.Mutex
	w  io.Writer
}

func (d *dropErrors) Write(p []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.w.Write(p)
	return len(p), nil
}

// setup loads the experiment and opens the runtime.
func setup(f *flags, log *logrus.Logger, onTick func(realrobot.TickStats)) (*realrobot.Runtime, realrobot.Options, error) {
	var opt realrobot.Options
	if f.file == "" || f.id == "" {
		return nil, opt, errors.New("give the experiment and the controller: robot -c FILE.argos -i CONTROLLER_ID")
	}
	if f.board == "" {
		return nil, opt, fmt.Errorf("this build has no default board; choose one with -b: %s", strings.Join(boards.Names(), ", "))
	}
	exp, err := config.Load(f.file)
	if err != nil {
		return nil, opt, err
	}
	for _, w := range exp.Warnings {
		log.Warn(w)
	}
	c := exp.FindController(f.id)
	if c == nil {
		var ids []string
		for _, c := range exp.Controllers {
			ids = append(ids, c.ID)
		}
		return nil, opt, fmt.Errorf("%s has no controller with id %q; its ids are: %s", f.file, f.id, strings.Join(ids, ", "))
	}
	if f.board == SimBoard {
		return setupSim(f, exp, c, log, onTick)
	}
	b, err := boards.Lookup(f.board)
	if err != nil {
		return nil, opt, err
	}
	if err := override(&b, f); err != nil {
		return nil, opt, err
	}
	if f.simAddr != "" {
		return setupMixed(f, exp, c, b, log, onTick)
	}
	opt = realrobot.Options{
		RobotID:        f.robotID,
		Seed:           exp.Framework.RandomSeed,
		TicksPerSecond: exp.Framework.TicksPerSecond,
		Ticks:          exp.Framework.Ticks(),
		Logger:         log,
		OnTick:         onTick,
	}
	if f.ticksSet {
		opt.Ticks = f.ticks
	}
	if opt.RobotID == "" {
		opt.RobotID, _ = os.Hostname()
	}
	if opt.Seed == 0 {
		opt.Seed = uint64(time.Now().UnixNano())
		log.Infof("random_seed is 0: using %d", opt.Seed)
	}
	if n := messagingNode(c); n != nil {
		rt, err := openWithMessaging(b, c, n, opt, log)
		return rt, opt, err
	}
	rt, err := realrobot.Open(b, c, opt)
	return rt, opt, err
}

// messagingNode returns the <messaging> element of controller entry c
// (the sensor's, else the actuator's), or nil.
func messagingNode(c *config.Controller) *config.Node {
	for _, d := range append(slices.Clone(c.Sensors), c.Actuators...) {
		if d.Tag == ci.TagMessaging {
			return d.Node
		}
	}
	return nil
}

// openWithMessaging opens board b for c's devices other than messaging,
// and carries its messages over UDP (realrobot/udpmsg).
func openWithMessaging(b boards.Board, c *config.Controller, n *config.Node, opt realrobot.Options, log *logrus.Logger) (*realrobot.Runtime, error) {
	var all, board realrobot.Devices
	for _, s := range c.Sensors {
		all.Sensors = append(all.Sensors, s.Tag)
		if s.Tag != ci.TagMessaging {
			board.Sensors = append(board.Sensors, s.Tag)
		}
	}
	for _, a := range c.Actuators {
		all.Actuators = append(all.Actuators, a.Tag)
		if a.Tag != ci.TagMessaging {
			board.Actuators = append(board.Actuators, a.Tag)
		}
	}
	cc := *c
	cc.Sensors, cc.Actuators = nil, nil
	for _, s := range c.Sensors {
		if s.Tag != ci.TagMessaging {
			cc.Sensors = append(cc.Sensors, s)
		}
	}
	for _, a := range c.Actuators {
		if a.Tag != ci.TagMessaging {
			cc.Actuators = append(cc.Actuators, a)
		}
	}
	if _, err := realrobot.DevicesOf(&b, &cc); err != nil {
		return nil, err
	}
	factory, err := ci.Controllers.Lookup(c.Label)
	if err != nil {
		return nil, c.Node.Errorf("robot: %v; the robot binary links only the controllers imported by cmd/robot", err)
	}
	cfg, err := udpmsg.ConfigOf(n, opt.RobotID)
	if err != nil {
		return nil, err
	}
	link, err := udpmsg.Open(cfg)
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	drv, err := realrobot.OpenDriver(b, board, log)
	if err != nil {
		return nil, errors.Join(err, link.Close())
	}
	log.Infof("messages over UDP: receiving on %s, sending to %s", link.Addr(), strings.Join(append(slices.Clone(cfg.Peers), cfg.Group), " "))
	w := udpmsg.Wrap(drv, link)
	rt, err := realrobot.New(w, realrobot.Spec{Label: c.Label, ID: c.ID, Controller: factory(), Params: c.Params, Devices: all}, opt)
	if err != nil {
		return nil, errors.Join(err, w.Stop(), w.Close())
	}
	return rt, nil
}

// override applies the link flags to the board.
func override(b *boards.Board, f *flags) error {
	if f.port != "" || f.baud != 0 {
		switch {
		case b.Serial != nil:
			if f.port != "" {
				b.Serial.Port = f.port
			}
			if f.baud != 0 {
				b.Serial.Baud = f.baud
			}
		case b.Aseba != nil && b.Aseba.Transport == "serial":
			if f.port != "" {
				b.Aseba.Address = f.port
			}
			if f.baud != 0 {
				b.Aseba.Baud = f.baud
			}
		default:
			return fmt.Errorf("board %q has no serial port; -port and -baud do not apply", b.Name)
		}
	}
	if f.bus != "" {
		if b.I2C == nil {
			return fmt.Errorf("board %q has no I²C bus; -bus does not apply", b.Name)
		}
		b.I2C.Bus, b.I2C.Fallback = f.bus, nil
	}
	if f.aseba != "" {
		if b.Aseba == nil {
			return fmt.Errorf("board %q does not speak Aseba; -aseba does not apply", b.Name)
		}
		b.Aseba.Address = f.aseba
		if strings.HasPrefix(f.aseba, "/") {
			b.Aseba.Transport = "serial"
			if b.Aseba.Baud == 0 {
				b.Aseba.Baud = 115200
			}
		} else {
			b.Aseba.Transport = "tcp"
		}
	}
	return nil
}

func query(what string, stdout, stderr io.Writer) int {
	switch what {
	case "boards":
		for _, b := range boards.All() {
			t := b.Target
			target := "host"
			if t.GOARCH != "" {
				target = t.GOOS + "/" + t.GOARCH
				if t.GOARM != "" {
					target += " GOARM=" + t.GOARM
				}
			}
			mark := " "
			if b.Name == defaultBoard {
				mark = "*" // this build's default
			}
			fmt.Fprintf(stdout, "%s %-13s %-9s %-22s %s\n", mark, b.Name, b.Model, target, b.Description)
		}
	case "controllers":
		for _, e := range ci.Controllers.Entries() {
			fmt.Fprintf(stdout, "%s\n    %s\n", e.Name, e.Description)
		}
	case "protocols":
		for _, e := range realrobot.Protocols.Entries() {
			fmt.Fprintf(stdout, "%-13s %s\n", e.Name, e.Description)
		}
	default:
		fmt.Fprintf(stderr, "robot: -q %q: use boards, controllers or protocols\n", what)
		return exitSetup
	}
	return exitOK
}

// stats collects the tick timings for -stats.
type stats struct {
	start                    time.Time
	first                    time.Duration // process start to the end of the first tick
	late, control, sense, ac []time.Duration
	failed, overruns         int
	period                   time.Duration
}

func newStats(start time.Time) *stats { return &stats{start: start} }

func (s *stats) add(t realrobot.TickStats) {
	if t.N == 1 {
		s.first = time.Since(s.start)
	}
	if t.Err != nil {
		s.failed++
		return
	}
	s.late = append(s.late, t.Late)
	s.control = append(s.control, t.Control)
	s.sense = append(s.sense, t.Sense)
	s.ac = append(s.ac, t.Act)
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func us(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Microsecond)) }

// line is the ROBOT-STATS line: microseconds, medians and 99th
// percentiles. sense_to_act is ControlStep plus the runtime's work between
// the driver's Sense and Act (no bus time); late is how late each tick
// started (jitter); startup is process start to the end of the first tick.
func (s *stats) line() string {
	late := s.late
	if len(late) > 1 {
		late = late[1:] // the first tick starts at once
	}
	return fmt.Sprintf("ROBOT-STATS ticks=%d failed=%d sense_to_act_us_p50=%s sense_to_act_us_p99=%s sense_to_act_us_max=%s late_us_p50=%s late_us_p99=%s late_us_max=%s sense_bus_us_p50=%s act_bus_us_p50=%s startup_ms=%.1f",
		len(s.control)+s.failed, s.failed,
		us(pct(s.control, .5)), us(pct(s.control, .99)), us(pct(s.control, 1)),
		us(pct(late, .5)), us(pct(late, .99)), us(pct(late, 1)),
		us(pct(s.sense, .5)), us(pct(s.ac, .5)), float64(s.first)/float64(time.Millisecond))
}

// SimBoard is the -b value that attaches the controller to a simulated
// robot of a running simulation instead of a robot's hardware
// (-sim-addr, docs/remote.md).
const SimBoard = "sim"

// setupSim attaches controller entry c to the simulated robot -robot-id
// of the simulation at -sim-addr.
func setupSim(f *flags, exp *config.Experiment, c *config.Controller, log *logrus.Logger, onTick func(realrobot.TickStats)) (*realrobot.Runtime, realrobot.Options, error) {
	opt := simOptions(f, exp, log, onTick)
	if f.simAddr == "" || f.robotID == "" {
		return nil, opt, fmt.Errorf("-b %s needs the simulation's address and the simulated robot: -sim-addr HOST:PORT -robot-id ID", SimBoard)
	}
	var devs realrobot.Devices
	for _, s := range c.Sensors {
		devs.Sensors = append(devs.Sensors, s.Tag)
	}
	for _, a := range c.Actuators {
		devs.Actuators = append(devs.Actuators, a.Tag)
	}
	factory, err := ci.Controllers.Lookup(c.Label)
	if err != nil {
		return nil, opt, c.Node.Errorf("robot: %v; the robot binary links only the controllers imported by cmd/robot", err)
	}
	drv, err := attach.Dial(attach.Options{Addr: f.simAddr, Token: f.simToken, RobotID: f.robotID, Devices: devs})
	if err != nil {
		return nil, opt, err
	}
	log.Infof("attached to the simulation at %s as robot %q", f.simAddr, f.robotID)
	rt, err := realrobot.New(drv, realrobot.Spec{Label: c.Label, ID: c.ID, Controller: factory(), Params: c.Params, Devices: devs}, opt)
	if err != nil {
		return nil, opt, errors.Join(err, drv.Close())
	}
	return rt, opt, nil
}

// simOptions are the runtime's options for a robot linked to a
// simulation.
func simOptions(f *flags, exp *config.Experiment, log *logrus.Logger, onTick func(realrobot.TickStats)) realrobot.Options {
	opt := realrobot.Options{
		RobotID:        f.robotID,
		Seed:           exp.Framework.RandomSeed,
		TicksPerSecond: exp.Framework.TicksPerSecond,
		Ticks:          exp.Framework.Ticks(),
		Logger:         log,
		OnTick:         onTick,
	}
	if f.ticksSet {
		opt.Ticks = f.ticks
	}
	if opt.Seed == 0 {
		opt.Seed = uint64(time.Now().UnixNano())
	}
	return opt
}

// setupMixed runs controller entry c on the robot's board b as the real
// robot -robot-id of the simulation at -sim-addr: the <remote> element
// of the file says how its sensors merge with the virtual ones.
func setupMixed(f *flags, exp *config.Experiment, c *config.Controller, b boards.Board, log *logrus.Logger, onTick func(realrobot.TickStats)) (*realrobot.Runtime, realrobot.Options, error) {
	opt := simOptions(f, exp, log, onTick)
	if f.robotID == "" {
		return nil, opt, errors.New("-sim-addr needs the id of the robot in the simulation: -robot-id ID")
	}
	rules := map[string]string{}
	for _, n := range exp.Media {
		if n.Name == "remote" {
			r, err := simlink.ParseMerge(n.StringOr("merge", ""))
			if err != nil {
				return nil, opt, n.AttrErrorf("merge", "%v", err)
			}
			rules = r
		}
	}
	var all, board, link realrobot.Devices
	for _, s := range c.Sensors {
		all.Sensors = append(all.Sensors, s.Tag)
		rule, has := rules[s.Tag], b.HasSensor(s.Tag)
		if has && rule != "virtual" {
			board.Sensors = append(board.Sensors, s.Tag)
		}
		if !has || rule == "virtual" || rule == "max" {
			if simlink.SensorKindOf(s.Tag) == simlink.KindNone {
				return nil, opt, s.Node.Errorf("robot: board %q has no sensor <%s> and the simulation cannot provide it (%s)", b.Name, s.Tag, simlink.Supported)
			}
			link.Sensors = append(link.Sensors, s.Tag)
		}
	}
	for _, a := range c.Actuators {
		all.Actuators = append(all.Actuators, a.Tag)
		if b.HasActuator(a.Tag) {
			board.Actuators = append(board.Actuators, a.Tag)
			if a.Tag == ci.TagLEDs { // shown on the simulated body too
				link.Actuators = append(link.Actuators, a.Tag)
			}
			continue
		}
		if simlink.ActuatorKindOf(a.Tag) == simlink.KindNone {
			return nil, opt, a.Node.Errorf("robot: board %q has no actuator <%s> and the simulation cannot provide it (%s)", b.Name, a.Tag, simlink.Supported)
		}
		link.Actuators = append(link.Actuators, a.Tag)
	}
	factory, err := ci.Controllers.Lookup(c.Label)
	if err != nil {
		return nil, opt, c.Node.Errorf("robot: %v; the robot binary links only the controllers imported by cmd/robot", err)
	}
	real, err := realrobot.OpenDriver(b, board, log)
	if err != nil {
		return nil, opt, err
	}
	sim, err := attach.Dial(attach.Options{Addr: f.simAddr, Token: f.simToken, RobotID: f.robotID, Devices: link})
	if err != nil {
		return nil, opt, errors.Join(err, real.Stop(), real.Close())
	}
	log.Infof("real robot %q on board %q, attached to the simulation at %s (from it: %s)", f.robotID, b.Name, f.simAddr, strings.Join(append(slices.Clone(link.Sensors), link.Actuators...), ", "))
	drv := attach.Merge(real, sim, rules)
	rt, err := realrobot.New(drv, realrobot.Spec{Label: c.Label, ID: c.ID, Controller: factory(), Params: c.Params, Devices: all}, opt)
	if err != nil {
		return nil, opt, errors.Join(err, drv.Stop(), drv.Close())
	}
	return rt, opt, nil
}
