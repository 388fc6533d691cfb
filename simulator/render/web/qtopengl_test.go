package web_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/render/web"
	"github.com/sirupsen/logrus"
)

// An ARGoS 3 file with <qt-opengl> opens the web viewer and logs its
// address; its camera placements become the page's presets (ARGoS's field
// of view for the focal length, the up vector given or derived), the page
// opens in 3D; what does not map is ignored with a debug line.
func TestQtOpenGLOpensTheViewer(t *testing.T) {
	var logged bytes.Buffer
	log := logrus.New()
	log.SetOutput(&logged)
	log.SetLevel(logrus.DebugLevel)
	sim, _ := start(t, testExperiment(t, "qtopengl.argos"), simulator.Options{Logger: log})
	if len(sim.Visualizations()) != 1 {
		t.Fatalf("%d visualizations", len(sim.Visualizations()))
	}
	v, ok := sim.Visualizations()[0].(*web.Viewer)
	if !ok {
		t.Fatalf("<qt-opengl> made a %T", sim.Visualizations()[0])
	}
	out := logged.String() // written before the run started
	if !strings.Contains(out, "open "+v.URL()+" in a browser") {
		t.Errorf("the log does not give the address:\n%s", out)
	}
	for _, w := range []string{"lua_editor", "<timeline>", "<frame_grabbing>"} {
		if !strings.Contains(out, w) || !strings.Contains(out, "level=debug") {
			t.Errorf("no debug line about %s:\n%s", w, out)
		}
	}
	if strings.Contains(out, "level=warn") {
		t.Errorf("an ARGoS file draws warnings:\n%s", out)
	}
	b := dial(t, v)
	sc := b.wait("scene", func(m map[string]any) bool { return m["t"] == "scene" })
	if sc["view"] != "3d" {
		t.Errorf("view %v, want 3d", sc["view"])
	}
	cams := sc["cameras"].([]any)
	if len(cams) != 2 {
		t.Fatalf("cameras %v", cams)
	}
	c0, c1 := cams[0].(map[string]any), cams[1].(map[string]any)
	vec := func(c map[string]any, k string) [3]float64 {
		a := c[k].([]any)
		return [3]float64{a[0].(float64), a[1].(float64), a[2].(float64)}
	}
	near := func(a, b [3]float64) bool { return math.Hypot(math.Hypot(a[0]-b[0], a[1]-b[1]), a[2]-b[2]) < 1e-6 }
	if c0["index"].(float64) != 0 || !near(vec(c0, "position"), [3]float64{0, 0, 13}) || !near(vec(c0, "up"), [3]float64{1, 0, 0}) {
		t.Errorf("camera 0: %v", c0)
	}
	// ARGoS: fovy = 2 atan(27 mm / 2 / focal length)
	if f := c0["fovy"].(float64); math.Abs(f-2*math.Atan(13.5/65)*180/math.Pi) > 1e-9 {
		t.Errorf("camera 0: fovy %g for 65 mm", f)
	}
	if f := c1["fovy"].(float64); math.Abs(f-2*math.Atan(13.5/20)*180/math.Pi) > 1e-9 {
		t.Errorf("camera 1: fovy %g for 20 mm", f)
	}
	// camera 1 has no up: it does not roll, up is across the view and upward
	up, pos, at := vec(c1, "up"), vec(c1, "position"), vec(c1, "look_at")
	fwd := [3]float64{at[0] - pos[0], at[1] - pos[1], at[2] - pos[2]}
	if d := up[0]*fwd[0] + up[1]*fwd[1] + up[2]*fwd[2]; math.Abs(d) > 1e-9 || up[2] <= 0 || math.Abs(up[1]) > 1e-9 {
		t.Errorf("camera 1: up %v for a camera looking along %v", up, fwd)
	}
}

// argos -z skips <qt-opengl> as it skips <web>.
func TestQtOpenGLHeadless(t *testing.T) {
	sim, err := simulator.New(testExperiment(t, "qtopengl.argos"), simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	if n := len(sim.Visualizations()); n != 0 {
		t.Fatalf("headless: %d visualizations", n)
	}
}

// Camera placements that cannot be shown stop the run with a message that
// says where and what to write.
func TestQtOpenGLCameraErrors(t *testing.T) {
	for _, c := range []struct{ camera, want string }{
		{`<placements><placement index="12" position="1,1,1" look_at="0,0,0"/></placements>`, `0 to 11`},
		{`<placements><placement index="1" position="1,1,1" look_at="0,0,0"/><placement index="1" position="2,1,1" look_at="0,0,0"/></placements>`, "a second placement 1"},
		{`<placements><placement index="0" position="1,1,1" look_at="1,1,1"/></placements>`, "same point"},
		{`<placements><placement index="0" position="0,0,5" look_at="0,0,0" up="0,0,1"/></placements>`, "across the viewing direction"},
		{`<placements><placement index="0" position="0,0,5" look_at="0,0,0" lens_focal_length="0"/></placements>`, "positive length in millimetres"},
		{`<placements><placement index="0" position="0,0,5" look_at="0,0,0" zoom="2"/></placements>`, "zoom"},
		{`<placements><placement position="0,0,5" look_at="0,0,0"/></placements>`, "index"},
	} {
		xml := `<?xml version="1.0"?><argos-configuration>
  <framework><experiment length="0" ticks_per_second="10" random_seed="1"/></framework>
  <controllers><web_test_still id="s"/></controllers>
  <arena size="2,2,1"/>
  <physics_engines><dynamics2d id="d"/></physics_engines>
  <visualization><qt-opengl port="0">
    <camera>` + c.camera + `</camera>
  </qt-opengl></visualization>
</argos-configuration>`
		exp, err := config.Parse("cam.argos", []byte(xml))
		if err != nil {
			t.Fatal(err)
		}
		sim, err := simulator.New(exp, simulator.Options{})
		if err == nil {
			sim.Close()
			t.Errorf("%s: accepted", c.camera)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "cam.argos:7") {
			t.Errorf("%s: %v (want %q at cam.argos:7)", c.camera, err, c.want)
		}
	}
	// the placements of ARGoS before beta 48, directly under <camera>
	xml := `<?xml version="1.0"?><argos-configuration>
  <framework><experiment length="0" ticks_per_second="10" random_seed="1"/></framework>
  <controllers><web_test_still id="s"/></controllers>
  <arena size="2,2,1"/>
  <physics_engines><dynamics2d id="d"/></physics_engines>
  <visualization><qt-opengl port="0" autoplay="true"><camera><placement idx="3" position="2,2,2" look_at="1,1,1"/></camera></qt-opengl></visualization>
</argos-configuration>`
	exp, err := config.Parse("old.argos", []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	_, v := start(t, exp)
	b := dial(t, v)
	sc := b.wait("scene", func(m map[string]any) bool { return m["t"] == "scene" })
	if cams := sc["cameras"].([]any); len(cams) != 1 || cams[0].(map[string]any)["index"].(float64) != 3 {
		t.Errorf("old-style placement: %v", cams)
	}
}
