// Package physicstest checks physics engines against what the simulator
// expects of every physics.Engine, the way testing/fstest checks file
// systems: an engine package calls
//
//	physicstest.TestEngine(t, func(sp *space.Space) physics.Engine { ... })
//
// from one of its tests.
package physicstest

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// TickLength is the dt TestEngine passes to Step: build the engines with
// physics.Env{TickLength: TickLength}.
const TickLength = 0.1

// Robot-like disc of the checks: an e-puck (docs/robots.md).
const (
	robotRadius = 0.035
	robotHeight = 0.086
	robotMass   = 0.4
	robotForce  = 1.5
	robotTorque = 1.5
)

// TestEngine checks an engine on worlds of robot-like discs (e-pucks),
// walls and cylinders in a 10 m x 10 m arena centred on the origin, with
// the floor at z = 0. newEngine must return a new, empty engine that works
// on sp (physics.Env{Space: sp, TickLength: TickLength}) over the whole
// arena; TestEngine adds the bodies itself and runs each tick as the
// simulator does (Step, Commit, sp.Reindex) with physics.Serial. newEngine
// is called on the test goroutine, once per check; the checks run one
// after the other, never in parallel (cp numbers its bodies with a
// package-level counter).
//
// The checks:
//   - a lone disc driven at a forward speed (space.Drive) moves along its
//     heading at that speed, and at an angular one turns at that rate, on
//     the spot and on an arc; it may take up to one tick to reach the
//     speed, never exceed it;
//     Vel and AngVel report the velocities; Yaw stays in (-pi, pi] and
//     Sin and Cos match it;
//   - Bodies follows Add and Remove in order; Add refuses a body the engine
//     owns and a static body; a removed body no longer moves and can be
//     added again;
//   - Step writes nothing into the space; Commit writes only owned bodies;
//   - Reset puts the bodies back at their start poses with no velocity, and
//     the same commands then give the same trajectories (within 1e-9 m);
//   - discs driven into static walls and cylinders, head-on, at an angle
//     and fast, never overlap them by more than 1 cm (or half a tick's
//     motion, when that is more) nor go through;
//   - Close returns no error.
func TestEngine(t *testing.T, newEngine func(sp *space.Space) physics.Engine) {
	t.Helper()
	checkEngine(testingT{t}, newEngine)
}

// tester is the part of *testing.T the checks use, so that the package's
// own tests can watch them fail.
type tester interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Run(name string, f func(t tester)) bool
}

type testingT struct{ *testing.T }

func (t testingT) Run(name string, f func(t tester)) bool {
	return t.T.Run(name, func(t *testing.T) { f(testingT{t}) })
}

func checkEngine(t tester, newEngine func(sp *space.Space) physics.Engine) {
	t.Helper()
	if newEngine == nil {
		t.Fatalf("physicstest: TestEngine: newEngine is nil")
		return
	}
	checks := []struct {
		name string
		f    func(t tester, newEngine func(sp *space.Space) physics.Engine)
	}{
		{"Drive", checkDrive},
		{"Turn", checkTurn},
		{"Arc", checkArc},
		{"Bodies", checkBodies},
		{"StepReadsOnly", checkStepReadsOnly},
		{"Reset", checkReset},
		{"Walls", checkWalls},
		{"Close", checkClose},
	}
	for _, c := range checks {
		t.Run(c.name, func(t tester) { c.f(t, newEngine) })
	}
}

// world is a space with an engine and helpers to fill and run it.
type world struct {
	t   tester
	sp  *space.Space
	eng physics.Engine
}

func newWorld(t tester, newEngine func(sp *space.Space) physics.Engine) *world {
	t.Helper()
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 10, Y: 10, Z: 1})
	eng := newEngine(sp)
	if eng == nil {
		t.Fatalf("physicstest: newEngine returned nil")
	}
	return &world{t: t, sp: sp, eng: eng}
}

// robot adds a robot-like disc at (x, y) heading yaw, without giving it to
// the engine.
func (w *world) robot(id string, x, y, yaw float64) int {
	return w.sp.Add(space.Body{
		ID: id, Type: "e-puck", Shape: space.Disc, Radius: robotRadius, Height: robotHeight,
		Pos: ci.Vector2{X: x, Y: y}, Yaw: yaw, Movable: true, Mass: robotMass,
		MaxForce: robotForce, MaxTorque: robotTorque,
	})
}

// own adds a robot and gives it to the engine.
func (w *world) own(id string, x, y, yaw float64) int {
	w.t.Helper()
	i := w.robot(id, x, y, yaw)
	if err := w.eng.Add(i); err != nil {
		w.t.Fatalf("Add(%s): %v", id, err)
	}
	return i
}

// wall adds a static box centred at (x, y) with half sizes hx, hy and
// gives it to the engine.
func (w *world) wall(id string, x, y, hx, hy, yaw float64) int {
	w.t.Helper()
	i := w.sp.Add(space.Body{
		ID: id, Type: "box", Shape: space.Box, Half: ci.Vector2{X: hx, Y: hy}, Radius: math.Hypot(hx, hy),
		Height: 0.5, Pos: ci.Vector2{X: x, Y: y}, Yaw: yaw,
	})
	if err := w.eng.AddStatic(i); err != nil {
		w.t.Fatalf("AddStatic(%s): %v", id, err)
	}
	return i
}

// cylinder adds a static cylinder and gives it to the engine.
func (w *world) cylinder(id string, x, y, r float64) int {
	w.t.Helper()
	i := w.sp.Add(space.Body{
		ID: id, Type: "cylinder", Shape: space.Disc, Radius: r, Height: 0.5, Pos: ci.Vector2{X: x, Y: y},
	})
	if err := w.eng.AddStatic(i); err != nil {
		w.t.Fatalf("AddStatic(%s): %v", id, err)
	}
	return i
}

func (w *world) drive(i int, v, omega float64) {
	w.sp.Drive[i] = space.Drive{V: v, W: omega}
}

// tick runs one tick as the simulator does: Step, Commit, Reindex.
func (w *world) tick() {
	w.eng.Step(TickLength, physics.Serial{})
	w.eng.Commit(physics.Serial{})
	w.sp.Reindex()
}

func (w *world) ticks(n int) {
	for k := 0; k < n; k++ {
		w.tick()
	}
}

func (w *world) close() {
	w.t.Helper()
	if err := w.eng.Close(); err != nil {
		w.t.Errorf("Close: %v", err)
	}
}

// checkYaw fails unless body i's yaw is normalised and its cached sine
// and cosine match it.
func (w *world) checkYaw(i int) {
	w.t.Helper()
	b := &w.sp.Bodies[i]
	if !(b.Yaw > -math.Pi-1e-12 && b.Yaw <= math.Pi+1e-12) {
		w.t.Errorf("%s: Yaw = %g, want it in (-pi, pi] (use ci.NormalizeAngle)", b.ID, b.Yaw)
	}
	s, c := math.Sincos(b.Yaw)
	if math.Abs(s-b.Sin) > 1e-12 || math.Abs(c-b.Cos) > 1e-12 {
		w.t.Errorf("%s: Sin, Cos = %g, %g do not match Yaw %g (set the yaw with Body.SetYaw)", b.ID, b.Sin, b.Cos, b.Yaw)
	}
}

// angleDiff returns a-b in (-pi, pi].
func angleDiff(a, b float64) float64 { return ci.NormalizeAngle(a - b) }

func checkDrive(t tester, newEngine func(sp *space.Space) physics.Engine) {
	for _, tc := range []struct {
		yaw, v float64
	}{
		{0, 0.1},
		{0.6, 0.1},
		{-2.5, 0.05},
		{math.Pi / 2, 0.3},
		{1, -0.08}, // backwards
	} {
		t.Run(fmt.Sprintf("yaw=%g,v=%g", tc.yaw, tc.v), func(t tester) {
			w := newWorld(t, newEngine)
			defer w.close()
			i := w.own("r", 1, -2, tc.yaw)
			w.sp.Reindex()
			w.drive(i, tc.v, 0)
			const n, last = 50, 10
			w.ticks(n - last)
			mid := w.sp.Bodies[i].Pos
			w.ticks(last)
			b := &w.sp.Bodies[i]
			d := b.Pos.Sub(ci.Vector2{X: 1, Y: -2})
			h := ci.Vector2{X: math.Cos(tc.yaw), Y: math.Sin(tc.yaw)}
			want := tc.v * n * TickLength
			along, across := d.Dot(h), d.Cross(h)
			// The engine may take up to a tick to reach the speed, and may
			// never go faster.
			if lag := math.Abs(tc.v) * TickLength; math.Abs(along) < math.Abs(want)-lag-1e-6 ||
				math.Abs(along) > math.Abs(want)+1e-6 || along*want < 0 {
				t.Errorf("moved %.6f m along the heading in %d ticks at %g m/s, want %.6f (at most one tick less)", along, n, tc.v, want)
			}
			if got, want := b.Pos.Sub(mid).Dot(h), tc.v*last*TickLength; math.Abs(got-want) > 1e-3*math.Abs(want) {
				t.Errorf("moved %.6f m along the heading in the last %d ticks at %g m/s, want %.6f", got, last, tc.v, want)
			}
			if math.Abs(across) > 1e-6 {
				t.Errorf("moved %.3g m sideways, want 0", across)
			}
			if dy := angleDiff(b.Yaw, tc.yaw); math.Abs(dy) > 1e-6 {
				t.Errorf("yaw changed by %.3g rad without an angular drive", dy)
			}
			if dv := b.Vel.Sub(h.Scale(tc.v)).Length(); dv > 1e-3 {
				t.Errorf("Vel = %v, want %v", b.Vel, h.Scale(tc.v))
			}
			if math.Abs(b.AngVel) > 1e-6 {
				t.Errorf("AngVel = %g, want 0", b.AngVel)
			}
			w.checkYaw(i)
		})
	}
}

func checkTurn(t tester, newEngine func(sp *space.Space) physics.Engine) {
	for _, tc := range []struct {
		yaw, omega float64
		n          int
	}{
		{0, 0.5, 20},
		{2, -1, 30},
		{3, 1.5, 40}, // turns past pi several times
	} {
		t.Run(fmt.Sprintf("yaw=%g,w=%g", tc.yaw, tc.omega), func(t tester) {
			w := newWorld(t, newEngine)
			defer w.close()
			i := w.own("r", -1, 1, tc.yaw)
			w.sp.Reindex()
			w.drive(i, 0, tc.omega)
			const last = 10
			total, lastTurn := 0.0, 0.0
			prev := tc.yaw
			for k := 0; k < tc.n; k++ {
				w.tick()
				w.checkYaw(i)
				y := w.sp.Bodies[i].Yaw
				total += angleDiff(y, prev)
				if k >= tc.n-last {
					lastTurn += angleDiff(y, prev)
				}
				prev = y
			}
			b := &w.sp.Bodies[i]
			want := tc.omega * float64(tc.n) * TickLength
			if lag := math.Abs(tc.omega) * TickLength; math.Abs(total) < math.Abs(want)-lag-1e-6 ||
				math.Abs(total) > math.Abs(want)+1e-6 || total*want < 0 {
				t.Errorf("turned %.6f rad in %d ticks at %g rad/s, want %.6f (at most one tick less)", total, tc.n, tc.omega, want)
			}
			if got, want := lastTurn, tc.omega*last*TickLength; math.Abs(got-want) > 1e-3*math.Abs(want) {
				t.Errorf("turned %.6f rad in the last %d ticks at %g rad/s, want %.6f", got, last, tc.omega, want)
			}
			if d := b.Pos.Sub(ci.Vector2{X: -1, Y: 1}).Length(); d > 1e-6 {
				t.Errorf("moved %.3g m while turning on the spot", d)
			}
			if math.Abs(b.AngVel-tc.omega) > 1e-3 {
				t.Errorf("AngVel = %g, want %g", b.AngVel, tc.omega)
			}
			if b.Vel.Length() > 1e-6 {
				t.Errorf("Vel = %v, want 0", b.Vel)
			}
		})
	}
}

// checkArc drives a quarter circle: speed v with angular speed omega
// follow a circle of radius v/omega.
func checkArc(t tester, newEngine func(sp *space.Space) physics.Engine) {
	w := newWorld(t, newEngine)
	defer w.close()
	const yaw0 = 0.3
	i := w.own("r", 0, 0, yaw0)
	w.sp.Reindex()
	const n = 30
	omega := math.Pi / 2 / (n * TickLength)
	v := 0.1
	w.drive(i, v, omega)
	w.ticks(n)
	b := &w.sp.Bodies[i]
	r := v / omega
	want := ci.Vector2{X: r, Y: r}.Rotate(yaw0) // quarter turn to the left
	// Allow for up to a tick of lag and the error of integrating with the
	// heading at the start of the tick (half a tick of motion).
	if d := b.Pos.Sub(want).Length(); d > 0.005+1.5*v*TickLength {
		t.Errorf("after a quarter circle of radius %.4f the disc is at %v, want %v (%.4f m off)", r, b.Pos, want, d)
	}
	if d := angleDiff(b.Yaw, yaw0+math.Pi/2); d > 1e-6 || d < -omega*TickLength-1e-6 {
		t.Errorf("after a quarter circle Yaw = %g, want %g", b.Yaw, ci.NormalizeAngle(yaw0+math.Pi/2))
	}
	w.checkYaw(i)
}

func sameInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func checkBodies(t tester, newEngine func(sp *space.Space) physics.Engine) {
	w := newWorld(t, newEngine)
	defer w.close()
	if got := w.eng.Bodies(); len(got) != 0 {
		t.Errorf("a new engine owns %v, want nothing", got)
	}
	a := w.own("a", -1, 0, 0)
	b := w.own("b", 0, 0, 0)
	c := w.own("c", 1, 0, 0)
	loose := w.robot("loose", 2, 2, 0) // not the engine's
	wall := w.wall("wall", 0, 3, 1, 0.05, 0)
	w.sp.Reindex()
	want := func(ids ...int) {
		t.Helper()
		if got := w.eng.Bodies(); !sameInts(got, ids) {
			t.Errorf("Bodies = %v, want %v", got, ids)
		}
	}
	want(a, b, c)
	if err := w.eng.Add(b); err == nil {
		t.Errorf("Add of a body the engine owns: no error")
	}
	want(a, b, c)
	if err := w.eng.Add(wall); err == nil {
		t.Errorf("Add of a static body: no error (static bodies go to AddStatic)")
	}
	want(a, b, c)

	for _, i := range []int{a, b, c, loose} {
		w.drive(i, 0.1, 0.2)
	}
	w.ticks(3)
	w.eng.Remove(b)
	want(a, c)
	w.eng.Remove(b) // no longer owned: nothing happens
	w.eng.Remove(loose)
	want(a, c)

	// Bodies the engine does not own do not move.
	before := map[int]space.Body{b: w.sp.Bodies[b], loose: w.sp.Bodies[loose]}
	w.ticks(3)
	for i, old := range before {
		if w.sp.Bodies[i] != old {
			t.Errorf("%s is not the engine's but changed from %+v to %+v", old.ID, old, w.sp.Bodies[i])
		}
	}
	if w.sp.Bodies[loose].Pos != (ci.Vector2{X: 2, Y: 2}) {
		t.Errorf("loose moved to %v", w.sp.Bodies[loose].Pos)
	}

	// Remove keeps nothing: the body can be added again (as when it comes
	// back from another engine) and moves on from where it is.
	if err := w.eng.Add(b); err != nil {
		t.Fatalf("Add after Remove: %v", err)
	}
	want(a, c, b)
	from := w.sp.Bodies[b].Pos
	w.ticks(5)
	if w.sp.Bodies[b].Pos == from {
		t.Errorf("b does not move after being added again")
	}
	w.eng.Remove(a)
	w.eng.Remove(c)
	w.eng.Remove(b)
	want()
	w.ticks(1)
}

// snapshot copies the bodies of the space.
func snapshot(sp *space.Space) []space.Body { return append([]space.Body(nil), sp.Bodies...) }

func checkStepReadsOnly(t tester, newEngine func(sp *space.Space) physics.Engine) {
	w := newWorld(t, newEngine)
	defer w.close()
	var owned []int
	for k := 0; k < 6; k++ {
		i := w.own(fmt.Sprintf("r%d", k), -1+0.3*float64(k), 0.1*float64(k%2), 0.4*float64(k))
		w.drive(i, 0.15, 0.3*float64(k%3-1))
		owned = append(owned, i)
	}
	// Two robots pushing each other and one against a wall, so that the
	// engine has contacts to solve.
	p := w.own("p", 0, -1, 0)
	q := w.own("q", 0.1, -1, math.Pi)
	x := w.own("x", 0, 1.5, math.Pi/2)
	w.wall("wall", 0, 1.6, 1, 0.05, 0)
	w.cylinder("cyl", 2, 2, 0.2)
	loose := w.robot("loose", -2, -2, 0)
	owned = append(owned, p, q, x)
	for _, i := range []int{p, q, x, loose} {
		w.drive(i, 0.1, 0)
	}
	w.sp.Reindex()
	for k := 0; k < 20; k++ {
		before := snapshot(w.sp)
		w.eng.Step(TickLength, physics.Serial{})
		for i := range before {
			if w.sp.Bodies[i] != before[i] {
				t.Fatalf("tick %d: Step wrote body %s: %+v became %+v; write the space only in Commit",
					k, before[i].ID, before[i], w.sp.Bodies[i])
			}
		}
		w.eng.Commit(physics.Serial{})
		moved := 0
		for i := range before {
			if w.sp.Bodies[i] == before[i] {
				continue
			}
			if !containsInt(owned, i) {
				t.Fatalf("tick %d: Commit wrote body %s, which the engine does not own", k, before[i].ID)
			}
			moved++
		}
		if moved == 0 {
			t.Fatalf("tick %d: Commit moved no body; it must write the poses Step computed", k)
		}
		w.sp.Reindex()
	}
}

func containsInt(s []int, x int) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func checkReset(t tester, newEngine func(sp *space.Space) physics.Engine) {
	w := newWorld(t, newEngine)
	defer w.close()
	type pose struct {
		pos ci.Vector2
		yaw float64
	}
	var ids []int
	var start []pose
	add := func(id string, x, y, yaw, v, omega float64) {
		i := w.own(id, x, y, yaw)
		w.drive(i, v, omega)
		ids = append(ids, i)
		start = append(start, pose{w.sp.Bodies[i].Pos, w.sp.Bodies[i].Yaw})
	}
	add("free", -2, -2, 0.3, 0.1, 0.2)
	add("turner", 2, -2, 3, 0, 1.2)
	add("into-wall", 0, 1.2, math.Pi/2, 0.2, 0)
	add("p", -0.2, 0, 0, 0.1, 0)
	add("q", 0.2, 0, math.Pi, 0.1, 0)
	w.wall("wall", 0, 1.5, 1, 0.05, 0)
	w.sp.Reindex()

	const n = 40
	run := func() [][]pose {
		traj := make([][]pose, n)
		for k := range traj {
			w.tick()
			for _, i := range ids {
				traj[k] = append(traj[k], pose{w.sp.Bodies[i].Pos, w.sp.Bodies[i].Yaw})
			}
		}
		return traj
	}
	first := run()
	w.eng.Reset()
	for k, i := range ids {
		b := &w.sp.Bodies[i]
		if b.Pos != start[k].pos || angleDiff(b.Yaw, start[k].yaw) != 0 {
			t.Errorf("after Reset %s is at %v yaw %g, want its start pose %v yaw %g", b.ID, b.Pos, b.Yaw, start[k].pos, start[k].yaw)
		}
		if b.Vel != (ci.Vector2{}) || b.AngVel != 0 {
			t.Errorf("after Reset %s has Vel %v AngVel %g, want 0", b.ID, b.Vel, b.AngVel)
		}
		w.checkYaw(i)
	}
	if got := w.eng.Bodies(); !sameInts(got, ids) {
		t.Errorf("after Reset Bodies = %v, want %v", got, ids)
	}
	w.sp.Reindex()
	second := run()
	const tol = 1e-9
	for k := range first {
		for j, i := range ids {
			a, b := first[k][j], second[k][j]
			if a.pos.Sub(b.pos).Length() > tol || math.Abs(angleDiff(a.yaw, b.yaw)) > tol {
				t.Fatalf("tick %d after Reset: %s at %v yaw %g, but at %v yaw %g before Reset; the same commands must give the same run",
					k+1, w.sp.Bodies[i].ID, b.pos, b.yaw, a.pos, a.yaw)
			}
		}
	}
}

// checkWalls drives discs into static walls and cylinders, head-on, at an
// angle and fast, and fails if one overlaps a static body by more than a
// centimetre (or half of what it covers in a tick, when that is more) or
// ends up behind it. An engine that steps in sub-steps finds a contact
// once the bodies overlap, by up to what the disc covers in a sub-step,
// and ARGoS's dynamics2d leaves such small overlaps alone: the margin
// admits that with two sub-steps per tick or more.
func checkWalls(t tester, newEngine func(sp *space.Space) physics.Engine) {
	for _, tc := range []struct {
		name   string
		yaw, v float64
		cyl    bool
	}{
		{"head-on", 0, 0.1, false},
		{"angled", 0.6, 0.1, false},
		{"fast", 0, 0.5, false},
		{"cylinder", 0, 0.1, true},
	} {
		t.Run(tc.name, func(t tester) {
			tol := max(0.01, tc.v*TickLength/2)
			w := newWorld(t, newEngine)
			defer w.close()
			i := w.own("r", 0, 0, tc.yaw)
			var obstacle int
			if tc.cyl {
				obstacle = w.cylinder("cyl", 0.5, 0, 0.1)
			} else {
				obstacle = w.wall("wall", 0.5, 0, 0.05, 2, 0)
			}
			w.sp.Reindex()
			w.drive(i, tc.v, 0)
			front := w.sp.Bodies[obstacle].Pos.X - w.sp.Bodies[obstacle].Radius
			if !tc.cyl {
				front = 0.45
			}
			touched := false
			for k := 0; k < 60; k++ {
				w.tick()
				b := &w.sp.Bodies[i]
				if j, ok := w.sp.Overlapping(i, tol); ok {
					t.Fatalf("tick %d: the disc at %v overlaps %s by more than %g m", k+1, b.Pos, w.sp.Bodies[j].ID, tol)
				}
				if b.Pos.X > 0.5 {
					t.Fatalf("tick %d: the disc went through %s to %v", k+1, w.sp.Bodies[obstacle].ID, b.Pos)
				}
				if b.Pos.X+robotRadius > front-max(tol, tc.v*TickLength) {
					touched = true
				}
			}
			if !touched {
				t.Errorf("the disc never reached the obstacle (x = %g)", w.sp.Bodies[i].Pos.X)
			}
		})
	}
}

func checkClose(t tester, newEngine func(sp *space.Space) physics.Engine) {
	w := newWorld(t, newEngine)
	for k := 0; k < 4; k++ {
		i := w.own(fmt.Sprintf("r%d", k), 0.1*float64(k), 0, 0)
		w.drive(i, 0.1, 0)
	}
	w.wall("wall", 0.5, 0, 0.05, 1, 0)
	w.sp.Reindex()
	w.ticks(10)
	if err := w.eng.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// Goroutines is a physics.Runner that runs every job on its own
// goroutine and waits for them all: an engine's parallel passes run at
// once, as on a pool, so that the race detector sees them together.
type Goroutines struct{}

// Run implements physics.Runner.
func (Goroutines) Run(n int, job func(i int)) {
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			job(i)
		}()
	}
	wg.Wait()
}
