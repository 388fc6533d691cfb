package emulatortest_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/emulator"
	"github.com/argosgo/argos/emulator/emulatortest"
)

func line(from, to emulator.Pose, n int) []emulator.Pose {
	var out []emulator.Pose
	for i := range n {
		k := float64(i) / float64(n-1)
		out = append(out, emulator.Pose{X: from.X + k*(to.X-from.X), Y: from.Y + k*(to.Y-from.Y), Yaw: from.Yaw + k*(to.Yaw-from.Yaw)})
	}
	return out
}

func TestAvoidsWall(t *testing.T) {
	approach := line(emulator.Pose{X: -0.1}, emulator.Pose{X: 0.19}, 30)
	turned := append(approach, line(emulator.Pose{X: 0.19}, emulator.Pose{X: 0.19, Yaw: math.Pi}, 10)...)
	away := append(turned, line(emulator.Pose{X: 0.19, Yaw: math.Pi}, emulator.Pose{X: -0.2, Yaw: math.Pi}, 10)...)
	crash := line(emulator.Pose{X: -0.1}, emulator.Pose{X: 0.215}, 30)
	for _, tc := range []struct {
		name string
		traj []emulator.Pose
		want string
	}{
		{"approach, turn and leave", away, ""},
		{"approach and turn", turned, ""},
		{"straight into the wall", crash, "hit the wall"},
		{"straight, stopping short, no turn", approach, "did not turn away"},
		{"standing still", line(emulator.Pose{X: -0.1}, emulator.Pose{X: -0.1}, 5), "did not drive toward the wall"},
		{"one pose", approach[:1], "only 1 poses"},
	} {
		err := emulatortest.AvoidsWall(tc.traj, 0.25, 0.035, 0.2)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if s := emulator.Summary(away); !strings.Contains(s, "max x 0.190") {
		t.Errorf("Summary: %s", s)
	}
}
