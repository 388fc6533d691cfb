package attach_test

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/attach"
	"github.com/argosgo/argos/realrobot/realrobottest"
	"github.com/argosgo/argos/wire/simlink"
)

type fakeProx []ci.ProximityReading

func (f fakeProx) Readings() []ci.ProximityReading { return f }

// fakeSim accepts one controller and sends a Sense with the virtual
// ring for every Act it receives (and one to start); acts gets the
// Acts.
func fakeSim(t *testing.T, token string, ring fakeProx, acts chan<- simlink.Frame) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		c := simlink.NewConn(nc)
		_, body, err := c.Read()
		if err != nil {
			return
		}
		h, err := simlink.ParseHello(body)
		if err != nil || h.Token != token {
			c.Write(simlink.FrameReject, func(b []byte) []byte { return simlink.AppendReason(b, "wrong token") })
			return
		}
		params := make([]int, len(h.Actuators))
		for i, a := range h.Actuators {
			if a == ci.TagLEDs {
				params[i] = 2 // the simulated body has 2 LEDs
			}
		}
		c.Write(simlink.FrameWelcome, func(b []byte) []byte {
			return simlink.AppendWelcome(b, simlink.Welcome{Version: 1, TicksPerSecond: 10, Params: params})
		})
		for tick := uint64(1); ; tick++ {
			var devs [][]byte
			for range h.Sensors {
				p, _ := simlink.AppendSensor(nil, simlink.KindProximity, ring)
				devs = append(devs, p)
			}
			f := simlink.Frame{Tick: tick, Devices: devs}
			if err := c.Write(simlink.FrameSense, func(b []byte) []byte { return simlink.AppendFrame(b, simlink.FrameSense, &f) }); err != nil {
				return
			}
			for {
				typ, body, err := c.Read()
				if err != nil || typ == simlink.FrameBye {
					return
				}
				var a simlink.Frame
				if err := simlink.ParseFrame(typ, body, &a); err != nil {
					return
				}
				acts <- simlink.Frame{Tick: a.Tick, Stop: a.Stop}
				if a.Tick >= tick { // a stop answers its tick too, as in the simulator
					break
				}
			}
		}
	}()
	return ln.Addr().String()
}

// The link passes the conformance test of drivers (with a virtual
// ring and wheels), and its acts carry the tick of their sense.
func TestDriverConformance(t *testing.T) {
	acts := make(chan simlink.Frame, 100)
	ring := fakeProx{{Value: 0.5, Angle: 0.3}}
	devs := realrobot.Devices{Sensors: []string{ci.TagProximity}, Actuators: []string{ci.TagDifferentialSteering}}
	addr := fakeSim(t, "tok", ring, acts)
	if _, err := attach.Dial(attach.Options{Addr: addr, Token: "bad", RobotID: "r", Devices: devs}); err == nil || !strings.Contains(err.Error(), "wrong token") {
		t.Fatalf("a wrong token: %v", err)
	}
	addr = fakeSim(t, "tok", ring, acts)
	drv, err := attach.Dial(attach.Options{Addr: addr, Token: "tok", RobotID: "r", Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatal(err)
	}
	p, _ := drv.Sensor(ci.TagProximity)
	if r := p.(ci.Proximity).Readings(); len(r) != 1 || r[0] != ring[0] {
		t.Fatalf("readings %v", r)
	}
	if err := drv.Act(); err != nil {
		t.Fatal(err)
	}
	if a := <-acts; a.Tick != 1 || a.Stop {
		t.Fatalf("act %+v; want tick 1", a)
	}
	realrobottest.TestDriver(t, drv, devs)
}

// Merge takes the larger of the real and the virtual reading, sensor by
// sensor, and sends the wheels to the robot.
func TestMergeMax(t *testing.T) {
	acts := make(chan simlink.Frame, 100)
	virtual := make(fakeProx, 8)
	virtual[1].Value = 0.9
	link, err := attach.Dial(attach.Options{Addr: fakeSim(t, "tok", virtual, acts), Token: "tok", RobotID: "ep0",
		Devices: realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}}})
	if err != nil {
		t.Fatal(err)
	}
	real := realrobottest.NewDriver()
	real.Proximity().Set(6, 0.4)
	m := attach.Merge(real, link, map[string]string{ci.TagEPuckProximity: "max"})
	defer m.Close()
	if err := m.Sense(); err != nil {
		t.Fatal(err)
	}
	d, _ := m.Sensor(ci.TagEPuckProximity)
	r := d.(ci.Proximity).Readings()
	if r[1].Value != 0.9 || r[6].Value != 0.4 || r[0].Value != 0 {
		t.Errorf("merged readings %v", r)
	}
	w, ok := m.Actuator(ci.TagDifferentialSteering)
	if !ok {
		t.Fatal("no wheels")
	}
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(2, 3)
	if err := m.Act(); err != nil && !errors.Is(err, realrobot.ErrSuperseded) {
		t.Fatal(err)
	}
	if got := real.Motors(); got[0] == 0 && got[1] == 0 {
		t.Errorf("the real robot's wheels did not get the speeds: %v", got)
	}
	if a := <-acts; a.Tick != 1 {
		t.Errorf("the simulation got act %+v", a)
	}
}

// A stop that comes while the readings of a tick are on their way
// answers that tick too: a simulation in lockstep must not wait for an
// Act the runtime will not send (an overrun during Sense).
func TestStopDuringSenseAnswersTheTick(t *testing.T) {
	acts := make(chan simlink.Frame, 100)
	devs := realrobot.Devices{Sensors: []string{ci.TagProximity}, Actuators: []string{ci.TagDifferentialSteering}}
	drv, err := attach.Dial(attach.Options{Addr: fakeSim(t, "tok", fakeProx{{}}, acts), Token: "tok", RobotID: "r", Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	if err := drv.Sense(); err != nil { // tick 1, not answered yet
		t.Fatal(err)
	}
	sensed := make(chan error, 1)
	go func() { sensed <- drv.Sense() }() // waits for tick 2
	time.Sleep(200 * time.Millisecond)
	if err := drv.Stop(); err != nil { // answers tick 1; the simulation sends tick 2
		t.Fatal(err)
	}
	if err := <-sensed; err != nil {
		t.Fatal(err)
	}
	for _, want := range []uint64{1, 2} {
		select {
		case a := <-acts:
			if a.Tick != want || !a.Stop {
				t.Fatalf("act %+v; want a stop for tick %d", a, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no stop for tick %d", want)
		}
	}
}

// A stop that supersedes the robot's Act of a tick answers the
// simulation's tick too, also when it reached the link before the link
// sensed that tick (so that the link's own Act would still go): the
// merged Act sends the link a stop instead of nothing, and the
// simulation in lockstep goes on to the next tick.
func TestMergedActSupersededAnswersTheTick(t *testing.T) {
	acts := make(chan simlink.Frame, 100)
	devs := realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}}
	link, err := attach.Dial(attach.Options{Addr: fakeSim(t, "tok", make(fakeProx, 8), acts), Token: "tok", RobotID: "ep0",
		Devices: devs, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	real := realrobottest.NewDriver()
	m := attach.Merge(real, link, nil)
	defer m.Close()
	if err := m.Sense(); err != nil { // tick 1
		t.Fatal(err)
	}
	if err := m.Act(); err != nil {
		t.Fatal(err)
	}
	// Merged.Sense and a concurrent Merged.Stop, interleaved: the robot
	// senses, the stop reaches the robot and then the link, which has
	// not sensed tick 2 yet; the link senses it.
	if err := real.Sense(); err != nil {
		t.Fatal(err)
	}
	if err := real.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := link.Stop(); err != nil { // answers tick 1 again: the simulation waits for tick 2's
		t.Fatal(err)
	}
	if err := link.Sense(); err != nil { // tick 2
		t.Fatal(err)
	}
	if err := m.Act(); !errors.Is(err, realrobot.ErrSuperseded) {
		t.Fatalf("Act after a stop: %v, want an error wrapping realrobot.ErrSuperseded", err)
	}
	if err := m.Sense(); err != nil { // tick 3, once tick 2 is answered
		t.Fatalf("the tick after a superseded Act: %v", err)
	}
	if got := link.Tick(); got != 3 {
		t.Fatalf("sensed tick %d, want 3", got)
	}
	var stops []uint64
	for len(acts) > 0 {
		if a := <-acts; a.Stop {
			stops = append(stops, a.Tick)
		}
	}
	if len(stops) == 0 || stops[len(stops)-1] != 2 {
		t.Fatalf("stops for ticks %v, want the last for tick 2", stops)
	}
}

// ledBoard is a fake robot with LEDs.
type ledBoard struct {
	*realrobottest.Driver
	leds *citest.LEDs
}

func (b ledBoard) Actuator(tag string) (any, bool) {
	if tag == ci.TagLEDs {
		return b.leds, true
	}
	return b.Driver.Actuator(tag)
}

// LEDs declared on both sides light the robot and its simulated body.
func TestMergeLEDs(t *testing.T) {
	acts := make(chan simlink.Frame, 100)
	link, err := attach.Dial(attach.Options{Addr: fakeSim(t, "tok", nil, acts), Token: "tok", RobotID: "ep0",
		Devices: realrobot.Devices{Actuators: []string{ci.TagLEDs}}})
	if err != nil {
		t.Fatal(err)
	}
	board := ledBoard{realrobottest.NewDriver(), citest.NewLEDs(2)}
	m := attach.Merge(board, link, nil)
	defer m.Close()
	d, _ := m.Actuator(ci.TagLEDs)
	d.(ci.LEDs).SetAllColors(ci.Red)
	v, _ := link.Actuator(ci.TagLEDs)
	if board.leds.Colors[1] != ci.Red || v.(*simlink.LEDsActuator).Colors()[1] != ci.Red {
		t.Errorf("robot's LEDs %v, simulated body's %v; want both red", board.leds.Colors, v.(*simlink.LEDsActuator).Colors())
	}
}

// The merged driver passes the conformance test of drivers.
func TestMergedConformance(t *testing.T) {
	acts := make(chan simlink.Frame, 1000)
	link, err := attach.Dial(attach.Options{Addr: fakeSim(t, "tok", make(fakeProx, 8), acts), Token: "tok", RobotID: "ep0",
		Devices: realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}}})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range acts {
		}
	}()
	m := attach.Merge(realrobottest.NewDriver(), link, map[string]string{ci.TagEPuckProximity: "max"})
	realrobottest.TestDriver(t, m, realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}, Actuators: []string{ci.TagDifferentialSteering}})
}
