package config

import (
	"errors"
	"io/fs"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

// elem parses src inside a wrapper element, so that the first element of
// src starts on line 2 of "t.argos", and returns it.
func elem(t *testing.T, src string) *Node {
	t.Helper()
	root, err := ParseTree("t.argos", []byte("<wrap>\n"+src+"\n</wrap>"))
	if err != nil {
		t.Fatalf("ParseTree: %v", err)
	}
	if len(root.Children) == 0 {
		t.Fatalf("no element in %q", src)
	}
	return root.Children[0]
}

// checkErr fails unless err is an *Error whose message contains every
// one of want (the first usually being "t.argos:2:").
func checkErr(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one containing %q", want)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("error %q is a %T, want *config.Error", err, err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q\ndoes not contain %q", err, w)
		}
	}
}

func TestAccessors(t *testing.T) {
	const line = "t.argos:2: "
	tests := []struct {
		name    string
		src     string
		get     func(n *Node) (any, error)
		want    any
		wantErr []string
	}{
		// String, StringOr
		{"String", `<e a="x y"/>`, func(n *Node) (any, error) { return n.String("a") }, "x y", nil},
		{"String empty", `<e a=""/>`, func(n *Node) (any, error) { return n.String("a") }, "", nil},
		{"String missing", `<e-puck/>`, func(n *Node) (any, error) { return n.String("id") },
			nil, []string{line + `<e-puck>: attribute "id" is missing; add id="..."`}},
		{"StringOr present", `<e a="x"/>`, func(n *Node) (any, error) { return n.StringOr("a", "d"), nil }, "x", nil},
		{"StringOr absent", `<e/>`, func(n *Node) (any, error) { return n.StringOr("a", "d"), nil }, "d", nil},

		// Float, FloatOr
		{"Float", `<e f="1.5"/>`, func(n *Node) (any, error) { return n.Float("f") }, 1.5, nil},
		{"Float spaces", `<e f=" -2 "/>`, func(n *Node) (any, error) { return n.Float("f") }, -2.0, nil},
		{"Float exponent", `<e f="1e-3"/>`, func(n *Node) (any, error) { return n.Float("f") }, 1e-3, nil},
		{"Float bad", `<box id="b" f="abc"/>`, func(n *Node) (any, error) { return n.Float("f") },
			nil, []string{line + `<box id="b">: attribute f="abc" is not a number; write it like 0.5`}},
		{"Float NaN", `<e f="NaN"/>`, func(n *Node) (any, error) { return n.Float("f") },
			nil, []string{line, `f="NaN" is not a number`}},
		{"Float Inf", `<e f="-Inf"/>`, func(n *Node) (any, error) { return n.Float("f") },
			nil, []string{line, `f="-Inf" is not a number`}},
		{"Float overflow", `<e f="1e999"/>`, func(n *Node) (any, error) { return n.Float("f") },
			nil, []string{line, `f="1e999" is not a number`}},
		{"Float missing", `<e/>`, func(n *Node) (any, error) { return n.Float("f") },
			nil, []string{line + `<e>: attribute "f" is missing; add f="..." with a number`}},
		{"FloatOr absent", `<e/>`, func(n *Node) (any, error) { return n.FloatOr("f", 7) }, 7.0, nil},
		{"FloatOr present", `<e f="3"/>`, func(n *Node) (any, error) { return n.FloatOr("f", 7) }, 3.0, nil},
		{"FloatOr bad", `<e f="x"/>`, func(n *Node) (any, error) { return n.FloatOr("f", 7) },
			nil, []string{line, `f="x" is not a number`}},

		// Int, IntOr
		{"Int", `<e i="10"/>`, func(n *Node) (any, error) { return n.Int("i") }, 10, nil},
		{"Int negative", `<e i=" -3"/>`, func(n *Node) (any, error) { return n.Int("i") }, -3, nil},
		{"Int word", `<experiment ticks_per_second="ten"/>`, func(n *Node) (any, error) { return n.Int("ticks_per_second") },
			nil, []string{line + `<experiment>: attribute ticks_per_second="ten" is not an integer; write it like 10`}},
		{"Int fraction", `<e i="1.5"/>`, func(n *Node) (any, error) { return n.Int("i") },
			nil, []string{line, `i="1.5" is not an integer`}},
		{"Int too large", `<e i="99999999999999999999"/>`, func(n *Node) (any, error) { return n.Int("i") },
			nil, []string{line, "too large"}},
		{"Int missing", `<e/>`, func(n *Node) (any, error) { return n.Int("i") },
			nil, []string{line, `attribute "i" is missing; add i="..." with an integer`}},
		{"IntOr absent", `<e/>`, func(n *Node) (any, error) { return n.IntOr("i", 4) }, 4, nil},
		{"IntOr bad", `<e i="4x"/>`, func(n *Node) (any, error) { return n.IntOr("i", 4) },
			nil, []string{line, "not an integer"}},

		// Uint64, Uint64Or
		{"Uint64", `<e u="18446744073709551615"/>`, func(n *Node) (any, error) { return n.Uint64("u") }, uint64(math.MaxUint64), nil},
		{"Uint64 negative", `<e u="-1"/>`, func(n *Node) (any, error) { return n.Uint64("u") },
			nil, []string{line, `u="-1" is negative; write 0 or a positive integer`}},
		{"Uint64 too large", `<e u="18446744073709551616"/>`, func(n *Node) (any, error) { return n.Uint64("u") },
			nil, []string{line, "too large"}},
		{"Uint64 bad", `<e u="seed"/>`, func(n *Node) (any, error) { return n.Uint64("u") },
			nil, []string{line, `u="seed" is not a non-negative integer; write it like 10`}},
		{"Uint64 missing", `<e/>`, func(n *Node) (any, error) { return n.Uint64("u") },
			nil, []string{line, `attribute "u" is missing`}},
		{"Uint64Or absent", `<e/>`, func(n *Node) (any, error) { return n.Uint64Or("u", 9) }, uint64(9), nil},
		{"Uint64Or bad", `<e u="-5"/>`, func(n *Node) (any, error) { return n.Uint64Or("u", 9) },
			nil, []string{line, "negative"}},

		// Bool, BoolOr
		{"Bool true", `<e b="true"/>`, func(n *Node) (any, error) { return n.Bool("b") }, true, nil},
		{"Bool false", `<e b=" false "/>`, func(n *Node) (any, error) { return n.Bool("b") }, false, nil},
		{"Bool bad", `<e b="yes"/>`, func(n *Node) (any, error) { return n.Bool("b") },
			nil, []string{line, `b="yes" is not a boolean; write true or false`}},
		{"Bool missing", `<e/>`, func(n *Node) (any, error) { return n.Bool("b") },
			nil, []string{line, `attribute "b" is missing; add b="true" or b="false"`}},
		{"BoolOr absent", `<e/>`, func(n *Node) (any, error) { return n.BoolOr("b", true) }, true, nil},
		{"BoolOr bad", `<e b="1"/>`, func(n *Node) (any, error) { return n.BoolOr("b", true) },
			nil, []string{line, "not a boolean"}},

		// Vector2, Vector2Or
		{"Vector2", `<e v="1,2"/>`, func(n *Node) (any, error) { return n.Vector2("v") }, ci.Vector2{X: 1, Y: 2}, nil},
		{"Vector2 spaces", `<e v=" 1.5 , -2 "/>`, func(n *Node) (any, error) { return n.Vector2("v") }, ci.Vector2{X: 1.5, Y: -2}, nil},
		{"Vector2 count", `<vertex v="1"/>`, func(n *Node) (any, error) { return n.Vector2("v") },
			nil, []string{line + `<vertex>: attribute v="1" has 1 value; write two numbers "x,y"`}},
		{"Vector2 bad", `<e v="1,a"/>`, func(n *Node) (any, error) { return n.Vector2("v") },
			nil, []string{line, `v="1,a": "a" is not a number; write two numbers "x,y"`}},
		{"Vector2 missing", `<e/>`, func(n *Node) (any, error) { return n.Vector2("v") },
			nil, []string{line, `attribute "v" is missing; add v="x,y" with two numbers`}},
		{"Vector2Or absent", `<e/>`, func(n *Node) (any, error) { return n.Vector2Or("v", ci.Vector2{X: 3}) }, ci.Vector2{X: 3}, nil},
		{"Vector2Or bad", `<e v="1;2"/>`, func(n *Node) (any, error) { return n.Vector2Or("v", ci.Vector2{}) },
			nil, []string{line, `v="1;2" has 1 value`}},

		// Vector3, Vector3Or
		{"Vector3", `<arena size="41, 41, 1"/>`, func(n *Node) (any, error) { return n.Vector3("size") }, ci.Vector3{X: 41, Y: 41, Z: 1}, nil},
		{"Vector3 count", `<box id="w" size="1,2"/>`, func(n *Node) (any, error) { return n.Vector3("size") },
			nil, []string{line + `<box id="w">: attribute size="1,2" has 2 comma-separated values; write three numbers "x,y,z"`}},
		{"Vector3 bad", `<e v="1,2,zz"/>`, func(n *Node) (any, error) { return n.Vector3("v") },
			nil, []string{line, `"zz" is not a number; write three numbers "x,y,z"`}},
		{"Vector3 empty component", `<e v="1,,2"/>`, func(n *Node) (any, error) { return n.Vector3("v") },
			nil, []string{line, `v="1,,2": value 2 is empty`}},
		{"Vector3 empty", `<e v=""/>`, func(n *Node) (any, error) { return n.Vector3("v") },
			nil, []string{line, `v="" is empty; write three numbers`}},
		{"Vector3 missing", `<e/>`, func(n *Node) (any, error) { return n.Vector3("v") },
			nil, []string{line, `attribute "v" is missing; add v="x,y,z" with three numbers`}},
		{"Vector3Or absent", `<e/>`, func(n *Node) (any, error) { return n.Vector3Or("v", ci.Vector3{Z: 1}) }, ci.Vector3{Z: 1}, nil},
		{"Vector3Or present", `<e v="0,0,0.5"/>`, func(n *Node) (any, error) { return n.Vector3Or("v", ci.Vector3{Z: 1}) }, ci.Vector3{Z: 0.5}, nil},

		// Euler, EulerOr
		{"Euler", `<body orientation="90,0,45"/>`, func(n *Node) (any, error) { return n.Euler("orientation") }, EulerDeg{Z: 90, X: 45}, nil},
		{"Euler count", `<body orientation="90"/>`, func(n *Node) (any, error) { return n.Euler("orientation") },
			nil, []string{line, `orientation="90" has 1 value; write three angles "z,y,x" in degrees`}},
		{"Euler bad", `<body orientation="90deg,0,0"/>`, func(n *Node) (any, error) { return n.Euler("orientation") },
			nil, []string{line, `"90deg" is not a number; write three angles "z,y,x" in degrees`}},
		{"Euler missing", `<body/>`, func(n *Node) (any, error) { return n.Euler("orientation") },
			nil, []string{line, `attribute "orientation" is missing; add orientation="z,y,x" with three angles in degrees`}},
		{"EulerOr absent", `<body/>`, func(n *Node) (any, error) { return n.EulerOr("orientation", EulerDeg{Y: 1}) }, EulerDeg{Y: 1}, nil},

		// Color, ColorOr
		{"Color name", `<light color="yellow"/>`, func(n *Node) (any, error) { return n.Color("color") }, ci.Yellow, nil},
		{"Color rgb", `<light color="1, 2, 3"/>`, func(n *Node) (any, error) { return n.Color("color") }, ci.Color{R: 1, G: 2, B: 3, A: 255}, nil},
		{"Color rgba", `<light color="1,2,3,4"/>`, func(n *Node) (any, error) { return n.Color("color") }, ci.Color{R: 1, G: 2, B: 3, A: 4}, nil},
		{"Color bad", `<light id="l" color="purpl"/>`, func(n *Node) (any, error) { return n.Color("color") },
			nil, []string{line + `<light id="l">: attribute color="purpl" is not a colour; write a name (red`, "0-255"}},
		{"Color out of range", `<light color="256,0,0"/>`, func(n *Node) (any, error) { return n.Color("color") },
			nil, []string{line, "not a colour"}},
		{"Color missing", `<light/>`, func(n *Node) (any, error) { return n.Color("color") },
			nil, []string{line, `attribute "color" is missing; add color="..." with a colour name`}},
		{"ColorOr absent", `<light/>`, func(n *Node) (any, error) { return n.ColorOr("color", ci.Red) }, ci.Red, nil},
		{"ColorOr bad", `<light color="x"/>`, func(n *Node) (any, error) { return n.ColorOr("color", ci.Red) },
			nil, []string{line, "not a colour"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.get(elem(t, tt.src))
			if tt.wantErr != nil {
				checkErr(t, err, tt.wantErr...)
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestColorErrorWrapsCI(t *testing.T) {
	_, err := elem(t, `<light color="nope"/>`).Color("color")
	var e *Error
	if !errors.As(err, &e) || e.Err == nil || !strings.HasPrefix(e.Err.Error(), "ci:") {
		t.Fatalf("want an *Error wrapping the ci error, got %#v", err)
	}
}

func TestEulerQuaternion(t *testing.T) {
	tests := []struct {
		e    EulerDeg
		want ci.Quaternion
	}{
		{EulerDeg{}, ci.IdentityQuaternion},
		{EulerDeg{Z: 90}, ci.QuaternionFromYaw(math.Pi / 2)},
		{EulerDeg{Z: 30, Y: 20, X: 10}, ci.QuaternionFromEulerZYX(ci.Radians(30), ci.Radians(20), ci.Radians(10))},
	}
	for _, tt := range tests {
		got := tt.e.Quaternion()
		if math.Abs(got.W-tt.want.W) > 1e-12 || math.Abs(got.X-tt.want.X) > 1e-12 ||
			math.Abs(got.Y-tt.want.Y) > 1e-12 || math.Abs(got.Z-tt.want.Z) > 1e-12 {
			t.Errorf("%+v.Quaternion() = %+v, want %+v", tt.e, got, tt.want)
		}
	}
	z, y, x := EulerDeg{Z: 30, Y: 20, X: 10}.Quaternion().EulerZYX()
	if math.Abs(ci.Degrees(z)-30) > 1e-9 || math.Abs(ci.Degrees(y)-20) > 1e-9 || math.Abs(ci.Degrees(x)-10) > 1e-9 {
		t.Errorf("round trip gave z,y,x = %v,%v,%v degrees", ci.Degrees(z), ci.Degrees(y), ci.Degrees(x))
	}
}

func TestWhereAndDescribe(t *testing.T) {
	root, err := ParseTree("dir/exp.argos", []byte(`<a>
  <box id="wall">
    <body position="0,0,0"/>
  </box>
  <media/>
</a>`))
	if err != nil {
		t.Fatal(err)
	}
	box := root.Children[0]
	body := box.Children[0]
	media := root.Children[1]
	tests := []struct {
		n                  *Node
		where, describe    string
		wantParent         *Node
		wantLine           int
		wantChildrenLength int
	}{
		{root, "dir/exp.argos:1", "<a>", nil, 1, 2},
		{box, "dir/exp.argos:2", `<box id="wall">`, root, 2, 1},
		{body, "dir/exp.argos:3", `<body> in <box id="wall">`, box, 3, 0},
		{media, "dir/exp.argos:5", "<media>", root, 5, 0},
	}
	for _, tt := range tests {
		if got := tt.n.Where(); got != tt.where {
			t.Errorf("Where() = %q, want %q", got, tt.where)
		}
		if got := tt.n.Describe(); got != tt.describe {
			t.Errorf("Describe() = %q, want %q", got, tt.describe)
		}
		if tt.n.Parent() != tt.wantParent {
			t.Errorf("%s: wrong Parent()", tt.describe)
		}
		if tt.n.Line != tt.wantLine || len(tt.n.Children) != tt.wantChildrenLength {
			t.Errorf("%s: line %d, %d children", tt.describe, tt.n.Line, len(tt.n.Children))
		}
	}
	var nilNode *Node
	if nilNode.Where() != "" || nilNode.Parent() != nil || nilNode.Has("x") || nilNode.FirstChild("x") != nil ||
		nilNode.ChildrenNamed("x") != nil || nilNode.CheckAttrs() != nil || nilNode.CheckChildren() != nil {
		t.Error("nil *Node helpers must be safe and empty")
	}
	if (&Node{Name: "x", Line: 3}).Where() != "line 3" || (&Node{Name: "x", File: "f"}).Where() != "f" {
		t.Error("Where without file or line")
	}
}

func TestErrorf(t *testing.T) {
	n := elem(t, `<e-puck id="ep3"/>`)
	err := n.Errorf("no physics engine can hold it; add one: %w", fs.ErrNotExist)
	checkErr(t, err, `t.argos:2: <e-puck id="ep3">: no physics engine can hold it; add one`)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("Errorf must keep the %w error")
	}
	err = n.Errorf("two: %w and %w", fs.ErrNotExist, fs.ErrPermission)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, fs.ErrPermission) {
		t.Error("Errorf must keep several %w errors")
	}
	if errors.Unwrap(n.Errorf("plain")) != nil {
		t.Error("Errorf without %w must not wrap")
	}

	box := elem(t, `<box id="wall" size="1,-2,0.5"/>`)
	checkErr(t, box.AttrErrorf("size", `sizes must be positive; write three positive numbers "x,y,z" in metres`),
		`t.argos:2: <box id="wall">: attribute size="1,-2,0.5": sizes must be positive; write three positive numbers "x,y,z" in metres`)
	checkErr(t, box.AttrErrorf("mass", "needs %d", 1), `t.argos:2: <box id="wall">: attribute "mass": needs 1`)

	tests := []struct {
		e    *Error
		want string
	}{
		{&Error{File: "exp.argos", Line: 12, Msg: "m"}, "exp.argos:12: m"},
		{&Error{File: "exp.argos", Msg: "m"}, "exp.argos: m"},
		{&Error{Line: 3, Msg: "m"}, "line 3: m"},
		{&Error{Msg: "m"}, "m"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestChildren(t *testing.T) {
	n := elem(t, `<e-puck id="ep">
  <body position="0,0,0"/>
  <controller config="a"/>
  <controller config="b"/>
</e-puck>`)
	body, err := n.Child("body")
	if err != nil || body.Line != 3 {
		t.Fatalf("Child(body) = %v, %v", body, err)
	}
	_, err = n.Child("battery")
	checkErr(t, err, `t.argos:2: <e-puck id="ep">: element <battery> is missing; add <battery .../> inside <e-puck>`)
	if c := n.FirstChild("controller"); c == nil || c.StringOr("config", "") != "a" {
		t.Errorf("FirstChild(controller) = %v", c)
	}
	if n.FirstChild("nope") != nil {
		t.Error("FirstChild of a missing tag must be nil")
	}
	if cs := n.ChildrenNamed("controller"); len(cs) != 2 || cs[1].Line != 5 {
		t.Errorf("ChildrenNamed(controller) = %v", cs)
	}
	if cs := n.ChildrenNamed("nope"); len(cs) != 0 {
		t.Errorf("ChildrenNamed(nope) = %v", cs)
	}
	if c, err := n.OptionalChild("body"); err != nil || c != body {
		t.Errorf("OptionalChild(body) = %v, %v", c, err)
	}
	if c, err := n.OptionalChild("nope"); err != nil || c != nil {
		t.Errorf("OptionalChild(nope) = %v, %v", c, err)
	}
	_, err = n.OptionalChild("controller")
	checkErr(t, err, `t.argos:5: <controller> in <e-puck id="ep">: <controller> appears twice in <e-puck> (first at line 4); keep only one`)
}

func TestCheckAttrsAndChildren(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		check   func(n *Node) error
		wantErr []string
	}{
		{"attrs ok", `<experiment length="1" ticks_per_second="10"/>`,
			func(n *Node) error { return n.CheckAttrs("length", "ticks_per_second", "random_seed") }, nil},
		{"attrs typo", `<experiment lenght="1"/>`,
			func(n *Node) error { return n.CheckAttrs("length", "ticks_per_second", "random_seed") },
			[]string{`t.argos:2: <experiment>: unknown attribute "lenght" (did you mean "length"?); <experiment> accepts length, ticks_per_second and random_seed`}},
		{"attrs unknown", `<experiment colour="1"/>`,
			func(n *Node) error { return n.CheckAttrs("length", "ticks_per_second") },
			[]string{`unknown attribute "colour"; <experiment> accepts length and ticks_per_second`}},
		{"attrs none allowed", `<media x="1"/>`,
			func(n *Node) error { return n.CheckAttrs() },
			[]string{`t.argos:2: <media>: unknown attribute "x": <media> takes no attributes; remove it`}},
		{"children ok", "<c>\n<a/><b/><a/></c>",
			func(n *Node) error { return n.CheckChildren("a", "b") }, nil},
		{"children typo", "<ctrl id=\"x\">\n<sensros/></ctrl>",
			func(n *Node) error { return n.CheckChildren("actuators", "sensors", "params") },
			[]string{`t.argos:3: <sensros> in <ctrl id="x">: unknown element inside <ctrl> (did you mean <sensors>?); the elements allowed there are <actuators>, <sensors> and <params>`}},
		{"children none allowed", "<c>\n<a/></c>",
			func(n *Node) error { return n.CheckChildren() },
			[]string{`t.argos:3: <a>: unexpected element: <c> holds no elements; remove it`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.check(elem(t, tt.src))
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			checkErr(t, err, tt.wantErr...)
		})
	}
}

func TestParams(t *testing.T) {
	n := elem(t, `<params alpha="7.5" velocity="5">
  <wheel_turning max_speed="10">
    <inner k="v"/>
  </wheel_turning>
  <diffusion delta="0.1"/>
</params>`)
	p := n.Params()
	want := ci.Params{
		Where: "t.argos:2", Name: "params", Attrs: map[string]string{"alpha": "7.5", "velocity": "5"},
		Children: []ci.Params{
			{Where: "t.argos:3", Name: "wheel_turning", Attrs: map[string]string{"max_speed": "10"},
				Children: []ci.Params{{Where: "t.argos:4", Name: "inner", Attrs: map[string]string{"k": "v"}}}},
			{Where: "t.argos:6", Name: "diffusion", Attrs: map[string]string{"delta": "0.1"}},
		},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("Params() =\n%#v\nwant\n%#v", p, want)
	}
	if v, err := p.FloatOr("alpha", 0); err != nil || v != 7.5 {
		t.Errorf("ci.Params.FloatOr = %v, %v", v, err)
	}
	var nilNode *Node
	if np := nilNode.Params(); np.Name != "params" || np.Attrs == nil {
		t.Errorf("nil Params() = %#v", np)
	}
}
