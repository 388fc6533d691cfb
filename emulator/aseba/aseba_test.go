package aseba_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/controllers/diffusion"
	"github.com/argosgo/argos/emulator"
	emu "github.com/argosgo/argos/emulator/aseba"
	"github.com/argosgo/argos/emulator/emulatortest"
	"github.com/argosgo/argos/realrobot"
	codec "github.com/argosgo/argos/realrobot/aseba"
	"github.com/argosgo/argos/realrobot/eyebot"
	"github.com/argosgo/argos/realrobot/footbot"
	"github.com/argosgo/argos/realrobot/realrobottest"

	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// footbotBoard returns the foot-bot board on the network's address.
func footbotBoard(t *testing.T, n *emu.Network) boards.Board {
	t.Helper()
	addr, err := n.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close() })
	b, _ := boards.Lookup("footbot")
	b.Aseba.Address = addr
	return b
}

func TestFootBotClosedLoop(t *testing.T) {
	exp, err := config.Load("../../toolchains/experiments/footbot.argos")
	if err != nil {
		t.Fatal(err)
	}
	sim, err := emulator.NewSim(exp, []string{"fb0"}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b0, _ := boards.Lookup("footbot")
	net := emu.NewNetwork(b0, sim.Robot("fb0"))
	b := footbotBoard(t, net)
	sim.Start()
	defer sim.Close()
	c := exp.FindController("fdc")
	c.Sensors = append(c.Sensors, config.Device{Tag: ci.TagDifferentialSteering, Node: c.Node}, config.Device{Tag: ci.TagBattery, Node: c.Node})
	rt, err := realrobot.Open(b, c, realrobot.Options{TicksPerSecond: 10})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Second)
	defer cancel()
	runErr := rt.Run(ctx)
	enc, _ := rt.Robot().Sensor(ci.TagDifferentialSteering)
	batt, _ := rt.Robot().Sensor(ci.TagBattery)
	if err := errors.Join(runErr, rt.Close()); err != nil {
		t.Fatal(err)
	}
	traj := sim.Robot("fb0").Trajectory()
	t.Log(emulator.Summary(traj))
	if err := emulatortest.AvoidsWall(traj, 0.45, 0.085, 0.2); err != nil {
		t.Error(err)
	}
	if r := batt.(ci.Battery).Reading(); r.AvailableCharge != 1 || r.TimeLeft != 3600 {
		t.Errorf("battery %+v", r)
	}
	if r := enc.(ci.DifferentialSteeringSensor).Reading(); math.Abs(r.WheelAxisLength-14) > 1e-9 {
		t.Errorf("encoders %+v", r)
	}
	cmds := net.Commands()
	if last := cmds[len(cmds)-1]; last.Left != 0 || last.Right != 0 {
		t.Errorf("motors left at %v", last)
	}
}

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

func faultRun(t *testing.T, b boards.Board, ticks, at, maxFailures int, inject func()) (error, time.Time) {
	t.Helper()
	drv, err := footbot.Open(b, realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var when time.Time
	rt, err := realrobot.New(drv, realrobot.Spec{Controller: &constant{}, Devices: realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}},
		realrobot.Options{TicksPerSecond: 10, Ticks: ticks, MaxFailures: maxFailures, OnTick: func(s realrobot.TickStats) {
			if s.N == at {
				when = time.Now()
				inject()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	err = rt.Run(context.Background())
	return errors.Join(err, rt.Close()), when
}

func stoppedWithin(t *testing.T, cmds []emu.WheelCommand, fault time.Time) {
	t.Helper()
	for _, c := range cmds {
		if c.At.After(fault) && c.Left == 0 && c.Right == 0 {
			// Two periods, and one of slack: timers fire late on a
			// loaded machine.
			if d := c.At.Sub(fault); d > 300*time.Millisecond {
				t.Errorf("motors stopped %v after the fault, more than one tick after the tick that met it", d)
			}
			return
		}
	}
	t.Errorf("motors never stopped after the fault: %v", cmds)
}

func TestFaultAsebaDisconnect(t *testing.T) {
	net := emu.NewNetwork(boards.FootBot(), emulatortest.NewBody(24))
	b := footbotBoard(t, net)
	err, fault := faultRun(t, b, 12, 4, 5, net.Disconnect)
	if err != nil {
		t.Fatalf("the run did not survive a dropped connection: %v", err)
	}
	var after []emu.WheelCommand
	var last emu.WheelCommand
	for _, c := range net.Commands() {
		if c.At.After(fault) {
			after = append(after, c)
		} else {
			last = c
		}
	}
	// Writes of the tick that met the fault may still be arriving when it
	// is injected (they carry the last targets before the fault): skip
	// them, they are not the reconnection's.
	for len(after) > 0 && after[0].Left == last.Left && after[0].Right == last.Right && after[0].Left != 0 {
		after = after[1:]
	}
	// The nodes take one wheel at a time: the first complete pair of
	// targets after the reconnection is zero.
	if len(after) < 3 || after[0].Left != 0 || after[1].Left != 0 || after[1].Right != 0 {
		t.Fatalf("after the reconnection: %v; the first targets must be zero", after)
	}
	recovered := false
	for _, c := range after {
		recovered = recovered || c.Left == 50
	}
	if !recovered {
		t.Errorf("the loop did not drive again: %v", after)
	}
}

func TestFaultAsebaStopsAnswering(t *testing.T) {
	net := emu.NewNetwork(boards.FootBot(), emulatortest.NewBody(24))
	b := footbotBoard(t, net)
	b.Aseba.Vars = append(b.Aseba.Vars[:0:0], b.Aseba.Vars...)
	err, fault := faultRun(t, b, 0, 4, 3, func() { net.Mute(true) })
	if !errors.Is(err, realrobot.ErrDeviceLost) {
		t.Fatalf("Run: %v, want ErrDeviceLost", err)
	}
	stoppedWithin(t, net.Commands(), fault)
	if v := net.Var("wheel.left.target"); v[0] != 0 {
		t.Errorf("left target %d after the run", v[0])
	}
}

func TestEyeBotDriver(t *testing.T) {
	b, _ := boards.Lookup("eyebot")
	net := emu.NewNetwork(b, nil)
	addr, err := net.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	b.Aseba.Address = addr
	net.SetVar("flight.position", []int16{1000, -500, 1500, 1571}) // (1, -0.5, 1.5) m, 90°
	net.SetVar("altitude", []int16{1500})
	net.SetVar("flight.mode", []int16{eyebot.ModeSpeed})
	devs := realrobot.Devices{Sensors: []string{ci.TagPositioning, ci.TagAltitude, ci.TagEyeBotProximity},
		Actuators: []string{ci.TagQuadrotorPosition, ci.TagQuadrotorSpeed, ci.TagLEDs}}
	drv, err := eyebot.Open(b, devs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	if m := net.Var("flight.mode"); m[0] != eyebot.ModeHover {
		t.Errorf("Open left mode %d, want hover", m[0])
	}
	pos, _ := drv.Sensor(ci.TagPositioning)
	if p := pos.(ci.Positioning).Reading(); p.Position != (ci.Vector3{X: 1, Y: -0.5, Z: 1.5}) {
		t.Errorf("pose %+v", p)
	}
	alt, _ := drv.Sensor(ci.TagAltitude)
	if a := alt.(ci.Altitude).Reading(); a != 1.5 {
		t.Errorf("altitude %v", a)
	}
	fly, _ := drv.Actuator(ci.TagQuadrotorPosition)
	fly.(ci.QuadrotorPosition).SetRelativePosition(ci.Vector3{X: 0.5})
	// Writes are not acknowledged: a Sense after them is a round trip
	// behind them on the same connection.
	if err := errors.Join(drv.Act(), drv.Sense()); err != nil {
		t.Fatal(err)
	}
	if m, tg := net.Var("flight.mode"), net.Var("flight.position.target"); m[0] != eyebot.ModePosition || tg[0] != 1500 || tg[1] != -500 || tg[2] != 1500 || tg[3] != 1571 {
		t.Errorf("position set-point: mode %v, target %v", m, tg)
	}
	sp, _ := drv.Actuator(ci.TagQuadrotorSpeed)
	sp.(ci.QuadrotorSpeed).SetLinearVelocity(ci.Vector3{Z: 0.25})
	if err := errors.Join(drv.Act(), drv.Sense()); err != nil {
		t.Fatal(err)
	}
	if m, s := net.Var("flight.mode"), net.Var("flight.speed.target"); m[0] != eyebot.ModeSpeed || s[2] != 250 {
		t.Errorf("speed set-point: mode %v, speed %v", m, s)
	}
	if err := drv.Stop(); err != nil {
		t.Fatal(err)
	}
	if m, s := net.Var("flight.mode"), net.Var("flight.speed.target"); m[0] != eyebot.ModeHover || s[2] != 0 {
		t.Errorf("Stop: mode %v, speed %v", m, s)
	}
}

var _ = diffusion.New

func TestDriverConformance(t *testing.T) {
	t.Run("foot-bot", func(t *testing.T) {
		b0 := boards.FootBot()
		net := emu.NewNetwork(b0, emulatortest.NewBody(24))
		b := footbotBoard(t, net)
		devs := realrobot.Devices{Sensors: boards.Tags(b.Sensors), Actuators: boards.Tags(b.Actuators)}
		drv, err := footbot.Open(b, devs, nil)
		if err != nil {
			t.Fatal(err)
		}
		realrobottest.TestDriver(t, drv, devs)
	})
	t.Run("eye-bot", func(t *testing.T) {
		b, _ := boards.Lookup("eyebot")
		net := emu.NewNetwork(b, nil)
		addr, err := net.Listen("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer net.Close()
		b.Aseba.Address = addr
		devs := realrobot.Devices{Sensors: boards.Tags(b.Sensors), Actuators: boards.Tags(b.Actuators)}
		drv, err := eyebot.Open(b, devs, nil)
		if err != nil {
			t.Fatal(err)
		}
		realrobottest.TestDriver(t, drv, devs)
	})
}

// Answers slower than a tick but within the board's timeout: every tick
// overruns, the wheels are stopped, and the late tick's targets are
// never written after the stop.
func TestSlowAnswersKeepTheStop(t *testing.T) {
	net := emu.NewNetwork(boards.FootBot(), emulatortest.NewBody(24))
	b := footbotBoard(t, net)
	b.Timeout = 400 * time.Millisecond
	err, fault := faultRun(t, b, 12, 4, 5, func() { net.SetDelay(150 * time.Millisecond) })
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	cmds := net.Commands()
	stopped := -1
	for i, c := range cmds {
		if !c.At.After(fault) {
			continue
		}
		if stopped < 0 && c.Left == 0 && c.Right == 0 {
			stopped = i
		}
		if stopped >= 0 && (c.Left != 0 || c.Right != 0) {
			t.Errorf("targets (%d, %d) written %v after the stop: the stop was undone", c.Left, c.Right, c.At.Sub(cmds[stopped].At).Round(time.Millisecond))
		}
	}
	if stopped < 0 {
		t.Fatalf("the wheels were never stopped: %v", cmds)
	}
}

// A firmware whose nodes keep Aseba's own variables (id, source, args)
// before the mapping's: the drivers find every variable by name in the
// nodes' descriptions, where the board's fixed addresses would be 34
// words off. Without descriptions, the fixed addresses are used.
func TestVariablesFoundByName(t *testing.T) {
	pre := []codec.NamedVariable{{Name: "id", Size: 1}, {Name: "source", Size: 1}, {Name: "args", Size: 32}}
	for _, tc := range []struct {
		name   string
		layout emu.Layout
	}{
		{"described, with a preamble", emu.Layout{Preamble: pre}},
		{"no descriptions", emu.Layout{NoDescriptions: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			net := emu.NewNetworkLayout(boards.FootBot(), nil, tc.layout)
			b := footbotBoard(t, net)
			net.SetVar("proximity", []int16{4095})
			net.SetVar("wheel.left.target", []int16{120}) // left running by an earlier program
			net.SetVar("wheel.right.target", []int16{120})
			devs := realrobot.Devices{Sensors: []string{ci.TagFootBotProximity, ci.TagBattery}, Actuators: []string{ci.TagDifferentialSteering}}
			drv, err := footbot.Open(b, devs, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer drv.Close()
			if l, r := net.Var("wheel.left.target"), net.Var("wheel.right.target"); l[0] != 0 || r[0] != 0 {
				t.Errorf("Open left the targets at %v, %v", l, r)
			}
			p, _ := drv.Sensor(ci.TagFootBotProximity)
			if v := p.(ci.Proximity).Readings()[0].Value; v != 1 {
				t.Errorf("proximity 0 reads %v, want 1", v)
			}
			bt, _ := drv.Sensor(ci.TagBattery)
			if r := bt.(ci.Battery).Reading(); r.AvailableCharge != 1 || r.TimeLeft != 3600 {
				t.Errorf("battery %+v", r)
			}
			w, _ := drv.Actuator(ci.TagDifferentialSteering)
			w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, -5)
			if err := errors.Join(drv.Sense(), drv.Act(), drv.Sense()); err != nil {
				t.Fatal(err)
			}
			if l, r := net.Var("wheel.left.target"), net.Var("wheel.right.target"); l[0] != 50 || r[0] != -50 {
				t.Errorf("targets %v, %v, want 50, -50", l, r)
			}
		})
	}
}

// The emulated nodes answer ListNodes and describe themselves with
// Aseba's messages.
func TestNetworkDescribes(t *testing.T) {
	net := emu.NewNetworkLayout(boards.FootBot(), nil, emu.Layout{Preamble: []codec.NamedVariable{{Name: "id", Size: 1}}})
	var present []uint16
	for _, m := range net.Handle(codec.ListNodes(1000)) {
		if v, err := codec.DecodeVersion(m); m.Type != codec.TypeNodePresent || v != 5 || err != nil {
			t.Errorf("answer to ListNodes: %+v", m)
		}
		present = append(present, m.Source)
	}
	if fmt.Sprint(present) != "[1 2 3 4 5 6]" {
		t.Errorf("nodes present: %v", present)
	}
	ms := net.Handle(codec.GetNodeDescription(1000, 3))
	d, err := codec.DecodeDescription(ms[0])
	if err != nil || d.Name != "ring" || int(d.NamedVariables) != len(ms)-1 {
		t.Fatalf("description of node 3: %+v, %v (%d messages)", d, err, len(ms))
	}
	var names []string
	for _, m := range ms[1:] {
		v, err := codec.DecodeNamedVariable(m)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, fmt.Sprintf("%s:%d", v.Name, v.Size))
	}
	if got := strings.Join(names, " "); got != "id:1 prox.values:24 light.values:24" {
		t.Errorf("node 3's variables: %s", got)
	}
	if all := net.Handle(codec.GetDescription(1000)); len(all) < 6 {
		t.Errorf("GetDescription: %d messages", len(all))
	}
}
