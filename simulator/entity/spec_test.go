package entity_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// experimentHead puts the arena's children from line 5 of "exp.argos".
const experimentHead = `<argos-configuration>
  <framework><experiment ticks_per_second="10" /></framework>
  <controllers />
  <arena size="10,10,1" center="0,0,0.5">
`

const firstArenaLine = 5

// arenaNodes parses an experiment whose arena holds the given XML and
// returns the arena's children.
func arenaNodes(t *testing.T, arena string) []*config.Node {
	t.Helper()
	x, err := config.Parse("exp.argos", []byte(experimentHead+arena+"\n  </arena>\n</argos-configuration>\n"))
	if err != nil {
		t.Fatalf("config.Parse: %v", err)
	}
	return x.Arena.Children
}

// parse parses the single entity of the arena snippet through the
// registry, as the simulator does.
func parse(t *testing.T, arena string) (*entity.Spec, error) {
	t.Helper()
	nodes := arenaNodes(t, arena)
	if len(nodes) != 1 {
		t.Fatalf("snippet has %d elements, want 1", len(nodes))
	}
	p, err := entity.Types.Lookup(nodes[0].Name)
	if err != nil {
		t.Fatalf("Lookup(%q): %v", nodes[0].Name, err)
	}
	return p(nodes[0])
}

func TestTypesRegistered(t *testing.T) {
	for _, tag := range []string{"box", "cylinder", "light", "foot-bot", "e-puck"} {
		if _, err := entity.Types.Lookup(tag); err != nil {
			t.Errorf("Lookup(%q): %v", tag, err)
		}
	}
	for _, e := range entity.Types.Entries() {
		if e.Description == "" {
			t.Errorf("%s has no description", e.Name)
		}
	}
}

func TestParseBox(t *testing.T) {
	tests := []struct {
		name, xml string
		want      space.Body
		posed     bool
		tilt      [2]float64 // pitch, roll
	}{
		{
			name: "static wall",
			xml: `<box id="wall" size="2,0.1,0.5" movable="false">
			        <body position="1,-2,0" orientation="90,0,0" />
			      </box>`,
			want: space.Body{ID: "wall", Type: "box", Shape: space.Box, Half: ci.Vector2{X: 1, Y: 0.05},
				Radius: math.Hypot(1, 0.05), Height: 0.5, Pos: ci.Vector2{X: 1, Y: -2}, Yaw: math.Pi / 2},
			posed: true,
		},
		{
			name: "movable box, default mass, yaw normalized",
			xml: `<box id="b" size="0.2,0.3,0.1" movable="true">
			        <body position="0,0,0" orientation="270,0,0" />
			      </box>`,
			want: space.Body{ID: "b", Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.1, Y: 0.15},
				Radius: math.Hypot(0.1, 0.15), Height: 0.1, Yaw: -math.Pi / 2, Movable: true, Mass: 1,
				MaxForce: 1.49, MaxTorque: 1.49},
			posed: true,
		},
		{
			name: "tilted static box on a shelf",
			xml: `<box id="ramp" size="1,1,0.1" movable="false">
			        <body position="0,0,0.2" orientation="0,30,-10" />
			      </box>`,
			want: space.Body{ID: "ramp", Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.5, Y: 0.5},
				Radius: math.Sqrt(0.5), Height: 0.1, Z: 0.2},
			posed: true,
			tilt:  [2]float64{math.Pi / 6, -math.Pi / 18},
		},
		{
			name: "template without body",
			xml:  `<box id="t" size="0.1,0.1,0.1" movable="true" mass="2.5" />`,
			want: space.Body{ID: "t", Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.05, Y: 0.05},
				Radius: math.Sqrt(0.005), Height: 0.1, Movable: true, Mass: 2.5, MaxForce: 1.49, MaxTorque: 1.49},
		},
		{
			name: "cylinder",
			xml: `<cylinder id="c" radius="0.2" height="0.4" movable="true" mass="0.3">
			        <body position="-1,1,0" orientation="45,0,0" />
			      </cylinder>`,
			want: space.Body{ID: "c", Type: "cylinder", Shape: space.Disc, Radius: 0.2, Height: 0.4,
				Pos: ci.Vector2{X: -1, Y: 1}, Yaw: math.Pi / 4, Movable: true, Mass: 0.3, MaxForce: 1.49, MaxTorque: 1.49},
			posed: true,
		},
		{
			name: "static cylinder",
			xml: `<cylinder id="pillar" radius="0.1" height="1" movable="false">
			        <body position="2,3,0" />
			      </cylinder>`,
			want: space.Body{ID: "pillar", Type: "cylinder", Shape: space.Disc, Radius: 0.1, Height: 1,
				Pos: ci.Vector2{X: 2, Y: 3}},
			posed: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parse(t, tt.xml)
			if err != nil {
				t.Fatal(err)
			}
			if s.ID != tt.want.ID || s.Tag != tt.want.Type || !s.Embodied || s.Posed != tt.posed || s.Robot != nil || s.Light != nil {
				t.Errorf("spec ID %q, Tag %q, Embodied %v, Posed %v, Robot %v, Light %v", s.ID, s.Tag, s.Embodied, s.Posed, s.Robot, s.Light)
			}
			want := tt.want
			want.SetTilt(tt.tilt[0], tt.tilt[1])
			checkBody(t, &s.Body, &want)
		})
	}
}

// checkBody compares the fields the parsers set, angles to 1e-12.
func checkBody(t *testing.T, got, want *space.Body) {
	t.Helper()
	g, w := *got, *want
	gp, gr := g.Tilt()
	wp, wr := w.Tilt()
	for _, a := range []struct {
		name string
		g, w *float64
	}{{"Yaw", &g.Yaw, &w.Yaw}, {"Pitch", &gp, &wp}, {"Roll", &gr, &wr}} {
		if math.Abs(*a.g-*a.w) > 1e-12 {
			t.Errorf("%s = %v, want %v", a.name, *a.g, *a.w)
		}
		*a.g = *a.w
	}
	if s, c := math.Sincos(got.Yaw); got.Sin != s || got.Cos != c {
		t.Errorf("Sin, Cos = %v, %v; not those of Yaw %v", got.Sin, got.Cos, got.Yaw)
	}
	g.Sin, g.Cos, w.Sin, w.Cos = 0, 0, 0, 0
	if math.Abs(g.Radius-w.Radius) > 1e-15 {
		t.Errorf("Radius = %v, want %v", g.Radius, w.Radius)
	}
	g.Radius = w.Radius
	// the exported fields (the tilt, kept apart, is compared above)
	gv, wv := reflect.ValueOf(g), reflect.ValueOf(w)
	for i := 0; i < gv.NumField(); i++ {
		f := gv.Type().Field(i)
		if f.IsExported() && !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			t.Errorf("body %s = %+v, want %+v", f.Name, gv.Field(i).Interface(), wv.Field(i).Interface())
		}
	}
}

func TestParseLight(t *testing.T) {
	tests := []struct {
		name, xml string
		want      entity.Light
		posed     bool
	}{
		{"full", `<light id="l" position="1,2,0.5" orientation="0,0,0" color="red" intensity="3" medium="leds" />`,
			entity.Light{ID: "l", Position: ci.Vector3{X: 1, Y: 2, Z: 0.5}, Color: ci.Red, Intensity: 3}, true},
		{"defaults", `<light id="l" />`, entity.Light{ID: "l", Color: ci.Yellow, Intensity: 1}, false},
		{"rgb colour, dark", `<light id="l" position="0,0,1" color="10,20,30" intensity="0" />`,
			entity.Light{ID: "l", Position: ci.Vector3{Z: 1}, Color: ci.Color{R: 10, G: 20, B: 30, A: 255}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parse(t, tt.xml)
			if err != nil {
				t.Fatal(err)
			}
			if s.Light == nil || *s.Light != tt.want {
				t.Fatalf("Light = %+v, want %+v", s.Light, tt.want)
			}
			if s.Embodied || s.Posed != tt.posed || s.Tag != "light" {
				t.Errorf("Embodied %v, Posed %v, Tag %q", s.Embodied, s.Posed, s.Tag)
			}
			// SetPose moves the light.
			if err := s.SetPose(s.Node, ci.Vector3{X: 3, Y: 4, Z: 5}, config.EulerDeg{Z: 90}); err != nil {
				t.Fatal(err)
			}
			if s.Light.Position != (ci.Vector3{X: 3, Y: 4, Z: 5}) {
				t.Errorf("after SetPose: Position = %v", s.Light.Position)
			}
		})
	}
}

func TestParseRobot(t *testing.T) {
	tests := []struct {
		name, xml string
		model     *entity.RobotModel
		ctrl      string
		pos       ci.Vector3
		yaw       float64
		posed     bool
	}{
		{"foot-bot", `<foot-bot id="fb0">
		                <body position="0.5,-0.5,0" orientation="180,0,0" />
		                <controller config="fdc" />
		              </foot-bot>`, entity.FootBot, "fdc", ci.Vector3{X: 0.5, Y: -0.5}, math.Pi, true},
		{"e-puck with ARGoS 3.0 extras", `<e-puck id="ep" rab_range="0.8" rab_data_size="4">
		                <controller config="edc" />
		                <body position="1,1,0" orientation="-90,0,0" />
		                <devices /><battery />
		              </e-puck>`, entity.EPuck, "edc", ci.Vector3{X: 1, Y: 1}, -math.Pi / 2, true},
		{"template", `<e-puck id="ep"><controller config="edc" /></e-puck>`, entity.EPuck, "edc", ci.Vector3{}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := parse(t, tt.xml)
			if err != nil {
				t.Fatal(err)
			}
			m := tt.model
			if s.Robot != m || s.ControllerID != tt.ctrl || s.Posed != tt.posed || !s.Embodied {
				t.Errorf("Robot %v, ControllerID %q, Posed %v, Embodied %v", s.Robot, s.ControllerID, s.Posed, s.Embodied)
			}
			want := space.Body{ID: s.ID, Type: m.Type, Shape: space.Disc, Radius: m.Radius, Height: m.Height, Mass: m.Mass,
				MaxForce: m.MaxForce, MaxTorque: m.MaxTorque, Movable: true, Pos: tt.pos.XY(), Z: tt.pos.Z, Yaw: tt.yaw}
			if m.Gripper != nil {
				// the gripper's disc on the body's edge, straight ahead
				want.SetNub(m.Gripper.Disc, m.Radius, 0)
			}
			checkBody(t, &s.Body, &want)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, xml string
		line      int      // from the snippet's first line
		words     []string // the message must hold each
	}{
		{"negative size", `<box id="b" size="1,-2,0.5" movable="false" />`, 0,
			[]string{`box "b"`, "size", "positive"}},
		{"zero size", `<box id="b" size="1,1,0" movable="false" />`, 0,
			[]string{`box "b"`, "positive"}},
		{"non-numeric size", `<box id="b" size="1,one,0.5" movable="false" />`, 0,
			[]string{`<box id="b">`, `size="1,one,0.5"`, `"one" is not a number`}},
		{"two sizes", `<box id="b" size="1,1" movable="false" />`, 0,
			[]string{"size", "2 comma-separated values", "three"}},
		{"missing size", `<box id="b" movable="false" />`, 0,
			[]string{`"size" is missing`}},
		{"missing id", `<box size="1,1,1" movable="false" />`, 0,
			[]string{"<box>", `"id" is missing`}},
		{"empty id", `<cylinder id="" radius="1" height="1" movable="false" />`, 0,
			[]string{"<cylinder>", "empty id"}},
		{"missing movable", `<box id="b" size="1,1,1" />`, 0,
			[]string{`"movable" is missing`, "true", "false"}},
		{"bad movable", `<box id="b" size="1,1,1" movable="yes" />`, 0,
			[]string{`movable="yes"`, "not a boolean"}},
		{"mass on a static box", `<box id="b" size="1,1,1" movable="false" mass="2" />`, 0,
			[]string{`box "b"`, "mass", "movable", "remove it"}},
		{"negative mass", `<cylinder id="c" radius="0.1" height="0.1" movable="true" mass="-1" />`, 0,
			[]string{`cylinder "c"`, "mass=-1", "positive"}},
		{"unknown box attribute", `<box id="b" size="1,1,1" movable="false" colour="red" />`, 0,
			[]string{`unknown attribute "colour"`}},
		{"negative radius", `<cylinder id="c" radius="-0.1" height="0.1" movable="false" />`, 0,
			[]string{`cylinder "c"`, "radius=-0.1", "positive"}},
		{"non-numeric height", `<cylinder id="c" radius="0.1" height="tall" movable="false" />`, 0,
			[]string{`height="tall"`, "not a number"}},
		{"tilted movable box", "<box id=\"b\" size=\"1,1,1\" movable=\"true\">\n<body position=\"0,0,0\" orientation=\"0,0,5\" />\n</box>", 1,
			[]string{`box "b"`, "only turn about Z", `"0,0,0"`}},
		{"bad position", "<box id=\"b\" size=\"1,1,1\" movable=\"false\">\n<body position=\"0,0\" />\n</box>", 1,
			[]string{"<body>", "position", "three"}},
		{"bad orientation", "<box id=\"b\" size=\"1,1,1\" movable=\"false\">\n<body position=\"0,0,0\" orientation=\"x,0,0\" />\n</box>", 1,
			[]string{"orientation", `"x" is not a number`}},
		{"missing position", "<cylinder id=\"c\" radius=\"1\" height=\"1\" movable=\"false\">\n<body />\n</cylinder>", 1,
			[]string{`"position" is missing`}},
		{"unknown body attribute", "<box id=\"b\" size=\"1,1,1\" movable=\"false\">\n<body position=\"0,0,0\" yaw=\"3\" />\n</box>", 1,
			[]string{`unknown attribute "yaw"`}},
		{"tilted robot", "<foot-bot id=\"fb\">\n  <body position=\"0,0,0\" orientation=\"0,10,0\" />\n  <controller config=\"c\" />\n</foot-bot>", 1,
			[]string{`foot-bot "fb"`, "only turn about Z", `orientation to "0,0,0"`}},
		{"rolled e-puck", "<e-puck id=\"ep\">\n  <controller config=\"c\" />\n  <body position=\"0,0,0\" orientation=\"30,0,1\" />\n</e-puck>", 2,
			[]string{`e-puck "ep"`, "only turn about Z", `"30,0,0"`}},
		{"missing controller", "<foot-bot id=\"fb\">\n  <body position=\"0,0,0\" />\n</foot-bot>", 0,
			[]string{`foot-bot "fb"`, "no controller", `<controller config="ID"/>`}},
		{"controller without config", "<e-puck id=\"ep\">\n  <body position=\"0,0,0\" />\n  <controller />\n</e-puck>", 2,
			[]string{`"config" is missing`}},
		{"empty controller config", "<e-puck id=\"ep\">\n  <controller config=\"\" />\n</e-puck>", 0,
			[]string{`e-puck "ep"`, "no controller"}},
		{"unknown child", "<e-puck id=\"ep\">\n  <controller config=\"c\" />\n  <wheels />\n</e-puck>", 2,
			[]string{`e-puck "ep"`, "unknown element <wheels>", "<controller"}},
		{"unknown robot attribute", `<foot-bot id="fb" speed="3"><controller config="c" /></foot-bot>`, 0,
			[]string{`unknown attribute "speed"`}},
		{"robot without id", `<foot-bot><controller config="c" /></foot-bot>`, 0,
			[]string{"<foot-bot>", `"id" is missing`}},
		{"negative intensity", `<light id="l" intensity="-1" />`, 0,
			[]string{`light "l"`, "intensity=-1", "negative"}},
		{"bad colour", `<light id="l" color="chartreuse" />`, 0,
			[]string{`color="chartreuse"`, "not a colour"}},
		{"bad light position", `<light id="l" position="1,2,3,4" />`, 0,
			[]string{"position", "4 comma-separated values"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, tt.xml)
			if err == nil {
				t.Fatal("no error")
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %q is a %T, want a *config.Error", err, err)
			}
			line := firstArenaLine + tt.line
			if ce.File != "exp.argos" || ce.Line != line {
				t.Errorf("error at %s:%d, want exp.argos:%d", ce.File, ce.Line, line)
			}
			msg := err.Error()
			if prefix := "exp.argos:" + strconv.Itoa(line) + ": "; !strings.HasPrefix(msg, prefix) {
				t.Errorf("error %q does not start with %q", msg, prefix)
			}
			for _, w := range tt.words {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
		})
	}
}

// Copies made by Clone for <distribute> are independent of the template
// and of each other.
func TestClone(t *testing.T) {
	for _, xml := range []string{
		`<e-puck id="ep"><controller config="edc" /></e-puck>`,
		`<box id="b" size="0.1,0.2,0.3" movable="true" />`,
		`<light id="l" position="1,1,1" color="red" />`,
	} {
		tmpl, err := parse(t, xml)
		if err != nil {
			t.Fatal(err)
		}
		orig := *tmpl
		var origLight entity.Light
		if tmpl.Light != nil {
			origLight = *tmpl.Light
		}
		a, b := tmpl.Clone(), tmpl.Clone()
		if a == tmpl || a == b {
			t.Fatal("Clone returned the same pointer")
		}
		a.SetID("copy0")
		b.SetID("copy1")
		if err := a.SetPose(a.Node, ci.Vector3{X: 1, Y: 2}, config.EulerDeg{Z: 90}); err != nil {
			t.Fatal(err)
		}
		if err := b.SetPose(b.Node, ci.Vector3{X: -1, Y: -2}, config.EulerDeg{Z: -90}); err != nil {
			t.Fatal(err)
		}
		a.Body.Half.X = 7
		if tmpl.ID != orig.ID || tmpl.Body != orig.Body {
			t.Errorf("%s: the template changed: %+v", xml, tmpl)
		}
		if tmpl.Light != nil && (*tmpl.Light != origLight || a.Light == tmpl.Light || a.Light == b.Light) {
			t.Errorf("%s: the light is shared: template %+v", xml, tmpl.Light)
		}
		if a.ID != "copy0" || b.ID != "copy1" || (a.Embodied && (a.Body.ID != "copy0" || b.Body.ID != "copy1")) {
			t.Errorf("%s: ids %q/%q, bodies %q/%q", xml, a.ID, b.ID, a.Body.ID, b.Body.ID)
		}
		if a.Light != nil && (a.Light.ID != "copy0" || a.Light.Position != (ci.Vector3{X: 1, Y: 2})) {
			t.Errorf("%s: light copy %+v", xml, a.Light)
		}
		if a.Embodied && (a.Body.Pos == b.Body.Pos || b.Body.Half.X == 7) {
			t.Errorf("%s: the copies share their bodies", xml)
		}
		// The model and the node are shared on purpose: they are read-only.
		if a.Robot != tmpl.Robot || a.Node != tmpl.Node {
			t.Errorf("%s: model or node not shared", xml)
		}
	}
}

func TestSetWheels(t *testing.T) {
	tests := []struct {
		m           *entity.RobotModel
		left, right float64
		v, w        float64
	}{
		{entity.EPuck, 0.1, 0.1, 0.1, 0},
		{entity.EPuck, -0.05, 0.05, 0, 0.1 / 0.053},
		{entity.EPuck, 0.02, 0.08, 0.05, 0.06 / 0.053},
		{entity.FootBot, 0.1, 0, 0.05, -0.1 / 0.14},
		{entity.FootBot, 0, 0, 0, 0},
		{entity.FootBot, -0.3, -0.1, -0.2, 0.2 / 0.14},
	}
	for _, tt := range tests {
		s := space.New(ci.Vector3{}, ci.Vector3{X: 2, Y: 2, Z: 1})
		s.Add(space.Body{ID: "other", Movable: true})
		h := s.Add(space.Body{ID: "me", Movable: true})
		r := &entity.Robot{ID: "me", Model: tt.m, Body: h, Space: s, Rand: rand.New(rand.NewPCG(1, 1))}
		r.SetWheels(tt.left, tt.right)
		b := r.B()
		if b != &s.Bodies[h] {
			t.Fatalf("B() is not the robot's body")
		}
		if r.Wheels != [2]float64{tt.left, tt.right} {
			t.Errorf("%s SetWheels(%g, %g): Wheels = %v", tt.m.Type, tt.left, tt.right, r.Wheels)
		}
		if d := r.Drive(); d != &s.Drive[h] {
			t.Fatalf("Drive() is not the robot's drive")
		} else if math.Abs(d.V-tt.v) > 1e-15 || math.Abs(d.W-tt.w) > 1e-12 {
			t.Errorf("%s SetWheels(%g, %g): drive %v, %v; want %v, %v", tt.m.Type, tt.left, tt.right, d.V, d.W, tt.v, tt.w)
		}
		if o := s.Drive[0]; o != (space.Drive{}) {
			t.Errorf("another body was driven: %+v", o)
		}
	}
}
