package ci

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestRegistryRegisterLookup(t *testing.T) {
	r := NewRegistry[int]("widget")
	for i, name := range []string{"b", "a", "c"} {
		if err := r.Register(name, "the "+name, i); err != nil {
			t.Fatalf("Register(%q): %v", name, err)
		}
	}
	for name, want := range map[string]int{"b": 0, "a": 1, "c": 2} {
		got, err := r.Lookup(name)
		if err != nil || got != want {
			t.Errorf("Lookup(%q) = %v, %v; want %v, nil", name, got, err, want)
		}
	}
}

func TestRegistryRefuses(t *testing.T) {
	r := NewRegistry[int]("widget")
	if err := r.Register("a", "first", 1); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		fragments []string
	}{
		{"a", []string{"ci: ", "widget", `"a"`, "registered twice"}},
		{"", []string{"ci: ", "widget", "empty name"}},
	} {
		err := r.Register(tc.name, "second", 2)
		if err == nil {
			t.Errorf("Register(%q) accepted", tc.name)
			continue
		}
		for _, f := range tc.fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("Register(%q) error %q does not mention %q", tc.name, err, f)
			}
		}
	}
	// The first registration is kept.
	if v, _ := r.Lookup("a"); v != 1 {
		t.Errorf("after a refused duplicate, Lookup(a) = %d, want 1", v)
	}
	if e := r.Entries(); len(e) != 1 || e[0].Description != "first" {
		t.Errorf("Entries = %+v, want only the first registration", e)
	}
}

func TestRegistryMustRegisterKeepsClashes(t *testing.T) {
	r := NewRegistry[string]("controller")
	r.mustRegister("x", "", "v", "example.com/mine/controllers/x")
	r.mustRegister("y", "", "y", "example.com/mine/controllers/x")
	if err := r.Err(); err != nil {
		t.Fatalf("Err() = %v before any clash", err)
	}
	r.mustRegister("x", "", "w", "github.com/argosgo/argos/controllers/x")
	for _, err := range []error{r.Err(), func() error { _, err := r.Lookup("x"); return err }()} {
		if err == nil {
			t.Fatal("a clash between two packages is not reported")
		}
		for _, f := range []string{`controller "x"`, "example.com/mine/controllers/x", "github.com/argosgo/argos/controllers/x", "import only one"} {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("clash error %q does not mention %q", err, f)
			}
		}
	}
	if v, err := r.Lookup("y"); err != nil || v != "y" {
		t.Errorf("Lookup(y) = %q, %v: a clash on x must not hide y", v, err)
	}
	r.mustRegister("z", "", "z", "p")
	r.mustRegister("z", "", "z", "p")
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), `"z" is registered twice by package p`) {
		t.Errorf("a package registering twice: %v", err)
	}
	defer func() {
		if p := recover(); p == nil {
			t.Error("MustRegister of an empty name did not panic")
		}
	}()
	r.MustRegister("", "", "v")
}

func TestFuncPackage(t *testing.T) {
	for fn, want := range map[string]string{
		"example.com/mine/controllers/wander.init.0":                "example.com/mine/controllers/wander",
		"github.com/argosgo/argos/ci.(*Registry[...]).MustRegister": "github.com/argosgo/argos/ci",
		"main.init.0.func1": "main",
		"a.b/c.d/e.f":       "a.b/c.d/e",
	} {
		if got := funcPackage(fn); got != want {
			t.Errorf("funcPackage(%q) = %q, want %q", fn, got, want)
		}
	}
}

func TestRegistryLookupUnknown(t *testing.T) {
	for _, tc := range []struct {
		names     []string
		fragments []string
	}{
		{nil, []string{"ci: ", "unknown widget", `"zz"`, "none are registered", "import the package"}},
		{[]string{"gamma", "alpha", "beta"}, []string{"ci: ", "unknown widget", `"zz"`, "known: alpha, beta, gamma", "check the spelling"}},
	} {
		r := NewRegistry[int]("widget")
		for _, n := range tc.names {
			r.MustRegister(n, "", 0)
		}
		v, err := r.Lookup("zz")
		if err == nil {
			t.Errorf("%v: Lookup(zz) = %v, nil; want an error", tc.names, v)
			continue
		}
		for _, f := range tc.fragments {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%v: Lookup error %q does not mention %q", tc.names, err, f)
			}
		}
	}
}

func TestRegistryNamesEntriesSorted(t *testing.T) {
	r := NewRegistry[int]("widget")
	if n := r.Names(); len(n) != 0 {
		t.Errorf("empty registry Names = %v", n)
	}
	in := []string{"kinematics2d", "dynamics2d", "pointmass3d", "b", "a"}
	for i, n := range in {
		r.MustRegister(n, "about "+n, i)
	}
	want := slices.Sorted(slices.Values(in))
	if got := r.Names(); !slices.Equal(got, want) {
		t.Errorf("Names = %v, want %v", got, want)
	}
	entries := r.Entries()
	if len(entries) != len(want) {
		t.Fatalf("Entries has %d, want %d", len(entries), len(want))
	}
	for i, e := range entries {
		if e.Name != want[i] || e.Description != "about "+want[i] || e.Value != slices.Index(in, want[i]) {
			t.Errorf("Entries[%d] = %+v, want %s", i, e, want[i])
		}
	}
}

func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry[int]("widget")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				name := fmt.Sprintf("w%d-%d", i, j)
				if err := r.Register(name, "", j); err != nil {
					t.Error(err)
				}
				if _, err := r.Lookup(name); err != nil {
					t.Error(err)
				}
				_ = r.Entries()
			}
		})
	}
	wg.Wait()
	if n := len(r.Names()); n != 400 {
		t.Errorf("%d names registered, want 400", n)
	}
}

func TestRegisterController(t *testing.T) {
	const label = "ci_registry_test_controller"
	f := func() Controller { return nil }
	if err := RegisterController(label, "a test", f); err != nil {
		t.Fatal(err)
	}
	if err := RegisterController(label, "again", f); err == nil {
		t.Error("RegisterController accepted a duplicate label")
	}
	if _, err := Controllers.Lookup(label); err != nil {
		t.Errorf("Controllers.Lookup: %v", err)
	}
	_, err := Controllers.Lookup("no_such_controller")
	if err == nil || !strings.Contains(err.Error(), "unknown controller") || !strings.Contains(err.Error(), label) {
		t.Errorf("Controllers.Lookup(unknown) error %v, want it to name the kind and list %s", err, label)
	}
}
