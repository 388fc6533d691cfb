package epuck_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/controllers/diffusion"
	"github.com/argosgo/argos/emulator"
	"github.com/argosgo/argos/emulator/emulatortest"
	emu "github.com/argosgo/argos/emulator/epuck"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/epuck"
	"github.com/argosgo/argos/realrobot/realrobottest"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"

	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

const wallX = 0.25 // the front face of wall_front in testdata/wall.argos

func loadWall(t *testing.T) *config.Experiment {
	t.Helper()
	exp, err := config.Load("testdata/wall.argos")
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// startSim runs testdata/wall.argos in real time with ep0 emulated.
func startSim(t *testing.T) (*emulator.Sim, *emulator.Robot) {
	t.Helper()
	sim, err := emulator.NewSim(loadWall(t), []string{"ep0"}, []emulator.Options{{Ground: []ci.Vector2{{X: 0.03}}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sim.Start()
	t.Cleanup(func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	})
	return sim, sim.Robot("ep0")
}

// runDiffusion runs the diffusion controller of wall.argos on drv for the
// given time.
func runDiffusion(t *testing.T, drv realrobot.Driver, d time.Duration, log logrus.FieldLogger) error {
	t.Helper()
	exp := loadWall(t)
	c := exp.FindController("edc")
	rt, err := realrobot.New(drv, realrobot.Spec{Label: c.Label, ID: c.ID, Controller: diffusion.New(), Params: c.Params,
		Devices: realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}, Actuators: []string{ci.TagDifferentialSteering}}},
		realrobot.Options{TicksPerSecond: exp.Framework.TicksPerSecond, Logger: log})
	if err != nil {
		drv.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return errors.Join(rt.Run(ctx), rt.Close())
}

func TestSerComClosedLoop(t *testing.T) {
	_, robot := startSim(t)
	b, _ := boards.Lookup("epuck")
	fw := emu.NewFirmware(robot, b)
	pty, err := emu.ServePTY(fw, "")
	if err != nil {
		t.Fatal(err)
	}
	defer pty.Close()
	b.Serial.Port = pty.Path()
	drv, err := epuck.OpenSerCom(b, realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}, Actuators: []string{ci.TagDifferentialSteering}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := runDiffusion(t, drv, 5*time.Second, nil); err != nil {
		t.Fatal(err)
	}
	traj := robot.Trajectory()
	t.Log(emulator.Summary(traj))
	if err := emulatortest.AvoidsWall(traj, wallX, 0.035, 0.1); err != nil {
		t.Error(err)
	}
	if l, r := fw.Speed(); l != 0 || r != 0 {
		t.Errorf("the motors run at %d, %d steps/s after the run", l, r)
	}
}

func TestI2CClosedLoop(t *testing.T) {
	_, robot := startSim(t)
	b, _ := boards.Lookup("pipuck")
	fw := emu.NewFirmware(robot, b)
	bus := emu.NewBus(fw, "emulated-epuck2-closed-loop")
	unregister, err := emu.RegisterBus(bus)
	if err != nil {
		t.Fatal(err)
	}
	defer unregister()
	b.I2C.Bus, b.I2C.Fallback = bus.String(), nil
	exp := loadWall(t)
	c := exp.FindController("edc")
	c.Sensors = append(c.Sensors, config.Device{Tag: ci.TagEPuckGround, Node: c.Node}, config.Device{Tag: boards.TagToF, Node: c.Node},
		config.Device{Tag: boards.TagIMU, Node: c.Node})
	// The full path of the robot command: the registry, the board, the
	// bus by name.
	rt, err := realrobot.Open(b, c, realrobot.Options{TicksPerSecond: 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	runErr := rt.Run(ctx)
	tof, _ := rt.Robot().Sensor(boards.TagToF)
	ground, _ := rt.Robot().Sensor(ci.TagEPuckGround)
	if err := errors.Join(runErr, rt.Close()); err != nil {
		t.Fatal(err)
	}
	traj := robot.Trajectory()
	t.Log(emulator.Summary(traj))
	if err := emulatortest.AvoidsWall(traj, wallX, 0.035, 0.1); err != nil {
		t.Error(err)
	}
	if d := tof.(ci.DistanceScannerSensor).Readings()[0].Distance; d <= 0 || d > 200 {
		t.Errorf("ToF reads %v cm; the arena's walls are within 2 m", d)
	}
	if g := ground.(ci.Ground).Readings(); g[1].Value != 1 {
		t.Errorf("ground %v: the floor is white", g)
	}
	if bus.Frames() < 50 {
		t.Errorf("%d frames in 5 s at 20 Hz", bus.Frames())
	}
}

// constant is a controller that drives at 5 cm/s.
type constant struct {
	w ci.DifferentialSteeringActuator
}

func (c *constant) Init(r ci.Robot, _ ci.Params) (err error) {
	c.w, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	return err
}
func (c *constant) ControlStep()   { c.w.SetLinearVelocity(5, 5) }
func (c *constant) Reset()         {}
func (c *constant) Destroy() error { return nil }

// faultHz is the tick rate of the fault tests: 10 Hz, the rate of the
// shipped experiments, leaves room for one retry within a tick.
const faultHz = 10

// faultRun runs the constant controller at faultHz on drv; after tick
// faultAt, inject is called (once). It returns the run's error, the
// time of the fault and the log.
func faultRun(t *testing.T, drv realrobot.Driver, ticks, faultAt, maxFailures int, inject func()) (error, time.Time, *test.Hook) {
	t.Helper()
	log, hook := test.NewNullLogger()
	log.SetLevel(logrus.DebugLevel)
	var at atomic.Value
	rt, err := realrobot.New(drv, realrobot.Spec{Controller: &constant{}, Devices: realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}},
		realrobot.Options{TicksPerSecond: faultHz, Ticks: ticks, Logger: log, MaxFailures: maxFailures, OnTick: func(s realrobot.TickStats) {
			if s.N == faultAt {
				at.Store(time.Now())
				inject()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	runErr := rt.Run(context.Background())
	if err := rt.Close(); err != nil && runErr == nil {
		runErr = err
	}
	fault, ok := at.Load().(time.Time)
	if !ok {
		t.Fatalf("the run ended before tick %d, where the fault was to be injected: %v", faultAt, runErr)
	}
	return runErr, fault, hook
}

// stoppedAfter checks that a (0, 0) command reached the firmware within
// one tick of the first tick that met the fault (which starts at most one
// period after the fault was injected between two ticks), and returns its
// index.
func stoppedAfter(t *testing.T, fw *emu.Firmware, fault time.Time) int {
	t.Helper()
	for i, c := range fw.Commands() {
		if c.At.Before(fault) || c.Left != 0 || c.Right != 0 {
			continue
		}
		const period = time.Second / faultHz
		// A period of slack: timers fire late on a loaded machine.
		if d := c.At.Sub(fault); d > 3*period {
			t.Errorf("motors stopped %v after the fault, more than one tick after the tick that met it (%v)", d, 2*period)
		}
		return i
	}
	t.Fatalf("the motors were never stopped after the fault; commands: %v", fw.Commands())
	return -1
}

func serialRig(t *testing.T, link bool) (*emu.Firmware, *emu.PTY, *epuck.SerCom) {
	t.Helper()
	b, _ := boards.Lookup("epuck")
	fw := emu.NewFirmware(emulatortest.NewBody(8), b)
	path := ""
	if link {
		path = t.TempDir() + "/ttyEPUCK"
	}
	pty, err := emu.ServePTY(fw, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pty.Close() })
	b.Serial.Port = pty.Path()
	drv, err := epuck.OpenSerCom(b, realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fw, pty, drv
}

const steps5 = 388 // 5 cm/s in steps/s

func lastCommand(fw *emu.Firmware) emu.WheelCommand {
	c := fw.Commands()
	return c[len(c)-1]
}

func TestFaultSerialHangupAndReconnect(t *testing.T) {
	fw, pty, drv := serialRig(t, true)
	var hungUp time.Time
	err, fault, hook := faultRun(t, drv, 20, 5, 10, func() {
		if err := pty.Hangup(); err != nil {
			t.Error(err)
		}
		hungUp = time.Now()
		go func() {
			time.Sleep(300 * time.Millisecond) // 3 ticks without a link
			if err := pty.Reconnect(); err != nil {
				t.Error(err)
			}
		}()
	})
	if err != nil {
		t.Fatalf("the run did not survive the reconnection: %v", err)
	}
	_ = fault
	// While the link was down nothing could reach the robot; the first
	// command after it came back stopped the motors, then the loop drove
	// again.
	var after []emu.WheelCommand
	for _, c := range fw.Commands() {
		if c.At.After(hungUp) {
			after = append(after, c)
		}
	}
	if len(after) < 5 || after[0].Left != 0 || after[0].Right != 0 {
		t.Fatalf("commands after the reconnection %v: the first must stop the motors", after)
	}
	recovered := false
	for _, c := range after[1:] {
		recovered = recovered || c.Left == steps5
	}
	if !recovered {
		t.Errorf("the loop did not recover: %v", after)
	}
	if c := lastCommand(fw); c.Left != 0 || c.Right != 0 {
		t.Errorf("motors left at %v", c)
	}
	var failed, reopened bool
	for _, e := range hook.AllEntries() {
		// While the link is down the stop cannot go out, and the log
		// says so rather than "wheels stopped".
		failed = failed || e.Level == logrus.ErrorLevel && strings.Contains(e.Message, "failed ticks in a row")
		reopened = reopened || strings.Contains(e.Message, "answers again")
	}
	if !failed || !reopened {
		t.Errorf("log: failure %v, recovery %v", failed, reopened)
	}
}

func TestFaultSerialStopsAnswering(t *testing.T) {
	fw, _, drv := serialRig(t, false)
	err, fault, _ := faultRun(t, drv, 0, 5, 4, func() { fw.SetFaults(emu.Faults{Mute: true}) })
	if !errors.Is(err, realrobot.ErrDeviceLost) {
		t.Fatalf("Run: %v, want ErrDeviceLost", err)
	}
	stoppedAfter(t, fw, fault)
	if l, r := fw.Speed(); l != 0 || r != 0 {
		t.Errorf("motors at %d, %d after the run", l, r)
	}
}

func TestFaultSerialGarbageAndTruncation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		faults   emu.Faults
		wantLost bool
	}{
		{"one garbage reply is retried", emu.Faults{Garbage: 1}, false},
		{"one truncated reply is retried", emu.Faults{Truncate: 1}, false},
		{"garbage from then on", emu.Faults{Garbage: 1 << 20}, true},
		{"truncation from then on", emu.Faults{Truncate: 1 << 20}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw, _, drv := serialRig(t, false)
			err, fault, hook := faultRun(t, drv, 10, 4, 3, func() { fw.SetFaults(tc.faults) })
			if tc.wantLost {
				if !errors.Is(err, realrobot.ErrDeviceLost) {
					t.Fatalf("Run: %v, want ErrDeviceLost", err)
				}
				stoppedAfter(t, fw, fault)
			} else {
				if err != nil {
					t.Fatalf("Run: %v", err)
				}
				// A loaded machine may make a tick overrun, and the
				// runtime then stops the wheels on purpose: only a stop
				// no overrun accounts for is the retry's doing.
				overruns := 0
				for _, e := range hook.AllEntries() {
					if strings.Contains(e.Message, "overran") {
						overruns++
					}
				}
				stops := 0
				for _, c := range fw.Commands()[1:9] {
					if c.Left != steps5 {
						stops++
					}
				}
				if stops > overruns {
					t.Fatalf("a retried reply stopped the robot (%d stops, %d overruns): %v", stops, overruns, fw.Commands())
				}
			}
			if c := lastCommand(fw); c.Left != 0 || c.Right != 0 {
				t.Errorf("motors left at %v", c)
			}
		})
	}
}

// keptStopped checks that once the first (0, 0) command after the fault
// reached the firmware, no other speed did: no retry and no later sense
// undid the stop while the fault lasted.
func keptStopped(t *testing.T, cmds []emu.WheelCommand, fault time.Time) {
	t.Helper()
	stopped := -1
	for i, c := range cmds {
		if c.At.Before(fault) {
			continue
		}
		if stopped < 0 && c.Left == 0 && c.Right == 0 {
			stopped = i
		}
		if stopped >= 0 && (c.Left != 0 || c.Right != 0) {
			t.Errorf("command %d (%d, %d) came %v after the stop: the stop was undone", i, c.Left, c.Right, c.At.Sub(cmds[stopped].At).Round(time.Millisecond))
		}
	}
	if stopped < 0 {
		t.Fatalf("the motors were never stopped after the fault: %v", cmds)
	}
}

// Replies slower than the board's timeout: the ticks overrun and fail,
// the wheels are stopped, and no retry resends the old speeds.
func TestLateRepliesKeepTheStopSerial(t *testing.T) {
	fw, _, drv := serialRig(t, false)
	err, fault, _ := faultRun(t, drv, 0, 5, 8, func() {
		fw.SetFaults(emu.Faults{Late: 1 << 20, LateBy: 80 * time.Millisecond})
	})
	if !errors.Is(err, realrobot.ErrDeviceLost) {
		t.Errorf("Run: %v, want ErrDeviceLost", err)
	}
	keptStopped(t, fw.Commands(), fault)
}

// The same on I²C: transactions that time out after the e-puck2 took
// their frame (or word). The retries and the next sense carry zero
// speeds.
func TestLateRepliesKeepTheStopI2C(t *testing.T) {
	for _, board := range []string{"pipuck", "pipuck-smbus"} {
		t.Run(board, func(t *testing.T) {
			fw, _, drv := i2cRigOf(t, board)
			err, fault, _ := faultRun(t, drv, 0, 5, 3, func() {
				fw.SetFaults(emu.Faults{Late: 1 << 20, LateBy: 60 * time.Millisecond})
			})
			if !errors.Is(err, realrobot.ErrDeviceLost) {
				t.Errorf("Run: %v, want ErrDeviceLost", err)
			}
			keptStopped(t, fw.Commands(), fault)
		})
	}
}

// probe is a controller that records the proximity readings it sees and
// drives at 5 cm/s.
type probe struct {
	w      ci.DifferentialSteeringActuator
	p      ci.Proximity
	seen   [][]float64
	onStep func(n int)
}

func (c *probe) Init(r ci.Robot, _ ci.Params) (err error) {
	if c.w, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return err
	}
	c.p, err = ci.GetSensor[ci.Proximity](r, ci.TagEPuckProximity)
	return err
}
func (c *probe) ControlStep() {
	var v []float64
	for _, r := range c.p.Readings() {
		v = append(v, r.Value)
	}
	c.seen = append(c.seen, v)
	if c.onStep != nil {
		c.onStep(len(c.seen))
	}
	c.w.SetLinearVelocity(5, 5)
}
func (c *probe) Reset()         {}
func (c *probe) Destroy() error { return nil }

// Late replies on the serial link, now and then: a reply read after its
// attempt timed out is rejected by its framing, so the controller only
// ever sees the readings the firmware measured, never values shifted in
// from another command's answer.
func TestLateRepliesAreRejectedSerial(t *testing.T) {
	b, _ := boards.Lookup("epuck")
	body := emulatortest.NewBody(8)
	want := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}
	body.Set(func(r *emulator.Reading) { copy(r.Proximity, want) })
	fw := emu.NewFirmware(body, b)
	pty, err := emu.ServePTY(fw, "")
	if err != nil {
		t.Fatal(err)
	}
	defer pty.Close()
	b.Serial.Port = pty.Path()
	devs := realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}, Actuators: []string{ci.TagDifferentialSteering}}
	drv, err := epuck.OpenSerCom(b, devs, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every eighth tick, the answer to the act comes half a second late:
	// the act and the stops after it fail, and the firmware's answers to
	// all of them arrive in a burst during the next sense, before its own.
	c := &probe{onStep: func(n int) {
		if n%8 == 0 {
			fw.SetFaults(emu.Faults{Late: 1, LateBy: 500 * time.Millisecond})
		}
	}}
	rt, err := realrobot.New(drv, realrobot.Spec{Controller: c, Devices: devs},
		realrobot.Options{TicksPerSecond: faultHz, Ticks: 30, MaxFailures: 30})
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(rt.Run(context.Background()), rt.Close()); err != nil {
		t.Fatal(err)
	}
	// The firmware's raw values go through the calibration and back:
	// allow its rounding.
	for i, v := range c.seen {
		for k := range v {
			if math.Abs(v[k]-want[k]) > 1e-3 {
				t.Fatalf("tick %d: the controller saw %v, want %v (a shifted or stray reply was taken)", i, v, want)
			}
		}
	}
	if len(c.seen) < 15 {
		t.Errorf("only %d of 30 ticks got through", len(c.seen))
	}
}

func i2cRig(t *testing.T) (*emu.Firmware, *emu.Bus, *epuck.I2C) {
	t.Helper()
	return i2cRigOf(t, "pipuck")
}

func i2cRigOf(t *testing.T, board string) (*emu.Firmware, *emu.Bus, *epuck.I2C) {
	t.Helper()
	b, _ := boards.Lookup(board)
	fw := emu.NewFirmware(emulatortest.NewBody(8), b)
	bus := emu.NewBus(fw, "emulated-"+t.Name())
	drv, err := epuck.NewI2C(bus, b, realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fw, bus, drv
}

func TestFaultI2C(t *testing.T) {
	for _, tc := range []struct {
		name     string
		faults   emu.Faults
		wantLost bool
	}{
		{"3 NACKs are retried", emu.Faults{NACK: 3}, false},
		{"3 timeouts are retried", emu.Faults{Timeout: 3}, false},
		{"3 bad checksums are retried", emu.Faults{BadChecksum: 3}, false},
		{"6 NACKs fail a tick, the stop gets through", emu.Faults{NACK: 6}, false},
		{"NACKs from then on", emu.Faults{NACK: 1 << 20}, true},
		{"bad checksums from then on", emu.Faults{BadChecksum: 1 << 20}, true},
		{"timeouts from then on", emu.Faults{Timeout: 1 << 20}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fw, _, drv := i2cRig(t)
			err, fault, hook := faultRun(t, drv, 10, 4, 3, func() { fw.SetFaults(tc.faults) })
			switch {
			case tc.wantLost && !errors.Is(err, realrobot.ErrDeviceLost):
				t.Fatalf("Run: %v, want ErrDeviceLost", err)
			case !tc.wantLost && err != nil:
				t.Fatalf("Run: %v", err)
			}
			if tc.faults.NACK == 6 {
				stoppedAfter(t, fw, fault)
				var logged bool
				for _, e := range hook.AllEntries() {
					logged = logged || e.Level == logrus.ErrorLevel && strings.Contains(e.Message, "4 attempts failed")
				}
				if !logged {
					t.Error("the failed tick was not logged")
				}
			}
			if tc.faults.BadChecksum > 1000 {
				// The e-puck2 got the stop frame even though its answers
				// were corrupt.
				stoppedAfter(t, fw, fault)
			}
			// Whatever happened, the robot's motors end stopped, except
			// when the bus refuses every frame: then nothing can reach it.
			if c := lastCommand(fw); (c.Left != 0 || c.Right != 0) && tc.faults.NACK < 1000 && tc.faults.Timeout < 1000 {
				t.Errorf("motors left at %v", c)
			}
		})
	}
}

func TestFirmwareASCIIAndChains(t *testing.T) {
	b, _ := boards.Lookup("epuck")
	body := emulatortest.NewBody(8)
	body.Set(func(r *emulator.Reading) { r.Proximity[0] = 1; r.Odometry = [2]float64{0.01, -0.01} })
	fw := emu.NewFirmware(body, b)
	for _, tc := range []struct{ in, out string }{
		{"D,200,-200\r", "d\r\n"},
		{"E\n", "e,200,-200\r\n"},
		{"D,5000,0\r", "d\r\n"},
		{"E\r", "e,1000,0\r\n"},
		{"N\r", "n,100,100,100,100,100,100,100,3500\r\n"}, // ps7 is ARGoS's reading 0
		{"Q\r", "q,78,-78\r\n"},
		{"L,3,1\r", "l\r\n"},
		{"X\r", "z,Command not found\r\n"},
		{"S\r", "s\r\n"},
	} {
		rest, out := fw.Handle([]byte(tc.in))
		if string(out) != tc.out || len(rest) != 0 {
			t.Errorf("%q -> %q (rest %q), want %q", tc.in, out, rest, tc.out)
		}
	}
	if !fw.LED(3) || fw.LED(2) {
		t.Error("L,3,1 did not light LED 3 alone")
	}
	// Binary: nothing is answered before the chain's end; unknown bytes
	// are ignored; replies come in order.
	rest, out := fw.Handle([]byte{epuck.CmdGetSpeed, 0xFF, epuck.CmdLED, 9})
	if len(out) != 0 || len(rest) != 4 {
		t.Fatalf("incomplete chain answered % x (rest % x)", out, rest)
	}
	rest, out = fw.Handle(append(rest, 1, epuck.CmdGetSteps, epuck.ChainEnd))
	if want := "00 00 00 00 4e 00 b2 ff"; fmt.Sprintf("% x", out) != want || len(rest) != 0 {
		t.Errorf("chain answered % x, want %s", out, want)
	}
	if !fw.LED(epuck.LEDFront) {
		t.Error("-L 9 1 did not light the front LED")
	}
	if w := body.Wheels(); len(w) != 3 || math.Abs(w[0][0]-200/(1000/(2*math.Pi*0.0205))) > 1e-12 {
		t.Errorf("wheel commands %v", w)
	}
}

func TestDriverConformance(t *testing.T) {
	t.Run("sercom", func(t *testing.T) {
		b, _ := boards.Lookup("epuck")
		pty, err := emu.ServePTY(emu.NewFirmware(emulatortest.NewBody(8), b), "")
		if err != nil {
			t.Fatal(err)
		}
		defer pty.Close()
		b.Serial.Port = pty.Path()
		devs := realrobot.Devices{Sensors: boards.Tags(b.Sensors), Actuators: boards.Tags(b.Actuators)}
		drv, err := epuck.OpenSerCom(b, devs, nil)
		if err != nil {
			t.Fatal(err)
		}
		realrobottest.TestDriver(t, drv, devs)
	})
	for _, name := range []string{"pipuck", "pipuck-smbus"} {
		t.Run(name, func(t *testing.T) {
			b, _ := boards.Lookup(name)
			devs := realrobot.Devices{Sensors: boards.Tags(b.Sensors), Actuators: boards.Tags(b.Actuators)}
			drv, err := epuck.NewI2C(emu.NewBus(emu.NewFirmware(emulatortest.NewBody(8), b), "conformance"), b, devs, nil)
			if err != nil {
				t.Fatal(err)
			}
			realrobottest.TestDriver(t, drv, devs)
		})
	}
}

// FuzzFirmwareHandle: the emulated firmware takes any byte stream (seeds
// in testdata/fuzz/FuzzFirmwareHandle): it never panics, consumes only
// whole commands and keeps the speeds within the firmware's limit.
func FuzzFirmwareHandle(f *testing.F) {
	b, _ := boards.Lookup("epuck")
	f.Fuzz(func(t *testing.T, in []byte) {
		fw := emu.NewFirmware(emulatortest.NewBody(8), b)
		rest, _ := fw.Handle(in)
		if len(rest) > len(in) || !bytes.HasSuffix(in, rest) {
			t.Fatalf("rest % x is not a suffix of the input % x", rest, in)
		}
		if l, r := fw.Speed(); l < -1000 || l > 1000 || r < -1000 || r > 1000 {
			t.Fatalf("speeds %d, %d beyond the firmware's limit", l, r)
		}
	})
}
