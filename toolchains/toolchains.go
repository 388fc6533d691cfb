// Package toolchains cross-compiles a robot binary for a robot model,
// bundles it for deployment and deploys it over ssh, from any Go module
// that has a robot main (a cmd/robot whose main calls robotcli.Main).
// argos robot build|deploy|check and the robot-<model> make targets call
// it.
//
// A bundle is a folder with:
//
//	argos-robot          the static, stripped binary for the board's CPU
//	                     (GOOS/GOARCH/GOARM of boards.Board.Target,
//	                     CGO_ENABLED=0), with the board as its default -b
//	experiment.argos     the experiment whose controller entry it runs
//	argos-robot.service  the systemd unit that runs it
//	install.sh           run on the robot: installs and restarts the unit
//
// The directory also holds the bundles' default experiments
// (experiments/<model>.argos) used by this repository's make targets.
package toolchains

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/argosgo/argos/boards"
)

// Files of a bundle.
const (
	BinaryFile     = "argos-robot"
	ExperimentFile = "experiment.argos"
	UnitFile       = "argos-robot.service"
	InstallFile    = "install.sh"
)

// DefaultRemoteDir is where bundles go on the robot.
const DefaultRemoteDir = "/opt/argos-robot"

// defaultBoardSymbol is the robot runtime's linker symbol for its default
// board (package robotcli).
const defaultBoardSymbol = "github.com/argosgo/argos/robotcli.defaultBoard"

//go:embed argos-robot.service.in
var unitTemplate string

//go:embed install.sh
var installScript []byte

// Bundle says what to build.
type Bundle struct {
	// Board is the robot's board (boards.Lookup of the model).
	Board boards.Board
	// Dir is the module directory go build runs in ("" for the working
	// directory) and Package the robot main in it ("./cmd/robot" when
	// empty).
	Dir, Package string
	// Experiment is the experiment file to ship and ControllerID the
	// controller entry the service runs.
	Experiment, ControllerID string
	// Out is the bundle's folder; it is replaced only when the build
	// succeeds.
	Out string
	// RemoteDir is where the bundle goes on the robot (DefaultRemoteDir
	// when empty); the unit's paths point there.
	RemoteDir string
	// Go is the go command ("go" when empty).
	Go string
	// Log receives the commands run and go's output (nil: discarded).
	Log io.Writer
}

// Forbidden are the packages a robot binary must not link: the
// simulator, the emulator and the 2D physics library.
var Forbidden = []string{"github.com/argosgo/argos/simulator", "github.com/argosgo/argos/emulator", "github.com/jakecoffman/cp"}

// Env returns the environment of a cross-compilation for board b: env
// with GOOS, GOARCH, GOARM (removed when the board has none) and
// CGO_ENABLED=0.
func Env(env []string, b boards.Board) []string {
	out := slices.DeleteFunc(slices.Clone(env), func(kv string) bool {
		for _, k := range []string{"GOOS=", "GOARCH=", "GOARM=", "CGO_ENABLED="} {
			if strings.HasPrefix(kv, k) {
				return true
			}
		}
		return false
	})
	out = append(out, "CGO_ENABLED=0", "GOOS="+b.Target.GOOS, "GOARCH="+b.Target.GOARCH)
	if b.Target.GOARM != "" {
		out = append(out, "GOARM="+b.Target.GOARM)
	}
	return out
}

func (c *Bundle) defaults() {
	if c.Package == "" {
		c.Package = "./cmd/robot"
	}
	if c.RemoteDir == "" {
		c.RemoteDir = DefaultRemoteDir
	}
	if c.Go == "" {
		c.Go = "go"
	}
	if c.Log == nil {
		c.Log = io.Discard
	}
}

// Build builds the bundle into c.Out. The new bundle is made in a
// temporary folder next to c.Out and moved there when complete: a failed
// build leaves c.Out as it was and no other file behind.
func Build(ctx context.Context, c Bundle) (err error) {
	c.defaults()
	b := c.Board
	if b.Target.GOOS == "" || b.Target.GOARCH == "" {
		return fmt.Errorf("toolchains: board %q has no build target", b.Name)
	}
	if c.Experiment == "" || c.ControllerID == "" {
		return errors.New("toolchains: a bundle needs an experiment file and the id of its controller entry")
	}
	exp, err := os.ReadFile(c.Experiment)
	if err != nil {
		return fmt.Errorf("toolchains: %w", err)
	}
	if err := c.checkDeps(ctx); err != nil {
		return err
	}
	parent := filepath.Dir(filepath.Clean(c.Out))
	made, err := mkdirAll(parent)
	if err != nil {
		return fmt.Errorf("toolchains: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(c.Out)+".build-")
	if err != nil {
		return fmt.Errorf("toolchains: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
			for i := len(made) - 1; i >= 0; i-- {
				os.Remove(made[i]) // only if still empty
			}
		}
	}()
	bin, err := filepath.Abs(filepath.Join(tmp, BinaryFile))
	if err != nil {
		return err
	}
	args := []string{"build", "-trimpath", "-ldflags", "-s -w -X " + defaultBoardSymbol + "=" + b.Name, "-o", bin, c.Package}
	target := b.Target.GOOS + "/" + b.Target.GOARCH
	if b.Target.GOARM != "" {
		target += " GOARM=" + b.Target.GOARM
	}
	fmt.Fprintf(c.Log, "building %s for %s (%s, CGO_ENABLED=0), board %s\n", c.Package, b.Model, target, b.Name)
	if err := c.goCmd(ctx, args...); err != nil {
		return fmt.Errorf("toolchains: building the robot binary for %s: %w", b.Name, err)
	}
	unit := strings.NewReplacer("@MODEL@", b.Name, "@ID@", c.ControllerID, "@BOARD@", b.Name, "@DIR@", c.RemoteDir).Replace(unitTemplate)
	for name, data := range map[string][]byte{ExperimentFile: exp, UnitFile: []byte(unit), InstallFile: installScript} {
		mode := os.FileMode(0o644)
		if name == InstallFile {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(tmp, name), data, mode); err != nil {
			return fmt.Errorf("toolchains: %w", err)
		}
	}
	if err := os.RemoveAll(c.Out); err != nil {
		return fmt.Errorf("toolchains: replacing %s: %w", c.Out, err)
	}
	if err := os.Rename(tmp, c.Out); err != nil {
		return fmt.Errorf("toolchains: %w", err)
	}
	return nil
}

// checkDeps refuses a robot main that links simulator code.
func (c *Bundle) checkDeps(ctx context.Context) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, c.Go, "list", "-deps", c.Package)
	cmd.Dir, cmd.Env, cmd.Stdout = c.Dir, Env(os.Environ(), c.Board), &out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("toolchains: go list -deps %s: %v\n%s", c.Package, err, strings.TrimSpace(stderr.String()))
	}
	var bad []string
	for _, p := range strings.Fields(out.String()) {
		for _, f := range Forbidden {
			if p == f || strings.HasPrefix(p, f+"/") {
				bad = append(bad, p)
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("toolchains: %s links simulator code, which a robot binary must not: %s; import only controllers (and robotcli) from the robot main, never loop functions or the simulator",
			c.Package, strings.Join(bad, ", "))
	}
	return nil
}

func (c *Bundle) goCmd(ctx context.Context, args ...string) error {
	cmd := exec.CommandContext(ctx, c.Go, args...)
	cmd.Dir, cmd.Env = c.Dir, Env(os.Environ(), c.Board)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(c.Log, &out), io.MultiWriter(c.Log, &out)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", c.Go, strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return nil
}

// mkdirAll is os.MkdirAll that returns the folders it created, outermost
// first.
func mkdirAll(dir string) ([]string, error) {
	var made []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = append([]string{d}, made...)
		if filepath.Dir(d) == d {
			break
		}
	}
	return made, os.MkdirAll(dir, 0o755)
}

// Deploy says where and how to copy a bundle.
type Deploy struct {
	// Host is the robot, [user@]host.
	Host string
	// RemoteDir is where the bundle goes (DefaultRemoteDir when empty).
	// It must be the folder the bundle was built for.
	RemoteDir string
	// SSH and SCP are the commands with their own options (["ssh"] and
	// ["scp"] when empty); ConnectTimeout seconds are added to both (10
	// when 0).
	SSH, SCP       []string
	ConnectTimeout int
	// Log receives the commands run and their output (nil: discarded).
	Log io.Writer
}

// DeployBundle copies the bundle in dir to the robot and runs its
// install script there: as is when the login is root, with sudo
// otherwise.
func DeployBundle(ctx context.Context, dir string, d Deploy) error {
	if d.Host == "" || strings.HasPrefix(d.Host, "-") {
		return fmt.Errorf("toolchains: deploy to %q: give the robot as user@host", d.Host)
	}
	if d.RemoteDir == "" {
		d.RemoteDir = DefaultRemoteDir
	}
	if d.ConnectTimeout <= 0 {
		d.ConnectTimeout = 10
	}
	if len(d.SSH) == 0 {
		d.SSH = []string{"ssh"}
	}
	if len(d.SCP) == 0 {
		d.SCP = []string{"scp"}
	}
	if d.Log == nil {
		d.Log = io.Discard
	}
	files := []string{BinaryFile, ExperimentFile, UnitFile, InstallFile}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return fmt.Errorf("toolchains: %s is not a complete bundle: %w", dir, err)
		}
	}
	timeout := []string{"-o", fmt.Sprintf("ConnectTimeout=%d", d.ConnectTimeout)}
	q := shellQuote(d.RemoteDir)
	ssh := func(remote string) []string {
		return append(append(slices.Clone(d.SSH), timeout...), d.Host, remote)
	}
	scp := append(slices.Clone(d.SCP), timeout...)
	for _, f := range files {
		scp = append(scp, filepath.Join(dir, f))
	}
	scp = append(scp, d.Host+":"+d.RemoteDir+"/")
	install := "sh " + q + "/" + InstallFile + " " + q
	steps := []struct {
		what string
		cmd  []string
	}{
		{"making " + d.RemoteDir, ssh("mkdir -p " + q)},
		{"copying the bundle", scp},
		{"installing the service", ssh(`if [ "$(id -u)" -eq 0 ]; then ` + install + `; else sudo ` + install + `; fi`)},
	}
	for _, s := range steps {
		fmt.Fprintf(d.Log, "%s: %s\n", s.what, strings.Join(s.cmd, " "))
		cmd := exec.CommandContext(ctx, s.cmd[0], s.cmd[1:]...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.MultiWriter(d.Log, &out), io.MultiWriter(d.Log, &out)
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("toolchains: deploying to %s: %s failed: %v\n%s", d.Host, s.what, err, strings.TrimSpace(out.String()))
		}
	}
	return nil
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
