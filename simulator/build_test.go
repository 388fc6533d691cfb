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
