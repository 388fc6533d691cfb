package simulator_test

import (
	"strings"
	"testing"

	"github.com/argosgo/argos/simulator"
)

// twoListingEngines are west and east halves of the arena, each listing
// an entity that lies in the other's half, and west listing a box in
// east's half.
func twoListingEngines(engine string) string {
	return `
  <physics_engines>
    <` + engine + ` id="west"><boundaries><top height="1"/><bottom height="0"/>
      <sides><vertex point="-2,-2"/><vertex point="0,-2"/><vertex point="0,2"/><vertex point="-2,2"/></sides></boundaries>
      <entity id="w"/><entity id="wall_[a-z]+"/></` + engine + `>
    <` + engine + ` id="east"><boundaries><top height="1"/><bottom height="0"/>
      <sides><vertex point="0,-2"/><vertex point="2,-2"/><vertex point="2,2"/><vertex point="0,2"/></sides></boundaries>
      <entity id="e"/></` + engine + `>
  </physics_engines>`
}

// An engine that lists an entity owns it wherever it goes; a static
// entity listed by one engine is an obstacle in that engine only.
func TestEnginesOwnTheEntitiesTheyList(t *testing.T) {
	for _, engine := range []string{"dynamics2d", "kinematics2d"} {
		t.Run(engine, func(t *testing.T) {
			ctrl := `<test_prox_driver id="go"><actuators><differential_steering implementation="default"/></actuators>
      <sensors><footbot_proximity implementation="default"/></sensors><params v="10"/></test_prox_driver>`
			xml := experiment("0", ctrl, `
    <foot-bot id="e"><body position="-0.6,0,0"/><controller config="go"/></foot-bot>
    <foot-bot id="w"><body position="0.4,1,0"/><controller config="go"/></foot-bot>
    <foot-bot id="p"><body position="0.5,-1,0"/><controller config="go"/></foot-bot>
    <box id="wall_x" size="0.1,0.6,0.2" movable="false"><body position="1,-1,0"/></box>`, "")
			xml = strings.Replace(xml, `<physics_engines><dynamics2d id="dyn"/></physics_engines>`, twoListingEngines(engine), 1)
			sim := build(t, xml, simulator.Options{Threads: intp(2)})
			e, w, p := sim.Robot(0), sim.Robot(1), sim.Robot(2)
			if e.ID != "e" || w.ID != "w" || p.ID != "p" {
				t.Fatalf("robots %s %s %s", e.ID, w.ID, p.ID)
			}
			for sim.Tick() < 100 {
				if e.B().Engine != 1 || w.B().Engine != 0 || p.B().Engine != 1 {
					t.Fatalf("tick %d: e in engine %d (want east, 1), w in %d (want west, 0), p in %d (want east by its region, 1)",
						sim.Tick(), e.B().Engine, w.B().Engine, p.B().Engine)
				}
				if err := sim.Step(); err != nil {
					t.Fatal(err)
				}
			}
			// 1 m in 10 s: e crossed into east's half, w went on in it
			if x := e.B().Pos.X; x < 0.3 {
				t.Errorf("e ended at x=%.3f; it should have driven 1 m east", x)
			}
			if x := w.B().Pos.X; x < 1.3 {
				t.Errorf("w ended at x=%.3f; it should have driven 1 m east", x)
			}
			// the wall belongs to west only: p, in east, drives through
			// it, although its sensors see it
			if x := p.B().Pos.X; x < 1.4 {
				t.Errorf("p ended at x=%.3f: the wall listed by west only stopped it in east", x)
			}
		})
	}
}

func TestEntityListErrors(t *testing.T) {
	robots := `<foot-bot id="a"><body position="-0.5,0,0"/><controller config="tc"/></foot-bot>
    <foot-bot id="b"><body position="0.5,0,0"/><controller config="tc"/></foot-bot>`
	for _, tt := range []struct {
		name, engines string
		want          []string
	}{
		{"listed twice", `<dynamics2d id="one"><entity id="a"/></dynamics2d>
    <dynamics2d id="two"><entity id="[ab]"/></dynamics2d>`,
			[]string{"test.argos:", `"a" is listed by physics engines "one" and "two"`, "list it in one"}},
		{"matches nothing", `<dynamics2d id="one"><entity id="fb_[0-9]+"/></dynamics2d>`,
			[]string{"test.argos:", `lists entity id "fb_[0-9]+", which matches no entity`}},
		{"bad pattern", `<dynamics2d id="one"><entity id="a("/></dynamics2d>`,
			[]string{"test.argos:", "not a valid regular expression"}},
		{"no id", `<dynamics2d id="one"><entity/></dynamics2d>`, []string{"test.argos:", `"id"`}},
		{"unknown child", `<dynamics2d id="one"><robots/></dynamics2d>`,
			[]string{"test.argos:", "unknown element <robots>", `<entity id="...">`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			xml := experiment("1", constantController, robots, "")
			xml = strings.Replace(xml, `<physics_engines><dynamics2d id="dyn"/></physics_engines>`, "<physics_engines>"+tt.engines+"</physics_engines>", 1)
			err := buildErr(t, xml)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}
}
