package custom

import (
	"math"
	"testing"

	"github.com/argosgo/argos/simulator/physics"
)

// RK4 over the batch program gives, bit for bit, what RK4 over the
// equations' trees gives agent by agent, although the engine skips what
// does not change the result: the intermediate values of states no
// derivative reads (here y and c), the time when no derivative reads
// it, and a stage whose inputs are the last stage's.
func TestRK4MatchesTheTrees(t *testing.T) {
	for _, tc := range []struct {
		name, xdot, thdot               string
		readsT, readsX, still, straight bool
		// few: two agents of twelve move, the others stand at x = 0
		// (theta' = 0 there): the later stages run lane by lane
		// (fewTurn)
		few bool
	}{
		{"with t", "v*cos(theta) + 0.1*sin(t)", "w - 0.2*x", true, true, false, false, false},
		{"without t", "v*cos(theta)", "w - 0.2*x", false, true, false, false, false},
		// theta' a control: the third stage repeats the second
		{"unicycle", "v*cos(theta)", "w", false, false, false, false, false},
		// every agent still: the first stage's slopes serve all four
		{"still", "v*cos(theta)", "w", false, false, true, false, false},
		// every agent driving straight: the same, with slopes that are
		// not 0
		{"straight", "v*cos(theta)", "w", false, false, false, true, false},
		{"unicycle, few turning", "v*cos(theta)", "w", false, false, false, false, true},
		// theta' depends on x: the third and fourth stages' inputs
		// change too
		{"without t, few moving", "v*cos(theta)", "w - 0.2*x", false, true, false, false, true},
		// c' = theta: a slope is a state's register, which RK4 must
		// not read in place while it writes the states (prog.apart)
		{"few turning, c' = theta", "v*cos(theta)", "w", false, false, false, false, true},
	} {
		cdot := "theta*theta"
		if tc.name == "few turning, c' = theta" {
			cdot = "theta"
		}
		dyn := `<dynamics name="d" states="x, y, theta, c" controls="v, w">
	<equation>x' = ` + tc.xdot + `</equation>
	<equation>y' = v*sin(theta)</equation>
	<equation>theta' = ` + tc.thdot + `</equation>
	<equation>c' = ` + cdot + `</equation>
</dynamics>`
		poses := [][3]float64{{0, 0, 0}, {1, -1, 0.5}, {-2, 3, -3}, {0.5, 0.5, 2}, {4, 0, 1}}
		if tc.few {
			poses = poses[:2]
			for k := 0; k < 10; k++ {
				poses = append(poses, [3]float64{0, float64(k), 0.3 * float64(k)})
			}
		}
		e, _ := engine(t, dyn, "rk4", 1, poses...)
		d := e.dyn[0]
		if d.prog.apart != (cdot != "theta") {
			t.Errorf("%s: apart %v, with c' = %s", tc.name, d.prog.apart, cdot)
		}
		want := []bool{tc.readsX, false, true, false, true, true, tc.readsT}
		for r, w := range want {
			if d.prog.reads[r] != w {
				t.Errorf("%s: input %d read: %v, want %v", tc.name, r, d.prog.reads[r], w)
			}
		}
		// the reference: RK4 agent by agent over the trees
		type agent struct{ s, u []float64 }
		ref := make([]agent, len(poses))
		for k, p := range poses {
			ref[k] = agent{s: []float64{p[0], p[1], p[2], 0}, u: []float64{0.3 + 0.1*float64(k), 0.5 - 0.3*float64(k)}}
			if tc.still {
				ref[k].u = []float64{0, 0}
			}
			if tc.straight {
				ref[k].u[1] = 0
			}
			if tc.few && k >= 2 {
				ref[k].u = []float64{0, 0}
			}
			e.SetControls(k, ref[k].u)
		}
		slope := func(a agent, s []float64, tm float64) []float64 {
			in := append(append(append([]float64{}, s...), a.u...), tm)
			k := make([]float64, len(s))
			for j, eq := range d.eqs {
				k[j] = eval(eq, in)
			}
			return k
		}
		const h = 0.01
		tm := 0.0
		for step := 0; step < 50; step++ {
			e.Step(h, physics.Serial{})
			for k := range ref {
				a := ref[k]
				ref[k].s, _ = rk4Step(func(s []float64, t float64) []float64 { return slope(a, s, t) }, a.s, tm, h)
			}
			tm += h
		}
		got := make([]float64, 4)
		for k := range ref {
			e.State(k, got)
			for j := range got {
				if math.Float64bits(got[j]) != math.Float64bits(ref[k].s[j]) {
					t.Errorf("%s: agent %d, state %s: engine %v, trees %v", tc.name, k, d.States[j], got[j], ref[k].s[j])
				}
			}
		}
	}
}

// The devices find their agent's registers again when agents come or
// go: after agent 0 is removed, agent 2 takes its place in the batch, and
// its sensor and actuator follow it.
func TestDevicesFollowTheirAgent(t *testing.T) {
	e, sp := engine(t, unicycle, "euler", 1, [3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{2, 0, 0})
	sens := make([]*stateSensor, 3)
	acts := make([]*controlActuator, 3)
	for i := range sens {
		sens[i] = newStateSensorOf(e, i)
		acts[i] = newControlActuatorOf(e, i)
		sens[i].Update()
		acts[i].Apply()
	}
	e.Remove(0)
	acts[2].Set(0, 1)
	acts[1].Apply()
	acts[2].Apply()
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	sens[1].Update()
	sens[2].Update()
	if x := sens[2].values[0]; x != 3 || sp.Bodies[2].Pos.X != 3 {
		t.Errorf("agent 2 at x=%v (its sensor says %v), want 3: its actuator or sensor lost it", sp.Bodies[2].Pos.X, x)
	}
	if x := sens[1].values[0]; x != 1 {
		t.Errorf("agent 1's sensor says x=%v, want 1", x)
	}
	before := sens[0].values[0]
	sens[0].Update()
	acts[0].Apply() // removed: no effect, no panic
	if sens[0].values[0] != before {
		t.Errorf("the removed agent's sensor changed")
	}
}

// The actuator writes its commands into the engine as they are set, and
// again after the engine was reset (which zeroes the registers): a
// command the actuator still holds drives the agent in either case, and
// the sensor reads the states Commit left, the start states after Reset.
func TestDevicesAcrossEngineReset(t *testing.T) {
	e, _ := engine(t, unicycle, "euler", 1, [3]float64{0, 0, 0})
	sen, act := newStateSensorOf(e, 0), newControlActuatorOf(e, 0)
	act.Apply()
	act.Set(0, 1)
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	sen.Update()
	if x := sen.Values()[0]; x != 1 {
		t.Fatalf("after one step at v=1, the sensor says x=%v, want 1", x)
	}
	e.Reset()
	sen.Update()
	if x := sen.Values()[0]; x != 0 {
		t.Fatalf("after Reset, the sensor says x=%v, want 0", x)
	}
	act.Apply()
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	sen.Update()
	if x := sen.Values()[0]; x != 1 {
		t.Fatalf("after Reset and a step with the actuator still at v=1, the sensor says x=%v, want 1", x)
	}
	act.Reset()
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	if x := sen.Values()[0]; x != 1 {
		t.Fatalf("after the actuator's Reset, the agent moved on to x=%v", x)
	}
}

// The simulator calls neither the actuators' Apply nor the sensors'
// Update at each tick (Tickless): after agent 0 is removed and agent 2
// takes its place, agent 2's command set then reaches its registers at
// the next step and its sensor reads its states, without either call;
// after the engine's Reset, the actuator's zeroed commands reach the
// registers too.
func TestDevicesFollowTheirAgentUncalled(t *testing.T) {
	e, sp := engine(t, unicycle, "euler", 1, [3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{2, 0, 0})
	var sens []*stateSensor
	var acts []*controlActuator
	for i := 0; i < 3; i++ {
		sens, acts = append(sens, newStateSensorOf(e, i)), append(acts, newControlActuatorOf(e, i))
		if !sens[i].Tickless() || !acts[i].Tickless() {
			t.Fatal("the devices do not say they are tickless")
		}
	}
	e.Remove(0)
	acts[2].Set(0, 1) // the registers it found moved
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	if x := sens[2].Values()[0]; x != 3 || sp.Bodies[2].Pos.X != 3 {
		t.Errorf("agent 2 at x=%v (its sensor says %v), want 3: its command or its states were lost", sp.Bodies[2].Pos.X, x)
	}
	if x := sens[1].Values()[0]; x != 1 {
		t.Errorf("agent 1's sensor says x=%v, want 1", x)
	}
	acts[1].Set(0, 2)
	e.Reset()
	acts[1].Reset() // as the simulator's Reset does
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	if x := sens[1].Values()[0]; x != 1 {
		t.Errorf("after Reset, agent 1 moved to x=%v: its command was not zeroed", x)
	}
}

// A unicycle turning on the spot (v = 0) keeps x and y through an RK4
// step whatever the sines of theta (v*cos(theta) is a zero), so the
// engine computes no sine for them at the later stages (stillLane): the
// same bits as RK4 over the trees, for v = +0 and -0, headings in and
// out of (-pi, pi]; and the lanes where a zero's sign or the sine counts
// take the stages in full: x = 0 or y = 0 (x + -0 is not always x), v not
// zero. The sines' memo shows which way each lane went: the first
// stage's heading when the later stages computed no sine, the last
// stage's when they did. Without the standing agents, too many lanes
// move for fewTurn and every lane runs the stages in full.
func TestRK4TurningOnTheSpot(t *testing.T) {
	for _, standing := range []int{26, 0} {
		rk4TurningOnTheSpot(t, standing)
	}
}

func rk4TurningOnTheSpot(t *testing.T, standing int) {
	type agent struct {
		s, u  []float64
		still bool // stillLane applies
	}
	ref := []agent{
		{[]float64{1, 2, 0.5}, []float64{0, 3}, true},
		{[]float64{-1.5, 0.25, 4}, []float64{math.Copysign(0, -1), -2}, true},
		{[]float64{2, -3, -7.5}, []float64{0, 1.5}, true},
		{[]float64{0, 1, 1}, []float64{0, 2}, false},                    // x = 0
		{[]float64{1, math.Copysign(0, -1), 1}, []float64{0, 2}, false}, // y = -0, which -0 + +0 makes +0
		{[]float64{3, 1, 2}, []float64{0.25, 1}, false},                 // moving
		// x = -0 and cos(theta) < 0: -0 + -0 is -0, -0 + +0 is +0
		{[]float64{math.Copysign(0, -1), 1, 2.5}, []float64{0, 1}, false},
		// theta overflows at the second stage: sin(+Inf) is NaN, and
		// 0*NaN is NaN
		{[]float64{1, 1, math.MaxFloat64}, []float64{0, math.MaxFloat64}, false},
	}
	// standing agents: the later stages of the eight above run lane by
	// lane
	for k := 0; k < standing; k++ {
		ref = append(ref, agent{s: []float64{float64(k) + 1, 5, 0.1 * float64(k)}, u: []float64{0, 0}})
	}
	poses := make([][3]float64, len(ref))
	for k, a := range ref {
		poses[k] = [3]float64{a.s[0], a.s[1], a.s[2]}
	}
	e, _ := engine(t, unicycle, "rk4", 1, poses...)
	d := e.dyn[0]
	if len(d.prog.zeros) != 2 || len(d.prog.read) != 0 {
		t.Fatalf("the unicycle's zeros %v and read code %v: want x' and y', and no code for theta' = w", d.prog.zeros, d.prog.read)
	}
	for k := range ref {
		e.SetControls(k, ref[k].u)
	}
	slope := func(a agent, s []float64) []float64 {
		in := append(append(append([]float64{}, s...), a.u...), 0)
		k := make([]float64, len(s))
		for j, eq := range d.eqs {
			k[j] = eval(eq, in)
		}
		return k
	}
	const h = 0.01
	memo := e.batches[0].yaw.m
	for step := 0; step < 20; step++ {
		e.Step(h, physics.Serial{})
		for k := range ref {
			a := ref[k]
			s0 := a.s
			var k3 []float64
			ref[k].s, k3 = rk4Step(func(s []float64, _ float64) []float64 { return slope(a, s) }, s0, 0, h)
			if k < 8 {
				want := s0[2] + h*k3[2] // the last stage's heading
				if a.still && standing > 0 {
					want = s0[2]
				}
				if got := e.batches[0].chunks[0].regs[int(memo)*lanes+k]; math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%d standing, step %d, agent %d: the sines' memo holds %v, want %v (still %v)", standing, step, k, got, want, a.still)
				}
			}
		}
	}
	got := make([]float64, 3)
	for k := range ref {
		e.State(k, got)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(ref[k].s[j]) {
				t.Errorf("%d standing, agent %d, state %s: engine %v, trees %v", standing, k, d.States[j], got[j], ref[k].s[j])
			}
		}
	}
}

// Only dynamics whose unread states' derivatives are all products of a
// control and a sine or cosine have zeros.
func TestZerosFound(t *testing.T) {
	for _, tc := range []struct {
		eqs  string
		want int
	}{
		{"<equation>x' = v*cos(theta)</equation><equation>y' = sin(theta)*v</equation><equation>theta' = w</equation>", 2},
		{"<equation>x' = v*cos(theta)</equation><equation>y' = v*sin(theta) + 1</equation><equation>theta' = w</equation>", 0},
		{"<equation>x' = v*cos(theta + 1)</equation><equation>y' = v*sin(theta)</equation><equation>theta' = w</equation>", 0},
		{"<equation>x' = w*cos(theta)</equation><equation>y' = v*cos(theta)</equation><equation>theta' = w*cos(theta)</equation>", 2},
		{"<equation>x' = cos(theta)</equation><equation>y' = v*sin(theta)</equation><equation>theta' = w</equation>", 0},
		{"<equation>x' = v*cos(t)</equation><equation>y' = v*sin(theta)</equation><equation>theta' = w</equation>", 0},
	} {
		e, _ := engine(t, `<dynamics name="d" states="x, y, theta" controls="v, w">`+tc.eqs+`</dynamics>`, "rk4", 1, [3]float64{1, 1, 0})
		if got := len(e.dyn[0].prog.zeros); got != tc.want {
			t.Errorf("%s: %d zeros, want %d", tc.eqs, got, tc.want)
		}
	}
}

// rk4Step is one classic RK4 step of h from state s0 at time tm, with
// slope f, computed plainly (the tests' reference); it also returns the
// third stage's slope.
func rk4Step(f func(s []float64, t float64) []float64, s0 []float64, tm, h float64) (next, k3 []float64) {
	at := func(k []float64, c float64) []float64 {
		s := make([]float64, len(s0))
		for j := range s {
			s[j] = s0[j] + c*k[j]
		}
		return s
	}
	k1 := f(s0, tm)
	k2 := f(at(k1, h/2), tm+h/2)
	k3 = f(at(k2, h/2), tm+h/2)
	k4 := f(at(k3, h), tm+h)
	next = make([]float64, len(s0))
	for j := range next {
		next[j] = s0[j] + h/6*(k1[j]+2*k2[j]+2*k3[j]+k4[j])
	}
	return next, k3
}
