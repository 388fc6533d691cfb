package scaffold

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Project describes a new project: a Go module with its own argos and
// robot binaries, a starter controller for the foot-bot and the e-puck
// with its experiments, starter loop functions, a Makefile, a README and
// a CI entry point.
type Project struct {
	// Dir is the project's folder; it must not exist or be empty.
	Dir string
	// Module is the new module's path (example.com/mybots).
	Module string
	// Require is the version of ARGoS-Go to require.
	Require string
	// Replace, when set, is the folder of an ARGoS-Go checkout the
	// module is replaced with (offline or development use).
	Replace string
	// GoVersion is the go line of go.mod ("1.25.0").
	GoVersion string
	// Starter names the starter controller ("wander") and Loop the
	// starter loop functions ("census").
	Starter, Loop string
}

var moduleRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._~-]*(/[A-Za-z0-9._~-]+)*$`)

// WriteProject creates the project and returns the files written,
// relative to p.Dir.
func WriteProject(p Project) ([]string, error) {
	if p.Module == "" || !moduleRe.MatchString(p.Module) {
		return nil, fmt.Errorf("scaffold: module path %q: give one like example.com/mybots or github.com/you/mybots", p.Module)
	}
	if p.Require == "" {
		return nil, errors.New("scaffold: the version of ARGoS-Go to require is unknown")
	}
	if p.GoVersion == "" {
		p.GoVersion = "1.25.0"
	}
	if p.Starter == "" {
		p.Starter = "wander"
	}
	if p.Loop == "" {
		p.Loop = "census"
	}
	if entries, err := os.ReadDir(p.Dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%w: %s is not empty; give a new folder", ErrExists, p.Dir)
	}
	ctrl := Controller{Name: p.Starter, Robots: RobotNames, Root: p.Dir, Module: p.Module, Experiment: true}
	loop := LoopFunctions{Name: p.Loop, Root: p.Dir, Module: p.Module}
	ctrl.LoopFunctions = loop.Label()
	var models []string
	for _, r := range RobotNames {
		models = append(models, Robots[r].Key)
	}
	data := map[string]any{
		"P": p, "Argos": ArgosModule, "Name": filepath.Base(p.Module),
		"Ctrl": ctrl, "Loop": loop, "RunExp": filepath.ToSlash(ctrl.ExperimentFile("footbot")),
	}
	files := []file{
		{path: "go.mod", tmpl: goModTmpl, data: data},
		{path: "README.md", tmpl: readmeTmpl, data: data},
		{path: "Makefile", tmpl: makefileTmpl, data: data},
		{path: ".gitignore", tmpl: "/build/\n", data: data},
		{path: filepath.Join(".ci", "run"), tmpl: ciRunTmpl, data: data, mode: 0o755},
		{path: filepath.Join("cmd", "argos", "main.go"), tmpl: argosMainTmpl, data: data, gofmt: true},
		{path: filepath.Join("cmd", "robot", "main.go"), tmpl: robotMainTmpl, data: data, gofmt: true},
	}
	written, err := writeAll(p.Dir, files)
	if err != nil {
		return written, err
	}
	more, err := WriteController(ctrl)
	written = append(written, more...)
	if err != nil {
		return written, err
	}
	more, err = WriteLoopFunctions(loop)
	written = append(written, more...)
	if err != nil {
		return written, err
	}
	return written, nil
}

// Mains are the project's main files, relative to its root: new
// controllers are registered in both, loop functions in the simulator's
// only.
var Mains = struct{ Argos, Robot string }{
	Argos: filepath.Join("cmd", "argos", "main.go"),
	Robot: filepath.Join("cmd", "robot", "main.go"),
}

// RegisterAll adds importPath to the mains of the project at root and
// returns what it did, one line per main, with the line to add by hand
// where it could not.
func RegisterAll(root, importPath string, mains ...string) []string {
	var out []string
	for _, m := range mains {
		p := filepath.Join(root, m)
		changed, err := Register(p, importPath)
		switch {
		case errors.Is(err, os.ErrNotExist):
			out = append(out, fmt.Sprintf("no %s: add _ %q to the imports of the main that should run it", m, importPath))
		case err != nil:
			out = append(out, fmt.Sprintf("add _ %q to the imports of %s (%v)", importPath, m, strings.TrimPrefix(err.Error(), "scaffold: ")))
		case changed:
			out = append(out, "registered in "+m)
		default:
			out = append(out, "already imported by "+m)
		}
	}
	return out
}
