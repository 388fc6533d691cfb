package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/argosgo/argos/internal/scaffold"
)

const module = "github.com/argosgo/argos"

// runNew implements `argos new controller NAME --robot footbot
// [--experiment]` and `argos new behavior NAME [--dir DIR]`, run from the
// repository root.
func runNew(args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintf(stderr, "usage: argos new controller NAME [--robot footbot|epuck] [--experiment]\n       argos new behavior NAME [--dir behaviors]\n")
	}
	if len(args) < 2 {
		usage()
		return 1
	}
	kind, name := args[0], args[1]
	fs := flag.NewFlagSet("argos new "+kind, flag.ContinueOnError)
	fs.SetOutput(stderr)
	robot := fs.String("robot", "footbot", "robot model of a new controller: footbot or epuck")
	experiment := fs.Bool("experiment", false, "also write experiments/NAME.argos that runs the new controller")
	dir := fs.String("dir", "behaviors", "package directory of a new behaviour")
	if err := fs.Parse(args[2:]); err != nil {
		return 1
	}
	if _, err := os.Stat("go.mod"); err != nil {
		fmt.Fprintln(stderr, "argos new: run it from the root of the project (where go.mod is)")
		return 1
	}
	var files []string
	var err error
	switch kind {
	case "controller":
		c := scaffold.Controller{Name: name, Robot: *robot, Module: module, Dir: filepath.Join("controllers", name)}
		if *experiment {
			c.Experiment = filepath.Join("experiments", name+".argos")
		}
		files, err = scaffold.WriteController(c)
		if err == nil {
			defer fmt.Fprintf(stdout, "\nregistered as %q: add\n\t_ %q\nto the imports of cmd/argos/main.go (and cmd/robot/main.go) to run it.\n",
				c.Label(), module+"/controllers/"+name)
		}
	case "behavior", "behaviour":
		files, err = scaffold.WriteBehavior(scaffold.Behavior{Name: name, Dir: *dir, Module: module,
			Path: module + "/" + filepath.ToSlash(filepath.Clean(*dir))})
	default:
		usage()
		return 1
	}
	for _, f := range files {
		fmt.Fprintln(stdout, "wrote", f)
	}
	if err != nil {
		fmt.Fprintf(stderr, "argos new: %v\n", strings.TrimPrefix(err.Error(), "scaffold: "))
		return 1
	}
	fmt.Fprintf(stdout, "check it with: go test ./%s/...\n", filepath.Dir(files[0]))
	return 0
}
