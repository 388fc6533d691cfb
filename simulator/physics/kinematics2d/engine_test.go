package kinematics2d_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/kinematics2d"
	"github.com/argosgo/argos/simulator/physics/physicstest"
	"github.com/argosgo/argos/simulator/space"
)

func engineNode(t testing.TB, attrs string) *config.Node {
	t.Helper()
	exp, err := config.Parse("k.argos", []byte(`<?xml version="1.0"?><argos-configuration>
  <framework><experiment length="1" ticks_per_second="10"/></framework><controllers/><arena size="10,10,4"/>
  <physics_engines><kinematics2d id="k" `+attrs+`/></physics_engines></argos-configuration>`))
	if err != nil {
		t.Fatal(err)
	}
	return exp.PhysicsEngines[0]
}

func newEngine(t testing.TB, sp *space.Space, attrs string) physics.Engine {
	t.Helper()
	e, err := kinematics2d.New(engineNode(t, attrs), physics.Env{Space: sp, TickLength: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func disc(x, y, yaw float64) space.Body {
	b := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Movable: true, Mass: 0.4,
		Pos: ci.Vector2{X: x, Y: y}}
	b.SetYaw(yaw)
	return b
}

func wall(x, y, sx, sy float64) space.Body {
	b := space.Body{Shape: space.Box, Half: ci.Vector2{X: sx / 2, Y: sy / 2}, Radius: math.Hypot(sx, sy) / 2, Height: 0.5,
		Pos: ci.Vector2{X: x, Y: y}}
	b.SetYaw(0)
	return b
}

func tick(sp *space.Space, e physics.Engine, run physics.Runner) {
	e.Step(0.1, run)
	e.Commit(run)
	sp.Reindex()
}

func TestLoneBodyFollowsItsVelocity(t *testing.T) {
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 4})
	e := newEngine(t, sp, "")
	i := sp.Add(disc(-1, 0, 0))
	if err := e.Add(i); err != nil {
		t.Fatal(err)
	}
	sp.Reindex()
	b := &sp.Bodies[i]
	sp.Drive[i].V = 0.1
	for k := 0; k < 100; k++ {
		tick(sp, e, physics.Serial{})
	}
	if math.Abs(b.Pos.X-0) > 1e-9 || math.Abs(b.Pos.Y) > 1e-9 {
		t.Fatalf("after 10 s at 0.1 m/s from x=-1: at %v, want (0, 0)", b.Pos)
	}
	if math.Abs(b.Vel.X-0.1) > 1e-9 {
		t.Fatalf("velocity %v, want 0.1 along x", b.Vel)
	}
	// a quarter circle of radius 0.5: v = 0.1, w = 0.2 for pi/2/0.2 s
	sp.Drive[i].W = 0.2
	start := b.Pos
	ticks := int(math.Round(math.Pi / 2 / 0.2 / 0.1))
	for k := 0; k < ticks; k++ {
		tick(sp, e, physics.Serial{})
	}
	want := start.Add(ci.Vector2{X: 0.5 * math.Sin(0.2*float64(ticks)*0.1), Y: 0.5 * (1 - math.Cos(0.2*float64(ticks)*0.1))})
	if b.Pos.Sub(want).Length() > 1e-9 {
		t.Fatalf("arc ends at %v, want %v", b.Pos, want)
	}
}

func TestBodiesStopAtObstaclesWithoutOverlap(t *testing.T) {
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 4})
	e := newEngine(t, sp, `iterations="2"`)
	w := sp.Add(wall(1, 0, 0.1, 2))
	a := sp.Add(disc(0, 0, 0))    // drives into the wall
	b := sp.Add(disc(-1, 0.5, 0)) // head-on with c
	c := sp.Add(disc(-0.5, 0.5, math.Pi))
	e.AddStatic(w)
	for _, i := range []int{a, b, c} {
		if err := e.Add(i); err != nil {
			t.Fatal(err)
		}
		sp.Drive[i].V = 0.2
	}
	sp.Reindex()
	for k := 0; k < 100; k++ {
		tick(sp, e, physics.Serial{})
		for _, i := range []int{a, b, c} {
			if j, bad := sp.Overlapping(i, 1e-9); bad {
				t.Fatalf("tick %d: body %d overlaps body %d", k, i, j)
			}
		}
	}
	if x := sp.Bodies[a].Pos.X; x < 1-0.05-0.035-0.021 || x > 1-0.05-0.035 {
		t.Errorf("body against the wall stopped at x=%.4f; want within one move of contact at %.4f", x, 1-0.05-0.035)
	}
	if gap := space.Gap(&sp.Bodies[b], &sp.Bodies[c]); gap < 0 || gap > 0.021 {
		t.Errorf("head-on bodies stopped %.4f m apart; want within one move of contact", gap)
	}
}

// A body put inside another (by loop functions) may move away, never in.
func TestOverlapNeverGrows(t *testing.T) {
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 4})
	e := newEngine(t, sp, "")
	a := sp.Add(disc(0, 0, 0))
	b := sp.Add(disc(0.05, 0, math.Pi))
	e.Add(a)
	e.Add(b)
	sp.Reindex()
	sp.Drive[a].V = -0.1 // away from b
	sp.Drive[b].V = 0.1  // into a
	before := space.Gap(&sp.Bodies[a], &sp.Bodies[b])
	tick(sp, e, physics.Serial{})
	after := space.Gap(&sp.Bodies[a], &sp.Bodies[b])
	if after < before-1e-12 {
		t.Fatalf("overlap grew from %g to %g", before, after)
	}
	if sp.Bodies[a].Pos.X >= 0 {
		t.Fatalf("the body moving away did not move (x=%g)", sp.Bodies[a].Pos.X)
	}
}

func TestSameResultsSerialAndParallel(t *testing.T) {
	run := func(r physics.Runner) []ci.Vector2 {
		sp := space.New(ci.Vector3{}, ci.Vector3{X: 6, Y: 6, Z: 4})
		e := newEngine(t, sp, "")
		rng := uint64(1)
		next := func() float64 {
			rng = rng*6364136223846793005 + 1442695040888963407
			return float64(rng>>11) / (1 << 53)
		}
		for k := 0; k < 2000; k++ {
			i := sp.Add(disc(next()*5.8-2.9, next()*5.8-2.9, next()*6.28))
			if _, bad := sp.Overlapping(i, 0); bad {
				sp.Remove(i)
				continue
			}
			sp.Reindex()
			e.Add(i)
			sp.Drive[i].V = 0.3
			sp.Drive[i].W = next() - 0.5
		}
		sp.Reindex()
		for k := 0; k < 30; k++ {
			tick(sp, e, r)
		}
		var out []ci.Vector2
		for _, b := range sp.Bodies {
			out = append(out, b.Pos)
		}
		return out
	}
	a, b := run(physics.Serial{}), run(physicstest.Goroutines{})
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("body %d: %v serial, %v parallel", i, a[i], b[i])
		}
	}
}

func TestPlanes(t *testing.T) {
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 10})
	wallPlane := newEngine(t, sp, `perpendicular="x" distance="2"`)
	c := wallPlane.(physics.Container)
	if !c.Contains(ci.Vector3{X: 2, Y: 1, Z: 3}) || c.Contains(ci.Vector3{X: 0, Y: 1, Z: 3}) {
		t.Fatal("a wall plane at x=2 must hold points with x=2 only")
	}
	b := disc(2, 0, 0) // on the wall at y=0, z=1
	b.Z = 1
	i := sp.Add(b)
	wallPlane.Add(i)
	sp.Reindex()
	sp.Drive[i].V = 0.1 // along the plane's first axis: arena Y
	tick(sp, wallPlane, physics.Serial{})
	got := sp.Bodies[i]
	if got.Pos.X != 2 || math.Abs(got.Pos.Y-0.01) > 1e-12 || got.Z != 1 {
		t.Fatalf("body on the x=2 wall moved to (%g, %g, %g), want (2, 0.01, 1)", got.Pos.X, got.Pos.Y, got.Z)
	}
	ceiling := newEngine(t, sp, `perpendicular="z" distance="3"`)
	if !physics.Contains(ceiling, ci.Vector3{X: 1, Y: 1, Z: 3}) || physics.Contains(ceiling, ci.Vector3{X: 1, Y: 1}) {
		t.Fatal("a ceiling plane at z=3 must hold points with z=3 only")
	}
}

func TestAttributeErrors(t *testing.T) {
	for attrs, want := range map[string]string{
		`iterations="0"`:    "iterations",
		`iterations="x"`:    "iterations",
		`perpendicular="w"`: "perpendicular",
		`distance="far"`:    "distance",
		`gravity="9.81"`:    "gravity",
	} {
		_, err := kinematics2d.New(engineNode(t, attrs), physics.Env{Space: space.New(ci.Vector3{}, ci.Vector3{X: 1, Y: 1, Z: 1})})
		if err == nil || !strings.Contains(err.Error(), "k.argos:") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v; want one at k.argos:LINE mentioning %s", attrs, err, want)
		}
	}
}

// TestConformance runs the checks every engine passes (physicstest), with
// one sub-step per tick (the default) and with several.
func TestConformance(t *testing.T) {
	for _, attrs := range []string{``, `iterations="4"`} {
		t.Run("attrs="+attrs, func(t *testing.T) {
			physicstest.TestEngine(t, func(sp *space.Space) physics.Engine { return newEngine(t, sp, attrs) })
		})
	}
}

// A straight move reuses the heading's cosine and sine only when they are
// math.Sincos of the heading bit for bit: a body added with a cosine and
// sine found otherwise moves along Sincos of its heading, as it did when
// every move called Sincos.
func TestStraightMovesUseSincosOfTheHeading(t *testing.T) {
	for _, skewed := range []bool{false, true} {
		sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 4})
		e := newEngine(t, sp, "")
		const yaw = 0.7
		b0 := disc(0, 0, yaw)
		if skewed {
			// what another engine's rotation may leave: a unit vector
			// whose last bits differ from Sincos(yaw)
			b0.Cos, b0.Sin = math.Nextafter(b0.Cos, 2), math.Nextafter(b0.Sin, -2)
		}
		i := sp.Add(b0)
		if err := e.Add(i); err != nil {
			t.Fatal(err)
		}
		sp.Reindex()
		b := &sp.Bodies[i]
		sp.Drive[i].V = 0.1
		want := b.Pos
		sn, cs := math.Sincos(yaw)
		for k := 0; k < 5; k++ {
			tick(sp, e, physics.Serial{})
			v, dt := sp.Drive[i].V, 0.1
			d := v * dt
			want = ci.Vector2{X: want.X + d*cs, Y: want.Y + d*sn}
			if b.Pos != want || b.Cos != cs || b.Sin != sn {
				t.Fatalf("skewed=%v, tick %d: at %v heading (%v, %v), want %v heading (%v, %v)",
					skewed, k, b.Pos, b.Cos, b.Sin, want, cs, sn)
			}
		}
	}
}

// The last sub-step's proposals are accepted in Commit's pass: whatever
// reads or changes the objects between Step and Commit (another Step,
// Add, Remove, Reset) must see them accepted, as if Step had done it.
func TestStepLeavesNothingPendingToOthers(t *testing.T) {
	build := func() (*space.Space, physics.Engine, []int) {
		sp := space.New(ci.Vector3{}, ci.Vector3{X: 10, Y: 10, Z: 4})
		e := newEngine(t, sp, "")
		var ids []int
		for k, x := range []float64{-1, 0, 1} {
			i := sp.Add(disc(x, 0, float64(k)))
			if err := e.Add(i); err != nil {
				t.Fatal(err)
			}
			sp.Drive[i].V, sp.Drive[i].W = 0.1, 0.3*float64(k)
			ids = append(ids, i)
		}
		sp.Reindex()
		return sp, e, ids
	}
	run := physics.Serial{}
	// two steps, then one commit, against a commit after each
	sp1, e1, ids := build()
	e1.Step(0.1, run)
	e1.Commit(run)
	e1.Step(0.1, run)
	e1.Commit(run)
	sp2, e2, _ := build()
	e2.Step(0.1, run)
	e2.Step(0.1, run)
	e2.Commit(run)
	for _, i := range ids {
		if a, b := sp1.Bodies[i], sp2.Bodies[i]; a.Pos != b.Pos || a.Yaw != b.Yaw || a.Vel != b.Vel {
			t.Fatalf("body %d: Step, Step, Commit gives %v %v %v, Step, Commit twice %v %v %v", i, b.Pos, b.Yaw, b.Vel, a.Pos, a.Yaw, a.Vel)
		}
	}
	// a reset between Step and Commit: Commit writes the start poses
	sp3, e3, ids := build()
	e3.Step(0.1, run)
	e3.Reset()
	e3.Commit(run)
	for k, i := range ids {
		if b := sp3.Bodies[i]; b.Pos != (ci.Vector2{X: float64(k - 1)}) || b.Yaw != float64(k) {
			t.Fatalf("body %d after Step, Reset, Commit: at %v heading %v, want its start", i, b.Pos, b.Yaw)
		}
	}
	// a body added between Step and Commit stays where it was put, and
	// the others move as they would have
	sp4, e4, ids := build()
	e4.Step(0.1, run)
	j := sp4.Add(disc(3, 3, 0))
	if err := e4.Add(j); err != nil {
		t.Fatal(err)
	}
	e4.Remove(ids[0])
	e4.Commit(run)
	if b := sp4.Bodies[j]; b.Pos != (ci.Vector2{X: 3, Y: 3}) {
		t.Fatalf("body added between Step and Commit: at %v, want (3, 3)", b.Pos)
	}
	sp5, e5, _ := build()
	e5.Step(0.1, run)
	e5.Commit(run)
	for _, i := range ids[1:] {
		if a, b := sp5.Bodies[i], sp4.Bodies[i]; a.Pos != b.Pos || a.Yaw != b.Yaw {
			t.Fatalf("body %d: at %v %v with an Add and a Remove before Commit, %v %v without", i, b.Pos, b.Yaw, a.Pos, a.Yaw)
		}
	}
}

// A Commit before the engine's first Step leaves the velocities a body
// was added with (the engine holds none of its own: Commit writes the
// angular velocity from the last target, which Add takes from the
// body); a Step at rest zeroes them.
func TestCommitBeforeStepKeepsVelocities(t *testing.T) {
	sp := space.New(ci.Vector3{Z: 2}, ci.Vector3{X: 10, Y: 10, Z: 4})
	b := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Movable: true, Mass: 0.4,
		Vel: ci.Vector2{X: 0.1, Y: -0.05}, AngVel: 0.3}
	b.SetYaw(0.5)
	i := sp.Add(b)
	sp.Reindex()
	e := newEngine(t, sp, "")
	if err := e.Add(i); err != nil {
		t.Fatal(err)
	}
	e.Commit(physics.Serial{})
	if got := sp.Bodies[i]; got.Vel != b.Vel || got.AngVel != b.AngVel || got.Pos != b.Pos {
		t.Fatalf("Commit before a Step: Vel %v AngVel %v Pos %v, want %v %v %v", got.Vel, got.AngVel, got.Pos, b.Vel, b.AngVel, b.Pos)
	}
	tick(sp, e, physics.Serial{})
	if got := sp.Bodies[i]; got.Vel != (ci.Vector2{}) || got.AngVel != 0 {
		t.Fatalf("a Step at rest: Vel %v AngVel %v, want zeros", got.Vel, got.AngVel)
	}
}
