package toolchains_test

import (
	"context"
	"debug/buildinfo"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/toolchains"
)

// root is the repository's root: the module the tests build from.
func root(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..")
}

func board(t *testing.T, name string) boards.Board {
	t.Helper()
	b, err := boards.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// build builds a bundle of the repository's cmd/robot.
func build(t *testing.T, model, exp, id, out string) error {
	t.Helper()
	return toolchains.Build(context.Background(), toolchains.Bundle{Board: board(t, model), Dir: root(t),
		Experiment: filepath.Join(root(t), "toolchains", "experiments", exp), ControllerID: id, Out: out})
}

// The ARM targets follow the robots' CPUs: ARMv6 for the foot-bot, the
// eye-bot and the Pi Zero W; ARMv7 for the Gumstix; arm64 for the Pi
// Zero 2 W.
func TestTargets(t *testing.T) {
	for m, want := range map[string]string{"footbot": "arm6", "eyebot": "arm6", "pipuck": "arm6", "epuck": "arm7", "pipuck2": "arm64"} {
		b := board(t, m)
		if got := b.Target.GOARCH + b.Target.GOARM; got != want || b.Target.GOOS != "linux" || b.Target.QEMU == "" {
			t.Errorf("%s builds for %s/%s (qemu %q), want linux/%s", m, b.Target.GOOS, got, b.Target.QEMU, want)
		}
	}
	env := toolchains.Env([]string{"GOARM=5", "HOME=/root", "CGO_ENABLED=1"}, board(t, "pipuck2"))
	joined := strings.Join(env, " ")
	if strings.Contains(joined, "GOARM") || !strings.Contains(joined, "CGO_ENABLED=0") || strings.Contains(joined, "CGO_ENABLED=1") ||
		!strings.Contains(joined, "GOARCH=arm64") || !strings.Contains(joined, "HOME=/root") {
		t.Errorf("the arm64 environment: %v", env)
	}
}

func TestBundle(t *testing.T) {
	out := filepath.Join(t.TempDir(), "robot-epuck")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "stale"), []byte("from an earlier build"), 0o644)
	if err := build(t, "epuck", "epuck.argos", "edc", out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "stale")); err == nil {
		t.Error("the old bundle's files are still there")
	}
	for _, f := range []string{toolchains.BinaryFile, toolchains.ExperimentFile, toolchains.UnitFile, toolchains.InstallFile} {
		st, err := os.Stat(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		if exec := st.Mode()&0o111 != 0; exec != (f == toolchains.BinaryFile || f == toolchains.InstallFile) {
			t.Errorf("%s has mode %v", f, st.Mode())
		}
	}
	bin := filepath.Join(out, toolchains.BinaryFile)
	e, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	if e.Machine != elf.EM_ARM || e.Class != elf.ELFCLASS32 {
		t.Errorf("argos-robot is %v %v, want a 32-bit ARM binary", e.Machine, e.Class)
	}
	if e.Section(".symtab") != nil {
		t.Error("the binary is not stripped")
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
	if settings["GOARM"] != "7" || settings["CGO_ENABLED"] != "0" || settings["GOOS"] != "linux" || settings["-trimpath"] != "true" {
		t.Errorf("build settings %v, want GOOS=linux GOARM=7 CGO_ENABLED=0 -trimpath", settings)
	}
	for _, dep := range bi.Deps {
		for _, f := range toolchains.Forbidden {
			if strings.HasPrefix(dep.Path, f) {
				t.Errorf("the robot binary links %s", dep.Path)
			}
		}
	}
	unit, _ := os.ReadFile(filepath.Join(out, toolchains.UnitFile))
	if !strings.Contains(string(unit), "ExecStart=/opt/argos-robot/argos-robot -c /opt/argos-robot/experiment.argos -i edc -b epuck") {
		t.Errorf("service unit:\n%s", unit)
	}
	exp, _ := os.ReadFile(filepath.Join(out, toolchains.ExperimentFile))
	if !strings.Contains(string(exp), `<epuck_diffusion_controller id="edc">`) {
		t.Error("the bundle's experiment is not the one asked for")
	}
}

// A failed build leaves nothing behind: neither the folders it made nor
// its temporary files; an existing bundle stays as it was.
func TestFailedBuildLeavesNothing(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "new", "build")
	c := toolchains.Bundle{Board: board(t, "footbot"), Dir: root(t), Package: "./no/such/package",
		Experiment: filepath.Join(root(t), "toolchains", "experiments", "footbot.argos"), ControllerID: "fdc",
		Out: filepath.Join(parent, "robot-footbot")}
	if err := toolchains.Build(context.Background(), c); err == nil {
		t.Fatal("a missing package built")
	}
	if _, err := os.Stat(filepath.Dir(parent)); err == nil {
		t.Errorf("%s was left behind", filepath.Dir(parent))
	}
	// An existing bundle survives a failed rebuild.
	out := filepath.Join(t.TempDir(), "robot-footbot")
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, toolchains.BinaryFile), []byte("old"), 0o755)
	c.Out = out
	c.Package = "./cmd/argos" // links the simulator: refused
	err := toolchains.Build(context.Background(), c)
	if err == nil || !strings.Contains(err.Error(), "github.com/argosgo/argos/simulator") {
		t.Fatalf("building cmd/argos as a robot binary: %v; want it refused for linking the simulator", err)
	}
	if b, _ := os.ReadFile(filepath.Join(out, toolchains.BinaryFile)); string(b) != "old" {
		t.Error("the old bundle was replaced by a failed build")
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("the failed build left %d entries next to the bundle", len(entries))
	}
	c.Experiment = "/no/such.argos"
	if err := toolchains.Build(context.Background(), c); err == nil || !strings.Contains(err.Error(), "such.argos") {
		t.Errorf("a missing experiment: %v", err)
	}
}

// fakeHost makes ssh and scp stand-ins that run on this machine: scp
// copies into the "remote" folder, ssh runs the command with fake id,
// sudo and systemctl, and each call is logged.
type fakeHost struct {
	dir, log, remote, units string
}

func newFakeHost(t *testing.T, uid int) *fakeHost {
	t.Helper()
	h := &fakeHost{dir: t.TempDir()}
	h.log = filepath.Join(h.dir, "calls")
	h.remote = filepath.Join(h.dir, "opt", "fb")
	h.units = filepath.Join(h.dir, "units")
	os.MkdirAll(h.units, 0o755)
	bin := filepath.Join(h.dir, "bin")
	os.MkdirAll(bin, 0o755)
	scripts := map[string]string{
		// ssh [-o X]... HOST COMMAND
		"ssh": `echo "ssh $*" >> ` + h.log + `
while [ "$1" = -o ]; do shift 2; done
shift
PATH=` + bin + `:$PATH ARGOS_UNIT_DIR=` + h.units + ` sh -c "$1"`,
		// scp [-o X]... FILES... HOST:DIR/
		"scp": `echo "scp $*" >> ` + h.log + `
while [ "$1" = -o ]; do shift 2; done
for last; do :; done
dest=${last#*:}
while [ $# -gt 1 ]; do cp "$1" "$dest"; shift; done`,
		"id":        `echo ` + strconv.Itoa(uid),
		"sudo":      `echo "sudo $*" >> ` + h.log + `; "$@"`,
		"systemctl": `echo "systemctl $*" >> ` + h.log,
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h *fakeHost) calls(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(h.log)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// footbotBundle builds the foot-bot bundle for a remote folder.
func footbotBundle(t *testing.T, remote string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "robot-footbot")
	err := toolchains.Build(context.Background(), toolchains.Bundle{Board: board(t, "footbot"), Dir: root(t),
		Experiment: filepath.Join(root(t), "toolchains", "experiments", "footbot.argos"), ControllerID: "fdc", Out: dir, RemoteDir: remote})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDeploy(t *testing.T) {
	for _, tc := range []struct {
		name string
		uid  int
		sudo bool
	}{{"as root", 0, false}, {"as a user", 1000, true}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newFakeHost(t, tc.uid)
			os.MkdirAll(h.remote, 0o755)
			dir := footbotBundle(t, h.remote)
			d := toolchains.Deploy{Host: "root@footbot-12", RemoteDir: h.remote,
				SSH: []string{filepath.Join(h.dir, "bin", "ssh")}, SCP: []string{filepath.Join(h.dir, "bin", "scp")}}
			if err := toolchains.DeployBundle(context.Background(), dir, d); err != nil {
				t.Fatal(err)
			}
			calls := strings.Join(h.calls(t), "\n")
			for _, want := range []string{
				"ssh -o ConnectTimeout=10 root@footbot-12 mkdir -p '" + h.remote + "'",
				"scp -o ConnectTimeout=10 " + dir + "/argos-robot " + dir + "/experiment.argos " + dir + "/argos-robot.service " + dir + "/install.sh root@footbot-12:" + h.remote + "/",
				"systemctl restart argos-robot.service",
			} {
				if !strings.Contains(calls, want) {
					t.Errorf("no %q in the calls:\n%s", want, calls)
				}
			}
			if got := strings.Contains(calls, "\nsudo sh"); got != tc.sudo {
				t.Errorf("sudo used: %v, want %v:\n%s", got, tc.sudo, calls)
			}
			unit, err := os.ReadFile(filepath.Join(h.units, toolchains.UnitFile))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(unit), "ExecStart="+h.remote+"/argos-robot -c "+h.remote+"/experiment.argos -i fdc -b footbot") {
				t.Errorf("installed unit:\n%s", unit)
			}
			if st, err := os.Stat(filepath.Join(h.remote, toolchains.BinaryFile)); err != nil || st.Mode()&0o100 == 0 {
				t.Errorf("the binary on the robot: %v", err)
			}
		})
	}
}

func TestDeployFailures(t *testing.T) {
	h := newFakeHost(t, 0)
	dir := footbotBundle(t, h.remote)
	failing := filepath.Join(h.dir, "bin", "ssh-unreachable")
	os.WriteFile(failing, []byte("#!/bin/sh\necho 'ssh: connect to host footbot-12 port 22: Connection timed out' >&2\nexit 255\n"), 0o755)
	err := toolchains.DeployBundle(context.Background(), dir, toolchains.Deploy{Host: "root@footbot-12", SSH: []string{failing}, ConnectTimeout: 3})
	if err == nil || !strings.Contains(err.Error(), "Connection timed out") || !strings.Contains(err.Error(), "making /opt/argos-robot") {
		t.Errorf("an unreachable robot: %v", err)
	}
	if err := toolchains.DeployBundle(context.Background(), t.TempDir(), toolchains.Deploy{Host: "root@x"}); err == nil || !strings.Contains(err.Error(), "not a complete bundle") {
		t.Errorf("an empty folder: %v", err)
	}
	if err := toolchains.DeployBundle(context.Background(), dir, toolchains.Deploy{Host: "-oProxyCommand=x"}); err == nil {
		t.Error("a host that is an ssh option was accepted")
	}
}

// The make targets of the repository go through argos robot build.
func TestMakeTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds argos")
	}
	build := t.TempDir()
	cmd := exec.Command("make", "--no-print-directory", "-C", root(t), "robot-pipuck2", "BUILD="+build, "ROBOT=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make robot-pipuck2: %v\n%s", err, out)
	}
	dir := filepath.Join(build, "robot-pipuck2")
	if !strings.Contains(string(out), "bundle ready in "+dir) {
		t.Errorf("make did not say where the bundle is:\n%s", out)
	}
	bin := filepath.Join(dir, toolchains.BinaryFile)
	e, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Machine != elf.EM_AARCH64 {
		t.Errorf("pipuck2 binary is %v, want arm64", e.Machine)
	}
	qemu, err := exec.LookPath("qemu-aarch64-static")
	if err != nil {
		if os.Getenv("ARGOS_CI") == "1" {
			t.Fatal("qemu-aarch64-static is missing (ARGOS_CI=1)")
		}
		t.Skip("qemu-aarch64-static is not installed: scripts/ci-setup.sh installs it")
	}
	out, err = exec.Command(qemu, bin, "-q", "controllers").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "epuck_diffusion_controller") {
		t.Errorf("the arm64 binary under qemu: %v\n%s", err, out)
	}
	// The build's board is the binary's default.
	out, err = exec.Command(qemu, bin, "-q", "boards").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "* pipuck2 ") {
		t.Errorf("the arm64 binary's default board is not pipuck2: %v\n%s", err, out)
	}
}
