package custom

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// dynamics parses a <dynamics> element written at line 3 of dyn.argos.
func dynamics(t testing.TB, xml string) (*Dynamics, error) {
	t.Helper()
	doc := "<argos-configuration>\n<x>\n" + xml + "\n</x>\n</argos-configuration>"
	root, err := config.ParseTree("dyn.argos", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return ParseDynamics(root.FirstChild("x").FirstChild("dynamics"), RK4)
}

func TestDynamicsErrors(t *testing.T) {
	for _, tc := range []struct{ eqs, want string }{
		{`<equation>x' = v*coz(theta)</equation>`, `dyn.argos:3: <equation>: custom: "x' = v*coz(theta)": unknown function "coz"; the functions are abs, acos`},
		{`<equation>x' = v*cos(theta) + q</equation>`, `unknown symbol "q"; the symbols are`},
		{`<equation>x' = v/(2-2)</equation>`, `division by zero: the divisor "(2-2)" is 0 whatever the state (column 7)`},
		{`<equation>L = 0</equation><equation>x' = v/L</equation>`, "dyn.argos:3: <equation>: custom: \"x' = v/L\": division by zero: the divisor \"L\" is 0 whatever the state (column 7)"},
		{`<equation>x' = log(0)</equation>`, "log is -Inf whatever the state"},
		{`<equation>x' = v*</equation>`, "the expression ends where a value is expected (column 8)"},
		{`<equation>x' = (v*2</equation>`, "missing ) to close the ( at column 6"},
		{`<equation>x' = atan2(v)</equation>`, "atan2 takes 2 argument(s), not 1"},
		{`<equation>x' = v cos(theta)</equation>`, `unexpected "cos(theta)" after the expression`},
		{`<equation>x' = sin</equation>`, "sin is a function: write sin(...)"},
		{`<equation>z' = v</equation>`, `"z" is not a state of dynamics "d" (its states are x, y, theta)`},
		{`<equation>x' = v</equation><equation>x' = w</equation>`, "the derivative of x is given twice (also at line 3)"},
		{`<equation>x' = v</equation><equation>y' = 0</equation>`, "gives no derivative of state theta"},
		{`<equation>x = v</equation>`, `"x" is already a state`},
		{`<equation>x' v</equation>`, "is not an equation"},
		{`<eq>x' = v</eq>`, "unknown element <eq>"},
		{`<equation>x' = 1e999</equation>`, `"1e999" is not a number`},
	} {
		_, err := dynamics(t, `<dynamics name="d" states="x, y, theta" controls="v, w">`+tc.eqs+`<equation>y' = 0</equation><equation>theta' = w</equation></dynamics>`)
		if tc.want == "gives no derivative of state theta" {
			_, err = dynamics(t, `<dynamics name="d" states="x, y, theta" controls="v, w">`+tc.eqs+`</dynamics>`)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %q", tc.eqs, err, tc.want)
		}
		var ce *config.Error
		if err != nil && !errors.As(err, &ce) {
			t.Errorf("%s: %v is not a config.Error with file:line", tc.eqs, err)
		}
	}
	for _, tc := range []struct{ attrs, want string }{
		{`name="d" states="x, sin"`, `"sin" is the name of a function`},
		{`name="d" states="x, x"`, `"x" is also a states`},
		{`name="d" states="x" controls="x"`, `"x" is also a states`},
		{`name="d" states="2x"`, `"2x" is not a name`},
		{`name="d"`, "has no states"},
		{`name="d" states="x" method="leapfrog"`, "use rk4"},
	} {
		_, err := dynamics(t, `<dynamics `+tc.attrs+`><equation>x' = 1</equation></dynamics>`)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want %q", tc.attrs, err, tc.want)
		}
	}
}

// The compiled program computes what the folded trees say, for random
// inputs; equal subexpressions are computed once and a sine and a cosine
// of the same value together.
func TestProgramMatchesTrees(t *testing.T) {
	d, err := dynamics(t, `<dynamics name="d" states="x, y, theta, s" controls="v, w">
		<equation>L = 0.25</equation>
		<equation>k = L*2</equation>
		<equation>c = cos(theta)</equation>
		<equation>x' = v*c - L*sin(theta)^2</equation>
		<equation>y' = v*sin(theta) + atan2(y, x) - hypot(x, y)/k</equation>
		<equation>theta' = w*exp(-abs(s)) + min(x, y, 0.5) - max(x, y) + sign(v)</equation>
		<equation>s' = sqrt(v^2 + w^2) + pow(2, -t) - floor(x) + ceil(y) - tan(w/4) + asin(0.5) + acos(0.5) + atan(x) + log(1+v*v)</equation>
	</dynamics>`)
	if err != nil {
		t.Fatal(err)
	}
	p := d.prog
	sincos, sines := 0, 0
	for _, in := range p.code {
		switch in.op {
		case opSinCos:
			sincos++
		case opSin, opCos:
			sines++
		}
	}
	if sincos != 1 || sines != 0 {
		t.Errorf("%d sincos and %d lone sines/cosines; want the sine and cosine of theta once, together", sincos, sines)
	}
	const n = 7
	rng := rand.New(rand.NewPCG(1, 2))
	regs := make([]float64, p.nregs*n)
	for _, c := range p.consts {
		for l := 0; l < n; l++ {
			regs[int(c.reg)*n+l] = c.val
		}
	}
	in := make([][]float64, n)
	for l := 0; l < n; l++ {
		in[l] = make([]float64, d.inputs())
		for r := range in[l] {
			in[l][r] = rng.Float64()*4 - 2
			regs[r*n+l] = in[l][r]
		}
	}
	p.run(regs, n, n)
	for j, e := range d.eqs {
		for l := 0; l < n; l++ {
			want := eval(e, in[l])
			got := regs[int(p.out[j])*n+l]
			if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("derivative of %s, agent %d: program %v, tree %v", d.States[j], l, got, want)
			}
		}
	}
}

// engine builds an engine with one dynamics and agents at the given
// poses, outside a simulator.
func engine(t testing.TB, dyn string, method string, iterations int, poses ...[3]float64) (*Engine, *space.Space) {
	t.Helper()
	var arena strings.Builder
	for k := range poses {
		fmt.Fprintf(&arena, `<agent id="a%d" dynamics="d"><controller config="c"/></agent>`+"\n", k)
	}
	doc := fmt.Sprintf(`<argos-configuration>
<physics_engines><custom id="c" method="%s" iterations="%d">%s</custom></physics_engines>
<arena>%s</arena>
</argos-configuration>`, method, iterations, dyn, arena.String())
	root, err := config.ParseTree("eng.argos", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	sp := space.New(ci.Vector3{}, ci.Vector3{X: 100, Y: 100, Z: 10})
	pe, err := New(root.FirstChild("physics_engines").FirstChild("custom"), physics.Env{Space: sp, TickLength: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	e := pe.(*Engine)
	for k, p := range poses {
		b := space.Body{ID: fmt.Sprintf("a%d", k), Type: AgentTag, Shape: space.Disc, Radius: 0.05, Height: 0.1, Movable: true}
		b.Pos.X, b.Pos.Y = p[0], p[1]
		b.SetYaw(p[2])
		i := sp.Add(b)
		if !e.Models(&sp.Bodies[i]) {
			t.Fatalf("the engine does not model agent %d", k)
		}
		if err := e.Add(i); err != nil {
			t.Fatal(err)
		}
	}
	return e, sp
}

const unicycle = `<dynamics name="d" states="x, y, theta" controls="v, w">
	<equation>x' = v*cos(theta)</equation>
	<equation>y' = v*sin(theta)</equation>
	<equation>theta' = w</equation>
</dynamics>`

// A unicycle at constant v and w follows a circle; RK4 follows it within
// 1e-9 m over 10 s, Euler with an error of the order of its step.
func TestUnicycleFollowsTheCircle(t *testing.T) {
	const v, w, x0, y0, th0 = 0.3, 0.7, 1, -2, 0.4
	exact := func(tm float64) (float64, float64, float64) {
		th := th0 + w*tm
		return x0 + v/w*(math.Sin(th)-math.Sin(th0)), y0 - v/w*(math.Cos(th)-math.Cos(th0)), th
	}
	errOf := func(method string) float64 {
		e, sp := engine(t, unicycle, method, 10, [3]float64{x0, y0, th0})
		e.SetControls(0, []float64{v, w})
		worst := 0.0
		for tick := 1; tick <= 100; tick++ {
			e.Step(0.1, physics.Serial{})
			e.Commit(physics.Serial{})
			x, y, th := exact(float64(tick) * 0.1)
			b := sp.Bodies[0]
			worst = math.Max(worst, math.Hypot(b.Pos.X-x, b.Pos.Y-y))
			st := make([]float64, 3)
			e.State(0, st)
			if math.Abs(st[2]-th) > 1e-12 {
				t.Fatalf("%s: theta %v at tick %d, want %v", method, st[2], tick, th)
			}
		}
		return worst
	}
	if got := errOf("rk4"); got > 1e-9 {
		t.Errorf("rk4: %g m off the circle after 10 s, want below 1e-9", got)
	}
	if got := errOf("euler"); got < 1e-4 || got > 1e-2 {
		t.Errorf("euler: %g m off the circle after 10 s; the first-order error should be around 1e-3 at a 10 ms step", got)
	}
}

// A harmonic oscillator keeps its energy under RK4 (to 1e-7 over 50
// periods of 100 steps) and the program time t is the engine's.
func TestOscillatorAndTime(t *testing.T) {
	e, _ := engine(t, `<dynamics name="d" states="q, p, clock" controls="k">
		<equation>q' = p</equation>
		<equation>p' = -k*q</equation>
		<equation>clock' = 1 + 0*t</equation>
	</dynamics>`, "rk4", 4, [3]float64{})
	bt, _ := e.agentOf(0)
	bt.load(0, []float64{1, 0, 0})
	e.SetControls(0, []float64{4 * math.Pi * math.Pi}) // a period of 1 s
	for i := 0; i < 500; i++ {
		e.Step(0.1, physics.Serial{})
	}
	st := make([]float64, 3)
	e.State(0, st)
	energy := st[0]*st[0] + st[1]*st[1]/(4*math.Pi*math.Pi)
	if math.Abs(energy-1) > 1e-3 || math.Abs(st[0]-1) > 1e-2 {
		t.Errorf("after 50 periods: q=%v p=%v, energy %v (want 1)", st[0], st[1], energy)
	}
	if math.Abs(st[2]-50) > 1e-9 || math.Abs(e.time-50) > 1e-9 {
		t.Errorf("clock %v, engine time %v after 50 s", st[2], e.time)
	}
}

// A step of many agents allocates nothing.
func TestStepDoesNotAllocate(t *testing.T) {
	poses := make([][3]float64, 150)
	for k := range poses {
		poses[k] = [3]float64{float64(k), 0, 0}
	}
	e, _ := engine(t, unicycle, "rk4", 10, poses...)
	for k := range poses {
		e.SetControls(k, []float64{0.1, 0.2})
	}
	if n := testing.AllocsPerRun(20, func() {
		e.Step(0.1, physics.Serial{})
		e.Commit(physics.Serial{})
	}); n != 0 {
		t.Errorf("%v allocations per step", n)
	}
}

// Agents leave and the last takes the place of the removed one.
func TestRemove(t *testing.T) {
	e, sp := engine(t, unicycle, "euler", 1, [3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{2, 0, 0})
	e.SetControls(2, []float64{1, 0})
	e.Remove(0)
	e.Step(1, physics.Serial{})
	e.Commit(physics.Serial{})
	if x := sp.Bodies[2].Pos.X; x != 3 {
		t.Errorf("agent 2 at x=%v after removing agent 0, want 3", x)
	}
	if len(e.Bodies()) != 2 {
		t.Errorf("bodies %v", e.Bodies())
	}
	e.Reset()
	if x := sp.Bodies[2].Pos.X; x != 2 {
		t.Errorf("after Reset agent 2 at x=%v, want 2", x)
	}
}

// BenchmarkUnicycleStep: one RK4 step of 30 unicycles.
func BenchmarkUnicycleStep(b *testing.B) {
	poses := make([][3]float64, 30)
	for k := range poses {
		poses[k] = [3]float64{float64(k), 0, float64(k)}
	}
	e, _ := engine(b, unicycle, "rk4", 1, poses...)
	for k := range poses {
		e.SetControls(k, []float64{0.1, 0.2})
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e.Step(0.001, physics.Serial{})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/30, "ns/agent-step")
}

// FuzzDynamics: any equation text either compiles into a program that
// computes what its tree says, or is refused with an error at the
// equation's line; the parser never panics.
// The seeds are in testdata/fuzz/FuzzDynamics.
func FuzzDynamics(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string) {
		if strings.ContainsAny(src, "<>&") || strings.Contains(src, "]]") {
			return // not XML text
		}
		xml := `<dynamics name="d" states="x, y, theta" controls="v, w"><equation>x' = ` + src + `</equation><equation>y' = 0</equation><equation>theta' = 0</equation></dynamics>`
		if _, err := config.ParseTree("dyn.argos", []byte("<a>\n<x>\n"+xml+"\n</x>\n</a>")); err != nil {
			return // not XML text (invalid UTF-8, control characters): the file's parser refuses it first
		}
		d, err := dynamics(t, xml)
		if err != nil {
			var ce *config.Error
			if !errors.As(err, &ce) || ce.Line != 3 {
				t.Fatalf("%q: error %v without the equation's line", src, err)
			}
			return
		}
		in := []float64{0.3, -0.2, 1.1, 0.5, -0.7, 2}
		regs := make([]float64, d.prog.nregs)
		copy(regs, in)
		for _, c := range d.prog.consts {
			regs[c.reg] = c.val
		}
		d.prog.run(regs, 1, 1)
		got, want := regs[d.prog.out[0]], eval(d.eqs[0], in)
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%q: program %v, tree %v", src, got, want)
		}
	})
}
