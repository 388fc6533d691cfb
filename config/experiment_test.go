package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

// doc joins lines with newlines, so that tests can count lines.
func doc(lines ...string) []byte { return []byte(strings.Join(lines, "\n")) }

// minimal is the smallest valid experiment; tests replace single lines.
func minimal() []string {
	return []string{
		`<argos-configuration>`,                   // 1
		`  <framework>`,                           // 2
		`    <experiment ticks_per_second="10"/>`, // 3
		`  </framework>`,                          // 4
		`  <controllers/>`,                        // 5
		`  <arena size="1,1,1"/>`,                 // 6
		`</argos-configuration>`,                  // 7
	}
}

// with returns minimal() with line i (1-based) replaced by repl, which may
// hold several lines.
func with(i int, repl string) []byte {
	ls := minimal()
	ls[i-1] = repl
	return doc(ls...)
}

func TestParseMinimal(t *testing.T) {
	x, err := Parse("min.argos", doc(minimal()...))
	if err != nil {
		t.Fatal(err)
	}
	f := x.Framework
	if f.TicksPerSecond != 10 || f.Length != 0 || f.Threads != 0 || f.ThreadMethod != "" ||
		f.RandomSeed != 0 || f.RealTime || f.Ticks() != 0 || f.Node == nil || f.Node.Line != 2 {
		t.Errorf("framework defaults = %+v", f)
	}
	if x.File != "min.argos" || x.Root.Name != "argos-configuration" || len(x.Controllers) != 0 ||
		x.LoopFunctions != nil || x.Arena == nil || x.ArenaSize != (ci.Vector3{X: 1, Y: 1, Z: 1}) ||
		x.ArenaCenter != (ci.Vector3{}) || x.PhysicsEngines != nil || x.Media != nil ||
		x.Visualizations != nil || x.Warnings != nil {
		t.Errorf("experiment = %+v", x)
	}
}

func TestLoadFull(t *testing.T) {
	path := filepath.Join("testdata", "full.argos")
	x, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Framework{Threads: 4, ThreadMethod: "balance_length", Length: 12.5, TicksPerSecond: 10,
		RandomSeed: 42, RealTime: true, Node: x.Framework.Node}
	if x.Framework != want {
		t.Errorf("framework = %+v, want %+v", x.Framework, want)
	}
	if x.Framework.Ticks() != 125 {
		t.Errorf("Ticks() = %d, want 125", x.Framework.Ticks())
	}
	if len(x.Warnings) != 1 || !strings.HasPrefix(x.Warnings[0], path+":7: <profiling> is ignored") {
		t.Errorf("warnings = %q", x.Warnings)
	}

	if len(x.Controllers) != 2 {
		t.Fatalf("controllers = %d, want 2", len(x.Controllers))
	}
	c := x.Controllers[0]
	if c.Label != "footbot_foraging_controller" || c.ID != "ffc" || c.Library != "build/controllers/libfootbot_foraging" || c.Node.Line != 10 {
		t.Errorf("controller 0 = %+v", c)
	}
	devs := func(ds []Device) (out []string) {
		for _, d := range ds {
			out = append(out, d.Tag+"/"+d.Implementation)
		}
		return out
	}
	if got, want := devs(c.Actuators), []string{"differential_steering/default", "leds/default"}; !reflect.DeepEqual(got, want) {
		t.Errorf("actuators = %v, want %v", got, want)
	}
	if got, want := devs(c.Sensors), []string{"footbot_proximity/default", "positioning/default"}; !reflect.DeepEqual(got, want) {
		t.Errorf("sensors = %v, want %v", got, want)
	}
	if c.Sensors[0].Node.StringOr("show_rays", "") != "true" {
		t.Error("device nodes must keep their attributes")
	}
	wt, err := c.Params.Child("wheel_turning")
	if err != nil {
		t.Fatal(err)
	}
	if v, err := wt.Float("max_speed"); err != nil || v != 10 || wt.Where != path+":21" {
		t.Errorf("params wheel_turning max_speed = %v, %v at %s", v, err, wt.Where)
	}
	e := x.Controllers[1]
	if e.ID != "edc" || e.Library != "" || len(e.Actuators) != 0 || len(e.Sensors) != 0 {
		t.Errorf("controller 1 = %+v", e)
	}
	if e.Params.Name != "params" || e.Params.Where != path+":24" || e.Params.Attrs == nil || len(e.Params.Children) != 0 {
		t.Errorf("absent params = %#v", e.Params)
	}
	if x.FindController("edc") != e || x.FindController("nope") != nil {
		t.Error("FindController")
	}

	if lf := x.LoopFunctions; lf == nil || lf.Label != "foraging_loop_functions" || lf.Library != "build/loop_functions/libforaging" ||
		lf.Node.FirstChild("foraging") == nil {
		t.Errorf("loop functions = %+v", lf)
	}
	if x.ArenaSize != (ci.Vector3{X: 5, Y: 5, Z: 2}) || x.ArenaCenter != (ci.Vector3{Z: 1}) || len(x.Arena.Children) != 4 {
		t.Errorf("arena size %v center %v children %d", x.ArenaSize, x.ArenaCenter, len(x.Arena.Children))
	}
	names := func(ns []*Node) (out []string) {
		for _, n := range ns {
			out = append(out, n.Name)
		}
		return out
	}
	if got := names(x.PhysicsEngines); !reflect.DeepEqual(got, []string{"dynamics2d"}) {
		t.Errorf("physics engines = %v", got)
	}
	if got := names(x.Media); !reflect.DeepEqual(got, []string{"led", "range_and_bearing"}) {
		t.Errorf("media = %v", got)
	}
	if got := names(x.Visualizations); !reflect.DeepEqual(got, []string{"qt-opengl"}) {
		t.Errorf("visualizations = %v", got)
	}

	d, err := ParseDistribute(x.Arena.FirstChild("distribute"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Quantity != 6 || d.BaseNum != 10 || d.ID(0) != "fb10" || d.Template.Name != "foot-bot" {
		t.Errorf("distribute = %+v", d)
	}
}

// TestLoadTestdata loads every .argos file in testdata.
func TestLoadTestdata(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.argos"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { loadAndDistribute(t, f) })
	}
}

// TestLoadBench loads the scalability benchmark's experiments
// (experiments/scalability, see docs/benchmarks.md) and parses their
// <distribute> elements.
func TestLoadBench(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "experiments", "scalability", "*.argos"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no ../experiments/scalability/*.argos: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { loadAndDistribute(t, f) })
	}
}

func loadAndDistribute(t *testing.T, path string) {
	t.Helper()
	x, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if x.Framework.TicksPerSecond <= 0 || x.ArenaSize.X <= 0 {
		t.Errorf("implausible experiment: %+v", x.Framework)
	}
	for _, n := range x.Arena.ChildrenNamed("distribute") {
		d, err := ParseDistribute(n)
		if err != nil {
			t.Fatal(err)
		}
		if d.Quantity <= 0 || d.Template == nil {
			t.Errorf("distribute at %s: %+v", n.Where(), d)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.argos")
	_, err := Load(path)
	if err == nil {
		t.Fatal("no error")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %q must wrap fs.ErrNotExist", err)
	}
	for _, w := range []string{"config: ", path, "does not exist", "check the path"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	_, err = Load(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "is a directory, not a regular file") {
		t.Errorf("loading a directory: %v", err)
	}
}

func TestLoadBadContentIsError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.argos")
	if err := os.WriteFile(path, with(3, `    <experiment ticks_per_second="ten"/>`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	checkErr(t, err, path+`:3: <experiment>: attribute ticks_per_second="ten" is not an integer; write it like 10`)
}

func TestParseFramework(t *testing.T) {
	tests := []struct {
		name  string
		lines string // replaces line 3 of minimal()
		want  Framework
		warn  []string
	}{
		{"length", `<experiment length="60" ticks_per_second="10"/>`, Framework{Length: 60, TicksPerSecond: 10}, nil},
		{"rounded ticks", `<experiment length="0.29" ticks_per_second="10"/>`, Framework{Length: 0.29, TicksPerSecond: 10}, nil},
		{"seed", `<experiment ticks_per_second="5" random_seed="18446744073709551615"/>`, Framework{TicksPerSecond: 5, RandomSeed: 1<<64 - 1}, nil},
		{"real time", `<experiment ticks_per_second="5" real_time="true"/>`, Framework{TicksPerSecond: 5, RealTime: true}, nil},
		{"system", `<system threads="8" method="balance_quantity"/><experiment ticks_per_second="5"/>`,
			Framework{Threads: 8, ThreadMethod: "balance_quantity", TicksPerSecond: 5}, nil},
		{"pin threads", "<system threads=\"2\" pin_threads_to_cores=\"true\"/>\n<experiment ticks_per_second=\"5\"/>",
			Framework{Threads: 2, TicksPerSecond: 5}, []string{"x.argos:3: attribute pin_threads_to_cores of <system> is ignored"}},
		{"profiling", "<experiment ticks_per_second=\"5\"/>\n<profiling file=\"p\" format=\"table\"/>",
			Framework{TicksPerSecond: 5}, []string{"x.argos:4: <profiling> is ignored"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := Parse("x.argos", with(3, tt.lines))
			if err != nil {
				t.Fatal(err)
			}
			got := x.Framework
			got.Node = nil
			if got != tt.want {
				t.Errorf("framework = %+v, want %+v", got, tt.want)
			}
			if len(x.Warnings) != len(tt.warn) {
				t.Fatalf("warnings = %q, want %q", x.Warnings, tt.warn)
			}
			for i, w := range tt.warn {
				if !strings.HasPrefix(x.Warnings[i], w) {
					t.Errorf("warning %q does not start with %q", x.Warnings[i], w)
				}
			}
		})
	}
}

func TestFrameworkTicks(t *testing.T) {
	tests := []struct {
		f    Framework
		want int
	}{
		{Framework{TicksPerSecond: 10}, 0},
		{Framework{Length: 60, TicksPerSecond: 10}, 600},
		{Framework{Length: 0.29, TicksPerSecond: 10}, 3},
		{Framework{Length: 0.3, TicksPerSecond: 10}, 3},
		{Framework{Length: 1.0 / 3, TicksPerSecond: 3}, 1},
		{Framework{Length: 5}, 0},
	}
	for _, tt := range tests {
		if got := tt.f.Ticks(); got != tt.want {
			t.Errorf("%+v.Ticks() = %d, want %d", tt.f, got, tt.want)
		}
	}
}

func TestParseSections(t *testing.T) {
	x, err := Parse("x.argos", doc(
		`<argos-configuration>`,
		`  <framework><experiment ticks_per_second="10"/></framework>`,
		`  <controllers>`,
		`    <a_ctrl id="a"><params v="1"/></a_ctrl>`,
		`    <b_ctrl id="b" library="libb"/>`,
		`  </controllers>`,
		`  <loop_functions label="lf" output="out.txt"/>`,
		`  <arena size="2,3,4" center="1, 1.5, 2"><box id="b" size="1,1,1"/></arena>`,
		`  <physics_engines/>`,
		`  <media />`,
		`  <visualization/>`,
		`</argos-configuration>`,
	))
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Controllers) != 2 || x.Controllers[0].Label != "a_ctrl" || x.Controllers[1].ID != "b" ||
		x.Controllers[1].Library != "libb" || x.Controllers[0].Params.Attrs["v"] != "1" {
		t.Errorf("controllers = %+v", x.Controllers)
	}
	if x.LoopFunctions == nil || x.LoopFunctions.Label != "lf" || x.LoopFunctions.Library != "" {
		t.Errorf("loop functions = %+v", x.LoopFunctions)
	}
	if x.ArenaCenter != (ci.Vector3{X: 1, Y: 1.5, Z: 2}) || x.ArenaSize != (ci.Vector3{X: 2, Y: 3, Z: 4}) {
		t.Errorf("arena = %v %v", x.ArenaSize, x.ArenaCenter)
	}
	if len(x.PhysicsEngines) != 0 || len(x.Media) != 0 || len(x.Visualizations) != 0 {
		t.Error("empty sections must give empty lists")
	}
	if x.Arena.Children[0].Line != 8 {
		t.Errorf("arena child line %d", x.Arena.Children[0].Line)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name    string
		src     []byte
		wantErr []string
	}{
		// Root and sections.
		{"wrong root", doc(`<?xml version="1.0"?>`, `<argos>`, `</argos>`),
			[]string{"x.argos:2: <argos>: this is not an experiment file", "<argos-configuration>"}},
		{"unknown section", with(6, "  <arena size=\"1,1,1\"/>\n  <physics_engine/>"),
			[]string{"x.argos:7: <physics_engine>: unknown section (did you mean <physics_engines>?)", "<framework>, <controllers>", "<media> and <visualization>"}},
		{"duplicate section", with(5, "  <controllers/>\n  <controllers/>"),
			[]string{"x.argos:6: <controllers>: section <controllers> appears twice (first at line 5); keep only one"}},
		{"missing framework", doc(`<argos-configuration>`, `<controllers/>`, `<arena size="1,1,1"/>`, `</argos-configuration>`),
			[]string{"x.argos:1: <argos-configuration>: section <framework> is missing; add <framework>", "ticks_per_second"}},
		{"missing controllers", with(5, ""),
			[]string{"x.argos:1: <argos-configuration>: section <controllers> is missing; add <controllers>"}},
		{"missing arena", with(6, ""),
			[]string{"x.argos:1: <argos-configuration>: section <arena> is missing; add <arena size="}},

		// Framework.
		{"framework attribute", with(2, `  <framework threads="2">`),
			[]string{`x.argos:2: <framework>: unknown attribute "threads": <framework> takes no attributes`}},
		{"framework unknown child", with(3, "    <experiment ticks_per_second=\"10\"/>\n    <sytem/>"),
			[]string{"x.argos:4: <sytem>: unknown element inside <framework> (did you mean <system>?)", "<system>, <experiment> and <profiling>"}},
		{"framework duplicate", with(3, "    <experiment ticks_per_second=\"10\"/>\n    <experiment ticks_per_second=\"10\"/>"),
			[]string{"x.argos:4: <experiment>: <experiment> appears twice in <framework> (first at line 3)"}},
		{"missing experiment", with(3, `    <system/>`),
			[]string{"x.argos:2: <framework>: element <experiment> is missing; add <experiment ticks_per_second="}},
		{"missing ticks", with(3, `    <experiment length="10"/>`),
			[]string{`x.argos:3: <experiment>: attribute "ticks_per_second" is missing; add ticks_per_second="..." with an integer`}},
		{"ticks not integer", with(3, `    <experiment ticks_per_second="ten"/>`),
			[]string{`x.argos:3: <experiment>: attribute ticks_per_second="ten" is not an integer; write it like 10`}},
		{"ticks zero", with(3, `    <experiment ticks_per_second="0"/>`),
			[]string{`x.argos:3: <experiment>: attribute ticks_per_second="0": ticks_per_second must be positive`}},
		{"length bad", with(3, `    <experiment ticks_per_second="10" length="1min"/>`),
			[]string{`x.argos:3: <experiment>: attribute length="1min" is not a number`}},
		{"length negative", with(3, `    <experiment ticks_per_second="10" length="-1"/>`),
			[]string{`x.argos:3: <experiment>: attribute length="-1": the length must not be negative; write the duration in seconds, or 0 for no limit`}},
		{"length below a tick", with(3, `    <experiment ticks_per_second="10" length="0.01"/>`),
			[]string{`x.argos:3:`, `length="0.01": the experiment is shorter than one tick (0.1 s at ticks_per_second=10); write 0 for no limit or at least 0.1`}},
		{"length huge", with(3, `    <experiment ticks_per_second="10" length="1e300"/>`),
			[]string{`x.argos:3:`, `more than 2^53 ticks`}},
		{"seed negative", with(3, `    <experiment ticks_per_second="10" random_seed="-4"/>`),
			[]string{`x.argos:3: <experiment>: attribute random_seed="-4" is negative`}},
		{"real time bad", with(3, `    <experiment ticks_per_second="10" real_time="yes"/>`),
			[]string{`x.argos:3: <experiment>: attribute real_time="yes" is not a boolean; write true or false`}},
		{"experiment typo", with(3, `    <experiment ticks_per_second="10" lenght="5"/>`),
			[]string{`x.argos:3: <experiment>: unknown attribute "lenght" (did you mean "length"?); <experiment> accepts length, ticks_per_second, random_seed and real_time`}},
		{"threads negative", with(3, "<system threads=\"-1\"/>\n<experiment ticks_per_second=\"10\"/>"),
			[]string{`x.argos:3: <system>: attribute threads="-1": the number of threads must not be negative`}},
		{"threads bad", with(3, "<system threads=\"many\"/>\n<experiment ticks_per_second=\"10\"/>"),
			[]string{`x.argos:3: <system>: attribute threads="many" is not an integer`}},
		{"method bad", with(3, "<system threads=\"2\" method=\"balance_lenght\"/>\n<experiment ticks_per_second=\"10\"/>"),
			[]string{`x.argos:3: <system>: attribute method="balance_lenght": unknown threading method (did you mean "balance_length"?); write "balance_quantity" or "balance_length"`}},
		{"system typo", with(3, "<system thread=\"2\"/>\n<experiment ticks_per_second=\"10\"/>"),
			[]string{`x.argos:3: <system>: unknown attribute "thread" (did you mean "threads"?)`}},

		// Controllers.
		{"controllers attribute", with(5, `  <controllers x="1"/>`),
			[]string{`x.argos:5: <controllers>: unknown attribute "x"`}},
		{"controller without id", with(5, "  <controllers>\n    <e-puck_ctrl library=\"l\"/>\n  </controllers>"),
			[]string{`x.argos:6: <e-puck_ctrl>: attribute "id" is missing; add id="..."`}},
		{"controller empty id", with(5, "  <controllers>\n    <c id=\"\"/>\n  </controllers>"),
			[]string{`x.argos:6: <c id="">: attribute id="": the id is empty`}},
		{"controller unknown attribute", with(5, "  <controllers>\n    <c id=\"a\" libary=\"x\"/>\n  </controllers>"),
			[]string{`x.argos:6: <c id="a">: unknown attribute "libary" (did you mean "library"?); <c> accepts id and library`}},
		{"duplicate controller id", with(5, "  <controllers>\n    <c1 id=\"a\"/>\n\n    <c2 id=\"a\"/>\n  </controllers>"),
			[]string{`x.argos:8: <c2 id="a">: attribute id="a": this id is already used by <c1> at line 6; give each controller its own id`}},
		{"controller unknown child", with(5, "  <controllers>\n    <c id=\"a\">\n      <sensor/>\n    </c>\n  </controllers>"),
			[]string{`x.argos:7: <sensor> in <c id="a">: unknown element inside <c> (did you mean <sensors>?); the elements allowed there are <actuators>, <sensors> and <params>`}},
		{"controller duplicate child", with(5, "  <controllers>\n    <c id=\"a\">\n      <params/>\n      <params/>\n    </c>\n  </controllers>"),
			[]string{`x.argos:8: <params> in <c id="a">: <params> appears twice in <c> (first at line 7)`}},
		{"duplicate device", with(5, "  <controllers>\n    <c id=\"a\">\n      <sensors>\n        <positioning/>\n        <positioning/>\n      </sensors>\n    </c>\n  </controllers>"),
			[]string{`x.argos:9: <positioning> in <c id="a">: device <positioning> is declared twice in <sensors> (first at line 8)`}},
		{"empty implementation", with(5, "  <controllers>\n    <c id=\"a\">\n      <actuators>\n        <leds implementation=\"\"/>\n      </actuators>\n    </c>\n  </controllers>"),
			[]string{`x.argos:8: <leds> in <c id="a">: attribute implementation="": the implementation is empty; write implementation="default"`}},
		{"devices attribute", with(5, "  <controllers>\n    <c id=\"a\">\n      <actuators x=\"1\"/>\n    </c>\n  </controllers>"),
			[]string{`x.argos:7: <actuators> in <c id="a">: unknown attribute "x"`}},

		// Loop functions.
		{"loop functions without label", with(5, "  <controllers/>\n  <loop_functions library=\"l\"/>"),
			[]string{`x.argos:6: <loop_functions>: attribute "label" is missing; add label="..."`}},
		{"loop functions empty label", with(5, "  <controllers/>\n  <loop_functions label=\"\"/>"),
			[]string{`x.argos:6: <loop_functions>: attribute label="": the label is empty`}},

		// Arena.
		{"arena without size", with(6, `  <arena center="0,0,0"/>`),
			[]string{`x.argos:6: <arena>: attribute "size" is missing; add size="x,y,z" with three numbers`}},
		{"arena size negative", with(6, `  <arena size="1,-2,0.5"/>`),
			[]string{`x.argos:6: <arena>: attribute size="1,-2,0.5": sizes must be positive; write three positive numbers "x,y,z" in metres`}},
		{"arena size zero", with(6, `  <arena size="1,1,0"/>`),
			[]string{`x.argos:6: <arena>: attribute size="1,1,0": sizes must be positive`}},
		{"arena size malformed", with(6, `  <arena size="1,1"/>`),
			[]string{`x.argos:6: <arena>: attribute size="1,1" has 2 comma-separated values; write three numbers "x,y,z"`}},
		{"arena center malformed", with(6, `  <arena size="1,1,1" center="a,b,c"/>`),
			[]string{`x.argos:6: <arena>: attribute center="a,b,c": "a" is not a number`}},

		// XML problems surface through Parse too.
		{"truncated", doc(minimal()[:4]...), []string{"x.argos:1:", "<argos-configuration> is never closed", "truncated"}},
		{"malformed", with(4, "  </framework"), []string{"x.argos:", "malformed XML"}},
		{"empty", nil, []string{"x.argos: the file is empty"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := Parse("x.argos", tt.src)
			if x != nil {
				t.Errorf("Parse returned an experiment with error %v", err)
			}
			checkErr(t, err, tt.wantErr...)
		})
	}
}

func TestParseRootAttributesWarn(t *testing.T) {
	x, err := Parse("x.argos", with(1, `<argos-configuration xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">`))
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Warnings) != 1 || !strings.HasPrefix(x.Warnings[0], `x.argos:1: attribute "xmlns:xsi" of <argos-configuration> is ignored`) {
		t.Errorf("warnings = %q", x.Warnings)
	}
}
