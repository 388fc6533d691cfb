package config

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that no input makes Parse (nor the Node accessors nor
// ParseDistribute on what it returns) panic, that every error is an *Error
// for the right file, and that accepted experiments keep their promises.
// Seeds: testdata/fuzz/FuzzParse, the .argos files in testdata and the
// experiments below.
func FuzzParse(f *testing.F) {
	f.Add(doc(minimal()...))
	f.Add([]byte(`<argos-configuration><framework><system threads="2"/><experiment length="1" ticks_per_second="10" random_seed="3" real_time="false"/></framework>` +
		`<controllers><c id="a"><actuators><leds/></actuators><sensors><positioning implementation="default"/></sensors><params x="1"><sub y="2"/></params></c></controllers>` +
		`<loop_functions label="lf"/><arena size="3,3,1"><distribute><position method="gaussian" mean="0,0,0" std_dev="1,1,0"/>` +
		`<orientation method="uniform" min="0,0,0" max="360,0,0"/><entity quantity="5" max_trials="10"><foot-bot id="fb"/></entity></distribute></arena>` +
		`<physics_engines><dynamics2d id="d"/></physics_engines><media/><visualization/></argos-configuration>`))
	f.Add([]byte(`<argos-configuration><framework><experiment ticks_per_second="1"/></framework><controllers/><arena size="1,1,1">` +
		`<distribute><position method="grid" center="0,0,0" distances="1,1,1" layout="2,2,2"/><orientation method="constant" values="0,0,0"/>` +
		`<entity quantity="8" max_trials="1" base_num="3"><box id="b" size="0.1,0.1,0.1"/></entity></distribute></arena></argos-configuration>`))
	files, _ := filepath.Glob(filepath.Join("testdata", "*.argos"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := Parse("fuzz.argos", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %q is a %T, want *Error", err, err)
			}
			if e.File != "fuzz.argos" || e.Msg == "" || e.Line < 0 {
				t.Fatalf("bad *Error %#v", e)
			}
			_ = err.Error()
			return
		}
		if x == nil {
			t.Fatal("nil experiment without error")
		}
		fw := x.Framework
		if fw.TicksPerSecond <= 0 || fw.Length < 0 || fw.Threads < 0 || fw.Ticks() < 0 || (fw.Length > 0 && fw.Ticks() == 0) {
			t.Fatalf("framework %+v broke its promises", fw)
		}
		if !(x.ArenaSize.X > 0 && x.ArenaSize.Y > 0 && x.ArenaSize.Z > 0) {
			t.Fatalf("arena size %v", x.ArenaSize)
		}
		ids := map[string]bool{}
		for _, c := range x.Controllers {
			if c.ID == "" || ids[c.ID] {
				t.Fatalf("controller id %q empty or duplicated", c.ID)
			}
			ids[c.ID] = true
			if c.Params.Name == "" || c.Params.Attrs == nil {
				t.Fatalf("controller %q params %#v", c.ID, c.Params)
			}
		}
		walk(t, x.Root, nil, 1)
		for _, n := range x.Arena.ChildrenNamed("distribute") {
			d, err := ParseDistribute(n)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("ParseDistribute error %q is a %T", err, err)
				}
				continue
			}
			r := rand.New(rand.NewPCG(1, 2))
			for i := range min(d.Quantity, 64) {
				if _, _, err := d.Sample(r, false); err != nil {
					t.Fatalf("sample %d of a valid distribute: %v", i, err)
				}
				_ = d.ID(i)
			}
		}
	})
}

// walk checks the tree's invariants and calls every accessor on every
// attribute, so that the fuzzer also exercises the value parsers.
func walk(t *testing.T, n, parent *Node, depth int) {
	if depth > MaxDepth {
		t.Fatalf("tree deeper than %d", MaxDepth)
	}
	if n.Line < 1 || n.File != "fuzz.argos" || n.Parent() != parent || n.Name == "" {
		t.Fatalf("node %q at %s has broken position or parent", n.Name, n.Where())
	}
	if parent != nil && n.Line < parent.Line {
		t.Fatalf("<%s> at line %d before its parent at line %d", n.Name, n.Line, parent.Line)
	}
	_ = n.Describe()
	_ = n.Params()
	for _, a := range n.Attrs {
		for _, err := range accessorErrors(n, a.Name) {
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("accessor error %q is a %T", err, err)
			}
		}
	}
	for _, c := range n.Children {
		walk(t, c, n, depth+1)
	}
}

func accessorErrors(n *Node, name string) []error {
	_, e1 := n.Float(name)
	_, e2 := n.Int(name)
	_, e3 := n.Uint64(name)
	_, e4 := n.Bool(name)
	_, e5 := n.Vector2(name)
	_, e6 := n.Vector3(name)
	_, e7 := n.Euler(name)
	_, e8 := n.Color(name)
	return []error{e1, e2, e3, e4, e5, e6, e7, e8, n.CheckAttrs(), n.CheckChildren(), n.AttrErrorf(name, "x")}
}
