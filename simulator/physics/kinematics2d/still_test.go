package kinematics2d

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/physicstest"
	"github.com/argosgo/argos/simulator/space"
)

// world is a space and an engine owning its mobile bodies, with a twin
// that steps the same bodies by plain Jacobi rounds (every moving object
// rechecked in every round, no blockers kept): the results the
// shortcuts must give.
type world struct {
	sp, ref *space.Space
	e, refE *Engine
	run     physics.Runner
}

func newWorld(t *testing.T, bodies []driven, run physics.Runner, attrs ...string) *world {
	t.Helper()
	w := &world{run: run}
	for _, ref := range []bool{false, true} {
		sp := space.New(ci.Vector3{Z: 2}, ci.Vector3{X: 10, Y: 10, Z: 4})
		for _, b := range bodies {
			sp.Drive[sp.Add(b.Body)] = space.Drive{V: b.v}
		}
		sp.Reindex()
		e := newTestEngine(t, sp, attrs...)
		e.chunk = 8 // several chunks, so that a parallel runner splits them
		for i := range sp.Bodies {
			if sp.Bodies[i].Movable {
				if err := e.Add(i); err != nil {
					t.Fatal(err)
				}
			} else if err := e.AddStatic(i); err != nil {
				t.Fatal(err)
			}
		}
		e.recheckAll = ref
		if ref {
			w.ref, w.refE = sp, e
		} else {
			w.sp, w.e = sp, e
		}
	}
	return w
}

// target sets body i's target velocities in both spaces.
func (w *world) target(i int, v, om float64) {
	w.sp.Drive[i] = space.Drive{V: v, W: om}
	w.ref.Drive[i] = space.Drive{V: v, W: om}
}

// tick steps both and returns the bodies withdrawn by the blocker
// shortcut; it fails the test when a pose or a proposal differs, bit for
// bit (the reference makes every proposal afresh).
func (w *world) tick(t *testing.T) (short []int) {
	t.Helper()
	w.e.Step(0.1, w.run)
	for k := range w.e.objs {
		if o := &w.e.objs[k]; w.e.still[k] && o.blocker >= 0 && w.e.still[o.blocker] && o.tv != 0 {
			short = append(short, int(o.body))
		}
	}
	w.refE.Step(0.1, w.run)
	for k := range w.e.objs {
		a, b := &w.e.objs[k], &w.refE.objs[k]
		if a.tv == 0 && a.tw == 0 {
			continue // no proposal
		}
		if !sameBits(a.cand.X, b.cand.X) || !sameBits(a.cand.Y, b.cand.Y) || !sameBits(a.candA, b.candA) ||
			!sameBits(a.cc, b.cc) || !sameBits(a.cs, b.cs) {
			t.Fatalf("object %d proposed %v heading %v, %v %v made afresh", k, a.cand, a.candA, b.cand, b.candA)
		}
	}
	w.e.Commit(w.run)
	w.sp.Reindex()
	w.refE.Commit(w.run)
	w.ref.Reindex()
	for i := range w.sp.Bodies {
		a, b := &w.sp.Bodies[i], &w.ref.Bodies[i]
		if !sameBits(a.Pos.X, b.Pos.X) || !sameBits(a.Pos.Y, b.Pos.Y) || !sameBits(a.Yaw, b.Yaw) || a.Vel != b.Vel ||
			!sameBits(a.AngVel, b.AngVel) || a.Cos != b.Cos || a.Sin != b.Sin || a.Z != b.Z {
			t.Fatalf("body %d at %v heading %v, %v %v by plain Jacobi rounds", i, a.Pos, a.Yaw, b.Pos, b.Yaw)
		}
	}
	return short
}

// driven is a body and the forward speed it is driven at (m/s).
type driven struct {
	space.Body
	v float64
}

func epuck(x, y, yaw, v float64) driven {
	b := space.Body{Shape: space.Disc, Radius: 0.035, Height: 0.086, Movable: true, Mass: 0.4, Pos: ci.Vector2{X: x, Y: y}}
	b.SetYaw(yaw)
	return driven{b, v}
}

// Two e-pucks driving into each other stay stuck, withdrawn by the
// shortcut from the second tick on; what ends it (a turn, a changed
// target, the blocker backing away) makes the engine check in full again,
// with the results of plain Jacobi rounds throughout.
func TestStuckPairTakesTheShortcutUntilSomethingChanges(t *testing.T) {
	const a, b = 0, 1
	for _, change := range []string{"turn", "faster", "blocker backs away", "third body"} {
		t.Run(change, func(t *testing.T) {
			w := newWorld(t, []driven{epuck(0, 0, 0, 0.1), epuck(0.0705, 0, math.Pi, 0.1), epuck(0, 1, -math.Pi/2, 0)}, physics.Serial{})
			if short := w.tick(t); len(short) != 0 {
				t.Fatalf("first tick: shortcut for %v, with no blocker known", short)
			}
			for k := range 3 {
				if short := w.tick(t); len(short) != 2 {
					t.Fatalf("tick %d: shortcut for %v, want both e-pucks", k+2, short)
				}
			}
			start := w.sp.Bodies[a].Pos
			switch change {
			case "turn":
				w.target(a, 0.1, 0.5)
			case "faster":
				w.target(a, 0.2, 0)
			case "blocker backs away":
				w.target(b, -0.1, 0)
			case "third body":
				w.target(2, 0.1, 0) // drives south, into a
			}
			short := w.tick(t)
			switch change {
			case "third body":
				// a and b still collide as before: the shortcut holds
				if len(short) != 2 {
					t.Fatalf("shortcut for %v, want both e-pucks", short)
				}
			default:
				if len(short) != 0 {
					t.Fatalf("shortcut for %v after a change", short)
				}
			}
			if change == "blocker backs away" && w.sp.Bodies[a].Pos == start {
				t.Errorf("e-puck %d did not follow its backing blocker", a)
			}
			for range 12 {
				w.tick(t)
			}
		})
	}
}

// A Remove moves the last object to the removed one's place, an Add or a
// Reset puts bodies anywhere, a step of another length proposes other
// moves: the blockers found before are not trusted then.
func TestBlockersAreForgottenWhenObjectsChange(t *testing.T) {
	bodies := []driven{epuck(0, 0, 0, 0.1), epuck(0.0705, 0, math.Pi, 0.1), epuck(2, 2, 0, 0)}
	w := newWorld(t, bodies, physics.Serial{})
	for range 3 {
		w.tick(t)
	}
	// body 2 (still, standing) takes body 1's place in the objects: a
	// blocker kept by index would withdraw e-puck 0 for nothing
	w.e.Remove(1)
	w.refE.Remove(1)
	start := w.sp.Bodies[0].Pos
	if short := w.tick(t); len(short) != 0 {
		t.Fatalf("shortcut for %v after a Remove", short)
	}
	if w.sp.Bodies[0].Pos == start {
		t.Fatal("e-puck 0 did not move once its blocker was removed")
	}
	w = newWorld(t, bodies, physics.Serial{})
	for range 3 {
		w.tick(t)
	}
	w.e.Reset()
	w.refE.Reset()
	if short := w.tick(t); len(short) != 0 {
		t.Fatalf("shortcut for %v after a Reset", short)
	}
	w.e.Step(0.05, w.run)
	for k := range w.e.objs {
		if w.e.still[k] {
			t.Fatalf("object %d still in a step of another length", k)
		}
	}
}

// A crowd of e-pucks and a few movable boxes driving into each other and
// into walls, some changing their targets now and then: the shortcut and
// the rechecks of the proposals that touch a neighbour give, tick after
// tick, the results of plain Jacobi rounds, serial and parallel, with one
// sub-step per tick and with three.
func TestCrowdMatchesPlainJacobiRounds(t *testing.T) {
	for k, run := range []physics.Runner{physics.Serial{}, physicstest.Goroutines{}, physicstest.Goroutines{}} {
		attrs := ""
		if k == 2 {
			attrs = `iterations="3"`
		}
		r := rand.New(rand.NewPCG(1, 2))
		var bodies []driven
	place:
		for len(bodies) < 400 {
			b := epuck((r.Float64()-0.5)*2.4, (r.Float64()-0.5)*2.4, r.Float64()*2*math.Pi, 0.1)
			for k := range bodies {
				if bodies[k].Pos.Sub(b.Pos).Length() < 0.0701 {
					continue place
				}
			}
			if len(bodies)%40 == 0 {
				b.Shape, b.Half, b.Radius = space.Box, ci.Vector2{X: 0.02, Y: 0.01}, math.Hypot(0.02, 0.01)
			}
			bodies = append(bodies, b)
		}
		for _, x := range []float64{-1.3, 1.3} {
			wall := space.Body{Shape: space.Box, Half: ci.Vector2{X: 0.05, Y: 1.35}, Radius: 1.36, Height: 0.5, Pos: ci.Vector2{X: x}}
			wall.SetYaw(0)
			bodies = append(bodies, driven{Body: wall})
		}
		w := newWorld(t, bodies, run, attrs)
		shortcuts, scans := 0, 0
		for k := range 150 {
			for i := range 400 {
				switch r.IntN(40) {
				case 0:
					w.target(i, 0.1, 0)
				case 1:
					w.target(i, 0.1, r.Float64()-0.5)
				case 2:
					w.target(i, -0.05, 0)
				case 3:
					w.target(i, 0, 0.3)
				}
			}
			for c, sparse := range w.e.sparse {
				if sparse && w.e.useSpace && c*w.e.chunk < len(w.e.objs) {
					scans++ // the next tick's first round scans ahead in c
				}
			}
			shortcuts += len(w.tick(t))
			_ = k
		}
		if shortcuts == 0 {
			t.Error("the shortcut was never taken")
		}
		if scans == 0 && w.e.iterations == 1 {
			t.Error("no first round scanned ahead for the proposals to check")
		}
	}
}

// A body that moved in the last step is not still, though it proposes
// with the same targets: its proposal starts elsewhere.
func TestMovedBodiesAreNotStill(t *testing.T) {
	w := newWorld(t, []driven{epuck(0, 0, 0, 0.1), epuck(1, 0, 0, 0)}, physics.Serial{})
	for range 3 {
		w.tick(t)
	}
	w.e.Step(0.1, w.run)
	if w.e.still[0] {
		t.Error("the driving e-puck is still")
	}
	if !w.e.still[1] {
		t.Error("the standing e-puck is not still")
	}
}

// A body stuck while turning proposes the same arc from the same pose
// tick after tick: propose keeps the proposal the body was withdrawn from
// instead of finding its sines and cosines again, but not once the body
// moved, or asks for another velocity.
func TestStillBodiesKeepTheirProposal(t *testing.T) {
	w := newWorld(t, []driven{epuck(0, 0, 0, 0.1), epuck(0.0705, 0, math.Pi, 0)}, physics.Serial{})
	w.target(0, 0.1, 0.2) // an arc to the left, into the standing e-puck
	for range 3 {
		w.tick(t)
	}
	o := &w.e.objs[0]
	if o.moving || w.sp.Bodies[0].Pos != (ci.Vector2{}) {
		t.Fatal("the turning e-puck moved")
	}
	// a proposal that does not collide, left as if a step made it (and
	// no blocker, so that the step checks it)
	sentinel := ci.Vector2{X: -1}
	o.cand, o.blocker = sentinel, -1
	w.e.Step(0.1, w.run)
	if !w.e.still[0] || o.cand != sentinel {
		t.Fatalf("the stuck e-puck proposed %v afresh (still %v)", o.cand, w.e.still[0])
	}
	w.e.Commit(w.run)
	if got := w.sp.Bodies[0].Pos; got != sentinel {
		t.Fatalf("e-puck at %v, want the sentinel proposal %v", got, sentinel)
	}
	w.sp.Reindex()
	// it moved: it proposes afresh, and so after a change of velocity
	for _, v := range []float64{0.1, 0.05} {
		w.target(0, v, 0.2)
		o.cand = sentinel
		w.e.Step(0.1, w.run)
		if w.e.still[0] || o.cand == sentinel {
			t.Fatalf("target speed %v: the e-puck kept its proposal (still %v)", v, w.e.still[0])
		}
		w.e.Commit(w.run)
		w.sp.Reindex()
	}
}

// Commit leaves alone the bodies of the stuck objects, which hold what it
// would write, but not after two steps without a Commit between them,
// where the body holds the older step's velocities.
func TestCommitSkipsStuckBodiesOnly(t *testing.T) {
	w := newWorld(t, []driven{epuck(0, 0, 0, 0.1), epuck(0.0705, 0, math.Pi, 0.1)}, physics.Serial{})
	for range 3 {
		w.tick(t)
	}
	w.e.Step(0.1, w.run)
	sentinel := ci.Vector2{X: 42}
	w.sp.Bodies[0].Vel = sentinel
	w.e.Commit(w.run)
	if w.sp.Bodies[0].Vel != sentinel {
		t.Fatal("Commit wrote the body of a stuck e-puck")
	}
	w.sp.Bodies[0].Vel = ci.Vector2{}
	// two steps with another target angular velocity (that does not
	// free the e-pucks), then a Commit: the second step's object is
	// still, but the body holds the velocities of the Commit before
	w.target(0, 0.1, 0.2)
	for _, e := range []*Engine{w.e, w.refE} {
		e.Step(0.1, w.run)
		e.Step(0.1, w.run)
		e.Commit(w.run)
	}
	if got := w.sp.Bodies[0].AngVel; got != 0.2 {
		t.Fatalf("angular velocity %v after Step, Step, Commit, want 0.2", got)
	}
	w.sp.Reindex()
	w.ref.Reindex()
	w.tick(t) // (compares)
}

// The objects stay in 128 bytes, two cache lines: every pass over them
// (propose, check, commit) streams them, a million of them in a large
// swarm, and a check reads its neighbours' at random.
func TestObjectSize(t *testing.T) {
	if n := unsafe.Sizeof(object{}); n != 128 {
		t.Errorf("object of %d bytes, want 128", n)
	}
}
