package pointmass3d_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/kinematics2d"
	"github.com/argosgo/argos/simulator/physics/physicstest"
	"github.com/argosgo/argos/simulator/physics/pointmass3d"
	"github.com/argosgo/argos/simulator/space"
)

const tick = 0.1

func engineNode(t testing.TB, tag, attrs string) *config.Node {
	t.Helper()
	exp, err := config.Parse("pm.argos", []byte(`<?xml version="1.0"?><argos-configuration>
  <framework><experiment length="1" ticks_per_second="10"/></framework><controllers/>
  <arena size="10,10,3" center="0,0,1.5"/>
  <physics_engines><`+tag+` id="e" `+attrs+`/></physics_engines></argos-configuration>`))
	if err != nil {
		t.Fatal(err)
	}
	return exp.PhysicsEngines[0]
}

func newEngine(t testing.TB, sp *space.Space, attrs string) physics.Engine {
	t.Helper()
	e, err := pointmass3d.New(engineNode(t, "pointmass3d", attrs), physics.Env{Space: sp, TickLength: tick})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// arena is 10 m x 10 m x 3 m with the floor at z = 0.
func arena() *space.Space {
	return space.New(ci.Vector3{Z: 1.5}, ci.Vector3{X: 10, Y: 10, Z: 3})
}

// eyeBot is the eye-bot's body (ARGoS: radius 0.25 m, height 0.566 m,
// mass 1 kg).
func eyeBot(x, y, z, yaw float64) space.Body {
	b := space.Body{ID: "eb", Type: "eye-bot", Shape: space.Disc, Radius: 0.25, Height: 0.566, Mass: 1,
		Movable: true, Pos: ci.Vector2{X: x, Y: y}, Z: z}
	b.SetYaw(yaw)
	return b
}

type world struct {
	t   testing.TB
	sp  *space.Space
	eng physics.Engine
	run physics.Runner
}

func newWorld(t testing.TB, attrs string) *world {
	sp := arena()
	return &world{t: t, sp: sp, eng: newEngine(t, sp, attrs), run: physics.Serial{}}
}

func (w *world) add(b space.Body) int {
	w.t.Helper()
	i := w.sp.Add(b)
	if err := w.eng.Add(i); err != nil {
		w.t.Fatalf("Add: %v", err)
	}
	w.sp.Reindex()
	return i
}

func (w *world) tick() {
	w.eng.Step(tick, w.run)
	w.eng.Commit(w.run)
	w.sp.Reindex()
}

func (w *world) pos(i int) ci.Vector3 {
	b := &w.sp.Bodies[i]
	return ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
}

func (w *world) fly(i int, p ci.Vector3, yaw float64) {
	f := w.sp.Bodies[i].Flight()
	f.Mode, f.Position, f.Yaw = space.ToPosition, p, yaw
}

func TestConformance(t *testing.T) {
	for _, attrs := range []string{``, `iterations="1"`, `iterations="4" gravity="-3"`} {
		t.Run(fmt.Sprintf("attrs=%q", attrs), func(t *testing.T) {
			physicstest.TestEngine(t, func(sp *space.Space) physics.Engine { return newEngine(t, sp, attrs) })
		})
	}
}

func TestTakeOffAndHold(t *testing.T) {
	w := newWorld(t, ``)
	i := w.add(eyeBot(-1, 2, 0, 0))
	if f := w.sp.Bodies[i].Flight(); f == nil || f.Mode != space.Hover {
		t.Fatalf("Add gave the body Flight %+v, want a new one in Hover mode", f)
	}
	// Without a command, it stays on the floor.
	for range 10 {
		w.tick()
	}
	if p := w.pos(i); p != (ci.Vector3{X: -1, Y: 2}) {
		t.Fatalf("without a command the eye-bot moved to %v", p)
	}
	target := ci.Vector3{X: 0.5, Y: -0.3, Z: 1.5}
	w.fly(i, target, 0)
	const tol = 1e-3 // metres: how well it holds the set-point
	reached := -1
	maxZ := 0.0
	for k := 1; k <= 700; k++ {
		w.tick()
		p := w.pos(i)
		maxZ = math.Max(maxZ, p.Z)
		if p.Z < 0 {
			t.Fatalf("tick %d: below the floor at %v", k, p)
		}
		d := p.Sub(target).Length()
		switch {
		case reached < 0 && d < tol:
			reached = k
		case reached >= 0 && d > tol:
			t.Fatalf("tick %d: left the set-point after reaching it at tick %d: %v is %.4f m from %v", k, reached, p, d, target)
		}
	}
	if reached < 0 || reached > 50 {
		t.Fatalf("reached the set-point within %g m at tick %d, want by tick 50 (5 s)", tol, reached)
	}
	if maxZ > target.Z+tol {
		t.Errorf("overshot to z = %.4f, set-point %g", maxZ, target.Z)
	}
	b := &w.sp.Bodies[i]
	if b.Vel.Length() > 1e-4 || math.Abs(b.Flight().VelZ) > 1e-4 {
		t.Errorf("hovering with Vel %v, VelZ %g; want ~0", b.Vel, b.Flight().VelZ)
	}
}

func TestClimbSpeedIsReported(t *testing.T) {
	w := newWorld(t, ``)
	i := w.add(eyeBot(0, 0, 0, 0))
	w.fly(i, ci.Vector3{Z: 2}, 0)
	prev := 0.0
	for k := range 20 {
		w.tick()
		z := w.pos(i).Z
		if k > 0 {
			// VelZ is the speed at the end of the tick; the mean over the
			// tick lies between the two ends.
			if vz := w.sp.Bodies[i].Flight().VelZ; vz < 0 || vz > 20 {
				t.Fatalf("tick %d: VelZ %g", k, vz)
			}
		}
		if z < prev-1e-9 {
			t.Fatalf("tick %d: descended from %g to %g while climbing to 2 m", k, prev, z)
		}
		prev = z
	}
}

func TestYaw(t *testing.T) {
	for _, target := range []float64{2.5, -3, math.Pi, 0.3} {
		w := newWorld(t, ``)
		i := w.add(eyeBot(0, 0, 1, -2.8))
		w.fly(i, ci.Vector3{Z: 1}, target)
		for range 100 {
			w.tick()
			b := &w.sp.Bodies[i]
			if s, c := math.Sincos(b.Yaw); math.Abs(s-b.Sin) > 1e-12 || math.Abs(c-b.Cos) > 1e-12 || b.Yaw > math.Pi || b.Yaw <= -math.Pi {
				t.Fatalf("yaw %g with sin %g cos %g", b.Yaw, b.Sin, b.Cos)
			}
		}
		b := &w.sp.Bodies[i]
		if d := ci.NormalizeAngle(b.Yaw - target); math.Abs(d) > 1e-3 {
			t.Errorf("yaw set-point %g: yaw %g after 10 s", target, b.Yaw)
		}
		if d := w.pos(i).Sub(ci.Vector3{Z: 1}).Length(); d > 1e-6 {
			t.Errorf("turning moved the eye-bot by %g m", d)
		}
	}
}

func TestSpeed(t *testing.T) {
	w := newWorld(t, ``)
	i := w.add(eyeBot(-3, 0, 0.5, 0))
	f := w.sp.Bodies[i].Flight()
	f.Mode, f.Velocity, f.RotSpeed = space.AtSpeed, ci.Vector3{X: 0.3, Y: -0.1, Z: 0.05}, 0.5
	for range 100 { // 10 s: ten time constants of the speed controller
		w.tick()
	}
	b := &w.sp.Bodies[i]
	if d := b.Vel.Sub(ci.Vector2{X: 0.3, Y: -0.1}).Length(); d > 1e-3 {
		t.Errorf("horizontal velocity %v after 10 s at (0.3, -0.1)", b.Vel)
	}
	if math.Abs(b.Flight().VelZ-0.05) > 1e-3 {
		t.Errorf("vertical velocity %g after 10 s at 0.05", b.Flight().VelZ)
	}
	if math.Abs(b.AngVel-0.5) > 1e-3 {
		t.Errorf("rotational speed %g after 10 s at 0.5", b.AngVel)
	}
	// With the speed held, the position advances at that speed.
	p0 := w.pos(i)
	for range 10 {
		w.tick()
	}
	if d := w.pos(i).Sub(p0).Sub(ci.Vector3{X: 0.3, Y: -0.1, Z: 0.05}).Length(); d > 2e-3 {
		t.Errorf("moved %v in 1 s at (0.3, -0.1, 0.05) m/s", w.pos(i).Sub(p0))
	}
	// Zero speed: it stops and holds its altitude against gravity.
	f.Velocity, f.RotSpeed = ci.Vector3{}, 0
	for range 150 {
		w.tick()
	}
	p1 := w.pos(i)
	for range 50 {
		w.tick()
	}
	if d := w.pos(i).Sub(p1).Length(); d > 1e-4 {
		t.Errorf("drifted %g m in 5 s at zero speed", d)
	}
}

func TestLimits(t *testing.T) {
	w := newWorld(t, ``)
	i := w.add(eyeBot(0, 0, 1, 0))
	w.fly(i, ci.Vector3{X: 20, Y: -20, Z: -5}, 0) // outside the arena, under the floor
	for k := range 200 {
		w.tick()
		p := w.pos(i)
		if p.Z < 0 || p.X > 5-0.25+1e-9 || p.Y < -5+0.25-1e-9 {
			t.Fatalf("tick %d: at %v, outside the arena (10 x 10 m, radius 0.25) or under the floor", k, p)
		}
	}
	if p := w.pos(i); p != (ci.Vector3{X: 4.75, Y: -4.75}) {
		t.Errorf("pressed into a corner of the floor it should rest at (4.75, -4.75, 0), is at %v", p)
	}
	w.fly(i, ci.Vector3{Z: 10}, 0) // above the ceiling (3 m)
	for range 200 {
		w.tick()
		if top := w.pos(i).Z + 0.566; top > 3+1e-9 {
			t.Fatalf("top of the body at %g, above the 3 m ceiling", top)
		}
	}
	if z := w.pos(i).Z; math.Abs(z-(3-0.566)) > 1e-9 {
		t.Errorf("pressed against the ceiling at z = %g, want %g", z, 3-0.566)
	}
}

func TestCeilingAttachment(t *testing.T) {
	w := newWorld(t, `ceiling="2.5"`)
	i := w.add(eyeBot(1, 1, 0, 0.4))
	target := ci.Vector3{X: 1, Y: 1, Z: 1}
	w.fly(i, target, 0.4)
	for range 50 {
		w.tick()
	}
	f := w.sp.Bodies[i].Flight()
	f.Attach = true
	hang := 2.5 - 0.566
	at := -1
	for k := 1; k <= 100 && at < 0; k++ {
		w.tick()
		if f.Attached {
			at = k
		}
	}
	if at < 0 {
		t.Fatalf("not attached 10 s after Attach; z = %g", w.pos(i).Z)
	}
	p := w.pos(i)
	if math.Abs(p.Z-hang) > 1e-12 || math.Hypot(p.X-1, p.Y-1) > 1e-3 {
		t.Fatalf("attached at %v, want (1, 1, %g): straight up, top at the 2.5 m ceiling", p, hang)
	}
	// It hangs still, whatever the set-point says, as long as it is
	// attached.
	w.fly(i, ci.Vector3{X: -2, Y: 0, Z: 0.5}, -1)
	for k := range 300 {
		w.tick()
		if q := w.pos(i); q != p || !f.Attached {
			t.Fatalf("tick %d while attached: at %v (attached %v), want it to stay at %v", k, q, f.Attached, p)
		}
		if b := &w.sp.Bodies[i]; b.Vel != (ci.Vector2{}) || b.AngVel != 0 || f.VelZ != 0 {
			t.Fatalf("attached but moving: Vel %v AngVel %g VelZ %g", b.Vel, b.AngVel, f.VelZ)
		}
	}
	f.Attach = false
	w.tick()
	if f.Attached {
		t.Fatalf("still attached after Detach")
	}
	for range 100 {
		w.tick()
	}
	if d := w.pos(i).Sub(ci.Vector3{X: -2, Y: 0, Z: 0.5}).Length(); d > 1e-3 {
		t.Errorf("after Detach it should fly to its set-point, is %g m away at %v", d, w.pos(i))
	}
}

func TestStaticObstacles(t *testing.T) {
	w := newWorld(t, ``)
	wall := w.sp.Add(space.Body{ID: "wall", Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.05, Y: 2},
		Radius: math.Hypot(0.05, 2), Height: 0.5, Pos: ci.Vector2{X: 1}})
	w.sp.Bodies[wall].SetYaw(0)
	low := w.add(eyeBot(0, -1, 0.2, 0)) // meets the wall's height range
	high := w.add(eyeBot(0, 1, 0.6, 0)) // flies over it
	w.fly(low, ci.Vector3{X: 2, Y: -1, Z: 0.2}, 0)
	w.fly(high, ci.Vector3{X: 2, Y: 1, Z: 0.6}, 0)
	for k := range 100 {
		w.tick()
		if j, ok := w.sp.Overlapping(low, 1e-9); ok && j == wall {
			t.Fatalf("tick %d: the low eye-bot at %v overlaps the wall", k, w.pos(low))
		}
	}
	if x := w.pos(low).X; x > 1-0.05-0.25+1e-9 || x < 1-0.05-0.25-0.01 {
		t.Errorf("the low eye-bot should stop against the wall at x = 0.7, is at x = %g", x)
	}
	if d := w.pos(high).Sub(ci.Vector3{X: 2, Y: 1, Z: 0.6}).Length(); d > 1e-3 {
		t.Errorf("the high eye-bot should pass over the 0.5 m wall to (2, 1, 0.6), is at %v", w.pos(high))
	}
	// Climbing, the low one slides up along the wall and over it.
	w.fly(low, ci.Vector3{X: 2, Y: -1, Z: 0.6}, 0)
	for range 100 {
		w.tick()
	}
	if d := w.pos(low).Sub(ci.Vector3{X: 2, Y: -1, Z: 0.6}).Length(); d > 1e-3 {
		t.Errorf("after climbing, the low eye-bot should be at (2, -1, 0.6), is at %v", w.pos(low))
	}
}

func TestModels(t *testing.T) {
	sp := arena()
	pm := newEngine(t, sp, ``)
	kin, err := kinematics2d.New(engineNode(t, "kinematics2d", ``), physics.Env{Space: sp, Index: 1, TickLength: tick})
	if err != nil {
		t.Fatal(err)
	}
	eb := eyeBot(0, 0, 0, 0)
	fb := space.Body{Type: "foot-bot", Shape: space.Disc, Radius: 0.085, Height: 0.146, Movable: true}
	for _, tc := range []struct {
		name    string
		engines []physics.Engine
		eb, fb  int
	}{
		{"pointmass3d first", []physics.Engine{pm, kin}, 0, 1},
		{"pointmass3d last", []physics.Engine{kin, pm}, 1, 0},
		{"no pointmass3d", []physics.Engine{kin}, 0, 0},
		// ARGoS's pointmass3d drives ground robots too when it is
		// alone (eyebot_circle)
		{"only pointmass3d", []physics.Engine{pm}, 0, 0},
	} {
		if got := physics.EngineFor(tc.engines, &eb); got != tc.eb {
			t.Errorf("%s: the eye-bot goes to engine %d, want %d", tc.name, got, tc.eb)
		}
		if got := physics.EngineFor(tc.engines, &fb); got != tc.fb {
			t.Errorf("%s: the foot-bot goes to engine %d, want %d", tc.name, got, tc.fb)
		}
	}
	box := space.Body{Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.1, Y: 0.1}, Height: 0.1, Movable: true}
	if got := physics.EngineFor([]physics.Engine{pm}, &box); got != -1 {
		t.Errorf("a movable box and only pointmass3d: engine %d, want -1 (pointmass3d models no boxes)", got)
	}
	// An eye-bot in the air is not in kinematics2d's floor plane.
	eb.Z = 1
	if got := physics.EngineFor([]physics.Engine{kin}, &eb); got != -1 {
		t.Errorf("a flying eye-bot and only kinematics2d: engine %d, want -1", got)
	}
}

// TestDeterminism flies 300 eye-bots in mixed modes with several
// goroutines and checks that the run is the same as a serial one.
func TestDeterminism(t *testing.T) {
	run := func(r physics.Runner) []space.Body {
		w := newWorld(t, ``)
		w.run = r
		w.sp.Add(space.Body{ID: "cyl", Type: "cylinder", Shape: space.Disc, Radius: 0.3, Height: 1, Pos: ci.Vector2{X: 0.2, Y: 0.1}})
		for k := range 300 {
			x, y := -4.5+float64(k%20)*0.45, -4.5+float64(k/20)*0.6
			i := w.add(eyeBot(x, y, float64(k%3)*0.3, float64(k)*0.1))
			f := w.sp.Bodies[i].Flight()
			switch k % 4 {
			case 0:
				w.fly(i, ci.Vector3{X: -x * 0.5, Y: y*0.5 + 0.1, Z: 1 + float64(k%5)*0.2}, float64(k))
			case 1:
				f.Mode, f.Velocity, f.RotSpeed = space.AtSpeed, ci.Vector3{X: 0.2, Y: -0.1 * float64(k%3), Z: 0.1}, 0.3
			case 2:
				f.Attach = true
			}
		}
		for range 40 {
			w.tick()
		}
		return append([]space.Body(nil), w.sp.Bodies...)
	}
	a, b := run(physics.Serial{}), run(physicstest.Goroutines{})
	for i := range a {
		fa, fb := a[i].Flight(), b[i].Flight()
		a[i].SetFlight(nil)
		b[i].SetFlight(nil)
		if a[i] != b[i] || (fa == nil) != (fb == nil) || fa != nil && *fa != *fb {
			t.Fatalf("body %d differs between a serial and a parallel run:\n%+v\n%+v", i, a[i], b[i])
		}
	}
}

func TestReset(t *testing.T) {
	w := newWorld(t, ``)
	i := w.add(eyeBot(1, 2, 0, 0.5))
	w.sp.Bodies[i].Flight().Commander = "test"
	w.fly(i, ci.Vector3{X: -1, Y: 0, Z: 2}, 2)
	for range 30 {
		w.tick()
	}
	w.eng.Reset()
	b := &w.sp.Bodies[i]
	if p := w.pos(i); p != (ci.Vector3{X: 1, Y: 2}) || b.Yaw != 0.5 || b.Vel != (ci.Vector2{}) || b.AngVel != 0 {
		t.Fatalf("after Reset: at %v yaw %g Vel %v AngVel %g", p, b.Yaw, b.Vel, b.AngVel)
	}
	if *b.Flight() != (space.Flight{Commander: "test"}) {
		t.Fatalf("after Reset the Flight is %+v, want Hover with no command", *b.Flight())
	}
	for range 10 {
		w.tick()
	}
	if p := w.pos(i); p != (ci.Vector3{X: 1, Y: 2}) {
		t.Fatalf("after Reset, with no command, it moved to %v", p)
	}
}

func TestAttributes(t *testing.T) {
	for _, tc := range []struct{ attrs, want string }{
		{`iterations="0"`, "iterations"},
		{`ceiling="-1"`, "ceiling"},
		{`gravity="x"`, "gravity"},
		{`colour="red"`, "colour"},
	} {
		_, err := pointmass3d.New(engineNode(t, "pointmass3d", tc.attrs), physics.Env{Space: arena(), TickLength: tick})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %s", tc.attrs, err, tc.want)
		}
	}
	e := newEngine(t, arena(), `ceiling="2"`).(*pointmass3d.Engine)
	if e.Ceiling() != 2 || e.ID() != "e" {
		t.Errorf("Ceiling %g ID %q", e.Ceiling(), e.ID())
	}
	if got := newEngine(t, arena(), ``).(*pointmass3d.Engine).Ceiling(); got != 3 {
		t.Errorf("default ceiling %g, want the top of the arena (3)", got)
	}
}

func TestLowGravityStillHolds(t *testing.T) {
	// Gravity is compensated exactly: the hold does not depend on it.
	for _, g := range []string{`gravity="0"`, `gravity="-30"`} {
		w := newWorld(t, g)
		i := w.add(eyeBot(0, 0, 0, 0))
		w.fly(i, ci.Vector3{Z: 1.2}, 0)
		for range 60 {
			w.tick()
		}
		if z := w.pos(i).Z; math.Abs(z-1.2) > 1e-3 {
			t.Errorf("%s: z = %g after 6 s, want 1.2", g, z)
		}
	}
}
