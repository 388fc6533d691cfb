package argoscli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/argosgo/argos/internal/scaffold"
)

const newUsage = `usage: argos new project DIR [--module PATH] [--replace CHECKOUT] [--version VERSION]
       argos new controller NAME [--robot footbot|epuck|footbot,epuck] [--experiment]
       argos new behavior NAME [--dir behaviors]
       argos new loop-functions NAME

project         a new Go module in DIR with its own argos and robot binaries (cmd/),
                a starter controller and loop functions, experiments, a Makefile
                (run, test, ci, robot-MODEL) and .ci/run
controller      controllers/NAME, registered under <robot>_NAME_controller, with its
                tests and (--experiment) experiments/NAME.argos
behavior        a behaviortk behaviour and its test in --dir
loop-functions  loop_functions/NAME, registered as NAME_loop_functions, with its test

Run the last three from the project's root (where go.mod is): they read its module
path and add the new package to cmd/argos/main.go (and cmd/robot/main.go).
`

// runNew implements argos new.
func runNew(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprint(stderr, newUsage)
		return 1
	}
	kind := args[0]
	fs := flag.NewFlagSet("argos new "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, newUsage) }
	robots := fs.String("robot", "footbot", "robot model(s) of a new controller: footbot, epuck, or both comma-separated")
	experiment := fs.Bool("experiment", false, "also write experiments/NAME.argos that runs the new controller")
	dir := fs.String("dir", "behaviors", "package directory of a new behaviour")
	module := fs.String("module", "", "module path of a new project (default: the folder's name)")
	replace := fs.String("replace", "", "a checkout of ARGoS-Go the new project uses instead of a published version (a replace directive)")
	version := fs.String("version", "", "the version of ARGoS-Go a new project requires (default: this binary's)")
	// Flags may come before or after the name.
	rest, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return exitOf(err)
	}
	if len(rest) != 1 {
		fmt.Fprintf(stderr, "argos new %s: give one name\n", kind)
		return 1
	}
	name := rest[0]
	fail := func(err error) int {
		fmt.Fprintf(stderr, "argos new %s: %v\n", kind, strings.TrimPrefix(err.Error(), "scaffold: "))
		return 1
	}
	if kind == "project" {
		return newProject(name, *module, *replace, *version, stdout, stderr)
	}
	mod, err := scaffold.ModulePath(".")
	if err != nil {
		return fail(err)
	}
	// In ARGoS-Go's own repository, examples are linked through the
	// examples packages; elsewhere through the project's mains.
	ctrlMains, loopMains := []string{scaffold.Mains.Argos, scaffold.Mains.Robot}, []string{scaffold.Mains.Argos}
	if mod == scaffold.ArgosModule {
		ctrlMains = []string{filepath.Join("controllers", "examples", "examples.go")}
		loopMains = []string{filepath.Join("loop_functions", "examples", "examples.go")}
	}
	var files, notes []string
	var next string
	switch kind {
	case "controller":
		c := scaffold.Controller{Name: name, Robots: strings.Split(*robots, ","), Root: ".", Module: mod, Experiment: *experiment}
		if files, err = scaffold.WriteController(c); err != nil {
			break
		}
		notes = append(notes, "registered as "+strings.Join(c.Labels(), " and "))
		notes = append(notes, scaffold.RegisterAll(".", c.ImportPath(), ctrlMains...)...)
		next = "go test ./controllers/" + name + "/"
		if *experiment {
			next += "\nrun it with:   go build -o build/argos ./cmd/argos && build/argos -c " + c.ExperimentFile(c.Robots[0])
		}
	case "behavior", "behaviour":
		b := scaffold.Behavior{Name: name, Root: ".", Dir: *dir, Module: mod}
		if files, err = scaffold.WriteBehavior(b); err != nil {
			break
		}
		notes = append(notes, "use it from a controller: import "+fmt.Sprintf("%q", b.ImportPath()))
		next = "go test ./" + filepath.ToSlash(filepath.Clean(*dir)) + "/"
	case "loop-functions", "loop_functions":
		l := scaffold.LoopFunctions{Name: name, Root: ".", Module: mod}
		if files, err = scaffold.WriteLoopFunctions(l); err != nil {
			break
		}
		notes = append(notes, "registered as "+l.Label()+`: use it with <loop_functions label="`+l.Label()+`" />`)
		notes = append(notes, scaffold.RegisterAll(".", l.ImportPath(), loopMains...)...)
		next = "go test ./loop_functions/" + name + "/"
	default:
		fmt.Fprint(stderr, newUsage)
		return 1
	}
	for _, f := range files {
		fmt.Fprintln(stdout, "wrote", f)
	}
	if err != nil {
		return fail(err)
	}
	for _, n := range notes {
		fmt.Fprintln(stdout, n)
	}
	fmt.Fprintf(stdout, "check it with: %s\n", next)
	return 0
}

// newProject implements argos new project.
func newProject(dir, module, replace, version string, stdout, stderr io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "argos new project: %v\n", strings.TrimPrefix(err.Error(), "scaffold: "))
		return 1
	}
	if module == "" {
		module = filepath.Base(filepath.Clean(dir))
	}
	own, ownReplace := argosModuleVersion()
	if replace == "" {
		replace = ownReplace
	}
	if replace != "" {
		abs, err := filepath.Abs(replace)
		if err != nil {
			return fail(err)
		}
		if got, err := scaffold.ModulePath(abs); err != nil || got != scaffold.ArgosModule {
			return fail(fmt.Errorf("--replace %s: not a checkout of %s (its go.mod says %q)", replace, scaffold.ArgosModule, got))
		}
		replace = abs
	}
	require := version
	switch {
	case require != "":
	case own != "" && own != "(devel)":
		require = own
	case replace != "":
		require = "v0.0.0-00010101000000-000000000000"
	default:
		return fail(errors.New("this argos was built from a checkout of ARGoS-Go, which has no version: give --replace PATH_OF_THE_CHECKOUT (or --version of a published release)"))
	}
	files, err := scaffold.WriteProject(scaffold.Project{Dir: dir, Module: module, Require: require, Replace: replace})
	if err != nil {
		if len(files) > 0 {
			fmt.Fprintf(stderr, "argos new project: %d files of %s were written before the error\n", len(files), dir)
		}
		return fail(err)
	}
	fmt.Fprintf(stdout, "created %s: module %s, ARGoS-Go %s", dir, module, require)
	if replace != "" {
		fmt.Fprintf(stdout, " replaced by %s", replace)
	}
	fmt.Fprintf(stdout, " (%d files)\n", len(files))
	if replace != "" {
		// The checkout's go.sum has every sum its packages need, so that
		// the project builds without the network.
		if sum, err := os.ReadFile(filepath.Join(replace, "go.sum")); err == nil {
			if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
				return fail(err)
			}
		}
	}
	if err := tidy(dir); err != nil {
		fmt.Fprintf(stderr, "argos new project: %v\nthe project is written; fix the above, then run go mod tidy in %s\n", err, dir)
		return 1
	}
	fmt.Fprintf(stdout, `next:
  cd %s
  make run             # builds build/argos and runs an experiment headless
  make test            # the unit tests
  make robot-epuck     # an ARM bundle for the e-puck (make ci checks it under qemu)
`, dir)
	return 0
}

// argosModuleVersion returns the version of ARGoS-Go this binary was
// built with, and the folder it was replaced with, if any.
func argosModuleVersion() (version, replace string) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", ""
	}
	if bi.Main.Path == scaffold.ArgosModule {
		return bi.Main.Version, ""
	}
	for _, d := range bi.Deps {
		if d.Path != scaffold.ArgosModule {
			continue
		}
		if d.Replace != nil && filepath.IsAbs(d.Replace.Path) {
			return d.Version, d.Replace.Path
		}
		return d.Version, ""
	}
	return "", ""
}

// tidy completes the new project's go.mod and go.sum. Without the
// network, go mod tidy fails on the test dependencies of dependencies;
// then -e keeps what it could resolve, and the project is fine if its
// own packages and tests resolve.
func tidy(dir string) error {
	goCmd := func(args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("the go command is not on PATH")
	}
	if _, err := goCmd("mod", "tidy"); err == nil {
		return nil
	}
	if out, err := goCmd("mod", "tidy", "-e"); err != nil {
		return fmt.Errorf("go mod tidy: %v\n%s", err, out)
	}
	if out, err := goCmd("list", "-deps", "-test", "./..."); err != nil {
		return fmt.Errorf("go list: %v\n%s", err, lastLine(out))
	}
	return nil
}
