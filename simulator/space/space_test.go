package space_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

func v2(x, y float64) ci.Vector2 { return ci.Vector2{X: x, Y: y} }

// Sizes of ARGoS's robots (docs/robots.md).
const (
	epuckR, epuckH     = 0.035, 0.086
	footbotR, footbotH = 0.085036758, 0.146899733
)

func robot(x, y, r, h float64) space.Body {
	return space.Body{Type: "robot", Shape: space.Disc, Radius: r, Height: h, Pos: v2(x, y), Movable: true}
}

func wall(x, y, sx, sy, h, yawDeg float64) space.Body {
	b := space.Body{Type: "box", Shape: space.Box, Half: v2(sx/2, sy/2), Radius: math.Hypot(sx/2, sy/2), Height: h, Pos: v2(x, y)}
	b.SetYaw(ci.Radians(yawDeg))
	return b
}

func cylinder(x, y, r, z, h float64, movable bool) space.Body {
	return space.Body{Type: "cylinder", Shape: space.Disc, Radius: r, Height: h, Z: z, Pos: v2(x, y), Movable: movable}
}

func arena(size float64) *space.Space {
	return space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: size, Y: size, Z: 1})
}

func TestNewBounds(t *testing.T) {
	s := space.New(ci.Vector3{X: 1, Y: -2, Z: 0.5}, ci.Vector3{X: 4, Y: 6, Z: 1})
	lo, hi := s.Bounds()
	if lo != v2(-1, -5) || hi != v2(3, 1) {
		t.Errorf("Bounds() = %v, %v; want (-1,-5), (3,1)", lo, hi)
	}
}

func TestAdd(t *testing.T) {
	s := arena(4)
	b := robot(0, 0, epuckR, epuckH)
	b.Yaw = math.Pi / 2 // set without SetYaw: Add fills Cos and Sin
	i := s.Add(b)
	st := s.Add(wall(1, 1, 1, 1, 1, 0))
	if i != 0 || st != 1 {
		t.Fatalf("handles %d, %d; want 0, 1", i, st)
	}
	if got := s.Bodies[i]; math.Abs(got.Sin-1) > 1e-15 || math.Abs(got.Cos) > 1e-15 {
		t.Errorf("Add left Sin, Cos = %v, %v; want 1, 0", got.Sin, got.Cos)
	}
	if h := s.Bodies[i].Heading(); math.Abs(h.Y-1) > 1e-15 {
		t.Errorf("Heading() = %v, want (0,1)", h)
	}
	if e := s.Bodies[st].Engine; e != -1 {
		t.Errorf("static body Engine = %d, want -1", e)
	}
	if top := s.Bodies[i].Top(); top != epuckH {
		t.Errorf("Top() = %v, want %v", top, epuckH)
	}
}

func TestCastRay(t *testing.T) {
	type ray struct {
		from, to ci.Vector2
		z        float64
		ignore   int
	}
	tests := []struct {
		name    string
		bodies  []space.Body
		remove  []int
		ray     ray
		wantT   float64
		wantHit int
	}{
		{
			name:    "empty arena",
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   1,
			wantHit: -1,
		},
		{
			name:    "caster ignored, ray from its centre",
			bodies:  []space.Body{robot(0, 0, footbotR, footbotH), robot(0.3, 0, footbotR, footbotH)},
			ray:     ray{v2(0, 0), v2(0.5, 0), 0.06, 0},
			wantT:   (0.3 - footbotR) / 0.5,
			wantHit: 1,
		},
		{
			name:    "caster not ignored: hit at the start",
			bodies:  []space.Body{robot(0, 0, footbotR, footbotH), robot(0.3, 0, footbotR, footbotH)},
			ray:     ray{v2(0, 0), v2(0.5, 0), 0.06, -1},
			wantT:   0,
			wantHit: 0,
		},
		{
			name:    "ignoring another body sees through it",
			bodies:  []space.Body{robot(0, 0, footbotR, footbotH), robot(0.3, 0, footbotR, footbotH)},
			ray:     ray{v2(-0.5, 0), v2(0.5, 0), 0.06, 0},
			wantT:   (0.5 + 0.3 - footbotR) / 1,
			wantHit: 1,
		},
		{
			name:    "ray over a low body",
			bodies:  []space.Body{cylinder(0.5, 0, 0.1, 0, 0.05, false)},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   1,
			wantHit: -1,
		},
		{
			name:    "ray through a low body",
			bodies:  []space.Body{cylinder(0.5, 0, 0.1, 0, 0.05, false)},
			ray:     ray{v2(0, 0), v2(1, 0), 0.04, -1},
			wantT:   0.4,
			wantHit: 0,
		},
		{
			name:    "ray at the top face",
			bodies:  []space.Body{cylinder(0.5, 0, 0.1, 0, 0.05, true)},
			ray:     ray{v2(0, 0), v2(1, 0), 0.05, -1},
			wantT:   0.4,
			wantHit: 0,
		},
		{
			name:    "ray under a raised body",
			bodies:  []space.Body{cylinder(0.5, 0, 0.1, 0.1, 0.2, false)},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   1,
			wantHit: -1,
		},
		{
			name: "closest of several, added far to near",
			bodies: []space.Body{
				wall(3, 0, 0.2, 2, 0.5, 0),
				robot(2, 0, 0.1, 0.1),
				cylinder(1, 0, 0.1, 0, 0.5, false),
			},
			ray:     ray{v2(0, 0), v2(4, 0), 0.06, -1},
			wantT:   0.9 / 4,
			wantHit: 2,
		},
		{
			name: "closest of several, the nearest ignored",
			bodies: []space.Body{
				wall(3, 0, 0.2, 2, 0.5, 0),
				robot(2, 0, 0.1, 0.1),
				cylinder(1, 0, 0.1, 0, 0.5, false),
			},
			ray:     ray{v2(0, 0), v2(4, 0), 0.06, 2},
			wantT:   1.9 / 4,
			wantHit: 1,
		},
		{
			name: "mobile body in front of a wall",
			bodies: []space.Body{
				wall(0.5, 0, 0.1, 1, 0.5, 0),
				robot(0.3, 0.01, epuckR, epuckH),
			},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   0.3 - math.Sqrt(epuckR*epuckR-0.01*0.01),
			wantHit: 1,
		},
		{
			name: "only the body in line is hit",
			bodies: []space.Body{
				wall(0.5, 0.5, 0.2, 0.2, 0.5, 0),
				wall(0.5, -0.5, 0.2, 0.2, 0.5, 0),
				wall(0.5, 0, 0.2, 0.2, 0.5, 0),
			},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   0.4,
			wantHit: 2,
		},
		{
			name: "touching boxes hit at the same t: lowest handle wins",
			bodies: []space.Body{
				wall(0.5, 0.1, 0.2, 0.2, 0.5, 0),
				wall(0.5, -0.1, 0.2, 0.2, 0.5, 0),
			},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   0.4,
			wantHit: 0,
		},
		{
			name:    "removed mobile body",
			bodies:  []space.Body{robot(0.5, 0, 0.1, 0.2)},
			remove:  []int{0},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   1,
			wantHit: -1,
		},
		{
			name:    "removed static body",
			bodies:  []space.Body{wall(0.5, 0, 0.1, 1, 0.5, 0), robot(0.8, 0, 0.1, 0.2)},
			remove:  []int{0},
			ray:     ray{v2(0, 0), v2(1, 0), 0.06, -1},
			wantT:   0.7,
			wantHit: 1,
		},
		{
			name:    "long ray across many cells",
			bodies:  []space.Body{robot(7.5, 7.5, 0.1, 0.2)},
			ray:     ray{v2(-8, -8), v2(9, 9), 0.06, -1},
			wantT:   (15.5*math.Sqrt2 - 0.1) / (17 * math.Sqrt2),
			wantHit: 0,
		},
		{
			name:    "rotated wall",
			bodies:  []space.Body{wall(1, 1, 4, 0.1, 0.5, 45)},
			ray:     ray{v2(1, -1), v2(1, 3), 0.06, -1},
			wantT:   (2 - 0.05*math.Sqrt2) / 4,
			wantHit: 0,
		},
		{
			name:    "mobile body pushed outside the arena",
			bodies:  []space.Body{robot(-10.5, 0, 0.1, 0.2)},
			ray:     ray{v2(-9.5, 0), v2(-11, 0), 0.06, -1},
			wantT:   0.9 / 1.5,
			wantHit: 0,
		},
		{
			name:    "ray entirely outside the arena",
			bodies:  []space.Body{robot(12, 12, 0.1, 0.2)},
			ray:     ray{v2(11, 12), v2(13, 12), 0.06, -1},
			wantT:   0.45,
			wantHit: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := arena(20)
			for _, b := range tt.bodies {
				s.Add(b)
			}
			s.Reindex()
			for _, i := range tt.remove {
				s.Remove(i)
			}
			s.Reindex()
			r := tt.ray
			gotT, hit := s.CastRay(r.from, r.to, r.z, r.ignore)
			if hit != tt.wantHit || math.Abs(gotT-tt.wantT) > 1e-12 {
				t.Errorf("CastRay = (%v, %d), want (%v, %d)", gotT, hit, tt.wantT, tt.wantHit)
			}
		})
	}
}

// A static wall spanning the whole 20 m of the arena's middle is seen from
// everywhere along it, and only there.
func TestCastRayLongWall(t *testing.T) {
	s := arena(40)
	s.Add(wall(0, 2, 20, 0.1, 0.5, 0))
	s.Add(wall(-15, 0, 0.1, 30, 0.5, 0)) // 30 m along Y
	for i := range 200 {                 // some robots make the cells small
		s.Add(robot(-19.5+float64(i%40), -19.5+float64(i/40)*0.2, epuckR, epuckH))
	}
	s.Reindex()
	for x := -10.5; x <= 10.5; x += 0.0625 {
		tt, hit := s.CastRay(v2(x, 1.5), v2(x, 2.5), 0.06, -1)
		want, wantHit := 0.45, 0
		if x < -10 || x > 10 {
			want, wantHit = 1, -1
		}
		if hit != wantHit || math.Abs(tt-want) > 1e-12 {
			t.Errorf("x=%g: CastRay = (%v, %d), want (%v, %d)", x, tt, hit, want, wantHit)
		}
	}
	for y := -15.5; y <= 15.5; y += 0.0625 {
		tt, hit := s.CastRay(v2(-14, y), v2(-16, y), 0.06, -1)
		want, wantHit := 0.95/2, 1
		if y < -15 || y > 15 {
			want, wantHit = 1, -1
		}
		if hit != wantHit || math.Abs(tt-want) > 1e-12 {
			t.Errorf("y=%g: CastRay = (%v, %d), want (%v, %d)", y, tt, hit, want, wantHit)
		}
	}
}

// Bodies move between ticks: the index follows after Reindex, also when a
// static body moved and StaticChanged was called.
func TestReindexFollowsMoves(t *testing.T) {
	s := arena(10)
	r := s.Add(robot(1, 0, 0.1, 0.2))
	w := s.Add(wall(-1, 0, 0.1, 1, 0.5, 0))
	s.Reindex()
	if _, hit := s.CastRay(v2(0, 0), v2(2, 0), 0.06, -1); hit != r {
		t.Fatalf("before moving: hit %d, want %d", hit, r)
	}
	s.Bodies[r].Pos = v2(3, 3)
	s.Reindex()
	if _, hit := s.CastRay(v2(0, 0), v2(2, 0), 0.06, -1); hit != -1 {
		t.Errorf("robot moved away: hit %d, want -1", hit)
	}
	if _, hit := s.CastRay(v2(3, 2), v2(3, 4), 0.06, -1); hit != r {
		t.Errorf("robot moved here: hit %d, want %d", hit, r)
	}
	s.Bodies[w].Pos = v2(4, -3)
	s.StaticChanged()
	s.Reindex()
	if _, hit := s.CastRay(v2(0, 0), v2(-2, 0), 0.06, -1); hit != -1 {
		t.Errorf("wall moved away: hit %d, want -1", hit)
	}
	if _, hit := s.CastRay(v2(3, -3), v2(5, -3), 0.06, -1); hit != w {
		t.Errorf("wall moved here: hit %d, want %d", hit, w)
	}
	// A body added after the index was built is seen after Reindex.
	n := s.Add(cylinder(-3, 3, 0.2, 0, 0.5, false))
	s.Reindex()
	if _, hit := s.CastRay(v2(-4, 3), v2(-2, 3), 0.06, -1); hit != n {
		t.Errorf("added cylinder: hit %d, want %d", hit, n)
	}
	// A much larger mobile body changes the cell size; static bodies are
	// still found.
	big := s.Add(robot(0, -4, 0.9, 0.2))
	s.Reindex()
	if _, hit := s.CastRay(v2(3, -3), v2(5, -3), 0.06, -1); hit != w {
		t.Errorf("after the cell size changed: hit %d, want %d", hit, w)
	}
	if _, hit := s.CastRay(v2(1.5, -4), v2(0, -4), 0.06, -1); hit != big {
		t.Errorf("big robot: hit %d, want %d", hit, big)
	}
}

func TestNear(t *testing.T) {
	s := arena(10)
	bodies := []space.Body{
		robot(0, 0, 0.1, 0.2),                  // 0
		robot(0.35, 0, 0.1, 0.2),               // 1: footprint reaches x=0.25
		robot(2, 2, 0.1, 0.2),                  // 2: far
		wall(0, 1, 8, 0.1, 0.5, 0),             // 3: long, crosses above the box
		wall(3, -3, 0.5, 0.5, 0.5, 0),          // 4: far
		robot(-0.3, 0, 0.1, 0.2),               // 5: removed
		cylinder(0, -0.3, 0.05, 0, 0.1, false), // 6
	}
	for _, b := range bodies {
		s.Add(b)
	}
	s.Remove(5)
	s.Reindex()
	lo, hi := v2(-0.2, -0.25), v2(0.25, 0.96)
	seen := map[int]int{}
	s.Near(lo, hi, func(i int) bool { seen[i]++; return true })
	for _, want := range []int{0, 1, 3, 6} {
		if seen[want] == 0 {
			t.Errorf("Near did not visit body %d; visited %v", want, seen)
		}
	}
	if seen[5] != 0 {
		t.Errorf("Near visited the removed body 5")
	}
	for i, n := range seen {
		if n > 1 && s.Bodies[i].Movable {
			t.Errorf("Near visited mobile body %d %d times", i, n)
		}
	}
	calls := 0
	s.Near(v2(-5, -5), v2(5, 5), func(int) bool { calls++; return false })
	if calls != 1 {
		t.Errorf("Near went on after fn returned false: %d calls", calls)
	}
}

func TestCrowdedOverlapping(t *testing.T) {
	tests := []struct {
		name       string
		bodies     []space.Body // body 0 is asked about
		remove     []int
		gap, tol   float64
		crowded    bool
		overlapped int // -1: none
	}{
		{"alone", []space.Body{robot(0, 0, 0.1, 0.2)}, nil, 1, 0, false, -1},
		{"5 cm apart, gap 6 cm", []space.Body{robot(0, 0, 0.1, 0.2), robot(0.25, 0, 0.1, 0.2)}, nil, 0.06, 0, true, -1},
		{"5 cm apart, gap 4 cm", []space.Body{robot(0, 0, 0.1, 0.2), robot(0.25, 0, 0.1, 0.2)}, nil, 0.04, 0, false, -1},
		{"overlapping by 1 cm", []space.Body{robot(0, 0, 0.1, 0.2), robot(0.19, 0, 0.1, 0.2)}, nil, 0, 0, true, 1},
		{"overlapping by 1 cm, tolerance 2 cm", []space.Body{robot(0, 0, 0.1, 0.2), robot(0.19, 0, 0.1, 0.2)}, nil, 0, 0.02, true, -1},
		{"overlapping, but removed", []space.Body{robot(0, 0, 0.1, 0.2), robot(0.19, 0, 0.1, 0.2)}, []int{1}, 0.1, 0, false, -1},
		{"overlapping footprints, above", []space.Body{robot(0, 0, 0.1, 0.2), cylinder(0.1, 0, 0.1, 0.3, 0.1, false)}, nil, 0.1, 0, false, -1},
		{"stacked, touching faces", []space.Body{robot(0, 0, 0.1, 0.2), cylinder(0, 0, 0.1, 0.2, 0.1, false)}, nil, 0.1, 0, true, -1},
		{"near a wall", []space.Body{robot(0, 0, 0.1, 0.2), wall(0, 0.2, 4, 0.1, 0.5, 0)}, nil, 0.06, 0, true, -1},
		{"far from a wall", []space.Body{robot(0, 0, 0.1, 0.2), wall(0, 0.2, 4, 0.1, 0.5, 0)}, nil, 0.04, 0, false, -1},
		{"inside a wall", []space.Body{robot(0, 0, 0.1, 0.2), wall(0, 0.1, 4, 0.1, 0.5, 0)}, nil, 0, 0, true, 1},
		{"box beside a long wall", []space.Body{wall(3, 0.3, 0.1, 0.1, 0.1, 0), wall(0, 0, 20, 0.1, 0.5, 0)}, nil, 0.1, 0, false, -1},
		{"box touching a long wall", []space.Body{wall(3, 0.1, 0.1, 0.1, 0.1, 0), wall(0, 0, 20, 0.1, 0.5, 0)}, nil, 0.01, 0, true, -1},
		{"box in a long wall", []space.Body{wall(3, 0.09, 0.1, 0.1, 0.1, 0), wall(0, 0, 20, 0.1, 0.5, 0)}, nil, 0, 0, true, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := arena(10)
			for _, b := range tt.bodies {
				s.Add(b)
			}
			for _, i := range tt.remove {
				s.Remove(i)
			}
			s.Reindex()
			if got := s.Crowded(0, tt.gap); got != tt.crowded {
				t.Errorf("Crowded(0, %g) = %v, want %v", tt.gap, got, tt.crowded)
			}
			j, ok := s.Overlapping(0, tt.tol)
			if j != tt.overlapped || ok != (tt.overlapped >= 0) {
				t.Errorf("Overlapping(0, %g) = %d, %v; want %d, %v", tt.tol, j, ok, tt.overlapped, tt.overlapped >= 0)
			}
		})
	}
}

func TestPlacementFits(t *testing.T) {
	s := space.New(ci.Vector3{X: 1, Z: 0.5}, ci.Vector3{X: 4, Y: 4, Z: 1}) // x in [-1,3], y in [-2,2]
	s.Add(wall(1, 0, 4, 0.1, 0.5, 0))                                      // across the middle
	s.Add(robot(0, 1, epuckR, epuckH))
	removed := s.Add(robot(2, 1, epuckR, epuckH))
	s.Remove(removed)
	p := space.NewPlacement(s)

	low := cylinder(0, -1, 0.2, 0, 0.05, false)
	p.Insert(s.Add(low))

	tests := []struct {
		name string
		b    space.Body
		want bool
	}{
		{"free spot", robot(0, -0.5, epuckR, epuckH), true},
		{"touching the arena edge", robot(-1+epuckR, 1.5, epuckR, epuckH), true},
		{"across the arena edge", robot(-1+epuckR-0.001, 1.5, epuckR, epuckH), false},
		{"across the far edge", robot(3-epuckR+0.001, -1.5, epuckR, epuckH), false},
		{"outside the arena", robot(5, 5, epuckR, epuckH), false},
		{"on the wall", robot(1.5, 0.06, epuckR, epuckH), false},
		{"touching the wall", robot(1.5, 0.05+epuckR+1e-9, epuckR, epuckH), true},
		{"overlapping a placed robot", robot(0.06, 1, epuckR, epuckH), false},
		{"touching a placed robot", robot(0.07, 1, epuckR, epuckH), true},
		{"where a removed robot was", robot(2, 1, epuckR, epuckH), true},
		{"over a low cylinder", cylinder(0, -1, 0.1, 0.06, 0.1, true), true},
		{"on a low cylinder's top face", cylinder(0, -1, 0.1, 0.05, 0.1, true), true},
		{"into a low cylinder", cylinder(0, -1, 0.1, 0.04, 0.1, true), false},
		{"box near the wall", wall(2, 0.2, 0.2, 0.2, 0.1, 0), true},
		{"rotated box near the wall", wall(2, 0.2, 0.2, 0.2, 0.1, 45), true},
		{"rotated box into the wall", wall(2, 0.18, 0.2, 0.2, 0.1, 45), false},
		{"upright box near the edge", wall(2.7, 1.5, 0.2, 0.9, 0.1, 0), true},
		{"same box turned out of the arena", wall(2.7, 1.5, 0.2, 0.9, 0.1, 90), false},
		{"box literal without SetYaw, outside", space.Body{Shape: space.Box, Half: v2(0.6, 0.3), Radius: math.Hypot(0.6, 0.3), Height: 0.1, Pos: v2(2.5, -1.5)}, false},
		{"box literal without SetYaw, on the wall", space.Body{Shape: space.Box, Half: v2(0.1, 0.1), Radius: 0.15, Height: 0.1, Pos: v2(2, 0.1)}, false},
		{"box literal without SetYaw, free", space.Body{Shape: space.Box, Half: v2(0.1, 0.1), Radius: 0.15, Height: 0.1, Pos: v2(2, 0.5)}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.b
			if got := p.Fits(&b); got != tt.want {
				t.Errorf("Fits = %v, want %v", got, tt.want)
			}
		})
	}

	// Inserting a placed body makes its spot taken.
	b := robot(0, -0.5, epuckR, epuckH)
	if !p.Fits(&b) {
		t.Fatal("free spot does not fit")
	}
	p.Insert(s.Add(b))
	b2 := robot(0.01, -0.5, epuckR, epuckH)
	if p.Fits(&b2) {
		t.Error("Fits = true on a spot just taken")
	}
}

// Placing many robots one after the other stays linear: the placement
// keeps its own index.
func TestPlacementMany(t *testing.T) {
	s := arena(10)
	p := space.NewPlacement(s)
	n := 0
	for y := -4.9; y < 4.9; y += 0.1 {
		for x := -4.9; x < 4.9; x += 0.1 {
			b := robot(x, y, epuckR, epuckH)
			if !p.Fits(&b) {
				t.Fatalf("(%g, %g) does not fit", x, y)
			}
			p.Insert(s.Add(b))
			n++
			b2 := robot(x+0.05, y, epuckR, epuckH)
			if p.Fits(&b2) {
				t.Fatalf("(%g, %g) fits over a placed robot", x+0.05, y)
			}
		}
	}
	if n < 9000 || n != len(s.Bodies) {
		t.Fatalf("placed %d robots, the space holds %d", n, len(s.Bodies))
	}
}

// Sensors cast rays from many goroutines every tick: the queries must not
// allocate (the closures they pass to Near stay on the stack).
func TestQueriesDoNotAllocate(t *testing.T) {
	s := arena(10)
	for i := range 100 {
		s.Add(robot(-4.5+float64(i%10), -4.5+float64(i/10), epuckR, epuckH))
	}
	s.Add(wall(0, 0, 8, 0.1, 0.5, 30))
	s.Reindex()
	allocs := testing.AllocsPerRun(100, func() {
		s.CastRay(v2(-4.5, -4.5), v2(4.5, 4.5), 0.06, 0)
		s.Crowded(5, 0.5)
		s.Overlapping(5, 0)
		s.Reindex()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per query round, want 0", allocs)
	}
}

// A reserved body takes its spot before it is added to the space.
func TestPlacementReserve(t *testing.T) {
	s := arena(4)
	p := space.NewPlacement(s)
	b := robot(0.5, 0.5, epuckR, epuckH)
	p.Reserve(b)
	if len(s.Bodies) != 0 {
		t.Fatalf("Reserve added %d bodies to the space", len(s.Bodies))
	}
	near := robot(0.55, 0.5, epuckR, epuckH)
	if p.Fits(&near) {
		t.Error("Fits = true over a reserved body")
	}
	apart := robot(0.6, 0.5, epuckR, epuckH)
	if !p.Fits(&apart) {
		t.Error("Fits = false next to a reserved body")
	}
}

// LayoutOrder is a permutation that goes through the arena strip by strip
// (a quarter metre high), west to east in each strip.
func TestLayoutOrder(t *testing.T) {
	s := arena(10) // x, y in [-5, 5]
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([]ci.Vector2, 5000)
	for k := range pts {
		pts[k] = v2(rng.Float64()*10-5, rng.Float64()*10-5)
	}
	pts[17], pts[18] = v2(1, 1), v2(1, 1) // a tie keeps its order
	order := s.LayoutOrder(len(pts), func(k int) ci.Vector2 { return pts[k] })
	seen := make([]bool, len(pts))
	for _, k := range order {
		if seen[k] {
			t.Fatalf("%d appears twice", k)
		}
		seen[k] = true
	}
	strip := func(p ci.Vector2) int { return int(math.Floor((p.Y + 5) / 0.25)) }
	for i := 1; i < len(order); i++ {
		a, b := pts[order[i-1]], pts[order[i]]
		if strip(a) > strip(b) || strip(a) == strip(b) && a.X > b.X {
			t.Fatalf("position %d: %v comes before %v", i, a, b)
		}
		if a == b && order[i-1] > order[i] {
			t.Fatalf("tie reordered: %d before %d", order[i-1], order[i])
		}
	}
}

// goRunner runs each job on its own goroutine.
type goRunner struct{}

func (goRunner) Run(n int, job func(int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); job(i) }()
	}
	wg.Wait()
}

// ReindexWith a parallel runner builds the same index as Reindex, and
// follows additions and removals.
func TestReindexWithRunner(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a, b := arena(60), arena(60)
	for k := 0; k < 20000; k++ {
		r := robot(rng.Float64()*58-29, rng.Float64()*58-29, epuckR, epuckH)
		a.Add(r)
		b.Add(r)
	}
	check := func(when string) {
		t.Helper()
		for q := 0; q < 2000; q++ {
			p := v2(rng.Float64()*60-30, rng.Float64()*60-30)
			na := a.Nearby(p, 0.3, 0.02, -1, nil)
			nb := b.Nearby(p, 0.3, 0.02, -1, nil)
			if !slices.Equal(na, nb) {
				t.Fatalf("%s: near %v, Reindex finds %v, ReindexWith %v", when, p, na, nb)
			}
		}
	}
	a.Reindex()
	b.ReindexWith(goRunner{})
	check("built")
	for k := 0; k < 20000; k += 3 {
		a.Remove(k)
		b.Remove(k)
	}
	extra := robot(0.5, 0.5, 0.2, epuckH) // a wider body widens every query
	a.Add(extra)
	h := b.Add(extra)
	a.Reindex()
	b.ReindexWith(goRunner{})
	check("after removals")
	if got := b.Nearby(v2(0.5, 0.5), 0.01, 0.02, -1, nil); !slices.Contains(got, int32(h)) {
		t.Fatalf("the added body is not found: %v", got)
	}
	if got := b.Nearby(b.Bodies[3].Pos, 0.001, 0.02, -1, nil); slices.Contains(got, 3) {
		t.Fatal("a removed body is still found")
	}
}

// A body's nub (a foot-bot's gripper) stops rays and is found by Nearby,
// turns with SetNubAngle, and collides with nothing.
func TestNub(t *testing.T) {
	s := arena(4)
	fb := robot(0, 0, footbotR, footbotH)
	fb.SetNub(0.01, footbotR, 0) // straight ahead, out to 0.095 m
	i := s.Add(fb)
	// a robot whose disc overlaps the nub but not the body
	j := s.Add(robot(0.095+0.035-0.005, 0, epuckR, epuckH))
	s.Reindex()
	if b := &s.Bodies[i]; b.Reach() != footbotR+0.01 || b.NubCenter() != v2(footbotR, 0) {
		t.Fatalf("Reach() = %v, NubCenter() = %v", b.Reach(), b.NubCenter())
	}
	// a ray across the front at x = 0.09: misses the disc, meets the nub
	from, to := v2(0.09, 0.05), v2(0.09, -0.05)
	if tt, hit := s.CastRay(from, to, 0.06, j); hit != i || math.Abs(tt-(0.05-math.Sqrt(0.01*0.01-(0.09-footbotR)*(0.09-footbotR)))/0.1) > 1e-12 {
		t.Errorf("a ray across the nub hits %d at t=%v, want %d", hit, tt, i)
	}
	if _, hit := s.CastRay(from, to, 0.2, j); hit != -1 {
		t.Errorf("a ray above the body hits %d", hit)
	}
	if got := s.Nearby(v2(0.1, 0.02), 0.02, 0.06, j, nil); !slices.Contains(got, int32(i)) {
		t.Errorf("Nearby a point 1.2 cm from the nub = %v, want the foot-bot %d in it", got, i)
	}
	if k, ok := s.Overlapping(j, 0); ok {
		t.Errorf("the e-puck over the nub overlaps body %d: the nub must not collide", k)
	}
	if s.Crowded(i, 0.001) != false {
		t.Error("Crowded(the foot-bot) counts its nub")
	}
	s.Bodies[i].SetNubAngle(math.Pi / 2) // the turret turned left
	s.Reindex()
	if _, hit := s.CastRay(from, to, 0.06, j); hit != -1 {
		t.Errorf("with the nub turned away a ray across the front hits %d", hit)
	}
	if _, hit := s.CastRay(v2(-0.05, 0.09), v2(0.05, 0.09), 0.06, j); hit != i {
		t.Errorf("a ray across the turned nub hits %d, want %d", hit, i)
	}
}
