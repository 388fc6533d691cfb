package preyretrieval_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	preyretrieval "github.com/argosgo/argos/controllers/prey_retrieval"
)

// thing is something the eye-bot's camera may see: an LED, a light.
type thing struct {
	p ci.Vector2
	c ci.Color
}

// eyeRig is an eye-bot on fake devices in a tiny world: at each step the
// camera sees the things within view of the robot's pose, and the robot
// is then flown exactly to the set-point its controller chose.
type eyeRig struct {
	t      *testing.T
	robot  *citest.Robot
	quad   *citest.QuadrotorPosition
	pos    *citest.Positioning
	cam    *citest.BlobCamera
	laser  *citest.LaserPointer
	leds   *citest.LEDs
	c      *preyretrieval.EyeBot
	at     ci.Vector3
	yaw    float64
	view   float64 // radius of the camera's view on the ground
	things map[string]thing
	steps  int
}

func newEyeRig(t *testing.T, seed uint64, params ...string) *eyeRig {
	t.Helper()
	g := &eyeRig{t: t, quad: &citest.QuadrotorPosition{}, pos: &citest.Positioning{}, cam: &citest.BlobCamera{},
		laser: &citest.LaserPointer{}, leds: citest.NewLEDs(33), yaw: 0.7, view: 0.8, things: map[string]thing{}}
	g.robot = citest.NewRobot("eb", seed).
		AddActuator(ci.TagQuadrotorPosition, g.quad).
		AddActuator(ci.TagLaserPointer, g.laser).
		AddActuator(ci.TagLEDs, g.leds).
		AddSensor(ci.TagPositioning, g.pos).
		AddSensor(ci.TagPerspectiveCamera, g.cam)
	g.c = preyretrieval.NewEyeBot()
	if err := g.c.Init(g.robot, ci.NewParams(params...)); err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *eyeRig) step() {
	g.t.Helper()
	g.pos.Set(ci.PositioningReading{Position: g.at, Orientation: ci.QuaternionFromYaw(g.yaw)})
	var bs []ci.Blob
	for _, th := range g.things {
		d := th.p.Sub(g.at.XY())
		if l := d.Length(); l < g.view {
			bs = append(bs, ci.Blob{Color: th.c, Distance: l, Angle: ci.NormalizeAngle(d.Angle() - g.yaw)})
		}
	}
	g.cam.Set(bs...)
	g.c.ControlStep()
	if g.quad.Calls > 0 {
		g.at = g.quad.Position
		if math.Abs(g.quad.Yaw-g.yaw) > 1e-12 {
			g.t.Fatalf("step %d: yaw set-point %v, want the take-off yaw %v", g.steps, g.quad.Yaw, g.yaw)
		}
	}
	g.steps++
}

// until steps until the controller is in phase, at most n steps.
func (g *eyeRig) until(phase string, n int) {
	g.t.Helper()
	for i := 0; i < n && g.c.Phase() != phase; i++ {
		g.step()
	}
	if g.c.Phase() != phase {
		g.t.Fatalf("after %d steps the eye-bot is in %q at %v, want %q", g.steps, g.c.Phase(), g.at, phase)
	}
}

// carrier puts the blue LEDs of a foot-bot centred at p (a ring and its
// beacon).
func (g *eyeRig) carrier(p ci.Vector2) {
	for k := 0; k < 6; k++ {
		g.things["led"+string(rune('0'+k))] = thing{p.Add(ci.FromPolar(0.09, float64(k)*math.Pi/3)), ci.Blue}
	}
	g.things["beacon"] = thing{p, ci.Blue}
}

func (g *eyeRig) noCarrier() {
	for k := range g.things {
		if g.things[k].c == ci.Blue {
			delete(g.things, k)
		}
	}
}

// The whole mission on fake devices: take off, sweep with the laser off
// (ignoring the prey of the other colour), hover over the chosen prey
// with the laser on, see it gripped (blue LEDs at it), sweep on to find
// the nest, guide the carrier with the spot ahead of it toward the nest,
// and stop once the prey is home and released.
func TestEyeBotMission(t *testing.T) {
	g := newEyeRig(t, 1)
	target := g.c.Target()
	other := ci.Cyan
	if target == ci.Cyan {
		other = ci.Yellow
	}
	prey := ci.Vector2{X: 1.2, Y: 0.6}
	nest := ci.Vector2{X: -1.3, Y: 1.3}
	g.things["prey"] = thing{prey, target}
	g.things["decoy"] = thing{ci.Vector2{X: -1.0, Y: -1.2}, other} // on the first lane
	g.things["nest"] = thing{nest, ci.Green}

	// Take-off: straight up, at most speed x tick per step, laser off.
	for g.c.Phase() == preyretrieval.TakeOff {
		before := g.at
		g.step()
		if d := g.at.Sub(before); g.c.Phase() == preyretrieval.TakeOff && (d.Length() > 0.04+1e-9 || d.X != 0 || d.Y != 0) {
			t.Fatalf("take-off step %d moved by %v; want straight up, at most 0.04 m", g.steps, d)
		}
		if g.steps > 60 {
			t.Fatal("still taking off after 60 steps")
		}
	}
	if !g.cam.Enabled || g.laser.Lit || math.Abs(g.at.Z-1.5) > 0.06 {
		t.Fatalf("after take-off: camera %v, laser %v, at %v; want camera on, laser off, 1.5 m up", g.cam.Enabled, g.laser.Lit, g.at)
	}
	if g.leds.Colors[0] != target {
		t.Errorf("LEDs show %v, want the chosen prey's colour %v", g.leds.Colors[0], target)
	}

	// The sweep passes the decoy first, then finds the prey.
	sawDecoy := false
	for g.c.Phase() == preyretrieval.Search && g.steps < 600 {
		if g.at.XY().Sub(g.things["decoy"].p).Length() < g.view {
			sawDecoy = true
		}
		g.step()
		if g.laser.Lit {
			t.Fatalf("step %d: the laser is on while searching", g.steps)
		}
	}
	if !sawDecoy || g.c.Phase() != preyretrieval.Approach {
		t.Fatalf("saw the decoy: %v; phase %q; want the decoy passed by and the prey approached", sawDecoy, g.c.Phase())
	}
	g.until(preyretrieval.Mark, 100)
	g.step()
	if g.at.XY().Sub(prey).Length() > 0.02 || !g.laser.Lit || g.laser.Color != ci.Red {
		t.Fatalf("marking from %v with laser %+v; want over the prey at %v with the red laser on", g.at, g.laser, prey)
	}
	if _, known := g.c.Nest(); known {
		t.Fatalf("the nest was seen during the sweep; move it for this test")
	}

	// A foot-bot grips the prey from the east: blue LEDs at the prey.
	carrier := prey.Add(ci.Vector2{X: 0.145})
	g.carrier(carrier)
	g.until(preyretrieval.FindNest, 6)
	g.until(preyretrieval.Guide, 600)
	if n, known := g.c.Nest(); !known || n.Sub(nest).Length() > 1e-9 {
		t.Fatalf("nest at %v (%v), want %v", n, known, nest)
	}

	// Guide: the carrier drives 6 cm/s toward the spot, pushing the prey.
	inNest := func() bool { return prey.Sub(nest).Length() < 0.5-0.1 }
	guided := 0
	for !inNest() && g.steps < 3000 {
		seen := g.at.XY().Sub(carrier).Length() < g.view-0.1
		g.step()
		if !g.laser.Lit {
			// flying back to the carrier: laser off until it is seen
			if seen {
				t.Fatalf("step %d: over the carrier with the laser off", g.steps)
			}
			continue
		}
		guided++
		spot := g.at.XY()
		to := spot.Sub(carrier)
		if l := to.Length(); l > 0.02 {
			carrier = carrier.Add(to.Scale(0.006 / l))
			prey = carrier.Add(to.Scale(0.145 / l))
		}
		g.things["prey"] = thing{prey, target}
		g.carrier(carrier)
		// Once settled the spot leads by 0.45 m toward the nest.
		if guided > 60 {
			want := nest.Sub(carrier)
			if d := spot.Sub(carrier); math.Abs(d.Length()-0.45) > 0.1 || math.Abs(ci.NormalizeAngle(d.Angle()-want.Angle())) > 0.25 {
				t.Fatalf("step %d: spot at %v from the carrier, want 0.45 m toward the nest (%v)", g.steps, d, want)
			}
		}
	}
	if !inNest() || g.c.Phase() != preyretrieval.Guide {
		t.Fatalf("after %d steps the prey is at %v and the eye-bot in %q", g.steps, prey, g.c.Phase())
	}
	// Released: the blue LEDs go dark; the eye-bot is done.
	g.noCarrier()
	g.until(preyretrieval.Done, 11)
	g.step()
	if g.laser.Lit {
		t.Errorf("done with the laser on")
	}
	t.Logf("mission done in %d steps", g.steps)
}

// toMark flies a rig with its prey under the first way-point to Mark.
func toMark(t *testing.T) (*eyeRig, ci.Vector2) {
	g := newEyeRig(t, 1, "area", "0,0,1,1", "lane", "1")
	prey := ci.Vector2{X: 0.1, Y: 0.1}
	g.things["prey"] = thing{prey, g.c.Target()}
	g.until(preyretrieval.Mark, 200)
	return g, prey
}

// A prey that vanishes from under the eye-bot sends it back to search.
func TestEyeBotPreyLost(t *testing.T) {
	g, _ := toMark(t)
	delete(g.things, "prey")
	for i := 0; i < 29; i++ {
		g.step()
	}
	if g.c.Phase() != preyretrieval.Mark {
		t.Fatalf("after 29 steps without the prey: %q, want still mark", g.c.Phase())
	}
	g.until(preyretrieval.Search, 2)
}

// Blue LEDs near the prey but not at it (a foot-bot passing by, not
// gripping) do not count as a grip.
func TestEyeBotGripNeedsCarrierAtPrey(t *testing.T) {
	g, prey := toMark(t)
	g.carrier(prey.Add(ci.Vector2{Y: 0.3}))
	for i := 0; i < 20; i++ {
		g.step()
	}
	if g.c.Phase() != preyretrieval.Mark {
		t.Fatalf("a carrier 0.3 m from the prey made the eye-bot go to %q", g.c.Phase())
	}
	g.carrier(prey.Add(ci.Vector2{Y: 0.15}))
	g.until(preyretrieval.FindNest, 6)
}

// In guide, a carrier that lets go away from the nest sends the eye-bot
// back to marking the prey.
func TestEyeBotCarrierLost(t *testing.T) {
	g, prey := toMark(t)
	g.things["nest"] = thing{ci.Vector2{X: 0.6, Y: 0.1}, ci.Green}
	g.carrier(prey.Sub(ci.Vector2{X: 0.145}))
	g.until(preyretrieval.Guide, 20)
	g.until(preyretrieval.Guide, 20)
	g.noCarrier()
	for i := 0; i < 49; i++ {
		g.step()
	}
	if g.c.Phase() != preyretrieval.Guide {
		t.Fatalf("after 49 steps without the carrier: %q, want still guide", g.c.Phase())
	}
	g.until(preyretrieval.Mark, 2)
	g.until(preyretrieval.Mark, 1)
	for i := 0; i < 30; i++ {
		g.step()
	}
	if !g.laser.Lit || g.at.XY().Sub(prey).Length() > 0.02 {
		t.Errorf("marking again from %v, laser %v; want over %v with the laser on", g.at, g.laser.Lit, prey)
	}
}

// The choice comes from the robot's own random stream: the same seed
// picks the same prey, also after Reset; different seeds pick both.
func TestEyeBotChoice(t *testing.T) {
	seen := map[ci.Color]int{}
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := newEyeRig(t, seed), newEyeRig(t, seed)
		if a.c.Target() != b.c.Target() {
			t.Fatalf("seed %d: two robots chose %v and %v", seed, a.c.Target(), b.c.Target())
		}
		seen[a.c.Target()]++
	}
	if len(seen) != 2 || seen[ci.Yellow]+seen[ci.Cyan] != 20 {
		t.Errorf("over 20 seeds the choices were %v; want both yellow and cyan", seen)
	}
	g := newEyeRig(t, 5, "preys", "magenta;0,128,255;orange")
	if c := g.c.Target(); c != ci.Magenta && c != (ci.Color{R: 0, G: 128, B: 255, A: 255}) && c != ci.Orange {
		t.Errorf("chose %v, not one of the preys given", c)
	}

	// Reset: back to take-off, the same choice when the robot's stream
	// restarts with the experiment (as the simulator's does).
	r := &restartable{Robot: citest.NewRobot("eb", 7), seed: 7}
	r.restart()
	pos := citest.NewPositioning(0, 0, 0)
	r.AddActuator(ci.TagQuadrotorPosition, &citest.QuadrotorPosition{}).AddActuator(ci.TagLaserPointer, &citest.LaserPointer{}).
		AddSensor(ci.TagPositioning, pos).AddSensor(ci.TagPerspectiveCamera, &citest.BlobCamera{})
	c := preyretrieval.NewEyeBot()
	if err := c.Init(r, ci.Params{}); err != nil {
		t.Fatal(err)
	}
	first := c.Target()
	c.ControlStep()
	pos.Set(ci.PositioningReading{Position: ci.Vector3{Z: 1.5}})
	for i := 0; i < 100; i++ {
		c.ControlStep()
	}
	if c.Phase() == preyretrieval.TakeOff {
		t.Fatal("still taking off after 100 steps")
	}
	for k := 0; k < 5; k++ {
		r.restart()
		c.Reset()
		if c.Phase() != preyretrieval.TakeOff || c.Target() != first {
			t.Fatalf("after Reset %d: %q, target %v; want take_off and %v", k, c.Phase(), c.Target(), first)
		}
	}
}

// restartable is a fake robot whose random stream restarts, as the
// simulator's robots' streams do when the experiment is reset.
type restartable struct {
	*citest.Robot
	seed uint64
	rng  *rand.Rand
}

func (r *restartable) Rand() *rand.Rand { return r.rng }
func (r *restartable) restart()         { r.rng = rand.New(rand.NewPCG(r.seed, 99)) }

func TestEyeBotInitErrors(t *testing.T) {
	full := func() *citest.Robot {
		return citest.NewRobot("eb", 1).
			AddActuator(ci.TagQuadrotorPosition, &citest.QuadrotorPosition{}).
			AddActuator(ci.TagLaserPointer, &citest.LaserPointer{}).
			AddSensor(ci.TagPositioning, &citest.Positioning{}).
			AddSensor(ci.TagPerspectiveCamera, &citest.BlobCamera{})
	}
	if err := preyretrieval.NewEyeBot().Init(full(), ci.Params{}); err != nil {
		t.Fatalf("all devices: %v", err)
	}
	for _, tc := range []struct {
		name  string
		robot *citest.Robot
		want  string
	}{
		{"no flight", citest.NewRobot("eb", 1).AddActuator(ci.TagLaserPointer, &citest.LaserPointer{}), "quadrotor_position"},
		{"no laser", citest.NewRobot("eb", 1).AddActuator(ci.TagQuadrotorPosition, &citest.QuadrotorPosition{}), "laser_pointer"},
		{"no positioning", citest.NewRobot("eb", 1).AddActuator(ci.TagQuadrotorPosition, &citest.QuadrotorPosition{}).
			AddActuator(ci.TagLaserPointer, &citest.LaserPointer{}), "<positioning"},
		{"no camera", citest.NewRobot("eb", 1).AddActuator(ci.TagQuadrotorPosition, &citest.QuadrotorPosition{}).
			AddActuator(ci.TagLaserPointer, &citest.LaserPointer{}).AddSensor(ci.TagPositioning, &citest.Positioning{}), "colored_blob_perspective_camera"},
	} {
		err := preyretrieval.NewEyeBot().Init(tc.robot, ci.Params{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error naming %s", tc.name, err, tc.want)
		}
		if tc.name != "no flight" && !errors.Is(err, ci.ErrNotDeclared) {
			t.Errorf("%s: %v does not wrap ci.ErrNotDeclared", tc.name, err)
		}
	}
	for _, kv := range [][]string{
		{"preys", ""}, {"preys", "yellow;mauve"}, {"altitude", "high"}, {"altitude", "0"}, {"area", "1,2,3"},
		{"lane", "-1"}, {"laser", "bright"}, {"speed", "NaN"},
	} {
		err := preyretrieval.NewEyeBot().Init(full(), ci.NewParams(kv...))
		if err == nil || !strings.Contains(err.Error(), kv[0]) || !strings.Contains(err.Error(), "prey_retrieval_eyebot") {
			t.Errorf("%s=%q: %v; want an error naming the controller and the parameter", kv[0], kv[1], err)
		}
	}
}

func TestEyeBotLifeCycle(t *testing.T) {
	cam := &citest.BlobCamera{}
	cam.Set(ci.Blob{Color: ci.Yellow, Distance: 0.3}, ci.Blob{Color: ci.Blue, Distance: 0.3}, ci.Blob{Color: ci.Green, Distance: 1})
	r := citest.NewRobot("eb", 1).
		AddActuator(ci.TagQuadrotorPosition, &citest.QuadrotorPosition{}).
		AddActuator(ci.TagLaserPointer, &citest.LaserPointer{}).
		AddSensor(ci.TagPositioning, citest.NewPositioning(0, 0, 0)).
		AddSensor(ci.TagPerspectiveCamera, cam)
	citest.TestController(t, func() ci.Controller { return preyretrieval.NewEyeBot() }, r, ci.Params{}, 50)
}
