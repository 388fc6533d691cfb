package ci

import (
	"strings"
	"testing"
)

func TestNewParams(t *testing.T) {
	p := NewParams("alpha", "7.5", "name", "fb")
	if p.Name != "params" {
		t.Errorf("Name = %q, want %q", p.Name, "params")
	}
	if len(p.Attrs) != 2 || p.Attrs["alpha"] != "7.5" || p.Attrs["name"] != "fb" {
		t.Errorf("Attrs = %v, want alpha=7.5 name=fb", p.Attrs)
	}
	if empty := NewParams(); empty.Attrs == nil || len(empty.Attrs) != 0 {
		t.Errorf("NewParams() Attrs = %#v, want an empty non-nil map", empty.Attrs)
	}
}

func TestNewParamsOddPanics(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("NewParams with an odd number of arguments did not panic")
		}
		if !strings.Contains(r.(string), "odd") {
			t.Errorf("panic %q does not say the argument count is odd", r)
		}
	}()
	NewParams("alpha")
}

func TestParamsHas(t *testing.T) {
	p := NewParams("a", "", "b", "x")
	for _, tc := range []struct {
		attr string
		want bool
	}{{"a", true}, {"b", true}, {"c", false}, {"", false}} {
		if got := p.Has(tc.attr); got != tc.want {
			t.Errorf("Has(%q) = %v, want %v", tc.attr, got, tc.want)
		}
	}
	if (Params{}).Has("a") {
		t.Error("zero Params has an attribute")
	}
}

// located returns p as if read from file.argos:12.
func located(kv ...string) Params {
	p := NewParams(kv...)
	p.Where = "file.argos:12"
	return p
}

// checkErr fails unless err is non-nil and contains every fragment.
func checkErr(t *testing.T, what string, err error, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want one mentioning %q", what, fragments)
		return
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "ci: ") {
		t.Errorf("%s: error %q does not start with the package name", what, msg)
	}
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("%s: error %q does not mention %q", what, msg, f)
		}
	}
}

func TestParamsString(t *testing.T) {
	p := located("name", "fb0", "empty", "")
	for _, tc := range []struct {
		attr, want string
	}{{"name", "fb0"}, {"empty", ""}} {
		got, err := p.String(tc.attr)
		if err != nil || got != tc.want {
			t.Errorf("String(%q) = %q, %v; want %q, nil", tc.attr, got, err, tc.want)
		}
	}
	_, err := p.String("label")
	checkErr(t, `String("label")`, err, `"label"`, "missing", "file.argos:12", "<params>", `label="..."`)

	if got := p.StringOr("name", "def"); got != "fb0" {
		t.Errorf("StringOr present = %q, want fb0", got)
	}
	if got := p.StringOr("label", "def"); got != "def" {
		t.Errorf("StringOr absent = %q, want def", got)
	}
}

func TestParamsFloat(t *testing.T) {
	p := located("a", "7.5", "b", " -1e-3 ", "c", "x", "d", "", "e", "1,5")
	for _, tc := range []struct {
		attr    string
		want    float64
		wantErr bool
	}{
		{"a", 7.5, false},
		{"b", -1e-3, false},
		{"c", 0, true},
		{"d", 0, true},
		{"e", 0, true},
		{"missing", 0, true},
	} {
		got, err := p.Float(tc.attr)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("Float(%q) = %v, %v; want %v, error %v", tc.attr, got, err, tc.want, tc.wantErr)
		}
	}
	_, err := p.Float("c")
	checkErr(t, `Float("c")`, err, `c="x"`, "not a number", "file.argos:12", "0.5")
	_, err = p.Float("missing")
	checkErr(t, `Float("missing")`, err, `"missing"`, "is missing", "file.argos:12", `missing="..."`, "a number")
}

func TestParamsFloatOr(t *testing.T) {
	p := located("a", "2", "bad", "two")
	for _, tc := range []struct {
		attr    string
		def     float64
		want    float64
		wantErr bool
	}{
		{"a", 5, 2, false},
		{"absent", 5, 5, false},
		{"bad", 5, 0, true},
	} {
		got, err := p.FloatOr(tc.attr, tc.def)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("FloatOr(%q, %v) = %v, %v; want %v, error %v", tc.attr, tc.def, got, err, tc.want, tc.wantErr)
		}
	}
	_, err := p.FloatOr("bad", 5)
	checkErr(t, `FloatOr("bad")`, err, `bad="two"`, "not a number", "file.argos:12", "write it like")
}

func TestParamsInt(t *testing.T) {
	p := located("n", "10", "m", " -3 ", "f", "1.5", "x", "ten")
	for _, tc := range []struct {
		attr    string
		want    int
		wantErr bool
	}{
		{"n", 10, false},
		{"m", -3, false},
		{"f", 0, true},
		{"x", 0, true},
		{"missing", 0, true},
	} {
		got, err := p.Int(tc.attr)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("Int(%q) = %v, %v; want %v, error %v", tc.attr, got, err, tc.want, tc.wantErr)
		}
	}
	_, err := p.Int("f")
	checkErr(t, `Int("f")`, err, `f="1.5"`, "not an integer", "file.argos:12", "write it like 10")
	_, err = p.Int("missing")
	checkErr(t, `Int("missing")`, err, `"missing"`, "is missing", "file.argos:12", "an integer")

	for _, tc := range []struct {
		attr    string
		want    int
		wantErr bool
	}{{"n", 10, false}, {"absent", 4, false}, {"x", 0, true}} {
		got, err := p.IntOr(tc.attr, 4)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("IntOr(%q, 4) = %v, %v; want %v, error %v", tc.attr, got, err, tc.want, tc.wantErr)
		}
	}
	_, err = p.IntOr("x", 4)
	checkErr(t, `IntOr("x")`, err, `x="ten"`, "file.argos:12", "write it like 10")
}

func TestParamsBool(t *testing.T) {
	p := located("t", "true", "f", " false ", "y", "yes", "one", "1", "up", "TRUE")
	for _, tc := range []struct {
		attr    string
		want    bool
		wantErr bool
	}{
		{"t", true, false},
		{"f", false, false},
		{"y", false, true},
		{"one", false, true},
		{"up", false, true},
		{"missing", false, true},
	} {
		got, err := p.Bool(tc.attr)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("Bool(%q) = %v, %v; want %v, error %v", tc.attr, got, err, tc.want, tc.wantErr)
		}
	}
	_, err := p.Bool("y")
	checkErr(t, `Bool("y")`, err, `y="yes"`, "not a boolean", "file.argos:12", "true or false")
	_, err = p.Bool("missing")
	checkErr(t, `Bool("missing")`, err, `"missing"`, "is missing", "file.argos:12", "true or false")

	for _, tc := range []struct {
		attr    string
		def     bool
		want    bool
		wantErr bool
	}{
		{"t", false, true, false},
		{"f", true, false, false},
		{"absent", true, true, false},
		{"absent", false, false, false},
		{"y", true, false, true},
	} {
		got, err := p.BoolOr(tc.attr, tc.def)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("BoolOr(%q, %v) = %v, %v; want %v, error %v", tc.attr, tc.def, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestParamsChild(t *testing.T) {
	first := Params{Name: "wheel_turning", Where: "file.argos:13", Attrs: map[string]string{"n": "1"}}
	second := Params{Name: "wheel_turning", Where: "file.argos:14", Attrs: map[string]string{"n": "2"}}
	p := Params{Name: "params", Where: "file.argos:12", Children: []Params{
		{Name: "diffusion", Where: "file.argos:15"}, first, second,
	}}
	got, err := p.Child("wheel_turning")
	if err != nil {
		t.Fatalf("Child: %v", err)
	}
	if got.Where != first.Where || got.Attrs["n"] != "1" {
		t.Errorf("Child returned %+v, want the first <wheel_turning>", got)
	}
	_, err = p.Child("state")
	checkErr(t, `Child("state")`, err, "<state>", "missing", "file.argos:12", "inside <params>")
}

func TestParamsWhere(t *testing.T) {
	// Errors locate the element even when Where or Name are not set.
	for _, tc := range []struct {
		p    Params
		want string
	}{
		{Params{}, "ci: <params>: "},
		{Params{Name: "wheel_turning"}, "ci: <wheel_turning>: "},
		{Params{Where: "x.argos:3"}, "ci: x.argos:3: <params>: "},
		{Params{Where: "x.argos:3", Name: "state"}, "ci: x.argos:3: <state>: "},
	} {
		_, err := tc.p.Float("v")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want prefix %q", tc.p, err, tc.want)
		}
	}
}

func TestChildOrAndLocation(t *testing.T) {
	p := Params{Where: "e.argos:7", Name: "params", Children: []Params{{Where: "e.argos:8", Name: "wheel_turning", Attrs: map[string]string{"max_speed": "9"}}}}
	if c := p.ChildOr("wheel_turning"); c.Attrs["max_speed"] != "9" || c.Location() != "e.argos:8: <wheel_turning>" {
		t.Errorf("ChildOr(present) = %+v, location %q", c, c.Location())
	}
	missing := p.ChildOr("state")
	if v, err := missing.FloatOr("x", 3); err != nil || v != 3 || missing.Location() != "e.argos:7: <state>" {
		t.Errorf("ChildOr(absent): %v %v, location %q; want defaults located at the parent", v, err, missing.Location())
	}
	if (Params{}).Location() != "<params>" {
		t.Errorf("unlocated params: %q", (Params{}).Location())
	}
}
