// Package scaffold writes the skeletons of argos new: a whole project (a
// Go module with its own argos and robot binaries, Makefile and CI),
// controllers, behaviours and loop functions. What it writes compiles,
// passes its own tests and registers itself; new packages are added to
// the project's mains (cmd/argos/main.go, cmd/robot/main.go).
package scaffold

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/template"
)

// ArgosModule is the module path of ARGoS-Go, which generated code
// imports.
const ArgosModule = "github.com/argosgo/argos"

// Robots maps the --robot values to what the templates need.
var Robots = map[string]Robot{
	"footbot": {Key: "footbot", Tag: "foot-bot", Prefix: "footbot", Proximity: "footbot_proximity", Fake: "NewFootBotProximity", Speed: "10", Radius: "0.085"},
	"epuck":   {Key: "epuck", Tag: "e-puck", Prefix: "epuck", Proximity: "epuck_proximity", Fake: "NewEPuckProximity", Speed: "5", Radius: "0.035"},
}

// RobotNames lists the keys of Robots in a stable order.
var RobotNames = []string{"footbot", "epuck"}

// Robot describes a robot model for the templates.
type Robot struct {
	Key       string // the --robot value and argos robot --model
	Tag       string // entity tag in .argos files
	Prefix    string // controller label prefix (ARGoS convention)
	Proximity string // proximity sensor tag
	Fake      string // the citest constructor of its proximity sensor
	Speed     string // a good cruising speed, cm/s
	Radius    string
}

// Controller describes a controller to generate.
type Controller struct {
	// Name is the Go package name: lower case letters, digits, underscores.
	Name string
	// Robots are keys of Robots: one label per robot,
	// <prefix>_<name>_controller, as ARGoS names its controllers.
	Robots []string
	// Root is the project's root folder (where go.mod is) and Module its
	// module path: the package goes to Root/controllers/Name.
	Root, Module string
	// Experiment also writes experiments/<name>.argos (one per robot,
	// <name>_<robot>.argos, for several).
	Experiment bool
	// LoopFunctions, when set, is the label the experiments use in
	// <loop_functions>.
	LoopFunctions string
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

// Label is the label the controller registers under for robot r.
func (c Controller) Label(r string) string { return Robots[r].Prefix + "_" + c.Name + "_controller" }

// Labels are the controller's labels, one per robot.
func (c Controller) Labels() []string {
	var out []string
	for _, r := range c.Robots {
		out = append(out, c.Label(r))
	}
	return out
}

// ImportPath is the controller package's import path.
func (c Controller) ImportPath() string { return c.Module + "/controllers/" + c.Name }

// ExperimentFile is the experiment written for robot r, relative to Root.
func (c Controller) ExperimentFile(r string) string {
	if len(c.Robots) == 1 {
		return filepath.Join("experiments", c.Name+".argos")
	}
	return filepath.Join("experiments", c.Name+"_"+r+".argos")
}

// file is one file to generate, relative to the root.
type file struct {
	path, tmpl string
	data       any
	gofmt      bool
	mode       os.FileMode
}

// WriteController writes the controller package (and its experiments
// when asked) and returns the paths written, relative to c.Root.
// Existing files are never overwritten.
func WriteController(c Controller) ([]string, error) {
	if err := checkName(c.Name); err != nil {
		return nil, err
	}
	if len(c.Robots) == 0 {
		return nil, errors.New("scaffold: a controller needs a robot: footbot, epuck or both")
	}
	var robots []Robot
	for _, r := range c.Robots {
		rb, ok := Robots[r]
		if !ok {
			return nil, fmt.Errorf("scaffold: --robot %q: use %s (or several, comma-separated)", r, strings.Join(RobotNames, ", "))
		}
		robots = append(robots, rb)
	}
	if c.Module == "" {
		return nil, errors.New("scaffold: the project's module path is unknown")
	}
	data := map[string]any{"C": c, "Robots": robots, "Argos": ArgosModule}
	dir := filepath.Join("controllers", c.Name)
	files := []file{
		{path: filepath.Join(dir, "doc.go"), tmpl: controllerDoc, data: data, gofmt: true},
		{path: filepath.Join(dir, c.Name+".go"), tmpl: controllerGo, data: data, gofmt: true},
		{path: filepath.Join(dir, c.Name+"_test.go"), tmpl: controllerTest, data: data, gofmt: true},
	}
	if c.Experiment {
		for _, r := range robots {
			files = append(files, file{path: c.ExperimentFile(r.Key), tmpl: experimentTmpl,
				data: map[string]any{"C": c, "R": r, "Label": c.Label(r.Key)}})
		}
	}
	return writeAll(c.Root, files)
}

// Behavior describes a behaviour to generate.
type Behavior struct {
	// Name is the Go identifier base: lower case (the type is its
	// CamelCase).
	Name string
	// Root is the project's root and Dir the package's folder under it
	// (created if needed); Module is the project's module path.
	Root, Dir, Module string
}

// ImportPath is the behaviour package's import path.
func (b Behavior) ImportPath() string {
	return b.Module + "/" + filepath.ToSlash(filepath.Clean(b.Dir))
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
	data := map[string]any{"B": b, "Type": camel(b.Name), "Pkg": pkg, "Argos": ArgosModule, "Path": b.ImportPath()}
	return writeAll(b.Root, []file{
		{path: filepath.Join(b.Dir, b.Name+".go"), tmpl: behaviorGo, data: data, gofmt: true},
		{path: filepath.Join(b.Dir, b.Name+"_test.go"), tmpl: behaviorTest, data: data, gofmt: true},
	})
}

// LoopFunctions describes loop functions to generate.
type LoopFunctions struct {
	// Name is the Go package name; the label is <name>_loop_functions.
	Name string
	// Root is the project's root and Module its module path: the package
	// goes to Root/loop_functions/Name.
	Root, Module string
}

// Label is the label of the loop functions in <loop_functions label>.
func (l LoopFunctions) Label() string { return l.Name + "_loop_functions" }

// ImportPath is the package's import path.
func (l LoopFunctions) ImportPath() string { return l.Module + "/loop_functions/" + l.Name }

// WriteLoopFunctions writes the loop functions package and its test.
func WriteLoopFunctions(l LoopFunctions) ([]string, error) {
	if err := checkName(l.Name); err != nil {
		return nil, err
	}
	data := map[string]any{"L": l, "Argos": ArgosModule}
	dir := filepath.Join("loop_functions", l.Name)
	return writeAll(l.Root, []file{
		{path: filepath.Join(dir, l.Name+".go"), tmpl: loopGo, data: data, gofmt: true},
		{path: filepath.Join(dir, l.Name+"_test.go"), tmpl: loopTest, data: data, gofmt: true},
	})
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

// writeAll renders the files under root. Nothing is written when one of
// them exists.
func writeAll(root string, files []file) ([]string, error) {
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f.path)); err == nil {
			return nil, fmt.Errorf("%w: %s; pick another name or remove it", ErrExists, f.path)
		}
	}
	var written []string
	for _, f := range files {
		var buf bytes.Buffer
		t := template.Must(template.New(f.path).Funcs(template.FuncMap{"quote": strconv.Quote, "camel": camel}).Parse(f.tmpl))
		if err := t.Execute(&buf, f.data); err != nil {
			return written, fmt.Errorf("scaffold: %s: %w", f.path, err)
		}
		out := buf.Bytes()
		if f.gofmt {
			var err error
			if out, err = format.Source(out); err != nil {
				return written, fmt.Errorf("scaffold: generated %s does not parse (a bug): %w\n%s", f.path, err, buf.Bytes())
			}
		}
		p := filepath.Join(root, f.path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, err
		}
		mode := f.mode
		if mode == 0 {
			mode = 0o644
		}
		if err := os.WriteFile(p, out, mode); err != nil {
			return written, err
		}
		written = append(written, f.path)
	}
	return written, nil
}

// ModulePath reads the module path from root/go.mod.
func ModulePath(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", fmt.Errorf("scaffold: %w: run argos new from the root of your project (where go.mod is), or make one with argos new project DIR", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest = strings.TrimSpace(rest)
			if i := strings.Index(rest, "//"); i >= 0 {
				rest = strings.TrimSpace(rest[:i])
			}
			if uq, err := strconv.Unquote(rest); err == nil {
				rest = uq
			}
			if rest != "" {
				return rest, nil
			}
		}
	}
	return "", fmt.Errorf("scaffold: %s has no module line", filepath.Join(root, "go.mod"))
}

// Register adds a blank import of importPath to the Go file main (a
// project's cmd/argos/main.go or cmd/robot/main.go), in its import
// block. It reports whether the file changed; an error means the line
// must be added by hand.
func Register(main, importPath string) (bool, error) {
	data, err := os.ReadFile(main)
	if err != nil {
		return false, err
	}
	line := "_ " + strconv.Quote(importPath)
	if bytes.Contains(data, []byte(strconv.Quote(importPath))) {
		return false, nil
	}
	start := bytes.Index(data, []byte("\nimport ("))
	if start < 0 {
		return false, fmt.Errorf("scaffold: %s has no import ( ... ) block", main)
	}
	end := bytes.Index(data[start:], []byte("\n)"))
	if end < 0 {
		return false, fmt.Errorf("scaffold: the import block of %s is not closed", main)
	}
	end += start
	// After the last blank import of the project's own packages, or at
	// the end of the block.
	at := end
	block := data[start:end]
	prefix := importPath
	if i := strings.LastIndex(prefix, "/"); i > 0 {
		prefix = prefix[:i]
	}
	if i := bytes.LastIndex(block, []byte("_ \""+prefix+"/")); i >= 0 {
		if j := bytes.IndexByte(block[i:], '\n'); j >= 0 {
			at = start + i + j
		}
	}
	out := append(append(append([]byte{}, data[:at]...), []byte("\n\t"+line)...), data[at:]...)
	if out, err = format.Source(out); err != nil {
		return false, fmt.Errorf("scaffold: %s does not parse after adding the import: %w", main, err)
	}
	return true, os.WriteFile(main, out, 0o644)
}
