package argoscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator/hil"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/toolchains"
	"github.com/sirupsen/logrus"
)

// robotFlags are the flags argos robot build, deploy and check share.
type robotFlags struct {
	model, file, id, out, pkg, remoteDir, goCmd string
}

func (f *robotFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.model, "model", "", "robot `model` (its board): "+strings.Join(boards.Names(), ", "))
	fs.StringVar(&f.file, "c", "", "experiment `file` to ship (default: the first of experiments/*.argos with a controller this board can run)")
	fs.StringVar(&f.id, "i", "", "`id` of the controller entry the robot runs (default: chosen with the experiment)")
	fs.StringVar(&f.out, "out", "", "bundle `folder` (default build/robot-MODEL)")
	fs.StringVar(&f.pkg, "pkg", "./cmd/robot", "the robot main `package` of the current module")
	fs.StringVar(&f.remoteDir, "remote-dir", toolchains.DefaultRemoteDir, "where the bundle goes on the robot")
	fs.StringVar(&f.goCmd, "go", "go", "the go `command`")
}

// bundle resolves the flags into what to build, choosing the experiment
// and controller when not given.
func (f *robotFlags) bundle(stdout io.Writer) (toolchains.Bundle, error) {
	var c toolchains.Bundle
	if f.model == "" {
		return c, fmt.Errorf("give the robot model: --model %s", strings.Join(boards.Names(), "|"))
	}
	b, err := boards.Lookup(f.model)
	if err != nil {
		return c, err
	}
	file, id := f.file, f.id
	switch {
	case file == "" && id != "":
		return c, errors.New("-i needs -c: give the experiment file that has the controller entry")
	case file == "":
		if file, id, err = pickExperiment("experiments", &b); err != nil {
			return c, err
		}
		fmt.Fprintf(stdout, "robot-%s: %s, controller %q (choose with -c FILE -i ID)\n", b.Name, file, id)
	case id == "":
		if id, err = pickController(file, &b); err != nil {
			return c, err
		}
	default:
		exp, err := config.Load(file)
		if err != nil {
			return c, err
		}
		ctrl := exp.FindController(id)
		if ctrl == nil {
			return c, fmt.Errorf("%s has no controller with id %q", file, id)
		}
		if _, err := realrobot.DevicesOf(&b, ctrl); err != nil {
			return c, err
		}
	}
	out := f.out
	if out == "" {
		out = filepath.Join("build", "robot-"+b.Name)
	}
	return toolchains.Bundle{Board: b, Package: f.pkg, Experiment: file, ControllerID: id, Out: out, RemoteDir: f.remoteDir, Go: f.goCmd}, nil
}

// pickExperiment returns the first experiment of dir (sorted by name)
// with a controller entry board b can run, preferring one that a robot
// of b's model uses.
func pickExperiment(dir string, b *boards.Board) (file, id string, err error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.argos"))
	sort.Strings(files)
	var fallback [2]string
	for _, f := range files {
		exp, err := config.Load(f)
		if err != nil {
			continue
		}
		used, fits := fitting(exp, b)
		if len(used) > 0 {
			return f, used[0], nil
		}
		if len(fits) > 0 && fallback[0] == "" {
			fallback = [2]string{f, fits[0]}
		}
	}
	if fallback[0] != "" {
		return fallback[0], fallback[1], nil
	}
	return "", "", fmt.Errorf("no experiment in %s/ has a controller entry the %s board %q can run (its devices: %s); write one (argos new controller NAME --robot ... --experiment) or give -c FILE -i ID",
		dir, b.Model, b.Name, deviceList(b))
}

// pickController returns the controller entry of file that board b can
// run (preferring one a robot of b's model uses).
func pickController(file string, b *boards.Board) (string, error) {
	exp, err := config.Load(file)
	if err != nil {
		return "", err
	}
	used, fits := fitting(exp, b)
	switch {
	case len(used) > 0:
		return used[0], nil
	case len(fits) > 0:
		return fits[0], nil
	}
	return "", fmt.Errorf("%s has no controller entry the %s board %q can run (its devices: %s); give -i ID to see why one does not fit", file, b.Model, b.Name, deviceList(b))
}

// fitting returns the ids of exp's controller entries whose devices board
// b offers: those a robot of b's model refers to, and all of them.
func fitting(exp *config.Experiment, b *boards.Board) (used, fits []string) {
	refs := map[string]bool{}
	var walk func(n *config.Node)
	walk = func(n *config.Node) {
		for _, ch := range n.Children {
			if ch.Name == b.Model {
				if c := ch.FirstChild("controller"); c != nil {
					v, _ := c.Attr("config")
					refs[v] = true
				}
			}
			walk(ch)
		}
	}
	if exp.Arena != nil {
		walk(exp.Arena)
	}
	for _, c := range exp.Controllers {
		if _, err := realrobot.DevicesOf(b, c); err != nil {
			continue
		}
		fits = append(fits, c.ID)
		if refs[c.ID] {
			used = append(used, c.ID)
		}
	}
	return used, fits
}

func deviceList(b *boards.Board) string {
	var tags []string
	for _, d := range b.Sensors {
		tags = append(tags, d.Tag)
	}
	for _, d := range b.Actuators {
		tags = append(tags, d.Tag)
	}
	return strings.Join(tags, ", ")
}

// runRobot implements argos robot build|deploy|check.
func runRobot(args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprint(stderr, `usage: argos robot build  --model MODEL [-c FILE -i ID] [--out DIR]
       argos robot deploy --model MODEL --host USER@HOST [-c FILE -i ID] [--ssh CMD] [--scp CMD]
       argos robot check  --model MODEL [-c FILE -i ID] [--seconds S]

build   cross-compiles the current module's robot main (./cmd/robot) for the
        model's CPU and writes a bundle: the binary, the experiment, a
        systemd unit and its install script (default build/robot-MODEL).
deploy  builds, copies the bundle to the robot over ssh and restarts the
        service (sudo only when the login is not root).
check   builds, then runs the binary (under qemu-user for ARM builds)
        against the model's emulated hardware backed by the simulator, and
        fails unless it exits cleanly, its ticks get through, the robot
        drives and its wheels are stopped at the end.

Models: `+strings.Join(boards.Names(), ", ")+"\n")
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		usage()
		if len(args) == 0 {
			return 1
		}
		return 0
	}
	verb := args[0]
	fs := flag.NewFlagSet("argos robot "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f robotFlags
	f.register(fs)
	host := fs.String("host", "", "the robot, `user@host` (deploy)")
	sshCmd := fs.String("ssh", "ssh", "ssh `command` with its options (deploy)")
	scpCmd := fs.String("scp", "scp", "scp `command` with its options (deploy)")
	timeout := fs.Int("connect-timeout", 10, "ssh connect timeout in `seconds` (deploy)")
	seconds := fs.Float64("seconds", 5, "how long the binary runs against the emulator (check)")
	switch verb {
	case "build", "deploy", "check":
	default:
		usage()
		return 1
	}
	if err := fs.Parse(args[1:]); err != nil {
		return exitOf(err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "argos robot %s: unexpected argument %q\n", verb, fs.Arg(0))
		return 1
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "argos robot %s: %v\n", verb, err)
		return 1
	}
	if verb == "deploy" && *host == "" {
		return fail(errors.New("give the robot: --host user@host"))
	}
	bundle, err := f.bundle(stdout)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if verb == "check" && f.out == "" {
		tmp, err := os.MkdirTemp("", "argos-robot-check-")
		if err != nil {
			return fail(err)
		}
		defer os.RemoveAll(tmp)
		bundle.Out = filepath.Join(tmp, "robot-"+bundle.Board.Name)
	}
	bundle.Log = stdout
	if err := toolchains.Build(ctx, bundle); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "bundle ready in %s/ (%s, %s, %s, %s)\n", bundle.Out,
		toolchains.BinaryFile, toolchains.ExperimentFile, toolchains.UnitFile, toolchains.InstallFile)
	switch verb {
	case "build":
		fmt.Fprintf(stdout, "deploy it with: make robot-%s ROBOT=user@host, or argos robot deploy --model %s --host user@host (copies to %s and restarts the service)\n",
			bundle.Board.Name, bundle.Board.Name, bundle.RemoteDir)
	case "deploy":
		d := toolchains.Deploy{Host: *host, RemoteDir: bundle.RemoteDir, SSH: strings.Fields(*sshCmd), SCP: strings.Fields(*scpCmd),
			ConnectTimeout: *timeout, Log: stdout}
		if err := toolchains.DeployBundle(ctx, bundle.Out, d); err != nil {
			return fail(err)
		}
		fmt.Fprintf(stdout, "deployed to %s:%s\n", *host, bundle.RemoteDir)
	case "check":
		return checkBundle(ctx, bundle, *seconds, stdout, stderr)
	}
	return 0
}

// checkBundle runs the bundle's binary against the emulated robot.
func checkBundle(ctx context.Context, bundle toolchains.Bundle, seconds float64, stdout, stderr io.Writer) int {
	if err := hil.Emulatable(bundle.Board); err != nil {
		fmt.Fprintf(stdout, "robot-%s: built; not run: %v\n", bundle.Board.Name, err)
		return 0
	}
	file := filepath.Join(bundle.Out, toolchains.ExperimentFile)
	exp, err := config.Load(file)
	if err != nil {
		fmt.Fprintf(stderr, "argos robot check: %v\n", err)
		return 1
	}
	log := logrus.New()
	log.SetOutput(stderr)
	log.SetLevel(logrus.WarnLevel)
	rep, err := hil.Run(ctx, hil.Check{
		Binary: filepath.Join(bundle.Out, toolchains.BinaryFile), Board: bundle.Board,
		File: file, Experiment: exp, ControllerID: bundle.ControllerID, Seconds: seconds, Log: log,
	})
	if err != nil {
		fmt.Fprintf(stderr, "argos robot check: %s: %v\n", bundle.Board.Name, err)
		return 1
	}
	fmt.Fprintf(stdout, "robot-%s: ok: %s\n", bundle.Board.Name, rep)
	return 0
}
