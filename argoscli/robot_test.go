package argoscli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/boards"
)

func TestRobotUsageErrors(t *testing.T) {
	exp := repo("toolchains", "experiments", "epuck.argos")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"robot"}, "usage: argos robot build"},
		{[]string{"robot", "flash"}, "usage: argos robot build"},
		{[]string{"robot", "build"}, "give the robot model: --model"},
		{[]string{"robot", "build", "--model", "mars-rover"}, `unknown board "mars-rover"`},
		{[]string{"robot", "build", "--model", "epuck", "-i", "edc"}, "-i needs -c"},
		{[]string{"robot", "build", "--model", "epuck", "-c", exp, "-i", "nope"}, `has no controller with id "nope"`},
		{[]string{"robot", "build", "--model", "footbot", "-c", exp, "-i", "edc"}, `board "footbot" (foot-bot) has no sensor <epuck_proximity>`},
		{[]string{"robot", "build", "--model", "footbot", "-c", exp}, "no controller entry the foot-bot board"},
		{[]string{"robot", "deploy", "--model", "epuck", "-c", exp}, "give the robot: --host user@host"},
		{[]string{"robot", "build", "--model", "epuck", "extra"}, `unexpected argument "extra"`},
	} {
		code, _, stderr := runArgos(t, tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("argos %s: exit %d, %q; want 1 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}

// Without -c, a bundle ships the first experiment whose controller entry
// the board can run, preferring one a robot of the model uses.
func TestPickExperiment(t *testing.T) {
	fb, _ := boards.Lookup("footbot")
	file, id, err := pickExperiment(repo("experiments"), &fb)
	if err != nil || filepath.Base(file) != "diffusion_1.argos" || id != "fdc" {
		t.Errorf("foot-bot: %s %q %v; want diffusion_1.argos, fdc", file, id, err)
	}
	ep, _ := boards.Lookup("epuck")
	if _, _, err := pickExperiment(repo("experiments"), &ep); err == nil || !strings.Contains(err.Error(), "epuck_proximity") {
		t.Errorf("e-puck in experiments/ (none there): %v; want an error listing the board's devices", err)
	}
	file, id, err = pickExperiment(repo("toolchains", "experiments"), &ep)
	if err != nil || filepath.Base(file) != "epuck.argos" || id != "edc" {
		t.Errorf("e-puck in toolchains/experiments: %s %q %v", file, id, err)
	}
	if id, err := pickController(repo("toolchains", "experiments", "footbot.argos"), &fb); err != nil || id != "fdc" {
		t.Errorf("pickController: %q %v", id, err)
	}
}
