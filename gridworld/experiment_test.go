package gridworld_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/walk"
)

func TestLoadShippedTestdata(t *testing.T) {
	x, err := gridworld.Load(filepath.Join("testdata", "task_small.argos"))
	must(t, err)
	if x.Grid != gridworld.Grid2D(50, 50, true) || x.Program != "task_allocation" || x.Agents != 100 || x.Radius != 2 {
		t.Errorf("task_small.argos: grid %v, program %q, %d agents, radius %d", x.Grid, x.Program, x.Agents, x.Radius)
	}
	if x.Rounds() != 200 || x.Framework.Threads != 2 || x.Framework.RandomSeed != 11 {
		t.Errorf("task_small.argos: %d rounds, %d threads, seed %d", x.Rounds(), x.Framework.Threads, x.Framework.RandomSeed)
	}
	x, err = gridworld.Load(filepath.Join("testdata", "density_3d.argos"))
	must(t, err)
	if x.Grid != gridworld.Grid3D(20, 20, 10, true) || x.Rounds() != 0 || len(x.Visualizations) != 1 {
		t.Errorf("density_3d.argos: grid %v, %d rounds, %d visualizations", x.Grid, x.Rounds(), len(x.Visualizations))
	}
	if !gridworld.IsGrid([]byte(mustRead(t, filepath.Join("testdata", "density_3d.argos")))) {
		t.Error("IsGrid says density_3d.argos is not a grid world")
	}
	if gridworld.IsGrid([]byte(`<argos-configuration><arena size="1,1,1"><box id="grid"/></arena></argos-configuration>`)) {
		t.Error("IsGrid says a robot arena is a grid world")
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return string(b)
}

// exp builds an experiment file around an arena and a framework.
func exp(framework, arena string) string {
	if framework == "" {
		framework = `<experiment length="10" random_seed="1"/>`
	}
	return "<argos-configuration>\n<framework>\n" + framework + "\n</framework>\n<arena>\n" + arena + "\n</arena>\n</argos-configuration>\n"
}

// Bad input gets one error that says file:line, what is wrong and what
// to write.
func TestBadInputSaysWhere(t *testing.T) {
	_ = walk.Exclusive{} // the random_walk program is registered
	agents := `<agents program="density_estimation" quantity="10"/>`
	for _, c := range []struct {
		name, file string
		want       string // regexp the error must match
	}{
		{"grid of size 0", exp("", `<grid size="0,10"/>`+"\n"+agents), `^exp\.argos:6: <grid>: attribute size="0,10": .*at least 1 vertex`},
		{"grid of size 0 in 3D", exp("", `<grid size="10,10,0"/>`+"\n"+agents), `^exp\.argos:6: <grid>: attribute size=.*z`},
		{"radius larger than the grid", exp("", `<grid size="10,10"/>`+"\n"+`<agents program="density_estimation" quantity="10" radius="5"/>`), `^exp\.argos:7: <agents>: attribute radius="5": .*at most 4`},
		{"more agents than a bounded grid holds", exp("", `<grid size="10,10" torus="false"/>`+"\n"+`<agents program="random_walk" quantity="101" radius="2">`+"\n"+`<params exclusive="true"/></agents>`), `^exp\.argos:7: <agents>: attribute quantity="101": 101 agents do not fit .*100 vertices`},
		{"exclusive walk needs radius 2", exp("", `<grid size="10,10"/>`+"\n"+`<agents program="random_walk" quantity="10" radius="1"><params exclusive="true"/></agents>`), `^exp\.argos:7: <agents>: .*radius="2"`},
		{"unknown program", exp("", `<grid size="10,10"/>`+"\n"+`<agents program="density_estimator" quantity="10"/>`), `^exp\.argos:7: <agents>: attribute program="density_estimator": .*unknown grid program.*density_estimation`},
		{"misspelled parameter", exp("", `<grid size="10,10"/>`+"\n"+`<agents program="density_estimation" quantity="10">`+"\n"+`<params round="5"/></agents>`), `exp\.argos:8: <params>: unknown attribute "round" \(did you mean "rounds"\?\)`},
		{"bad parameter value", exp("", `<grid size="10,10"/>`+"\n"+`<agents program="density_estimation" quantity="10">`+"\n"+`<params rounds="0"/></agents>`), `exp\.argos:8: <params>: attribute rounds="0": .*at least 1`},
		{"no grid", exp("", agents), `^exp\.argos:5: <arena>: element <grid> is missing`},
		{"two grids", exp("", `<grid size="10,10"/>`+"\n"+`<grid size="10,10"/>`+"\n"+agents), `^exp\.argos:7: <grid>: <grid> appears twice`},
		{"size not a number", exp("", `<grid size="10,ten"/>`+"\n"+agents), `^exp\.argos:6: <grid>: attribute size="10,ten": "ten" is not a whole number`},
		{"four sizes", exp("", `<grid size="1,2,3,4"/>`+"\n"+agents), `^exp\.argos:6: <grid>: attribute size="1,2,3,4": write two sizes`},
		{"zero agents", exp("", `<grid size="10,10"/>`+"\n"+`<agents program="density_estimation" quantity="0"/>`), `^exp\.argos:7: <agents>: attribute quantity="0"`},
		{"a robot in the arena", exp("", `<grid size="10,10"/>`+"\n"+agents+"\n"+`<foot-bot id="fb"/>`), `^exp\.argos:8: <foot-bot id="fb">: unknown element inside <arena>`},
		{"negative length", exp(`<experiment length="-1"/>`, `<grid size="10,10"/>`+"\n"+agents), `^exp\.argos:3: <experiment>: attribute length="-1"`},
		{"a controller", strings.Replace(exp("", `<grid size="10,10"/>`+"\n"+agents), "<arena>", "<controllers><c id=\"x\"/></controllers>\n<arena>", 1), `^exp\.argos:5: <controllers>: a grid world has no controllers`},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := gridworld.Parse("exp.argos", []byte(c.file))
			if err == nil {
				_, err = x.Build(1, 0)
			}
			if err == nil {
				t.Fatalf("no error for\n%s", c.file)
			}
			if !regexp.MustCompile(c.want).MatchString(err.Error()) {
				t.Errorf("error\n  %v\ndoes not match\n  %s", err, c.want)
			}
		})
	}
}

func TestExperimentBuildsItsProgram(t *testing.T) {
	x, err := gridworld.Load(filepath.Join("testdata", "walk_bounded.argos"))
	must(t, err)
	inst, err := x.Build(x.Framework.RandomSeed, 2)
	must(t, err)
	if inst.Config().Agents != 120 || inst.Config().Capacity != 1 || inst.Config().Threads != 2 {
		t.Errorf("built %+v", inst.Config())
	}
	for range 5 {
		must(t, inst.Step())
		for v, n := range inst.Occupancy(nil) {
			if n > 1 {
				t.Fatalf("round %d: vertex %d holds %d agents of an exclusive walk", inst.Round(), v, n)
			}
		}
	}
}
