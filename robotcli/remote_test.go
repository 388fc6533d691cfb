package robotcli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The board sim needs the simulation's address, the robot's id and a
// token; it says what is missing.
func TestSimBoardErrors(t *testing.T) {
	t.Setenv("ARGOS_REMOTE_TOKEN", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", exp, "-i", "edc", "-b", SimBoard}, "-sim-addr HOST:PORT -robot-id ID"},
		{[]string{"-c", exp, "-i", "edc", "-b", SimBoard, "-sim-addr", "127.0.0.1:1", "-robot-id", "ep0"}, "no token"},
		{[]string{"-c", exp, "-i", "edc", "-b", SimBoard, "-sim-addr", "127.0.0.1:1", "-robot-id", "ep0", "-sim-token", "t"}, "is the simulation running"},
		{[]string{"-c", exp, "-i", "edc", "-b", "epuck", "-sim-addr", "127.0.0.1:1"}, "-robot-id ID"},
	} {
		code, _, errs := runArgs(tc.args...)
		if code != exitSetup || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s; want %d and %q", tc.args, code, errs, exitSetup, tc.want)
		}
	}
}

// On a robot's board, <messaging> goes over UDP, which needs a group or
// peers and a token from the file.
func TestMessagingOnRobotNeedsDestination(t *testing.T) {
	data, err := os.ReadFile(exp)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "m.argos")
	s := strings.Replace(string(data), `<sensors><epuck_proximity implementation="default" /></sensors>`,
		`<sensors><epuck_proximity implementation="default" /><messaging implementation="default" token="x" /></sensors>`, 1)
	if s == string(data) {
		t.Fatal("the test's experiment changed; update the replacement")
	}
	if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runArgs("-c", file, "-i", "edc", "-b", "epuck")
	if code != exitSetup || !strings.Contains(errs, "m.argos:") || !strings.Contains(errs, `group="239.255.14.1:47014"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
}
