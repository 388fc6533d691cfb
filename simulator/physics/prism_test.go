package physics_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
)

// boundaries parses src (a <boundaries> element, first line is line 1).
func boundaries(t *testing.T, src string) (*physics.Prism, error) {
	t.Helper()
	n, err := config.ParseTree("b.argos", []byte(src))
	if err != nil {
		t.Fatalf("ParseTree: %v", err)
	}
	return physics.ParseBoundaries(n)
}

func mustBoundaries(t *testing.T, src string) *physics.Prism {
	t.Helper()
	p, err := boundaries(t, src)
	if err != nil {
		t.Fatalf("ParseBoundaries: %v", err)
	}
	return p
}

const square = `<boundaries>
  <top height="1"/>
  <bottom height="0"/>
  <sides>
    <vertex point="0,0"/>
    <vertex point="2,0"/>
    <vertex point="2,2"/>
    <vertex point="0,2"/>
  </sides>
</boundaries>`

func TestParseBoundaries(t *testing.T) {
	p := mustBoundaries(t, square)
	want := []ci.Vector2{{X: 0, Y: 0}, {X: 2, Y: 0}, {X: 2, Y: 2}, {X: 0, Y: 2}}
	if len(p.Vertices) != len(want) {
		t.Fatalf("vertices = %v, want %v", p.Vertices, want)
	}
	for i := range want {
		if p.Vertices[i] != want[i] {
			t.Errorf("vertex %d = %v, want %v", i, p.Vertices[i], want[i])
		}
	}
	if p.Bottom != 0 || p.Top != 1 {
		t.Errorf("bottom, top = %g, %g; want 0, 1", p.Bottom, p.Top)
	}
	lo, hi := p.Bounds()
	if lo != (ci.Vector2{}) || hi != (ci.Vector2{X: 2, Y: 2}) {
		t.Errorf("Bounds = %v, %v; want (0,0), (2,2)", lo, hi)
	}
}

func TestParseBoundariesOpenHeight(t *testing.T) {
	// Without <top> and <bottom> the prism is unbounded vertically.
	p := mustBoundaries(t, `<boundaries><sides>
  <vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/>
</sides></boundaries>`)
	if !math.IsInf(p.Bottom, -1) || !math.IsInf(p.Top, 1) {
		t.Errorf("bottom, top = %g, %g; want -Inf, +Inf", p.Bottom, p.Top)
	}
	for _, z := range []float64{-1e9, 0, 1e9} {
		if !p.Contains(ci.Vector3{X: 0.1, Y: 0.1, Z: z}) {
			t.Errorf("Contains(z=%g) = false, want true", z)
		}
	}
}

func TestPrismContains(t *testing.T) {
	sq := mustBoundaries(t, square)
	// An L-shaped (non-convex) region: the square minus its top-right
	// quarter.
	ell := mustBoundaries(t, `<boundaries><bottom height="-1"/><top height="2"/><sides>
  <vertex point="0,0"/><vertex point="2,0"/><vertex point="2,1"/>
  <vertex point="1,1"/><vertex point="1,2"/><vertex point="0,2"/>
</sides></boundaries>`)
	tests := []struct {
		name string
		p    *physics.Prism
		pt   ci.Vector3
		want bool
	}{
		{"square inside", sq, ci.Vector3{X: 1, Y: 1, Z: 0.5}, true},
		{"square outside left", sq, ci.Vector3{X: -0.1, Y: 1, Z: 0.5}, false},
		{"square outside right", sq, ci.Vector3{X: 2.1, Y: 1, Z: 0.5}, false},
		{"square outside above in y", sq, ci.Vector3{X: 1, Y: 2.0001, Z: 0.5}, false},
		{"square outside, on the line of an edge", sq, ci.Vector3{X: 3, Y: 0, Z: 0.5}, false},
		{"square outside, level with a vertex", sq, ci.Vector3{X: -1, Y: 2, Z: 0.5}, false},
		{"on bottom edge", sq, ci.Vector3{X: 1, Y: 0, Z: 0.5}, true},
		{"on right edge", sq, ci.Vector3{X: 2, Y: 1, Z: 0.5}, true},
		{"on top edge", sq, ci.Vector3{X: 1, Y: 2, Z: 0.5}, true},
		{"on left edge", sq, ci.Vector3{X: 0, Y: 1, Z: 0.5}, true},
		{"on vertex (0,0)", sq, ci.Vector3{X: 0, Y: 0, Z: 0.5}, true},
		{"on vertex (2,2)", sq, ci.Vector3{X: 2, Y: 2, Z: 0.5}, true},
		{"on vertex (2,0)", sq, ci.Vector3{X: 2, Y: 0, Z: 0.5}, true},
		{"on vertex (0,2)", sq, ci.Vector3{X: 0, Y: 2, Z: 0.5}, true},
		{"on bottom face", sq, ci.Vector3{X: 1, Y: 1, Z: 0}, true},
		{"on top face", sq, ci.Vector3{X: 1, Y: 1, Z: 1}, true},
		{"below bottom", sq, ci.Vector3{X: 1, Y: 1, Z: -1e-9}, false},
		{"above top", sq, ci.Vector3{X: 1, Y: 1, Z: 1 + 1e-9}, false},
		{"on edge but above top", sq, ci.Vector3{X: 2, Y: 1, Z: 1.5}, false},
		{"L inside lower arm", ell, ci.Vector3{X: 1.5, Y: 0.5}, true},
		{"L inside upper arm", ell, ci.Vector3{X: 0.5, Y: 1.5}, true},
		{"L in the notch", ell, ci.Vector3{X: 1.5, Y: 1.5}, false},
		{"L on the reflex vertex", ell, ci.Vector3{X: 1, Y: 1}, true},
		{"L on the notch's horizontal edge", ell, ci.Vector3{X: 1.5, Y: 1}, true},
		{"L on the notch's vertical edge", ell, ci.Vector3{X: 1, Y: 1.5}, true},
		{"L level with the notch edge, outside", ell, ci.Vector3{X: 2.5, Y: 1}, false},
		{"L below bottom", ell, ci.Vector3{X: 0.5, Y: 0.5, Z: -2}, false},
	}
	for _, tc := range tests {
		if got := tc.p.Contains(tc.pt); got != tc.want {
			t.Errorf("%s: Contains(%v) = %t, want %t", tc.name, tc.pt, got, tc.want)
		}
	}
}

// TestPrismBorderShared checks what the Contains comment promises: a point
// on the border between two adjacent regions belongs to both, so that the
// first engine listing it claims it and no point falls between engines.
func TestPrismBorderShared(t *testing.T) {
	left := mustBoundaries(t, `<boundaries><sides>
  <vertex point="-1,-1"/><vertex point="0,-1"/><vertex point="0,1"/><vertex point="-1,1"/>
</sides></boundaries>`)
	right := mustBoundaries(t, `<boundaries><sides>
  <vertex point="0,-1"/><vertex point="1,-1"/><vertex point="1,1"/><vertex point="0,1"/>
</sides></boundaries>`)
	for i := 0; i <= 20; i++ {
		y := -1 + 0.1*float64(i)
		pt := ci.Vector3{X: 0, Y: y}
		if !left.Contains(pt) || !right.Contains(pt) {
			t.Errorf("border point %v: left %t, right %t; want both", pt, left.Contains(pt), right.Contains(pt))
		}
		// Just off the border, exactly one region holds the point.
		for _, dx := range []float64{-1e-9, 1e-9} {
			pt := ci.Vector3{X: dx, Y: y}
			if left.Contains(pt) == right.Contains(pt) {
				t.Errorf("point %v: left %t, right %t; want exactly one", pt, left.Contains(pt), right.Contains(pt))
			}
		}
	}
}

func TestPhysicsContainsNilRegion(t *testing.T) {
	var e regionOnly
	if !physics.Contains(e, ci.Vector3{X: 1e6, Y: -1e6, Z: 1e6}) {
		t.Error("Contains with a nil region = false, want true")
	}
	e.r = mustBoundaries(t, square)
	if physics.Contains(e, ci.Vector3{X: 3, Y: 1, Z: 0.5}) || !physics.Contains(e, ci.Vector3{X: 1, Y: 1, Z: 0.5}) {
		t.Error("Contains does not follow the region")
	}
}

// regionOnly is an Engine that only has a region.
type regionOnly struct {
	physics.Engine
	r *physics.Prism
}

func (e regionOnly) Region() *physics.Prism { return e.r }

func TestParseBoundariesErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int    // line the error must point at
		want string // part of the message
	}{
		{"clockwise", `<boundaries>
<sides>
  <vertex point="0,0"/><vertex point="0,1"/><vertex point="1,1"/><vertex point="1,0"/>
</sides>
</boundaries>`, 1, "counter-clockwise"},
		{"no sides", `<boundaries>
  <top height="1"/>
</boundaries>`, 1, "at least 3"},
		{"two vertices", `<boundaries>
  <sides><vertex point="0,0"/><vertex point="1,0"/></sides>
</boundaries>`, 1, "at least 3"},
		{"empty sides", `<boundaries><sides/></boundaries>`, 1, "at least 3"},
		{"bottom above top", `<boundaries>
  <top height="0"/>
  <bottom height="1"/>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
</boundaries>`, 1, "below top"},
		{"bottom equals top", `<boundaries>
  <top height="1"/><bottom height="1"/>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
</boundaries>`, 1, "below top"},
		{"unknown child", `<boundaries>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
  <side/>
</boundaries>`, 3, "<side>"},
		{"unknown element in sides", `<boundaries>
  <sides>
    <vertex point="0,0"/><vertex point="1,0"/>
    <point point="0,1"/>
  </sides>
</boundaries>`, 4, "<point>"},
		{"bad vertex", `<boundaries>
  <sides>
    <vertex point="0,0"/>
    <vertex point="1;0"/>
    <vertex point="0,1"/>
  </sides>
</boundaries>`, 4, "point"},
		{"missing vertex point", `<boundaries>
  <sides>
    <vertex point="0,0"/>
    <vertex p="1,0"/>
    <vertex point="0,1"/>
  </sides>
</boundaries>`, 4, "point"},
		{"bad top", `<boundaries>
  <top height="high"/>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
</boundaries>`, 2, "height"},
		{"missing bottom height", `<boundaries>
  <bottom/>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
</boundaries>`, 2, "height"},
		{"attribute on boundaries", `<boundaries size="1">
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
</boundaries>`, 1, "size"},
		{"unknown attribute on top", `<boundaries>
  <top height="1" heigth="2"/>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
</boundaries>`, 2, "heigth"},
		{"unknown attribute on vertex", `<boundaries>
  <sides>
    <vertex point="0,0"/><vertex point="1,0"/>
    <vertex point="0,1" z="1"/>
  </sides>
</boundaries>`, 4, `"z"`},
		{"two sides", `<boundaries>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="0,1"/></sides>
  <sides><vertex point="5,5"/><vertex point="6,5"/><vertex point="5,6"/></sides>
</boundaries>`, 3, "twice"},
		{"collinear", `<boundaries>
  <sides><vertex point="0,0"/><vertex point="1,0"/><vertex point="2,0"/></sides>
</boundaries>`, 1, "area"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := boundaries(t, tc.src)
			if err == nil {
				t.Fatal("no error")
			}
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %q (%T) is not a *config.Error", err, err)
			}
			if ce.File != "b.argos" || ce.Line != tc.line {
				t.Errorf("error at %s:%d, want b.argos:%d (%v)", ce.File, ce.Line, tc.line, err)
			}
			prefix := "b.argos:" + strconv.Itoa(tc.line) + ": "
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}
