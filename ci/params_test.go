package ci

import (
	"fmt"
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

// sample is a <params> as the runtimes hand it to a controller:
//
//	<params alpha="7.5" velocty="5">        line 12
//	  <wheel_turnin max_speed="10"/>        line 13
//	</params>
func sample() Params {
	return Params{Where: "file.argos:12", Name: "params", Attrs: map[string]string{"alpha": "7.5", "velocty": "5"},
		Children: []Params{{Where: "file.argos:13", Name: "wheel_turnin", Attrs: map[string]string{"max_speed": "10"}}}}
}

func TestCheckUnreadAttribute(t *testing.T) {
	p := sample().Track()
	if _, err := p.FloatOr("alpha", 0); err != nil {
		t.Fatal(err)
	}
	if v, _ := p.FloatOr("velocity", 5); v != 5 {
		t.Fatal("FloatOr of an absent attribute")
	}
	p.ChildOr("wheel_turning")
	checkErr(t, "CheckUnread", p.CheckUnread(), `file.argos:12: <params>: unknown attribute "velocty" (did you mean "velocity"?)`,
		"the controller reads alpha and velocity: correct the name or remove it")
}

func TestCheckUnreadElement(t *testing.T) {
	p := sample().Track()
	p.Float("alpha")
	p.Has("velocty")
	p.ChildOr("wheel_turning")
	checkErr(t, "CheckUnread", p.CheckUnread(), "file.argos:13: <wheel_turnin>: unknown element inside <params> (did you mean <wheel_turning>?)",
		"the controller reads <wheel_turning> there")

	q := sample().Track()
	q.Lookup("alpha")
	q.StringOr("velocty", "")
	checkErr(t, "CheckUnread", q.CheckUnread(), "file.argos:13: <wheel_turnin>: unknown element inside <params>; the controller reads no element there: remove it")
}

func TestCheckUnreadInsideChild(t *testing.T) {
	p := sample().Track()
	p.Float("alpha")
	p.Float("velocty")
	c := p.ChildOr("wheel_turnin")
	c.IntOr("max_sped", 3)
	checkErr(t, "CheckUnread", p.CheckUnread(), `file.argos:13: <wheel_turnin>: unknown attribute "max_speed" (did you mean "max_sped"?)`)
	// reached by walking Children, and read: checked like any other
	q := sample().Track()
	q.Float("alpha")
	q.Float("velocty")
	for _, c := range q.Children {
		c.FloatOr("max_speed", 1)
	}
	if err := q.CheckUnread(); err != nil {
		t.Errorf("every parameter read: %v", err)
	}
}

func TestCheckUnreadRepeatedElement(t *testing.T) {
	p := Params{Where: "f.argos:2", Name: "params", Children: []Params{
		{Where: "f.argos:3", Name: "state", Attrs: map[string]string{"a": "1"}},
		{Where: "f.argos:4", Name: "state", Attrs: map[string]string{"a": "2"}},
	}}.Track()
	p.ChildOr("state").Int("a")
	checkErr(t, "CheckUnread", p.CheckUnread(), "f.argos:4: <state>: another <state> in <params> (the first is at f.argos:3), and the controller reads only the first")
}

func TestFreeForm(t *testing.T) {
	p := sample().Track()
	p.FreeForm()
	if err := p.CheckUnread(); err != nil {
		t.Errorf("free-form params: %v", err)
	}
	q := sample().Track()
	q.Float("alpha")
	q.Float("velocty")
	q.ChildOr("wheel_turnin").FreeForm()
	if err := q.CheckUnread(); err != nil {
		t.Errorf("free-form child: %v", err)
	}
}

func TestCheckUnreadOnlyWhenTracked(t *testing.T) {
	if err := sample().CheckUnread(); err != nil {
		t.Errorf("untracked params: %v", err)
	}
	p := sample()
	tr := p.Track()
	tr.Float("alpha")
	tr.Float("velocty")
	tr.ChildOr("wheel_turnin").Float("max_speed")
	if err := tr.CheckUnread(); err != nil {
		t.Fatal(err)
	}
	// a second Track starts afresh, and reads after CheckUnread are not recorded
	again := p.Track()
	if again.CheckUnread() == nil {
		t.Error("a fresh Track inherited the reads of another")
	}
	again.Float("alpha")
	if err := again.CheckUnread(); err == nil || !strings.Contains(err.Error(), `"alpha"`) {
		t.Errorf("a read after CheckUnread was recorded: %v", err)
	}
}

// Robots of one controller share its tracked params and may read them
// from their parallel control steps.
func TestTrackConcurrentReads(t *testing.T) {
	p := sample().Track()
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() {
			for k := 0; k < 100; k++ {
				p.FloatOr("alpha", 0)
				p.ChildOr("wheel_turnin").Has("max_speed")
				p.Has("velocty")
			}
			done <- true
		}()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if err := p.CheckUnread(); err != nil {
		t.Error(err)
	}
	p.FloatOr("alpha", 0) // after the check: nothing recorded, no race
}

// A name asked for before is found in the published set without the lock
// (the robots of a controller entry, set up on several threads, ask for
// the same ones); a new name is still recorded, under the lock, and the
// element still counts as reached.
func TestTrackedNameAskedAgainTakesNoLock(t *testing.T) {
	p := sample().Track()
	c := p.ChildOr("wheel_turnin")
	p.FloatOr("alpha", 0)
	c.Has("max_speed")
	u := p.use
	u.mu.Lock()
	c.use.mu.Lock()
	p.FloatOr("alpha", 0) // would deadlock if it took the lock
	p.ChildOr("wheel_turnin").Has("max_speed")
	c.use.mu.Unlock()
	u.mu.Unlock()
	p.Has("delta")
	if got := sortedKeys(u.attrs.get()); strings.Join(got, ",") != "alpha,delta" {
		t.Errorf("attributes asked for: %v, want alpha, delta", got)
	}
	if got := sortedKeys(u.tags.get()); strings.Join(got, ",") != "wheel_turnin" {
		t.Errorf("elements asked for: %v, want wheel_turnin", got)
	}
	if !c.use.hit.Load() {
		t.Error("the child read is not marked reached")
	}
}

func TestCheckUnreadQuotesShortly(t *testing.T) {
	long := strings.Repeat("v", 10000)
	p := Params{Where: "f.argos:2", Name: "params", Attrs: map[string]string{long: "1", "x": strings.Repeat("y", 1<<20)}}.Track()
	err := p.CheckUnread()
	if err == nil || len(err.Error()) > 400 || !strings.Contains(err.Error(), "(10000 bytes in all)") {
		t.Errorf("error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
	_, err = p.Float("x")
	if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), "(1048576 bytes in all)") {
		t.Errorf("error of %d bytes: %.300v", len(fmt.Sprint(err)), err)
	}
}

func TestDidYouMean(t *testing.T) {
	for _, c := range []struct {
		s    string
		list []string
		want string
	}{
		{"velocty", []string{"alpha", "velocity"}, `velocity`},
		{"VELOCITY", []string{"velocity"}, `velocity`},
		{"alpah", []string{"alpha", "delta"}, `alpha`},
		{"gain", []string{"alpha"}, ``},
		{"rate", []string{"rates", "date"}, `rates`},
		{strings.Repeat("a", 100), []string{strings.Repeat("a", 99)}, ``},
		{"ticks_per_seconds", []string{"length", "ticks_per_second", "random_seed"}, `ticks_per_second`},
		{"zzzzzz", []string{"length", "ticks_per_second", "random_seed"}, ``},
		{"id", []string{"length", "ticks_per_second", "random_seed"}, ``},
	} {
		got := DidYouMean(c.s, c.list, "%s")
		want := ""
		if c.want != "" {
			want = " (did you mean " + c.want + "?)"
		}
		if got != want {
			t.Errorf("DidYouMean(%.20q, %.40q) = %q, want %q", c.s, c.list, got, want)
		}
	}
}
