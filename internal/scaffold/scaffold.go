// Package scaffold writes skeletons of new controllers and behaviours
// (`argos new controller NAME --robot footbot`, `argos new behavior NAME`):
// Go packages that compile, pass their own tests and register themselves,
// plus, on request, an experiment file that runs the new controller.
package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// Robots maps the --robot values to what the templates need.
var Robots = map[string]Robot{
	"footbot": {Tag: "foot-bot", Prefix: "footbot", Proximity: "footbot_proximity", Sensors: 24, Radius: "0.085"},
	"epuck":   {Tag: "e-puck", Prefix: "epuck", Proximity: "epuck_proximity", Sensors: 8, Radius: "0.035"},
}

// Robot describes a robot model for the templates.
type Robot struct {
	Tag       string // entity tag in .argos files
	Prefix    string // controller label prefix (ARGoS convention)
	Proximity string // proximity sensor tag
	Sensors   int    // number of proximity sensors
	Radius    string
}

// Controller describes a controller to generate.
type Controller struct {
	Name       string // Go package name: lower case letters, digits, underscores
	Robot      string // key of Robots
	Dir        string // where the package goes (controllers/NAME)
	Experiment string // if not empty, also write this .argos file
	Module     string // module path of the project (github.com/argosgo/argos)
}

var nameRe = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ErrExists is returned when a file to write is already there.
var ErrExists = errors.New("scaffold: file exists")

func checkName(name string) error {
	if !nameRe.MatchString(name) {
		return fmt.Errorf("scaffold: name %q: use lower case letters, digits and underscores, starting with a letter (it becomes a Go package name)", name)
	}
	return nil
}

// Label is the label the controller registers under, ARGoS style.
func (c Controller) Label() string { return Robots[c.Robot].Prefix + "_" + c.Name + "_controller" }

// WriteController writes the controller package (and the experiment file
// when asked) and returns the paths written. Existing files are never
// overwritten.
func WriteController(c Controller) ([]string, error) {
	if err := checkName(c.Name); err != nil {
		return nil, err
	}
	r, ok := Robots[c.Robot]
	if !ok {
		return nil, fmt.Errorf("scaffold: --robot %q: use footbot or epuck", c.Robot)
	}
	data := map[string]any{"C": c, "R": r, "Label": c.Label()}
	files := []struct {
		path, tmpl string
		gofmt      bool
	}{
		{filepath.Join(c.Dir, "doc.go"), controllerDoc, true},
		{filepath.Join(c.Dir, c.Name+".go"), controllerGo, true},
		{filepath.Join(c.Dir, c.Name+"_test.go"), controllerTest, true},
	}
	if c.Experiment != "" {
		files = append(files, struct {
			path, tmpl string
			gofmt      bool
		}{c.Experiment, experimentTmpl, false})
	}
	return writeAll(files, data)
}

// Behavior describes a behaviour to generate.
type Behavior struct {
	Name   string // Go identifier base: lower case (the type is its CamelCase)
	Dir    string // package directory (created if needed)
	Module string
	// Path is the import path of the package in Dir.
	Path string
}

// WriteBehavior writes the behaviour and its test into Dir, whose base
// name is the package name.
func WriteBehavior(b Behavior) ([]string, error) {
	if err := checkName(b.Name); err != nil {
		return nil, err
	}
	pkg := filepath.Base(b.Dir)
	if err := checkName(pkg); err != nil {
		return nil, fmt.Errorf("scaffold: directory %q: its name is the package name: %w", b.Dir, err)
	}
	data := map[string]any{"B": b, "Type": camel(b.Name), "Pkg": pkg}
	return writeAll([]struct {
		path, tmpl string
		gofmt      bool
	}{
		{filepath.Join(b.Dir, b.Name+".go"), behaviorGo, true},
		{filepath.Join(b.Dir, b.Name+"_test.go"), behaviorTest, true},
	}, data)
}

func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

func writeAll(files []struct {
	path, tmpl string
	gofmt      bool
}, data any) ([]string, error) {
	for _, f := range files {
		if _, err := os.Stat(f.path); err == nil {
			return nil, fmt.Errorf("%w: %s; pick another name or remove it", ErrExists, f.path)
		}
	}
	var written []string
	for _, f := range files {
		var buf bytes.Buffer
		if err := template.Must(template.New(f.path).Parse(f.tmpl)).Execute(&buf, data); err != nil {
			return written, fmt.Errorf("scaffold: %s: %w", f.path, err)
		}
		out := buf.Bytes()
		if f.gofmt {
			var err error
			if out, err = format.Source(out); err != nil {
				return written, fmt.Errorf("scaffold: generated %s does not parse (a bug): %w", f.path, err)
			}
		}
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(f.path, out, 0o644); err != nil {
			return written, err
		}
		written = append(written, f.path)
	}
	return written, nil
}
