package toolchains_test

import (
	"debug/buildinfo"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/argosgo/argos/boards"
)

// mk reads the settings of toolchains/robot-<model>.mk.
func mk(t *testing.T, model string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("robot-" + model + ".mk")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^ROBOT_` + model + `_(\w+)\s*:=[ \t]*(.*)$`)
	out := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = strings.TrimSpace(m[2])
	}
	return out
}

var models = []string{"footbot", "eyebot", "epuck", "pipuck", "pipuck2"}

func TestSettingsMatchBoards(t *testing.T) {
	for _, m := range models {
		s := mk(t, m)
		b, err := boards.Lookup(s["BOARD"])
		if err != nil {
			t.Errorf("robot-%s.mk: %v", m, err)
			continue
		}
		if s["GOOS"] != b.Target.GOOS || s["GOARCH"] != b.Target.GOARCH || s["GOARM"] != b.Target.GOARM {
			t.Errorf("robot-%s.mk builds %s/%s GOARM=%q, board %q says %s/%s GOARM=%q",
				m, s["GOOS"], s["GOARCH"], s["GOARM"], b.Name, b.Target.GOOS, b.Target.GOARCH, b.Target.GOARM)
		}
		if s["QEMU"] != b.Target.QEMU {
			t.Errorf("robot-%s.mk runs under %q, board %q says %q", m, s["QEMU"], b.Name, b.Target.QEMU)
		}
		if _, err := os.Stat(filepath.Join("..", s["EXP"])); err != nil {
			t.Errorf("robot-%s.mk: experiment %v", m, err)
		}
	}
	// ROBOTS.md: ARMv6 for the foot-bot, eye-bot and Pi Zero W; ARMv7 for
	// the Gumstix; arm64 for the Pi Zero 2 W.
	for m, want := range map[string]string{"footbot": "arm6", "eyebot": "arm6", "pipuck": "arm6", "epuck": "arm7", "pipuck2": "arm64"} {
		s := mk(t, m)
		if got := s["GOARCH"] + s["GOARM"]; got != want {
			t.Errorf("%s builds for %s, want %s", m, got, want)
		}
	}
}

// makeRobot runs make robot-<model> with extra variables into a fresh
// build directory and returns the bundle's directory and make's output.
func makeRobot(t *testing.T, model string, vars ...string) (string, string) {
	t.Helper()
	build := t.TempDir()
	args := append([]string{"--no-print-directory", "-C", "..", "robot-" + model, "BUILD=" + build}, vars...)
	out, err := exec.Command("make", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("make robot-%s: %v\n%s", model, err, out)
	}
	return filepath.Join(build, "robot-"+model), string(out)
}

func TestBundle(t *testing.T) {
	dir, out := makeRobot(t, "epuck", "ROBOT=")
	if !strings.Contains(out, "bundle ready in "+dir) {
		t.Errorf("make did not say where the bundle is:\n%s", out)
	}
	for _, f := range []string{"argos-robot", "experiment.argos", "argos-robot.service", "install.sh"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	bin := filepath.Join(dir, "argos-robot")
	e, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	if e.Machine != elf.EM_ARM || e.Class != elf.ELFCLASS32 {
		t.Errorf("argos-robot is %v %v, want a 32-bit ARM binary", e.Machine, e.Class)
	}
	e.Close()
	bi, err := buildinfo.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if settings["GOARM"] != "7" || settings["CGO_ENABLED"] != "0" || settings["GOOS"] != "linux" {
		t.Errorf("build settings %v, want GOOS=linux GOARM=7 CGO_ENABLED=0", settings)
	}
	unit, _ := os.ReadFile(filepath.Join(dir, "argos-robot.service"))
	if !strings.Contains(string(unit), "ExecStart=/opt/argos-robot/argos-robot -c /opt/argos-robot/experiment.argos -i edc -b epuck") {
		t.Errorf("service unit:\n%s", unit)
	}
	for _, dep := range bi.Deps {
		if strings.Contains(dep.Path, "jakecoffman/cp") {
			t.Errorf("the robot binary links %s", dep.Path)
		}
	}
}

func TestDeploy(t *testing.T) {
	log := filepath.Join(t.TempDir(), "calls")
	fake := func(name string) string {
		p := filepath.Join(t.TempDir(), name)
		script := "#!/bin/sh\necho " + name + " \"$@\" >> " + log + "\n"
		if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dir, out := makeRobot(t, "footbot", "ROBOT=root@footbot-12", "SSH="+fake("ssh"), "SCP="+fake("scp"), "REMOTE_DIR=/opt/fb")
	calls, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("no ssh or scp call: %v\n%s", err, out)
	}
	want := []string{
		"ssh root@footbot-12 mkdir -p '/opt/fb'",
		"scp " + dir + "/argos-robot " + dir + "/experiment.argos " + dir + "/argos-robot.service " + dir + "/install.sh root@footbot-12:/opt/fb/",
		"ssh root@footbot-12 sudo sh '/opt/fb/install.sh' '/opt/fb'",
	}
	if got := strings.Split(strings.TrimSpace(string(calls)), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("deploy ran\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	unit, _ := os.ReadFile(filepath.Join(dir, "argos-robot.service"))
	if !strings.Contains(string(unit), "ExecStart=/opt/fb/argos-robot -c /opt/fb/experiment.argos -i fdc -b footbot") {
		t.Errorf("service unit:\n%s", unit)
	}
}

func TestChosenControllers(t *testing.T) {
	dir, _ := makeRobot(t, "pipuck2", "ROBOT=", "CONTROLLERS=diffusion")
	e, err := elf.Open(filepath.Join(dir, "argos-robot"))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Machine != elf.EM_AARCH64 {
		t.Errorf("pipuck2 binary is %v, want arm64", e.Machine)
	}
	if _, err := os.Stat(filepath.Join(dir, "overlay.json")); err == nil {
		t.Error("the overlay was left in the bundle")
	}
	qemu, err := exec.LookPath("qemu-aarch64-static")
	if err != nil {
		if os.Getenv("ARGOS_CI") == "1" {
			t.Fatal("qemu-aarch64-static is missing (ARGOS_CI=1)")
		}
		t.Skip("qemu-aarch64-static is not installed: scripts/ci-setup.sh installs it")
	}
	out, err := exec.Command(qemu, filepath.Join(dir, "argos-robot"), "-q", "controllers").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "epuck_diffusion_controller") {
		t.Errorf("the arm64 binary under qemu: %v\n%s", err, out)
	}
}
