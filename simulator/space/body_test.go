package space

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
)

const eps = 1e-12

func v2(x, y float64) ci.Vector2 { return ci.Vector2{X: x, Y: y} }

func disc(x, y, r float64) *Body {
	b := &Body{Shape: Disc, Radius: r, Pos: v2(x, y), Height: 1}
	b.SetYaw(0)
	return b
}

func box(x, y, hx, hy, yawDeg float64) *Body {
	b := &Body{Shape: Box, Half: v2(hx, hy), Radius: math.Hypot(hx, hy), Pos: v2(x, y), Height: 1}
	b.SetYaw(ci.Radians(yawDeg))
	return b
}

func TestRayDisc(t *testing.T) {
	tests := []struct {
		name     string
		from, to ci.Vector2
		c        ci.Vector2
		r        float64
		want     float64 // -1: miss
	}{
		{"head on", v2(-2, 0), v2(2, 0), v2(0, 0), 1, 0.25},
		{"head on, reversed", v2(2, 0), v2(-2, 0), v2(0, 0), 1, 0.25},
		{"off centre", v2(0, 0), v2(4, 0), v2(2, 0.6), 1, 0.3}, // enters at x = 2-0.8
		{"diagonal 3-4-5", v2(3, 4), v2(0, 0), v2(0, 0), 1, 0.8},
		{"tangent", v2(-2, 1), v2(2, 1), v2(0, 0), 1, 0.5},
		{"miss beside", v2(-2, 1.5), v2(2, 1.5), v2(0, 0), 1, -1},
		{"start inside", v2(0.5, 0), v2(3, 0), v2(0, 0), 1, 0},
		{"start inside, pointing out", v2(0.5, 0), v2(0.9, 0), v2(0, 0), 1, 0},
		{"start on the rim", v2(-1, 0), v2(-3, 0), v2(0, 0), 1, 0},
		{"too short", v2(-3, 0), v2(-1.5, 0), v2(0, 0), 1, -1},
		{"ends on the rim", v2(-2, 0), v2(-1, 0), v2(0, 0), 1, 1},
		{"pointing away", v2(2, 0), v2(3, 0), v2(0, 0), 1, -1},
		{"behind, line would hit", v2(-1.5, 0), v2(-3, 0), v2(0, 0), 1, -1},
		{"zero length outside", v2(2, 0), v2(2, 0), v2(0, 0), 1, -1},
		{"zero length inside", v2(0.2, 0), v2(0.2, 0), v2(0, 0), 1, 0},
		{"e-puck sized", v2(0.1, 0), v2(0.2, 0), v2(0.2, 0), 0.035, 0.65},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := rayDisc(tt.from, tt.to, tt.c, tt.r)
			if tt.want < 0 {
				if ok {
					t.Fatalf("rayDisc = %v, hit; want a miss", got)
				}
				return
			}
			if !ok || math.Abs(got-tt.want) > eps {
				t.Fatalf("rayDisc = %v, %v; want %v, hit", got, ok, tt.want)
			}
			// The body method must agree with the primitive.
			b := disc(tt.c.X, tt.c.Y, tt.r)
			if bt, bok := b.rayHit(tt.from, tt.to); bok != ok || bt != got {
				t.Errorf("Body.rayHit = %v, %v; want %v, %v", bt, bok, got, ok)
			}
		})
	}
}

func TestRayBox(t *testing.T) {
	s2 := math.Sqrt2
	c30, s30 := math.Cos(math.Pi/6), math.Sin(math.Pi/6)
	tests := []struct {
		name     string
		b        *Body
		from, to ci.Vector2
		want     float64 // -1: miss
	}{
		{"along x", box(0, 0, 1, 0.5, 0), v2(-3, 0), v2(3, 0), 1.0 / 3},
		{"along y", box(0, 0, 1, 0.5, 0), v2(0, -2), v2(0, 2), 0.375},
		{"from the right", box(0, 0, 1, 0.5, 0), v2(3, 0.2), v2(-3, 0.2), 1.0 / 3},
		{"miss above", box(0, 0, 1, 0.5, 0), v2(-3, 1), v2(3, 1), -1},
		{"too short", box(0, 0, 1, 0.5, 0), v2(-3, 0), v2(-1.5, 0), -1},
		{"ends on the face", box(0, 0, 1, 0.5, 0), v2(-3, 0), v2(-1, 0), 1},
		{"pointing away", box(0, 0, 1, 0.5, 0), v2(-2, 0), v2(-3, 0), -1},
		{"start inside", box(0, 0, 1, 0.5, 0), v2(0.2, 0.1), v2(3, 0.1), 0},
		{"start inside, stays inside", box(0, 0, 1, 0.5, 0), v2(0.2, 0.1), v2(0.3, 0.1), 0},
		{"grazing an edge", box(0, 0, 1, 0.5, 0), v2(-3, 0.5), v2(3, 0.5), 1.0 / 3},
		{"tangent at a corner", box(0, 0, 1, 0.5, 0), v2(-2, -0.5), v2(0, 1.5), 0.5},
		{"diagonal entry", box(0, 0, 1, 0.5, 0), v2(-2, 1.5), v2(0, -0.5), 0.5},
		{"zero length outside", box(0, 0, 1, 0.5, 0), v2(2, 2), v2(2, 2), -1},
		{"zero length inside", box(0, 0, 1, 0.5, 0), v2(0.5, 0), v2(0.5, 0), 0},
		{"offset centre", box(5, -3, 0.5, 0.5, 0), v2(5, 0), v2(5, -4), 0.625},
		// Rotated: yaw 90 turns the 2x1 box into a 1x2 one.
		{"rot 90 along x", box(2, 3, 1, 0.5, 90), v2(0, 3), v2(4, 3), 0.375},
		{"rot 90 along y", box(2, 3, 1, 0.5, 90), v2(2, 0), v2(2, 6), 1.0 / 3},
		{"rot 90 miss where unrotated hits", box(2, 3, 1, 0.5, 90), v2(1.2, 2.6), v2(1.2, 3.4), -1},
		// A unit square at 45 degrees is a diamond |x|+|y| <= sqrt2.
		{"diamond head on", box(0, 0, 1, 1, 45), v2(-3, 0), v2(3, 0), (3 - s2) / 6},
		{"diamond above the tip", box(0, 0, 1, 1, 45), v2(-3, 1.2), v2(3, 1.2), (3 - (s2 - 1.2)) / 6},
		{"diamond miss inside its bounding box", box(0, 0, 1, 1, 45), v2(1.0, 1.3), v2(1.3, 1.0), -1},
		{"rot 30 along local x", box(1, 2, 1, 0.5, 30), v2(1-3*c30, 2-3*s30), v2(1+3*c30, 2+3*s30), 1.0 / 3},
		{"rot 30 along local y", box(1, 2, 1, 0.5, 30), v2(1+2*s30, 2-2*c30), v2(1-2*s30, 2+2*c30), 0.375},
		{"rot -150 along local x", box(1, 2, 1, 0.5, -150), v2(1-3*c30, 2-3*s30), v2(1+3*c30, 2+3*s30), 1.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := tt.b.rayHit(tt.from, tt.to)
			if tt.want < 0 {
				if ok {
					t.Fatalf("rayHit = %v, hit; want a miss", got)
				}
				return
			}
			if !ok || math.Abs(got-tt.want) > 1e-9 {
				t.Fatalf("rayHit = %v, %v; want %v, hit", got, ok, tt.want)
			}
		})
	}
}

func TestDistanceContains(t *testing.T) {
	tests := []struct {
		name string
		b    *Body
		p    ci.Vector2
		want float64
	}{
		{"disc outside", disc(1, 1, 1), v2(4, 5), 4},
		{"disc inside", disc(1, 1, 1), v2(1.5, 1), 0},
		{"disc centre", disc(1, 1, 1), v2(1, 1), 0},
		{"disc rim", disc(0, 0, 1), v2(0, 1), 0},
		{"box face", box(0, 0, 1, 0.5, 0), v2(3, 0), 2},
		{"box corner", box(0, 0, 1, 0.5, 0), v2(4, 4.5), 5},
		{"box corner, negative side", box(0, 0, 1, 0.5, 0), v2(-4, -4.5), 5},
		{"box inside", box(0, 0, 1, 0.5, 0), v2(0.9, -0.4), 0},
		{"box on the face", box(0, 0, 1, 0.5, 0), v2(1, 0.2), 0},
		{"box rot 90, along y", box(0, 0, 1, 0.5, 90), v2(0, 3), 2},
		{"box rot 90, along x", box(0, 0, 1, 0.5, 90), v2(3, 0), 2.5},
		{"box rot 90, inside only when rotated", box(0, 0, 1, 0.5, 90), v2(0.2, 0.9), 0},
		{"box rot 90, outside only when rotated", box(0, 0, 1, 0.5, 90), v2(0.9, 0.2), 0.4},
		{"diamond", box(0, 0, 1, 1, 45), v2(2, 0), 2 - math.Sqrt2},
		{"shifted rotated box", box(10, -5, 2, 1, 180), v2(13, -5), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.b.Distance(tt.p)
			if math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Distance(%v) = %v, want %v", tt.p, got, tt.want)
			}
			if in := tt.b.Contains(tt.p); in != (tt.want == 0) {
				t.Errorf("Contains(%v) = %v, want %v", tt.p, in, tt.want == 0)
			}
		})
	}
}

func TestGap(t *testing.T) {
	tests := []struct {
		name string
		a, b *Body
		want float64
	}{
		{"discs apart", disc(0, 0, 1), disc(5, 0, 2), 2},
		{"discs touching", disc(0, 0, 1), disc(0, 3, 2), 0},
		{"discs overlapping", disc(0, 0, 1), disc(2, 0, 2), -1},
		{"disc beside a box face", box(0, 0, 1, 0.5, 0), disc(3, 0, 0.5), 1.5},
		{"disc beside a box corner", box(0, 0, 1, 0.5, 0), disc(4, 4.5, 0.5), 4.5},
		{"disc beside a rotated box", box(0, 0, 1, 0.5, 90), disc(0, 3, 0.5), 1.5},
		{"disc inside a box", box(0, 0, 1, 0.5, 0), disc(0.5, 0, 0.1), -0.6},
		{"disc half in a box", box(0, 0, 1, 0.5, 0), disc(1, 0, 0.25), -0.25},
		// Box-box: the exact distance between the rectangles.
		{"boxes side by side", box(0, 0, 3, 4, 0), box(20, 0, 3, 4, 0), 14},
		{"boxes corner to corner", box(0, 0, 1, 1, 0), box(5, 6, 1, 1, 0), 5},
		{"box and diamond", box(0, 0, 1, 1, 0), box(4, 0, 1, 1, 45), 3 - math.Sqrt2},
		{"parallel thin boxes", box(0, 0, 0.5, 0.05, 0), box(0, 0.15, 0.5, 0.05, 0), 0.05},
		{"small box near a long wall", box(0, 0, 10, 0.05, 0), box(3, 0.3, 0.05, 0.05, 30), 0.3 - 0.05 - 0.05*(math.Cos(math.Pi/6)+math.Sin(math.Pi/6))},
		{"boxes touching", box(0, 0, 1, 1, 0), box(2, 0.5, 1, 1, 0), 0},
		{"boxes overlapping by 0.25", box(0, 0, 1, 1, 0), box(1.75, 0.5, 1, 1, 0), -0.25},
		{"crossed boxes", box(0, 0, 2, 0.1, 0), box(0, 0, 2, 0.1, 90), -2.1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Gap(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Gap(a, b) = %v, want %v", got, tt.want)
			}
			if got := Gap(tt.b, tt.a); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Gap(b, a) = %v, want %v", got, tt.want)
			}
		})
	}
}
