package simulator

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// The devices cloned on the run's threads are each robot's own: a
// proximity ring with readings of its own, and wheels that move the
// robot's body and no other; so are the device lists, which the robots
// after the first get with the clones (every device of the plan clones).
func TestClonedDevicesAreTheRobotsOwn(t *testing.T) {
	exp, err := config.Parse("test.argos", []byte(diffusionXML(3, `<arena size="12,12,1" center="0,0,0.5">
    <distribute>
      <position method="uniform" min="-5.9,-5.9,0" max="5.9,5.9,0"/>
      <orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="3000" max_trials="100"><e-puck id="ep"><controller config="edc"/></e-puck></entity>
    </distribute>
  </arena>`, `<physics_engines><kinematics2d id="k"/></physics_engines>`)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(exp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	readings := map[*ci.ProximityReading]bool{}
	lists := map[any]bool{}
	for i, r := range s.robots {
		if len(r.sensors()) != 1 || len(r.actuators()) != 1 || r.ctrl == nil {
			t.Fatalf("robot %d: %d sensors, %d actuators, controller %v", i, len(r.sensors()), len(r.actuators()), r.ctrl)
		}
		if lists[&r.sensors()[0]] || lists[&r.actuators()[0]] {
			t.Fatalf("robot %d shares a device list with another robot", i)
		}
		lists[&r.sensors()[0]], lists[&r.actuators()[0]] = true, true
		p, ok := r.sensors()[0].(ci.Proximity)
		if !ok || len(p.Readings()) != 8 {
			t.Fatalf("robot %d: sensor %T is not an 8-ray proximity ring", i, r.sensors()[0])
		}
		if readings[&p.Readings()[0]] {
			t.Fatalf("robot %d shares its readings with another robot", i)
		}
		readings[&p.Readings()[0]] = true
	}
	for _, i := range []int{0, 1, 1500, len(s.robots) - 1} {
		r := s.robots[i]
		r.actuators()[0].(ci.DifferentialSteeringActuator).SetLinearVelocity(10, 10)
		r.actuators()[0].Apply()
		for k, o := range s.robots {
			if v, want := s.sp.Drive[o.Body].V, map[bool]float64{true: 0.1}[k == i]; v != want {
				t.Fatalf("robot %d's wheels at 10 cm/s: robot %d's body asks %g m/s, want %g", i, k, v, want)
			}
		}
		r.actuators()[0].(ci.DifferentialSteeringActuator).SetLinearVelocity(0, 0)
		r.actuators()[0].Apply()
	}
}

// growingEngine is kinematics2d that records the room it is asked to make.
type growingEngine struct {
	physics.Engine
	grows []int
}

func (g *growingEngine) Grow(n int) {
	g.grows = append(g.grows, n)
	g.Engine.(interface{ Grow(int) }).Grow(n)
}

func init() {
	physics.Engines.MustRegister("test_growing", "test: kinematics2d recording its Grow calls", func(n *config.Node, env physics.Env) (physics.Engine, error) {
		f, err := physics.Engines.Lookup("kinematics2d")
		if err != nil {
			return nil, err
		}
		e, err := f(n, env)
		return &growingEngine{Engine: e}, err
	})
}

// A large <distribute> grows the engines ahead, while it adds its
// entities, with room for every body they end up with: the engines are
// not grown again.
func TestEnginesGrowAhead(t *testing.T) {
	exp, err := config.Parse("test.argos", []byte(diffusionXML(2, `<arena size="6,6,1" center="0,0,0.5">
    <box id="wall" size="0.1,4,0.5" movable="false"><body position="0,0,0" orientation="0,0,0"/></box>
    <distribute>
      <position method="uniform" min="-2.9,-2.9,0" max="2.9,2.9,0"/>
      <orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="300" max_trials="100"><e-puck id="ep"><controller config="edc"/></e-puck></entity>
    </distribute>
  </arena>`, `<physics_engines><test_growing id="k"/></physics_engines>`)))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(exp, Options{largeArena: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	g := s.engines[0].(*growingEngine)
	if n := len(g.Bodies()); len(g.grows) != 2 || g.grows[0] < n || g.grows[1] != n {
		t.Errorf("Grow calls %v for %d bodies, want one ahead with room for them all, then growEngines' own", g.grows, n)
	}
}

// The set-up of a large arena (collector paused, robot slab and bodies
// written ahead, engines grown ahead) gives the results of the plain one:
// the pinned cases, built both ways, end in the same poses, bit for bit.
func TestLargeArenaSetUpSameResults(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "pinned", "*.argos"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pinned cases: %v", err)
	}
	for _, f := range files {
		run := func(large int) []space.Body {
			exp, err := config.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			exp.LoopFunctions = nil
			two := 2
			s, err := New(exp, Options{Threads: &two, largeArena: large})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for s.Tick() < 30 {
				if err := s.Step(); err != nil {
					t.Fatal(err)
				}
			}
			return slices.Clone(s.sp.Bodies)
		}
		plain, large := run(0), run(1)
		if len(plain) != len(large) {
			t.Fatalf("%s: %d bodies, %d with the large set-up", f, len(plain), len(large))
		}
		for i := range plain {
			a, b := &plain[i], &large[i]
			if a.ID != b.ID || a.Pos != b.Pos || a.Z != b.Z || math.Float64bits(a.Yaw) != math.Float64bits(b.Yaw) {
				t.Fatalf("%s: body %d is %s at %v (yaw %v), %s at %v (yaw %v) with the large set-up", f, i, a.ID, a.Pos, a.Yaw, b.ID, b.Pos, b.Yaw)
			}
		}
	}
}

// idsArena is an arena of e-pucks for the id tests: before the
// <distribute>s of ids "ep" (5 and 20 copies, the second numbered from
// 5), the elements in before; after them, those in after.
func idsArena(t *testing.T, before string, after ...string) *config.Experiment {
	t.Helper()
	exp, err := config.Parse("test.argos", []byte(diffusionXML(2, `<arena size="6,6,1" center="0,0,0.5">
    `+before+`
    <distribute>
      <position method="uniform" min="-2.9,-2.9,0" max="2.9,2.9,0"/>
      <orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="5" max_trials="100"><e-puck id="ep"><controller config="edc"/></e-puck></entity>
    </distribute>
    <distribute>
      <position method="uniform" min="-2.9,-2.9,0" max="2.9,2.9,0"/>
      <orientation method="uniform" min="0,0,0" max="360,0,0"/>
      <entity quantity="20" max_trials="100" base_num="5"><e-puck id="ep"><controller config="edc"/></e-puck></entity>
    </distribute>
    `+strings.Join(after, "\n")+`
  </arena>`, `<media><led id="leds"/></media>
  <physics_engines><kinematics2d id="k"/></physics_engines>`)))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// A large <distribute> of robots puts its ids in the id map on another
// goroutine while it draws (prepareAhead): the map ends the same as when
// the entities are added one by one, every id naming its own body.
func TestLargeArenaIDMap(t *testing.T) {
	maps := make([]map[string]int, 2)
	for i, large := range []int{0, 5} {
		s, err := New(idsArena(t, `<box id="wall" size="0.1,4,0.5" movable="false"><body position="0,0,0" orientation="0,0,0"/></box>`),
			Options{largeArena: large})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		maps[i] = s.byID
		if len(s.byID) != len(s.sp.Bodies) || len(s.byID) != 26 {
			t.Errorf("large=%d: %d ids for %d bodies, want 26", large, len(s.byID), len(s.sp.Bodies))
		}
		for id, h := range s.byID {
			if s.sp.Bodies[h].ID != id {
				t.Errorf("large=%d: id %q maps to body %d, %q", large, id, h, s.sp.Bodies[h].ID)
			}
		}
	}
	if !reflect.DeepEqual(maps[0], maps[1]) {
		t.Errorf("id maps differ: %v, %v with the large set-up", maps[0], maps[1])
	}
}

// A large <distribute>'s id that an entity before it has is reported as
// when the ids are added one by one: at the same copy, naming the same
// element, whether that entity has a body (a box, a robot of an earlier
// <distribute>) or not (a light); so is an entity after it with one of
// its ids.
func TestLargeArenaIDsUsedTwice(t *testing.T) {
	for _, after := range []string{
		`<box id="ep3" size="0.1,0.1,0.1" movable="false"><body position="1.5,1.5,0" orientation="0,0,0"/></box>`,
		`<box id="ep30" size="0.1,0.1,0.1" movable="false"><body position="1.5,1.5,0" orientation="0,0,0"/></box>
    <box id="ep30" size="0.1,0.1,0.1" movable="false"><body position="-1.5,1.5,0" orientation="0,0,0"/></box>`,
	} {
		wantUsedTwiceAsPlain(t, after+" after", func() *config.Experiment { return idsArena(t, "", after) })
	}
	for name, before := range map[string]string{
		"box":        `<box id="ep3" size="0.1,0.1,0.1" movable="false"><body position="1.5,1.5,0" orientation="0,0,0"/></box>`,
		"robot":      `<e-puck id="ep17"><body position="1.5,1.5,0" orientation="0,0,0"/><controller config="edc"/></e-puck>`,
		"light":      `<light id="ep2" position="0,1,0.5" orientation="0,0,0" color="yellow" intensity="1" medium="leds"/>`,
		"distribute": `<distribute><position method="uniform" min="-2.9,-2.9,0" max="2.9,2.9,0"/><orientation method="constant" values="0,0,0"/><entity quantity="8" max_trials="100" base_num="12"><e-puck id="ep"><controller config="edc"/></e-puck></entity></distribute>`,
	} {
		wantUsedTwiceAsPlain(t, name, func() *config.Experiment { return idsArena(t, before) })
	}
}

// wantUsedTwiceAsPlain checks that the experiment exp makes fails with an
// id used twice, with the same error whether a large <distribute> is set
// up the plain way or ahead (largeArena 0 and 5), each from a fresh parse.
func wantUsedTwiceAsPlain(t *testing.T, what string, exp func() *config.Experiment) {
	t.Helper()
	var errs [2]string
	for i, large := range []int{0, 5} {
		s, err := New(exp(), Options{largeArena: large})
		if err == nil {
			s.Close()
			t.Fatalf("%s, large=%d: no error", what, large)
		}
		errs[i] = err.Error()
	}
	if errs[0] != errs[1] || !strings.Contains(errs[0], "used twice") {
		t.Errorf("%s: %q, %q with the large set-up", what, errs[0], errs[1])
	}
}

// The copies of a large <distribute> of robots, added on the run's
// threads (addCopies), are those the plain set-up adds one by one: the
// same bodies, field for field, and robots with the same ids, indices,
// bodies, controller entries and random streams, in the same order.
func TestLargeArenaCopiesAsAdded(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "pinned", "*.argos"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no pinned cases: %v", err)
	}
	type built struct {
		bodies []space.Body
		robots []string
	}
	build := func(exp *config.Experiment, large int) built {
		two := 2
		s, err := New(exp, Options{Threads: &two, largeArena: large})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var b built
		b.bodies = slices.Clone(s.sp.Bodies)
		for i, r := range s.robots {
			b.robots = append(b.robots, fmt.Sprintf("%s %d %d %d %s %s %v %d", r.ID, r.Index, r.Body, i, r.entry.ID, r.Node.Where(), r.Model.Type, r.Rand.Uint64()))
		}
		return b
	}
	cases := map[string]func() *config.Experiment{"ids": func() *config.Experiment { return idsArena(t, "") }}
	for _, f := range files {
		cases[f] = func() *config.Experiment {
			exp, err := config.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			exp.LoopFunctions = nil
			return exp
		}
	}
	for name, exp := range cases {
		e := exp()
		plain, large := build(e, 0), build(exp(), 1)
		if !reflect.DeepEqual(plain.bodies, large.bodies) {
			t.Errorf("%s: the bodies differ with the large set-up", name)
		}
		if !slices.Equal(plain.robots, large.robots) {
			t.Errorf("%s: the robots differ with the large set-up:\n%v\n%v", name, plain.robots, large.robots)
		}
	}
}

// diffusionXML is an experiment of one tick of e-pucks running the
// diffusion controller (entry "edc") on the given number of threads:
// the arena element, then the rest (media, physics engines).
func diffusionXML(threads int, arena, rest string) string {
	return fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><system threads="%d"/><experiment length="1" ticks_per_second="10" random_seed="7"/></framework>
  <controllers>
    <epuck_diffusion_controller id="edc">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><epuck_proximity implementation="default"/></sensors>
      <params/>
    </epuck_diffusion_controller>
  </controllers>
  %s
  %s
</argos-configuration>`, threads, arena, rest)
}
