package dynamics2d_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
	"github.com/argosgo/argos/simulator/space"
)

// experiment returns a tiny experiment whose <physics_engines> holds
// engine, which starts on line engineLine.
func experiment(engine string) []byte {
	return []byte(`<argos-configuration>
  <framework><experiment ticks_per_second="10"/></framework>
  <controllers/>
  <arena size="10,10,1" center="0,0,0.5"/>
  <physics_engines>
    ` + engine + `
  </physics_engines>
</argos-configuration>`)
}

const engineLine = 6

const tick = 0.1

// build parses engine (a <dynamics2d> element) and builds it on sp.
func build(sp *space.Space, engine string) (physics.Engine, error) {
	exp, err := config.Parse("x.argos", experiment(engine))
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	return dynamics2d.New(exp.PhysicsEngines[0], physics.Env{Space: sp, Index: 0, TickLength: tick})
}

// newEngine builds a <dynamics2d id="dyn"/> on sp or fails the test.
func newEngine(tb testing.TB, sp *space.Space, engine string) *dynamics2d.Engine {
	tb.Helper()
	if engine == "" {
		engine = `<dynamics2d id="dyn"/>`
	}
	e, err := build(sp, engine)
	if err != nil {
		tb.Fatal(err)
	}
	return e.(*dynamics2d.Engine)
}

// Foot-bot and e-puck as simulator/entity builds them (docs/robots.md).
var (
	footBot = space.Body{
		Type: "foot-bot", Shape: space.Disc, Radius: 0.085036758, Height: 0.146899733,
		Movable: true, Mass: 1.6, MaxForce: 15, MaxTorque: 150,
	}
	ePuck = space.Body{
		Type: "e-puck", Shape: space.Disc, Radius: 0.035, Height: 0.086,
		Movable: true, Mass: 0.4, MaxForce: 1.5, MaxTorque: 1.5,
	}
)

const footBotAxle = 0.14

// world is a space with one dynamics2d engine.
type world struct {
	tb  testing.TB
	sp  *space.Space
	eng *dynamics2d.Engine
	run physics.Runner
}

func newWorld(tb testing.TB, size float64, engine string) *world {
	tb.Helper()
	sp := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: size, Y: size, Z: 1})
	return &world{tb: tb, sp: sp, eng: newEngine(tb, sp, engine), run: physics.Serial{}}
}

// add adds a copy of model at (x, y, yaw) and gives it to the engine.
func (w *world) add(model space.Body, id string, x, y, yaw float64) int {
	w.tb.Helper()
	model.ID = id
	model.Pos = ci.Vector2{X: x, Y: y}
	model.Yaw = yaw
	i := w.sp.Add(model)
	if err := w.eng.Add(i); err != nil {
		w.tb.Fatal(err)
	}
	return i
}

// box adds a box centred at (x, y) with half sizes hx, hy; movable boxes
// get ARGoS's floor friction (simulator/entity).
func (w *world) box(id string, x, y, hx, hy, yaw float64, mass float64) int {
	w.tb.Helper()
	b := space.Body{
		ID: id, Type: "box", Shape: space.Box, Half: ci.Vector2{X: hx, Y: hy}, Radius: math.Hypot(hx, hy),
		Height: 0.5, Pos: ci.Vector2{X: x, Y: y}, Yaw: yaw,
	}
	return w.object(b, mass)
}

// cylinder adds a cylinder of radius r at (x, y).
func (w *world) cylinder(id string, x, y, r float64, mass float64) int {
	w.tb.Helper()
	b := space.Body{ID: id, Type: "cylinder", Shape: space.Disc, Radius: r, Height: 0.5, Pos: ci.Vector2{X: x, Y: y}}
	return w.object(b, mass)
}

// object adds b, static when mass is 0.
func (w *world) object(b space.Body, mass float64) int {
	w.tb.Helper()
	if mass > 0 {
		b.Movable, b.Mass, b.MaxForce, b.MaxTorque = true, mass, 1.49, 1.49
	}
	i := w.sp.Add(b)
	var err error
	if mass > 0 {
		err = w.eng.Add(i)
	} else {
		err = w.eng.AddStatic(i)
	}
	if err != nil {
		w.tb.Fatal(err)
	}
	return i
}

// wheels sets body i's drive from wheel speeds in cm/s, as the
// differential steering actuator does.
func (w *world) wheels(i int, left, right, axle float64) {
	l, r := left/100, right/100
	w.sp.Drive[i] = space.Drive{V: (l + r) / 2, W: (r - l) / axle}
}

func (w *world) drive(i int, v, omega float64) {
	w.sp.Drive[i] = space.Drive{V: v, W: omega}
}

func (w *world) tick() {
	w.eng.Step(tick, w.run)
	w.eng.Commit(w.run)
	w.sp.Reindex()
}

func (w *world) ticks(n int) {
	for k := 0; k < n; k++ {
		w.tick()
	}
}

func (w *world) body(i int) *space.Body { return &w.sp.Bodies[i] }

// state is what tests compare between runs.
type state struct {
	Pos, Vel    ci.Vector2
	Yaw, AngVel float64
}

func (w *world) state(i int) state {
	b := w.body(i)
	return state{b.Pos, b.Vel, b.Yaw, b.AngVel}
}

func (s state) String() string {
	return fmt.Sprintf("pos (%.12f, %.12f) yaw %.12f vel (%.12f, %.12f) w %.12f",
		s.Pos.X, s.Pos.Y, s.Yaw, s.Vel.X, s.Vel.Y, s.AngVel)
}

// diff is the largest difference between two states.
func (s state) diff(o state) float64 {
	return max(s.Pos.Sub(o.Pos).Length(), math.Abs(ci.NormalizeAngle(s.Yaw-o.Yaw)),
		s.Vel.Sub(o.Vel).Length(), math.Abs(s.AngVel-o.AngVel))
}

// wantErr checks that err is a *config.Error at x.argos:line mentioning
// every part of want.
func wantErr(t *testing.T, err error, line int, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one at x.argos:%d", line)
	}
	prefix := fmt.Sprintf("x.argos:%d: ", line)
	if !strings.HasPrefix(err.Error(), prefix) {
		t.Errorf("error %q does not start with %q", err, prefix)
	}
	for _, s := range want {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
}
