package simulator_test

import (
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// drawRecorder is user functions that note what happens to them and draw
// one of each item.
type drawRecorder struct {
	simulator.UserFunctionsBase
	sim    *simulator.Simulator
	calls  []string
	keys   []string
	param  string
	frames int
}

func (u *drawRecorder) Init(sim *simulator.Simulator, n *config.Node) error {
	u.sim = sim
	u.param = n.StringOr("library", "")
	u.calls = append(u.calls, "init")
	return nil
}

func (u *drawRecorder) DrawInWorld(c *simulator.Canvas) {
	u.frames++
	c.Point(ci.Vector3{X: 0.1}, ci.Red, 3)
	c.Line(ci.Vector3{}, ci.Vector3{X: 1}, ci.Green, 0)
	c.Polyline([]ci.Vector3{{}, {X: 1}, {X: 1, Y: 1}}, ci.Blue, 2)
	c.Polyline([]ci.Vector3{{}}, ci.Blue, 2) // too short: nothing
	c.Circle(ci.Vector3{}, 0.5, ci.White, true)
	c.Circle(ci.Vector3{}, -1, ci.White, true) // nothing
	c.Box(ci.Vector3{}, ci.Vector3{X: 1, Y: 1, Z: 1}, 0.5, ci.Yellow, false)
	c.Text(ci.Vector3{}, "hello", ci.White)
	c.RobotText("fb0", "fb0", ci.White)
	c.RobotColor("fb0", ci.Magenta)
}
func (u *drawRecorder) EntitySelected(id string)   { u.calls = append(u.calls, "select "+id) }
func (u *drawRecorder) EntityDeselected(id string) { u.calls = append(u.calls, "deselect "+id) }
func (u *drawRecorder) KeyPressed(k simulator.Key) { u.keys = append(u.keys, "+"+string(k)) }
func (u *drawRecorder) KeyReleased(k simulator.Key) {
	u.keys = append(u.keys, "-"+string(k))
}
func (u *drawRecorder) Reset()         { u.calls = append(u.calls, "reset") }
func (u *drawRecorder) Destroy() error { u.calls = append(u.calls, "destroy"); return nil }

func init() {
	simulator.UserFunctionsTypes.MustRegister("test_recorder_user_functions", "test: records its calls",
		func() simulator.UserFunctions { return &drawRecorder{} })
}

const userFuncsXML = `<?xml version="1.0"?>
<argos-configuration>
  <framework><experiment length="1" ticks_per_second="10" random_seed="3"/></framework>
  <controllers>
    <test_constant id="c"><actuators><differential_steering implementation="default"/></actuators><params left="5" right="5"/></test_constant>
  </controllers>
  <arena size="3,3,1" center="0,0,0.5">
    <foot-bot id="fb0"><body position="0,0,0" orientation="0,0,0"/><controller config="c"/></foot-bot>
  </arena>
  <physics_engines><dynamics2d id="dyn"/></physics_engines>
  <visualization>VIZ</visualization>
</argos-configuration>`

func TestUserFunctions(t *testing.T) {
	xml := strings.Replace(userFuncsXML, "VIZ", `<qt-opengl><camera/><user_functions label="test_recorder_user_functions" library="libx.so"/></qt-opengl>`, 1)
	exp, err := config.Parse("uf.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	// headless: the <qt-opengl> viewer is skipped, its user functions
	// still serve the frames
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	u, ok := sim.UserFunctions().(*drawRecorder)
	if !ok || u.sim != sim || u.param != "libx.so" {
		t.Fatalf("user functions %T not initialised with the simulator and their node", sim.UserFunctions())
	}
	var c simulator.Canvas
	if !sim.DrawUser(&c) {
		t.Fatal("DrawUser says there are no user functions")
	}
	kinds := ""
	for _, it := range c.Items() {
		kinds += string('0' + rune(it.Kind))
	}
	if kinds != "12234567" {
		t.Errorf("item kinds %q, want point, line, polyline, circle, box, text, robot text, robot colour", kinds)
	}
	if it := c.Items()[2]; len(it.Points) != 3 || it.Width != 2 || it.Color != ci.Blue {
		t.Errorf("polyline %+v", it)
	}
	if it := c.Items()[1]; it.Width != 1 {
		t.Errorf("a line of width 0 is %g pixels wide, want 1", it.Width)
	}
	if !sim.DrawUser(&c) || len(c.Items()) != 8 {
		t.Errorf("a second frame does not start empty: %d items", len(c.Items()))
	}
	sim.SelectEntity("fb0")
	sim.SelectEntity("fb0") // no news
	sim.SelectEntity("")
	sim.PressKey(simulator.KeyUp, true)
	sim.PressKey(simulator.KeyUp, false)
	if err := sim.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(u.calls, ","); got != "init,select fb0,deselect fb0,reset,destroy" {
		t.Errorf("calls %s", got)
	}
	if got := strings.Join(u.keys, ","); got != "+ArrowUp,-ArrowUp" {
		t.Errorf("keys %s", got)
	}
}

func TestUserFunctionsErrors(t *testing.T) {
	for viz, want := range map[string]string{
		`<web port="0"><user_functions/></web>`:                          "needs label",
		`<frames><user_functions label="nope"/></frames>`:                `unknown user functions "nope"`,
		`<qt-opengl><user_functions label="x" color="red"/></qt-opengl>`: "color",
		`<qt-opengl><user_functions label="test_recorder_user_functions"/></qt-opengl><frames><user_functions label="test_recorder_user_functions"/></frames>`: "a second <user_functions>",
	} {
		exp, err := config.Parse("uf.argos", []byte(strings.Replace(userFuncsXML, "VIZ", viz, 1)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = simulator.New(exp, simulator.Options{Headless: true})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "uf.argos:") {
			t.Errorf("%s: %v; want a file:line error mentioning %q", viz, err, want)
		}
	}
	// A headless run ignores unknown user functions of a viewer, as it
	// ignores the viewer.
	exp, _ := config.Parse("uf.argos", []byte(strings.Replace(userFuncsXML, "VIZ", `<qt-opengl><user_functions label="not_ported"/></qt-opengl>`, 1)))
	if sim, err := simulator.New(exp, simulator.Options{Headless: true}); err != nil {
		t.Errorf("headless, unknown user functions of <qt-opengl>: %v", err)
	} else {
		sim.Close()
	}
	// Without user functions, drawing costs nothing and says so.
	exp, _ = config.Parse("uf.argos", []byte(strings.Replace(userFuncsXML, "VIZ", "", 1)))
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	var c simulator.Canvas
	if sim.DrawUser(&c) || sim.UserFunctions() != nil {
		t.Error("user functions without a <user_functions> element")
	}
	sim.SelectEntity("fb0") // harmless without user functions
	if sim.Selected() != "fb0" {
		t.Errorf("Selected() = %q", sim.Selected())
	}
	if n := testing.AllocsPerRun(100, func() { sim.DrawUser(&c) }); n != 0 {
		t.Errorf("DrawUser without user functions allocates %g times", n)
	}
}
