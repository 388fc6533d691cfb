package simulator_test

import (
	"testing"

	"github.com/argosgo/argos/simulator"
)

// A <distribute> drops its placement once its poses are drawn; what comes
// after it in the arena is still checked against the bodies it placed.
func TestPlacementAfterADistribute(t *testing.T) {
	one := func(id, at string) string {
		return `<distribute>
        <position method="constant" values="` + at + `"/>
        <orientation method="constant" values="0,0,0"/>
        <entity quantity="1" max_trials="5"><foot-bot id="` + id + `"><controller config="tc"/></foot-bot></entity>
      </distribute>`
	}
	contains(t, buildErr(t, experiment("1", constantController, one("a", "0,0,0")+one("b", "0.05,0,0"), "")),
		"test.argos:", "could not place", `"b0"`)
	contains(t, buildErr(t, experiment("1", constantController,
		one("a", "0,0,0")+`<foot-bot id="fb2"><body position="0.05,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`, "")),
		"test.argos:", "fb2", "overlaps")
	// and apart, both fit
	build(t, experiment("1", constantController, one("a", "0,0,0")+one("b", "1,0,0"), ""), simulator.Options{})
}

// Devices are made before any controller's Init, but the error reported
// is still the first robot's: an Init that fails before a robot whose
// devices cannot be made, and the other way round.
func TestBuildErrorsInRobotOrder(t *testing.T) {
	ctrls := `
    <test_positioner id="tp"><actuators/><sensors/><params/></test_positioner>
    <test_constant id="bad">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors><epuck_proximity implementation="default"/></sensors>
      <params left="1" right="1"/>
    </test_constant>`
	robot := func(id, x, ctrl string) string {
		return `<foot-bot id="` + id + `"><body position="` + x + `,0,0" orientation="0,0,0"/><controller config="` + ctrl + `"/></foot-bot>`
	}
	contains(t, buildErr(t, experiment("1", ctrls, robot("fb0", "0", "tp")+robot("fb1", "1", "bad"), "")),
		`controller "tp"`, `"fb0"`, "positioning")
	contains(t, buildErr(t, experiment("1", ctrls, robot("fb0", "0", "bad")+robot("fb1", "1", "tp"), "")),
		"epuck_proximity", `"fb0"`)
}

// An id used twice is reported at the second element, naming the first,
// whichever of them has a body: two robots, a <distribute>'s id taken by
// an earlier box, a light after a robot and a robot after a light.
func TestIDsUsedTwice(t *testing.T) {
	robot := func(id, x string) string {
		return `<foot-bot id="` + id + `"><body position="` + x + `,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`
	}
	light := func(id string) string {
		return `<light id="` + id + `" position="0,1,0.5" orientation="0,0,0" color="yellow" intensity="1" medium="leds"/>`
	}
	box := `<box id="fb3" size="0.1,0.1,0.1" movable="false"><body position="1.5,1.5,0" orientation="0,0,0"/></box>`
	dist := `<distribute>
        <position method="uniform" min="-1.5,-1.5,0" max="1.5,1.5,0"/>
        <orientation method="constant" values="0,0,0"/>
        <entity quantity="5" max_trials="100"><foot-bot id="fb"><controller config="tc"/></foot-bot></entity>
      </distribute>`
	media := `<media><led id="leds"/></media>`
	for name, tc := range map[string]struct {
		arena string
		want  []string
	}{
		"two robots":          {robot("a", "0") + "\n" + robot("a", "1"), []string{"test.argos:", `"a"`, "used twice", "also at test.argos:"}},
		"distribute over box": {box + "\n" + dist, []string{`"fb3"`, "used twice", "also at test.argos:"}},
		"light after robot":   {robot("x", "0") + "\n" + light("x"), []string{`"x"`, "used twice"}},
		"robot after light":   {light("x") + "\n" + robot("x", "0"), []string{`"x"`, "used twice"}},
	} {
		err := buildErr(t, experiment("1", constantController, tc.arena, media))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		contains(t, err, tc.want...)
	}
	// and unique ids build
	build(t, experiment("1", constantController, robot("a", "0")+robot("b", "1")+light("c"), media), simulator.Options{})
}
