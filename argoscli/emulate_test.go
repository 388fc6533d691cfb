package argoscli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEmulate(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", repo("toolchains", "experiments", "epuck.argos"), "-robot", "ep0", "-b", "epuck", "-link", filepath.Join(dir, "tty")}, "EMULATOR READY port=" + filepath.Join(dir, "tty")},
		// -i and --board as the robot binary spells them; the robot
		// found by its model when not named.
		{[]string{"-c", repo("toolchains", "experiments", "footbot.argos"), "--board", "footbot", "-listen", "127.0.0.1:0"}, "EMULATOR READY aseba=127.0.0.1:"},
		{[]string{"-c", repo("toolchains", "experiments", "footbot.argos"), "-i", "fb0", "-b", "footbot", "-listen", "127.0.0.1:0"}, "EMULATOR READY aseba=127.0.0.1:"},
	} {
		traj := filepath.Join(dir, "poses.tsv")
		args := append([]string{"emulate"}, append(tc.args, "-duration", "300ms", "-trajectory", traj)...)
		code, out, stderr := runArgos(t, args...)
		if code != 0 {
			t.Fatalf("argos %v: exit %d\n%s", args, code, stderr)
		}
		if !strings.Contains(out, tc.want) || !strings.Contains(out, "EMULATOR DONE") {
			t.Errorf("output %q, want %q and a DONE line", out, tc.want)
		}
		b, err := os.ReadFile(traj)
		if err != nil || !strings.HasPrefix(string(b), "tick\tt_s\tx\ty\tyaw_deg\n0\t") {
			t.Errorf("trajectory file: %v\n%s", err, b)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", repo("toolchains", "experiments", "epuck.argos"), "-robot", "ep0", "-b", "pipuck"}, "emulated in-process"},
		{[]string{"-c", repo("toolchains", "experiments", "epuck.argos"), "-b", "footbot"}, "places no foot-bot"},
		{[]string{"-c", repo("toolchains", "experiments", "epuck.argos"), "-robot", "ep9"}, `no robot "ep9"`},
		{[]string{"-robot", "ep0"}, "give the experiment"},
	} {
		code, _, stderr := runArgos(t, append([]string{"emulate"}, tc.args...)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("argos emulate %v: exit %d, %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
