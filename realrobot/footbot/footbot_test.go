package footbot_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/aseba"
	"github.com/argosgo/argos/realrobot/footbot"
)

// switchScript is the Aseba switch's end of a TCP connection, scripted by
// the test: it checks the exact bytes the driver sends and answers.
type switchScript struct {
	t  *testing.T
	ln net.Listener
	c  net.Conn
}

func newSwitch(t *testing.T) *switchScript {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	return &switchScript{t: t, ln: ln}
}

func (s *switchScript) accept() {
	s.t.Helper()
	c, err := s.ln.Accept()
	if err != nil {
		s.t.Fatal(err)
	}
	s.c = c
	s.t.Cleanup(func() { c.Close() })
}

func (s *switchScript) expect(hexs string) {
	s.t.Helper()
	want := unhex(hexs)
	got := make([]byte, len(want))
	s.c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadFull(s.c, got); err != nil {
		s.t.Fatalf("waiting for %s: %v (got % x)", hexs, err, got)
	}
	if !bytes.Equal(got, want) {
		s.t.Fatalf("driver sent\n% x\nwant\n% x", got, want)
	}
}

func (s *switchScript) reply(hexs string) {
	s.t.Helper()
	if _, err := s.c.Write(unhex(hexs)); err != nil {
		s.t.Fatal(err)
	}
}

func unhex(s string) []byte {
	var b []byte
	for _, f := range strings.Fields(s) {
		var x byte
		fmt.Sscanf(f, "%02x", &x)
		b = append(b, x)
	}
	return b
}

// Messages of the foot-bot board's mapping (host id 1000 = e8 03).
const (
	setLeft0   = "06 00 e8 03 0c a0 01 00 00 00 00 00"
	setRight0  = "06 00 e8 03 0c a0 02 00 00 00 00 00"
	getLeftT   = "06 00 e8 03 0b a0 01 00 00 00 01 00"
	getRightT  = "06 00 e8 03 0b a0 02 00 00 00 01 00"
	leftTIs0   = "04 00 01 00 05 90 00 00 00 00"
	rightTIs0  = "04 00 02 00 05 90 00 00 00 00"
	getProx    = "06 00 e8 03 0b a0 03 00 00 00 18 00"
	setLeft50  = "06 00 e8 03 0c a0 01 00 00 00 32 00"
	setRight50 = "06 00 e8 03 0c a0 02 00 00 00 32 00"
	// GetNodeDescription to nodes 1 to 6, protocol version 5.
	describeAll = "04 00 e8 03 10 a0 01 00 05 00  04 00 e8 03 10 a0 02 00 05 00  04 00 e8 03 10 a0 03 00 05 00  " +
		"04 00 e8 03 10 a0 04 00 05 00  04 00 e8 03 10 a0 05 00 05 00  04 00 e8 03 10 a0 06 00 05 00"
)

func proxReply(first int16) string {
	b := fmt.Sprintf("32 00 03 00 05 90 00 00 %02x %02x", byte(first), byte(first>>8))
	return b + strings.Repeat(" 00 00", 23)
}

func TestFrames(t *testing.T) {
	sw := newSwitch(t)
	b, _ := boards.Lookup("footbot")
	b.Aseba.Address = sw.ln.Addr().String()
	devs := realrobot.Devices{Sensors: []string{ci.TagFootBotProximity}, Actuators: []string{ci.TagDifferentialSteering}}
	type result struct {
		d   *footbot.Driver
		err error
	}
	done := make(chan result, 1)
	go func() {
		d, err := footbot.Open(b, devs, nil)
		done <- result{d, err}
	}()
	sw.accept()
	// Open: the nodes' descriptions (not answered: the board's fixed
	// addresses), zero wheel targets, read back; then the first sensing:
	// the proximity ring and the targets, asked together.
	sw.expect(describeAll)
	sw.expect(setLeft0 + " " + setRight0)
	sw.expect(getLeftT + " " + getRightT)
	sw.reply(rightTIs0 + " " + leftTIs0) // any order
	sw.expect(getProx + " " + getLeftT + " " + getRightT)
	sw.reply("02 00 05 00 01 00 07 00") // a user event of another node: skipped
	sw.reply(proxReply(4095) + " " + leftTIs0 + " " + rightTIs0)
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	drv := r.d
	defer drv.Close()
	p, _ := drv.Sensor(ci.TagFootBotProximity)
	pr := p.(ci.Proximity).Readings()
	if pr[0].Value != 1 || pr[1].Value != 0 || math.Abs(pr[0].Angle-math.Pi/24) > 1e-12 {
		t.Errorf("proximity %v", pr[:2])
	}
	// Act: 5 cm/s = 50 mm/s on each motor node.
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5)
	errc := make(chan error, 1)
	go func() { errc <- drv.Act() }()
	sw.expect(setLeft50 + " " + setRight50)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	// Speeds are clamped to the board's 300 mm/s.
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(100, -100)
	go func() { errc <- drv.Act() }()
	sw.expect("06 00 e8 03 0c a0 01 00 00 00 2c 01 06 00 e8 03 0c a0 02 00 00 00 d4 fe")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	// A stop that the motor nodes do not take is an error.
	go func() { errc <- drv.Stop() }()
	sw.expect(setLeft0 + " " + setRight0)
	sw.expect(getLeftT + " " + getRightT)
	sw.reply("04 00 01 00 05 90 00 00 2c 01 " + rightTIs0)
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "did not take") {
		t.Errorf("Stop with a target left at 300: %v", err)
	}
	// Silence: the tick's sensing fails after the board's attempts.
	b.Timeout = 30 * time.Millisecond
	go func() { errc <- drv.Sense() }()
	sw.expect(getProx + " " + getLeftT + " " + getRightT)
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "not answered") {
		t.Errorf("Sense without answers: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	b, _ := boards.Lookup("footbot")
	b.Aseba.Address = "127.0.0.1:1" // nothing listens
	_, err := footbot.Open(b, realrobot.Devices{}, nil)
	if err == nil || !strings.Contains(err.Error(), "asebaswitch") {
		t.Errorf("Open with no switch: %v", err)
	}
	b, _ = boards.Lookup("footbot")
	b.Aseba.Vars = b.Aseba.Vars[:1]
	sw := newSwitch(t)
	b.Aseba.Address = sw.ln.Addr().String()
	go func() {
		c, err := sw.ln.Accept()
		if err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	_, err = footbot.Open(b, realrobot.Devices{Sensors: []string{ci.TagBattery}}, nil)
	if err == nil || !strings.Contains(err.Error(), `"battery.charge"`) {
		t.Errorf("Open with an incomplete mapping: %v", err)
	}
}

// describe is node id's answer to GetNodeDescription: its name and
// variables (name, size), in memory order.
func describe(id uint16, name string, vars ...any) string {
	var b []byte
	b = aseba.DescriptionMessage(id, aseba.Description{Name: name, ProtocolVersion: 5, VariablesSize: 100, NamedVariables: uint16(len(vars) / 2)}).Append(b)
	for i := 0; i < len(vars); i += 2 {
		b = aseba.NamedVariableMessage(id, aseba.NamedVariable{Name: vars[i].(string), Size: uint16(vars[i+1].(int))}).Append(b)
	}
	return fmt.Sprintf("% x", b)
}

// Where the firmware describes its nodes, variables are found by name:
// here every node has Aseba's usual id, source and args first, so each
// variable is 34 words further than the fixed map says.
func TestVariablesByName(t *testing.T) {
	sw := newSwitch(t)
	b, _ := boards.Lookup("footbot")
	b.Aseba.Address = sw.ln.Addr().String()
	devs := realrobot.Devices{Sensors: []string{ci.TagFootBotProximity}, Actuators: []string{ci.TagDifferentialSteering}}
	done := make(chan error, 1)
	var drv *footbot.Driver
	go func() {
		var err error
		drv, err = footbot.Open(b, devs, nil)
		done <- err
	}()
	sw.accept()
	sw.expect(describeAll)
	pre := []any{"id", 1, "source", 1, "args", 32}
	motor := append(pre[:6:6], "speed.target", 1, "speed.measured", 1, "odometry", 1)
	sw.reply(describe(1, "motor.left", motor...) + " " + describe(2, "motor.right", motor...) + " " +
		describe(3, "ring", append(pre[:6:6], "prox.values", 24, "light.values", 24)...) + " " +
		describe(4, "ground", append(pre[:6:6], "ground.base", 8, "ground.motor", 4)...) + " " +
		describe(5, "leds", append(pre[:6:6], "leds.rgb", 39)...) + " " +
		describe(6, "power", append(pre[:6:6], "battery.charge", 1, "battery.time_left", 1)...))
	// speed.target at 34 (0x22), prox.values at 34.
	sw.expect("06 00 e8 03 0c a0 01 00 22 00 00 00 06 00 e8 03 0c a0 02 00 22 00 00 00")
	sw.expect("06 00 e8 03 0b a0 01 00 22 00 01 00 06 00 e8 03 0b a0 02 00 22 00 01 00")
	sw.reply("04 00 01 00 05 90 22 00 00 00 04 00 02 00 05 90 22 00 00 00")
	sw.expect("06 00 e8 03 0b a0 03 00 22 00 18 00 06 00 e8 03 0b a0 01 00 22 00 01 00 06 00 e8 03 0b a0 02 00 22 00 01 00")
	sw.reply(strings.Replace(proxReply(4095), "05 90 00 00", "05 90 22 00", 1) + " 04 00 01 00 05 90 22 00 00 00 04 00 02 00 05 90 22 00 00 00")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	p, _ := drv.Sensor(ci.TagFootBotProximity)
	if v := p.(ci.Proximity).Readings()[0].Value; v != 1 {
		t.Errorf("proximity 0 = %v", v)
	}
}

// A description that lacks a variable of the mapping is an error that
// names it and what the node has.
func TestDescriptionLacksAVariable(t *testing.T) {
	sw := newSwitch(t)
	b, _ := boards.Lookup("footbot")
	b.Aseba.Address = sw.ln.Addr().String()
	done := make(chan error, 1)
	go func() {
		_, err := footbot.Open(b, realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}, nil)
		done <- err
	}()
	sw.accept()
	sw.expect(describeAll)
	sw.reply(describe(3, "ring", "prox.value", 24, "light.values", 24))
	// The wheel targets are known (fixed addresses for the nodes that
	// gave no description): the wheels are stopped before the error.
	sw.expect(setLeft0 + " " + setRight0)
	sw.expect(getLeftT + " " + getRightT)
	sw.reply(leftTIs0 + " " + rightTIs0)
	err := <-done
	for _, want := range []string{`node 3 (ring) has no variable "prox.values"`, `did you mean "prox.value"?`, "proximity"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Open: %v; want it to say %q", err, want)
		}
	}
}
