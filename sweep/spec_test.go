package sweep_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/sweep"
)

// writeSpec writes a sweep file next to a copy of the test experiment and
// returns its path.
func writeSpec(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	exp, err := os.ReadFile(filepath.Join("testdata", "diffusion.argos"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "diffusion.argos"), exp, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSpecErrorsAtFileLine(t *testing.T) {
	const head = "experiment: diffusion.argos\n"
	const param = "parameters:\n  - name: velocity\n    path: controllers/*/params@velocity\n    values: [1, 2]\n"
	cases := []struct {
		name, text string
		line       int
		want       string
	}{
		{"unknown element", head + "parameters:\n  - name: v\n    path: controllers/footbot_difusion_controller/params@velocity\n    values: [1]\nseeds: [1]\n",
			3, `no element matches "footbot_difusion_controller" under <controllers>; the children there are <footbot_diffusion_controller id="fdc">`},
		{"unknown id", head + "parameters:\n  - name: v\n    path: controllers/*[id=nope]/params@velocity\n    values: [1]\nseeds: [1]\n",
			3, `no element matches "*[id=nope]"`},
		{"index past the end", head + "parameters:\n  - name: n\n    path: arena/distribute[2]/entity@quantity\n    values: [1]\nseeds: [1]\n",
			3, `no element matches "distribute[2]" under <arena>`},
		{"ambiguous", head + "parameters:\n  - name: w\n    path: arena/box@size\n    values: [1]\nseeds: [1]\n",
			3, "4 elements match"},
		{"no attribute", head + "parameters:\n  - name: w\n    path: arena/box\n    values: [1]\nseeds: [1]\n",
			4, "neither an attribute"},
		{"range min above max", head + "parameters:\n  - name: a\n    path: controllers/*/params@alpha\n    range: {min: 10, max: 1, step: 1}\nseeds: [1]\n",
			5, "the range is empty: min 10 is above max 1"},
		{"range count 0", head + "parameters:\n  - name: a\n    path: controllers/*/params@alpha\n    range: {min: 1, max: 10, count: 0}\nseeds: [1]\n",
			5, "count 0: the range is empty"},
		{"empty values", head + "parameters:\n  - name: a\n    path: controllers/*/params@alpha\n    values: []\nseeds: [1]\n",
			5, "values: is empty"},
		{"no values", head + "parameters:\n  - name: a\n    path: controllers/*/params@alpha\nseeds: [1]\n",
			3, "give its values"},
		{"seed zero", head + param + "seeds: [1, 0]\n", 6, `seeds: "0" is not a seed`},
		{"seed negative", head + param + "seeds: [-3]\n", 6, `seeds: "-3" is not a seed`},
		{"seed not a number", head + param + "seeds: [1, two]\n", 6, `seeds: "two" is not a seed`},
		{"seed twice", head + param + "seeds:\n  - 4\n  - 5\n  - 4\n", 9, "seeds: 4 is listed twice (first at line 7)"},
		{"seeds empty", head + param + "seeds: []\n", 6, "the list is empty"},
		{"seeds missing", head + param, 1, "seeds: is missing"},
		{"seed range count 0", head + param + "seeds: {from: 1, count: 0}\n", 6, `seeds count: "0" is not a whole number of at least 1`},
		{"unknown key", head + param + "seeds: [1]\nmetrcs: [coverage]\n", 7, `unknown key "metrcs" (did you mean "metrics"?)`},
		{"duplicate parameter", head + param + "  - name: velocity\n    path: controllers/*/params@alpha\n    values: [1]\nseeds: [1]\n", 6, `parameter "velocity" is declared twice (first at line 3)`},
		{"reserved name", head + "parameters:\n  - name: seed\n    path: controllers/*/params@alpha\n    values: [1]\nseeds: [1]\n", 3, "is a column of the table"},
		{"bad reduce", head + param + "seeds: [1]\nmetrics:\n  - {metric: coverage, reduce: median}\n", 8, `metric reduce "median"`},
		{"bad yaml", head + "parameters: [\n", 2, "not valid YAML"},
		{"missing experiment", param + "seeds: [1]\n", 1, "experiment: is missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeSpec(t, c.text)
			_, err := sweep.Load(path)
			if err == nil {
				t.Fatal("no error")
			}
			want := "sweep: " + path + ":" + itoa(c.line) + ": "
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q\ndoes not start with %q", err, want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q\ndoes not say %q", err, c.want)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func atof(t *testing.T, s string) float64 {
	t.Helper()
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPlanGridAndRandom(t *testing.T) {
	path := writeSpec(t, `experiment: diffusion.argos
parameters:
  - name: velocity
    path: controllers/*/params@velocity
    range: {min: 2, max: 6, step: 2}
  - name: n
    path: arena/distribute/entity@quantity
    values: [3, 5]
seeds: {from: 7, count: 2}
`)
	s, err := sweep.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sweep.NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Cells) != 12 {
		t.Fatalf("%d cells, want 3 x 2 x 2 = 12", len(p.Cells))
	}
	want := []struct {
		v, n string
		seed uint64
	}{{"2", "3", 7}, {"2", "3", 8}, {"2", "5", 7}, {"2", "5", 8}, {"4", "3", 7}}
	for i, w := range want {
		c := p.Cells[i]
		if c.Values[0] != w.v || c.Values[1] != w.n || c.Seed != w.seed || c.Config != i/2 {
			t.Errorf("cell %d = %+v, want velocity %s n %s seed %d", i, c, w.v, w.n, w.seed)
		}
	}
	exp, err := p.CellExperiment(p.Cells[3])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`velocity="2"`, `quantity="5"`, `random_seed="8"`} {
		if !strings.Contains(string(exp), s) {
			t.Errorf("cell 3's experiment lacks %s", s)
		}
	}

	rnd := writeSpec(t, `experiment: diffusion.argos
design: random
samples: 50
sample_seed: 3
parameters:
  - name: velocity
    path: controllers/*/params@velocity
    range: {min: 1, max: 20}
  - name: delta
    path: controllers/*/params@delta
    range: {min: 0.01, max: 1}
    log: true
  - name: n
    path: arena/distribute/entity@quantity
    range: {min: 2, max: 6}
    type: int
seeds: [1]
`)
	plans := make([]*sweep.Plan, 2)
	for k := range plans {
		s, err := sweep.Load(rnd)
		if err != nil {
			t.Fatal(err)
		}
		if plans[k], err = sweep.NewPlan(s); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for i, c := range plans[0].Cells {
		if strings.Join(c.Values, ",") != strings.Join(plans[1].Cells[i].Values, ",") {
			t.Fatalf("random design differs between two plans of the same file at cell %d", i)
		}
		v, d, n := atof(t, c.Values[0]), atof(t, c.Values[1]), atof(t, c.Values[2])
		if v < 1 || v > 20 || d < 0.01 || d > 1 || n < 2 || n > 6 || n != float64(int(n)) {
			t.Errorf("cell %d: %v outside the ranges", i, c.Values)
		}
		seen[c.Values[2]] = true
	}
	if len(seen) != 5 {
		t.Errorf("the int parameter took %d of the 5 values in 50 samples", len(seen))
	}
}

// Values are written into the experiment's text: comments, quotes and
// layout stay, an absent attribute is added, a renamed element keeps its
// children and gets its end tag renamed too.
func TestPathsEditTheText(t *testing.T) {
	path := writeSpec(t, `experiment: diffusion.argos
parameters:
  - {name: alpha, path: "controllers/*[id=fdc]/params@alpha", values: ["1<2"]}
  - {name: gain, path: "controllers/*/params@gain", values: ["3"]}
  - {name: engine, path: "physics_engines/*[1]/name()", values: [kinematics2d]}
  - {name: grid, path: loop_functions@cell, values: ["0.5"]}
seeds: [9]
`)
	dir := filepath.Dir(path)
	base := string(readFile(t, filepath.Join(dir, "diffusion.argos")))
	base = strings.Replace(base, `<params alpha="7.5" delta="0.1" velocity="5" />`,
		`<!-- <params alpha="0"/> is not this one --> <params alpha='7.5' delta="0.1" velocity="5" />`, 1)
	base = strings.Replace(base, `<dynamics2d id="dyn2d" />`, "<dynamics2d id=\"dyn2d\">\n      <!-- </dynamics2d> -->\n    </dynamics2d>", 1)
	if err := os.WriteFile(filepath.Join(dir, "diffusion.argos"), []byte(base), 0o644); err != nil {
		t.Fatal(err)
	}
	p := plan(t, path)
	exp, err := p.CellExperiment(p.Cells[0])
	if err != nil {
		t.Fatal(err)
	}
	got := string(exp)
	for _, want := range []string{
		`<!-- <params alpha="0"/> is not this one --> <params alpha='1&lt;2' delta="0.1" velocity="5" gain="3" />`,
		"<kinematics2d id=\"dyn2d\">\n      <!-- </dynamics2d> -->\n    </kinematics2d>",
		`<loop_functions label="coverage_loop_functions" cell="0.5" />`,
		`random_seed="9"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the cell's experiment lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != strings.Count(base, "\n") {
		t.Error("the edits moved lines")
	}
}
