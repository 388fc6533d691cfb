package hil_test

import (
	"bytes"
	"context"
	"math"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/emulator/hil"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/remote"
	"github.com/argosgo/argos/toolchains"

	_ "github.com/argosgo/argos/controllers/epuck_obstacleavoidance"
)

// TestMixedRealAndSimulated is issue 14's mixed experiment with the
// emulator in place of the hardware: the ARM robot binary, under qemu,
// drives an emulated e-puck (its "real world", testdata/mixed_reality.argos,
// has nothing in its way) and is attached to a simulation
// (testdata/mixed.argos) where the same robot is marked real="true" and a
// simulated e-puck stands in its way. A tracking bridge streams the
// emulated robot's pose to the simulation; the binary merges its real
// proximity readings with the virtual ones (epuck_proximity:max). The
// robot must turn away from the robot that exists only in the
// simulation.
func TestMixedRealAndSimulated(t *testing.T) {
	needQEMU(t, "qemu-arm-static")
	b, err := boards.Lookup("epuck")
	if err != nil {
		t.Fatal(err)
	}
	runner, err := hil.Runner(b)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(buildBundle(t, "epuck"), toolchains.BinaryFile)
	const token = "mixed-test-token"
	t.Setenv(remote.TokenEnv, token)

	reality, err := config.Load("testdata/mixed_reality.argos")
	if err != nil {
		t.Fatal(err)
	}
	emu, err := hil.Start(reality, "ep0", b, hil.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()

	file, err := filepath.Abs("testdata/mixed.argos")
	if err != nil {
		t.Fatal(err)
	}
	exp, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	srv, err := entity.Medium[*remote.Server](sim.World(), "link")
	if err != nil {
		t.Fatal(err)
	}
	gi, _ := sim.Body("ghost")
	ghost := sim.Space().Bodies[gi].Pos

	var wg sync.WaitGroup
	stop := make(chan struct{})
	defer func() {
		close(stop)
		wg.Wait()
	}()
	// The tracking bridge: the emulated robot's pose, 50 times a second.
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := net.Dial("udp", srv.PoseAddr())
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		var buf []byte
		for seq := uint64(1); ; seq++ {
			p := emu.Robot().Sense().Pose
			buf = remote.AppendPose(buf[:0], remote.Pose{Token: token, ID: "ep0", Seq: seq, X: p.X, Y: p.Y, Yaw: p.Yaw})
			c.Write(buf)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	// The simulation: in lockstep with the attached binary once it is
	// there (each Step then waits for its answer).
	simErr := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				simErr <- nil
				return
			default:
			}
			if err := sim.Step(); err != nil {
				simErr <- err
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()

	args := append(append(runner, bin, "-c", file, "-i", "eoa", "-b", b.Name, "-sim-addr", srv.Addr(), "-ticks", "80", "-stats"), emu.Args...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	runErr := cmd.Run()
	t.Logf("%s ran %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	select {
	case err := <-simErr:
		t.Fatalf("the simulation stopped: %v\n%s", err, out.String())
	default:
	}
	if runErr != nil {
		t.Fatalf("the robot binary: %v\n%s", runErr, out.String())
	}
	traj := emu.Robot().Trajectory()
	if len(traj) < 2 {
		t.Fatalf("no trajectory:\n%s", out.String())
	}
	first := traj[0]
	closest, turned, moved := math.Inf(1), 0.0, 0.0
	for _, p := range traj {
		closest = min(closest, math.Hypot(p.X-ghost.X, p.Y-ghost.Y))
		turned = max(turned, math.Abs(angle(p.Yaw-first.Yaw)))
		moved = max(moved, math.Hypot(p.X-first.X, p.Y-first.Y))
	}
	last := traj[len(traj)-1]
	t.Logf("robot from (%.3f, %.3f, %.0f°) to (%.3f, %.3f, %.0f°): moved %.3f m, turned %.0f°, closest to the ghost at (%.2f, %.2f): %.3f m",
		first.X, first.Y, first.Yaw*180/math.Pi, last.X, last.Y, last.Yaw*180/math.Pi, moved, turned*180/math.Pi, ghost.X, ghost.Y, closest)
	if moved < 0.01 {
		t.Errorf("the robot did not drive (%.3f m):\n%s", moved, out.String())
	}
	if turned < math.Pi/6 {
		t.Errorf("the robot turned %.0f°; it must turn away from the simulated robot ahead (nothing is ahead in its own world):\n%s", turned*180/math.Pi, out.String())
	}
	// Two e-pucks touch at 0.07 m; the short-range sensors see the ghost
	// late, so the robot may graze it, but one that ignored it would
	// drive through its centre.
	if closest < 0.05 {
		t.Errorf("the robot came %.3f m from the simulated robot's centre: it drove into it", closest)
	}
}

// angle brings a into (-pi, pi].
func angle(a float64) float64 {
	for a > math.Pi {
		a -= 2 * math.Pi
	}
	for a <= -math.Pi {
		a += 2 * math.Pi
	}
	return a
}
