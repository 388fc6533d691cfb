package dynamics2d_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
	"github.com/argosgo/argos/simulator/space"
)

// TestFootBotRegression is the foot-bot regression fact at engine level: a
// foot-bot at (-0.5, 0) with wheels at (10, 10) cm/s and 10 ticks/s is
// within 0.01 m of (0.5, 0) at tick 100.
func TestFootBotRegression(t *testing.T) {
	for _, forceCP := range []bool{false, true} {
		w := newWorld(t, 4, "")
		dynamics2d.ForceCP(w.eng, forceCP)
		i := w.add(footBot, "fb", -0.5, 0, 0)
		w.sp.Reindex()
		w.wheels(i, 10, 10, footBotAxle)
		w.ticks(100)
		b := w.body(i)
		if math.Abs(b.Pos.X-0.5) > 0.01 || math.Abs(b.Pos.Y) > 1e-9 || b.Yaw != 0 {
			t.Errorf("forceCP=%t: foot-bot at tick 100: %v yaw %g, want within 0.01 of (0.5, 0) yaw 0", forceCP, b.Pos, b.Yaw)
		}
		if math.Abs(b.Vel.X-0.1) > 1e-9 || b.Vel.Y != 0 || b.AngVel != 0 {
			t.Errorf("forceCP=%t: Vel %v AngVel %g, want (0.1, 0) and 0", forceCP, b.Vel, b.AngVel)
		}
	}
}

// command is a time-varying drive: smooth changes plus jumps big enough
// to hit the force and torque limits.
func command(k int) (v, omega float64) {
	v = 0.05 + 0.1*math.Sin(float64(k)/17)
	omega = 0.8 * math.Cos(float64(k)/23)
	switch {
	case k%50 >= 40: // full reverse
		v, omega = -0.3, -2
	case k%50 == 20: // sudden stop
		v, omega = 0, 0
	}
	return v, omega
}

// TestFreeMatchesCP checks the promise of doc.go: a body that touches
// nothing moves the same whether the free integrator or cp steps it.
func TestFreeMatchesCP(t *testing.T) {
	weak := ePuck // a drive that is at its limits most of the time
	weak.MaxForce, weak.MaxTorque = 0.1, 1e-4
	for _, tc := range []struct {
		name       string
		model      space.Body
		engine     string
		minLimited int // ticks that must end off the target velocity
	}{
		{"foot-bot", footBot, "", 0},
		{"e-puck", ePuck, "", 3},
		{"e-puck 3 iterations", ePuck, `<dynamics2d id="dyn" iterations="3"/>`, 3},
		{"e-puck hash", ePuck, `<dynamics2d id="dyn" spatial_index="hash"/>`, 3},
		{"weak drive", weak, "", 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			free := newWorld(t, 20, tc.engine)
			forced := newWorld(t, 20, tc.engine)
			dynamics2d.ForceCP(forced.eng, true)
			i := free.add(tc.model, "r", 0.3, -0.2, 0.7)
			j := forced.add(tc.model, "r", 0.3, -0.2, 0.7)
			free.sp.Reindex()
			forced.sp.Reindex()
			worst, path, limited := 0.0, 0.0, 0
			for k := 0; k < 200; k++ {
				from := free.body(i).Pos
				v, omega := command(k)
				free.drive(i, v, omega)
				forced.drive(j, v, omega)
				free.tick()
				forced.tick()
				if free.eng.InCP() != 0 || forced.eng.InCP() != 1 {
					t.Fatalf("tick %d: %d and %d bodies in cp, want 0 and 1", k+1, free.eng.InCP(), forced.eng.InCP())
				}
				if dynamics2d.Alone(forced.eng) != 1 {
					t.Fatalf("tick %d: cp solved %d drives alone, want the one body's (it touches nothing)", k+1, dynamics2d.Alone(forced.eng))
				}
				a, b := free.state(i), forced.state(j)
				path += a.Pos.Sub(from).Length()
				if math.Abs(a.AngVel-omega) > 1e-3 || math.Abs(a.Vel.Length()-math.Abs(v)) > 1e-3 {
					limited++
				}
				worst = max(worst, a.diff(b))
				if a != b {
					t.Fatalf("tick %d: free %v\n                cp %v", k+1, a, b)
				}
			}
			t.Logf("largest difference %.3g, path %.3f m, %d ticks off target", worst, path, limited)
			// The drive must have hit its limits for the test to mean much.
			if path < 0.5 || limited < tc.minLimited {
				t.Errorf("the robot drove %.3f m and was off its target velocity in %d ticks; want a harder test", path, limited)
			}
		})
	}
}

// TestFreeMatchesCPVaryingTick is TestFreeMatchesCP with ticks of
// different lengths (cp scales its warm start by the ratio of consecutive
// steps) and ticks of zero length (cp skips them).
func TestFreeMatchesCPVaryingTick(t *testing.T) {
	free := newWorld(t, 20, "")
	forced := newWorld(t, 20, "")
	ref := newWorld(t, 20, "") // without the zero-length ticks
	dynamics2d.ForceCP(forced.eng, true)
	for _, w := range []*world{free, forced, ref} {
		w.add(ePuck, "r", 0, 0, 0)
		w.sp.Reindex()
	}
	for k := 0; k < 150; k++ {
		v, omega := command(k)
		dt := []float64{0.1, 0.05, 0.1, 0.2, 0.01}[k%5]
		for _, w := range []*world{free, forced, ref} {
			w.drive(0, v, omega)
			if k%7 == 3 && w != ref {
				w.eng.Step(0, w.run)
				w.eng.Commit(w.run)
			}
			w.eng.Step(dt, w.run)
			w.eng.Commit(w.run)
			w.sp.Reindex()
		}
		if free.state(0) != forced.state(0) {
			t.Fatalf("tick %d (dt %g): free %v\n                      cp %v", k+1, dt, free.state(0), forced.state(0))
		}
		if a, b := free.state(0), ref.state(0); a != b {
			t.Fatalf("tick %d: a tick of length 0 changed the run:\n%v\nwant\n%v", k+1, a, b)
		}
	}
}

// TestFreeCPTransition drives a robot along a wall and away again, so that
// it goes from the free integrator to cp and back, and compares it with a
// robot that cp steps all along.
func TestFreeCPTransition(t *testing.T) {
	free := newWorld(t, 10, "")
	forced := newWorld(t, 10, "")
	dynamics2d.ForceCP(forced.eng, true)
	var ids [2]int
	for n, w := range []*world{free, forced} {
		ids[n] = w.add(footBot, "fb", 0, 0, 1.2)
		w.box("wall", 0, 1, 2, 0.05, 0, 0)
		w.cylinder("post", -1, -1, 0.2, 0)
		w.sp.Reindex()
	}
	wasCP, wasFree := false, false
	worst := 0.0
	for k := 0; k < 300; k++ {
		v, omega := 0.15, 0.0
		switch {
		case k < 80: // into the wall at an angle, then along it
		case k < 120:
			v, omega = -0.1, 0.5 // back off, turning
		case k < 200:
			v, omega = 0.2, -0.3 // loop close to the wall
		default:
			v, omega = -0.2, 0 // and away
		}
		for n, w := range []*world{free, forced} {
			w.drive(ids[n], v, omega)
			w.tick()
		}
		if free.eng.InCP() == 1 {
			wasCP = true
		} else if wasCP {
			wasFree = true
		}
		a, b := free.state(ids[0]), forced.state(ids[1])
		worst = max(worst, a.diff(b))
		if a != b {
			t.Fatalf("tick %d: free/cp %v\n             cp only %v", k+1, free.state(ids[0]), forced.state(ids[1]))
		}
	}
	t.Logf("largest difference %.3g", worst)
	if !wasCP || !wasFree || free.eng.InCP() != 0 {
		t.Errorf("the robot did not go from free to cp and back (in cp: %t, free again: %t, in cp now: %d)",
			wasCP, wasFree, free.eng.InCP())
	}
	if y := free.body(ids[0]).Pos.Y; y > 1-0.05-footBot.Radius+0.01 {
		t.Errorf("robot at y = %g, inside the wall", y)
	}
}

func TestHeadOn(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model space.Body
		v     float64
	}{
		{"foot-bots", footBot, 0.1},
		{"e-pucks", ePuck, 0.1},
		{"fast e-pucks", ePuck, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 4, "")
			a := w.add(tc.model, "a", -0.5, 0, 0)
			b := w.add(tc.model, "b", 0.5, 0, math.Pi)
			w.sp.Reindex()
			w.drive(a, tc.v, 0)
			w.drive(b, tc.v, 0)
			r := tc.model.Radius
			for k := 0; k < 100; k++ {
				w.tick()
				if gap := space.Gap(w.body(a), w.body(b)); gap < -0.01 {
					t.Fatalf("tick %d: the robots overlap by %.4f m", k+1, -gap)
				}
			}
			pa, pb := w.body(a).Pos, w.body(b).Pos
			if gap := pb.X - pa.X - 2*r; gap > 0.01 {
				t.Errorf("the robots stopped %.4f m apart, want them pressed together", gap)
			}
			if math.Abs(pa.X+pb.X) > 1e-6 || math.Abs(pa.Y) > 1e-6 || math.Abs(pb.Y) > 1e-6 {
				t.Errorf("a symmetric push ended asymmetric: %v and %v", pa, pb)
			}
			if va, vb := w.body(a).Vel.Length(), w.body(b).Vel.Length(); va > 1e-3 || vb > 1e-3 {
				t.Errorf("the robots still move at %g and %g m/s", va, vb)
			}
		})
	}
}

func TestWall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model space.Body
		v     float64
	}{
		{"foot-bot", footBot, 0.1},
		{"fast foot-bot", footBot, 0.3},
		{"e-puck", ePuck, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 4, "")
			i := w.add(tc.model, "r", 0, 0, 0)
			w.box("wall", 0.5, 0, 0.05, 1, 0, 0)
			w.sp.Reindex()
			w.drive(i, tc.v, 0)
			face := 0.45 - tc.model.Radius
			var before float64
			for k := 0; k < 100; k++ {
				if k == 90 {
					before = w.body(i).Pos.X
				}
				w.tick()
				if x := w.body(i).Pos.X; x > face+0.01 {
					t.Fatalf("tick %d: robot at x = %.4f, %.4f m into the wall", k+1, x, x-face)
				}
			}
			x := w.body(i).Pos.X
			if x < face-0.001 {
				t.Errorf("robot stopped at x = %.4f, %.4f m before the wall", x, face-x)
			}
			if math.Abs(x-before) > 1e-4 {
				t.Errorf("robot still moves against the wall: x %.6f -> %.6f in 10 ticks", before, x)
			}
			if y := w.body(i).Pos.Y; math.Abs(y) > 1e-9 {
				t.Errorf("robot slid to y = %g on a head-on push", y)
			}
		})
	}
}

func TestStaticCylinderBlocks(t *testing.T) {
	w := newWorld(t, 4, "")
	i := w.add(footBot, "fb", 0, 0, 0)
	c := w.cylinder("post", 0.6, 0, 0.1, 0)
	w.sp.Reindex()
	w.drive(i, 0.2, 0)
	for k := 0; k < 100; k++ {
		w.tick()
		if gap := space.Gap(w.body(i), w.body(c)); gap < -0.01 {
			t.Fatalf("tick %d: the robot overlaps the cylinder by %.4f m", k+1, -gap)
		}
	}
	if x, want := w.body(i).Pos.X, 0.5-footBot.Radius; math.Abs(x-want) > 0.005 {
		t.Errorf("robot at x = %.4f, want it against the cylinder at %.4f", x, want)
	}
	if w.body(c).Pos != (ci.Vector2{X: 0.6}) {
		t.Errorf("the static cylinder moved to %v", w.body(c).Pos)
	}
}

func TestPushObjects(t *testing.T) {
	for _, tc := range []struct {
		name string
		add  func(w *world) int
	}{
		{"box", func(w *world) int { return w.box("box", 0.3, 0, 0.1, 0.1, 0, 1) }},
		{"turned box", func(w *world) int { return w.box("box", 0.3, 0, 0.1, 0.05, 0.3, 1) }},
		{"cylinder", func(w *world) int { return w.cylinder("cyl", 0.3, 0, 0.1, 1) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, 6, "")
			i := w.add(footBot, "fb", 0, 0, 0)
			o := tc.add(w)
			w.sp.Reindex()
			start := w.body(o).Pos
			w.drive(i, 0.1, 0)
			for k := 0; k < 100; k++ {
				w.tick()
				if gap := space.Gap(w.body(i), w.body(o)); gap < -0.01 {
					t.Fatalf("tick %d: the robot overlaps the %s by %.4f m", k+1, tc.name, -gap)
				}
			}
			moved := w.body(o).Pos.Sub(start)
			if moved.X < 0.5 {
				t.Errorf("the %s moved by %v in 10 s of pushing at 0.1 m/s, want more than 0.5 m along x", tc.name, moved)
			}
			if w.body(o).Pos.X < w.body(i).Pos.X {
				t.Errorf("the %s (%v) is behind the robot (%v)", tc.name, w.body(o).Pos, w.body(i).Pos)
			}
			// Floor friction stops the object when the robot stops.
			w.drive(i, 0, 0)
			w.ticks(10)
			at := w.body(o).Pos
			w.ticks(10)
			if v := w.body(o).Vel.Length(); v > 1e-9 || w.body(o).Pos.Sub(at).Length() > 1e-9 {
				t.Errorf("the %s still moves (Vel %g) 1 s after the robot stopped", tc.name, v)
			}
		})
	}
}

// TestObjectsAtRest checks that nothing moves an object at rest: alone
// (free), touching a wall and next to a robot at rest (in cp).
func TestObjectsAtRest(t *testing.T) {
	w := newWorld(t, 6, "")
	var objs []int
	objs = append(objs, w.box("alone", -2, -2, 0.1, 0.2, 0.4, 1))
	objs = append(objs, w.cylinder("alone-cyl", 2, -2, 0.1, 0.5))
	w.box("wall", 0, 1, 2, 0.05, 0, 0)
	objs = append(objs, w.box("at-wall", 0, 1-0.05-0.1, 0.1, 0.1, 0, 1))
	objs = append(objs, w.cylinder("cyl-at-wall", 1, 1-0.05-0.1, 0.1, 1))
	objs = append(objs, w.add(footBot, "fb", -1, 0, 0))
	objs = append(objs, w.box("by-robot", -1+footBot.Radius+0.1+0.001, 0, 0.1, 0.1, 0, 1))
	w.sp.Reindex()
	before := make([]space.Body, len(objs))
	for k, i := range objs {
		before[k] = *w.body(i)
	}
	inCP := 0
	for k := 0; k < 100; k++ {
		w.tick()
		inCP = max(inCP, w.eng.InCP())
	}
	for k, i := range objs {
		if b := w.body(i); b.Pos != before[k].Pos || b.Yaw != before[k].Yaw || b.Vel != (ci.Vector2{}) || b.AngVel != 0 {
			t.Errorf("%s moved from %v yaw %g to %v yaw %g (Vel %v, AngVel %g)",
				b.ID, before[k].Pos, before[k].Yaw, b.Pos, b.Yaw, b.Vel, b.AngVel)
		}
	}
	if inCP < 4 {
		t.Errorf("at most %d bodies were in cp, want the 4 touching a wall or each other", inCP)
	}
}

func TestInCP(t *testing.T) {
	w := newWorld(t, 6, "")
	w.add(ePuck, "lone", -2, -2, 0)
	a := w.add(ePuck, "a", 0, 0, 0)
	b := w.add(ePuck, "b", 0.08, 0, 0) // 1 cm from a
	c := w.add(ePuck, "c", 1.8, 1, 0)  // 11.5 cm from the wall
	w.box("wall", 2, 1, 0.05, 0.5, 0, 0)
	w.sp.Reindex()
	w.tick()
	if n := w.eng.InCP(); n != 0 {
		t.Errorf("InCP = %d with every body at rest, want 0", n)
	}
	// a drives 1 cm per tick toward b: both may touch during the tick.
	w.drive(a, 0.1, 0)
	w.tick()
	if n := w.eng.InCP(); n != 2 {
		t.Errorf("InCP = %d with a driving toward b, want 2", n)
	}
	// c drives 5 cm per tick toward the wall: it is handed to cp earlier
	// than a slow robot would be.
	w.drive(a, 0, 0)
	w.eng.Remove(a)
	w.eng.Remove(b)
	w.sp.Remove(a)
	w.sp.Remove(b)
	w.sp.Reindex()
	w.tick()
	if n := w.eng.InCP(); n != 0 {
		t.Errorf("InCP = %d after removing a and b, want 0", n)
	}
	w.drive(c, 0.5, 0)
	w.tick()
	if n := w.eng.InCP(); n != 1 {
		t.Errorf("InCP = %d with c driving at 0.5 m/s toward the wall, want 1", n)
	}
	w.drive(c, -0.5, 0)
	w.ticks(10)
	if n := w.eng.InCP(); n != 0 {
		t.Errorf("InCP = %d with c driving away from the wall, want 0", n)
	}
}

// TestRemoveInCP removes a body while cp steps it and checks that the
// other one goes on alone.
func TestRemoveInCP(t *testing.T) {
	w := newWorld(t, 4, "")
	a := w.add(footBot, "a", -0.2, 0, 0)
	b := w.add(footBot, "b", 0.2, 0, math.Pi)
	w.sp.Reindex()
	w.drive(a, 0.1, 0)
	w.drive(b, 0.1, 0)
	w.ticks(30)
	if w.eng.InCP() != 2 || dynamics2d.Alone(w.eng) != 0 {
		t.Fatalf("InCP = %d, Alone = %d, want 2 robots pushing each other, none alone", w.eng.InCP(), dynamics2d.Alone(w.eng))
	}
	w.eng.Remove(b)
	w.sp.Remove(b)
	w.sp.Reindex()
	from := w.body(a).Pos.X
	w.ticks(20)
	if got := w.body(a).Pos.X - from; math.Abs(got-0.2) > 0.01 {
		t.Errorf("after removing b, a moved %.4f m in 2 s, want 0.2", got)
	}
	if w.eng.InCP() != 0 {
		t.Errorf("InCP = %d, want 0", w.eng.InCP())
	}
	if err := w.eng.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestResetAfterContact resets while a robot presses against a wall and
// checks that the run after Reset repeats the first one exactly.
func TestResetAfterContact(t *testing.T) {
	for _, engine := range []string{"", `<dynamics2d id="dyn" iterations="1"/>`} {
		w := newWorld(t, 4, engine)
		i := w.add(ePuck, "r", 0, 1.2, math.Pi/2)
		j := w.add(footBot, "fb", -1, 0, 0)
		w.box("wall", 0, 1.5, 1, 0.05, 0, 0)
		w.box("wall2", -0.5, 0, 0.05, 1, 0, 0)
		w.sp.Reindex()
		w.drive(i, 0.2, 0)
		w.drive(j, 0.3, 0)
		const n = 30
		var first []state
		for k := 0; k < n; k++ {
			w.tick()
			first = append(first, w.state(i), w.state(j))
		}
		w.eng.Reset()
		w.sp.Reindex()
		for k := 0; k < n; k++ {
			w.tick()
			if a, b := w.state(i), w.state(j); a != first[2*k] || b != first[2*k+1] {
				t.Fatalf("engine %q: tick %d after Reset:\n%v\n%v\nwant\n%v\n%v", engine, k+1, a, b, first[2*k], first[2*k+1])
			}
		}
	}
}

func TestAddErrors(t *testing.T) {
	w := newWorld(t, 4, "")
	i := w.add(ePuck, "r", 0, 0, 0)
	if err := w.eng.Add(i); err == nil {
		t.Error("Add twice: no error")
	}
	massless := ePuck
	massless.ID, massless.Mass = "massless", 0
	if err := w.eng.Add(w.sp.Add(massless)); err == nil {
		t.Error("Add of a body without mass: no error")
	}
	static := space.Body{ID: "s", Shape: space.Disc, Radius: 0.1}
	if err := w.eng.Add(w.sp.Add(static)); err == nil {
		t.Error("Add of a static body: no error")
	}
	odd := space.Body{ID: "odd", Shape: space.Shape(7), Radius: 0.1}
	if err := w.eng.AddStatic(w.sp.Add(odd)); err == nil {
		t.Error("AddStatic of an unknown shape: no error")
	}
	if got := w.eng.Bodies(); len(got) != 1 || got[0] != i {
		t.Errorf("Bodies = %v, want [%d]", got, i)
	}
	if w.body(i).Engine != 0 {
		t.Errorf("Engine of an owned body = %d, want the engine's index 0", w.body(i).Engine)
	}
}

func TestRegistered(t *testing.T) {
	f, err := physics.Engines.Lookup("dynamics2d")
	if err != nil {
		t.Fatal(err)
	}
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 1, Y: 1, Z: 1})
	exp := mustParse(t, `<dynamics2d id="d2">
      <boundaries><top height="1"/><bottom height="0"/>
        <sides><vertex point="-1,-1"/><vertex point="1,-1"/><vertex point="1,1"/><vertex point="-1,1"/></sides>
      </boundaries>
    </dynamics2d>`)
	e, err := f(exp, physics.Env{Space: sp, Index: 2, TickLength: tick})
	if err != nil {
		t.Fatal(err)
	}
	if e.ID() != "d2" {
		t.Errorf("ID = %q", e.ID())
	}
	if r := e.Region(); r == nil || len(r.Vertices) != 4 || r.Top != 1 {
		t.Errorf("Region = %+v", r)
	}
	if !physics.Contains(e, ci.Vector3{Z: 0.5}) || physics.Contains(e, ci.Vector3{X: 2, Z: 0.5}) {
		t.Error("Contains does not follow <boundaries>")
	}
	i := sp.Add(ePuck)
	if err := e.Add(i); err != nil {
		t.Fatal(err)
	}
	if sp.Bodies[i].Engine != 2 {
		t.Errorf("Engine = %d, want 2", sp.Bodies[i].Engine)
	}
}

// TestHeights drives robots toward a static bar raised above them and a
// box lying on the floor, alone (free) and alongside another robot (in
// cp): both paths must pass under the bar and stop at the box, as the
// space's Crowded, which decides between them, takes heights into account.
func TestHeights(t *testing.T) {
	for _, neighbour := range []bool{false, true} {
		w := newWorld(t, 6, "")
		under := w.add(ePuck, "under", 0, 0, 0)
		blocked := w.add(ePuck, "blocked", 0, -2, 0)
		for _, i := range []int{under, blocked} {
			w.drive(i, 0.1, 0)
			if neighbour {
				j := w.add(ePuck, w.body(i).ID+"-mate", 0, w.body(i).Pos.Y+0.075, 0)
				w.drive(j, 0.1, 0)
			}
		}
		b := space.Body{ID: "bar", Type: "box", Shape: space.Box, Half: ci.Vector2{X: 0.05, Y: 0.5},
			Radius: math.Hypot(0.05, 0.5), Height: 0.1, Z: ePuck.Height + 0.01, Pos: ci.Vector2{X: 0.5}}
		w.object(b, 0)
		w.box("low", 0.5, -2, 0.05, 0.5, 0, 0)
		w.sp.Reindex()
		inCP := 0
		for k := 0; k < 100; k++ {
			w.tick()
			inCP = max(inCP, w.eng.InCP())
		}
		if x := w.body(under).Pos.X; math.Abs(x-1) > 0.01 {
			t.Errorf("neighbour %t: the robot under the raised bar is at x = %.4f, want it to pass under to 1", neighbour, x)
		}
		if x, face := w.body(blocked).Pos.X, 0.45-ePuck.Radius; math.Abs(x-face) > 0.01 {
			t.Errorf("neighbour %t: the robot driving into the low box is at x = %.4f, want it stopped at %.4f", neighbour, x, face)
		}
		if neighbour && inCP < 4 {
			t.Errorf("at most %d robots were in cp, want 4", inCP)
		}
	}
}
