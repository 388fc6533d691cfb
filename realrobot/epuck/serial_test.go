package epuck_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/epuck"
	"github.com/creack/pty"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
	"golang.org/x/sys/unix"
)

// firmware is the robot's end of a pseudo-terminal, scripted by a test:
// it checks the exact bytes the driver sends and answers what the test
// says.
type firmware struct {
	t      *testing.T
	master *os.File
	slave  *os.File
}

func newFirmware(t *testing.T) *firmware {
	t.Helper()
	m, s, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag &^= unix.ECHO | unix.ICANON | unix.ISIG | unix.IEXTEN
	tio.Iflag &^= unix.ICRNL | unix.IXON
	tio.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	// pty.Open leaves the master in blocking mode; a pollable copy lets
	// reads time out and Close interrupt them.
	fd, err := unix.Dup(int(m.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	if err := unix.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	m = os.NewFile(uintptr(fd), "/dev/ptmx")
	f := &firmware{t: t, master: m, slave: s}
	t.Cleanup(func() { m.Close(); s.Close() })
	return f
}

// board returns the e-puck board on this terminal, with short timeouts.
func (f *firmware) board() boards.Board {
	b, _ := boards.Lookup("epuck")
	b.Serial.Port = f.slave.Name()
	b.Timeout = 150 * time.Millisecond
	b.Retries = 1
	return b
}

// expect reads exactly the bytes want from the driver.
func (f *firmware) expect(want []byte) {
	f.t.Helper()
	got := make([]byte, len(want))
	f.master.SetReadDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.ReadFull(f.master, got); err != nil {
		f.t.Fatalf("waiting for % x: %v (got % x)", want, err, got)
	}
	if !bytes.Equal(got, want) {
		f.t.Fatalf("driver sent\n% x\nwant\n% x", got, want)
	}
}

func (f *firmware) reply(b []byte) {
	f.t.Helper()
	if _, err := f.master.Write(b); err != nil {
		f.t.Fatal(err)
	}
}

// run runs fn (a driver call) while the script plays, and returns fn's
// error.
func run(fn func() error, script func()) error {
	done := make(chan error, 1)
	go func() { done <- fn() }()
	script()
	return <-done
}

var (
	stopChain = []byte{0xBC, 0, 0, 0, 0, 0xBB, 0x00} // -D 0 0, -E, end
	zeros4    = []byte{0, 0, 0, 0}
)

func le16(v ...int) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(x)))
	}
	return b
}

var senseDevices = realrobot.Devices{
	Sensors:   []string{ci.TagEPuckProximity, ci.TagEPuckLight, ci.TagDifferentialSteering},
	Actuators: []string{ci.TagDifferentialSteering, ci.TagLEDs},
}

func openSerCom(t *testing.T, f *firmware, devs realrobot.Devices) (*epuck.SerCom, *test.Hook) {
	t.Helper()
	log, hook := test.NewNullLogger()
	log.SetLevel(logrus.DebugLevel)
	var drv *epuck.SerCom
	err := run(func() (err error) {
		drv, err = epuck.OpenSerCom(f.board(), devs, log)
		return err
	}, func() {
		f.expect(stopChain)
		f.reply(zeros4)
	})
	if err != nil {
		t.Fatalf("OpenSerCom: %v", err)
	}
	t.Cleanup(func() { drv.Close() })
	return drv, hook
}

func TestSerComFrames(t *testing.T) {
	f := newFirmware(t)
	drv, _ := openSerCom(t, f, senseDevices)

	// Sense: -N -O -E -Q, end; 40 bytes back.
	reply := le16(4000, 100, 100, 100, 100, 100, 100, 1800) // ps0 (front-right) far off the scale, ps7 (front-left) half
	reply = append(reply, le16(4000, 4000, 4000, 4000, 4000, 4000, 4000, 0)...)
	reply = append(reply, le16(-300, 500)...)
	reply = append(reply, le16(32767, -5)...)
	err := run(drv.Sense, func() {
		f.expect([]byte{0xB2, 0xB1, 0xBB, 0xAF, 0x00})
		f.reply(reply)
	})
	if err != nil {
		t.Fatalf("Sense: %v", err)
	}
	prox, _ := drv.Sensor(ci.TagEPuckProximity)
	pr := prox.(ci.Proximity).Readings()
	// ci reading 0 (17 degrees, front-left) is ps7; reading 7 (343, front-right) is ps0.
	if math.Abs(pr[0].Value-0.5) > 1e-9 || pr[7].Value != 1 || pr[3].Value != 0 {
		t.Errorf("proximity %v, want 0.5 at 17 degrees, 1 at 343 degrees", pr)
	}
	if math.Abs(pr[0].Angle-ci.Radians(17)) > 1e-9 {
		t.Errorf("reading 0 at %v rad, want 17 degrees", pr[0].Angle)
	}
	light, _ := drv.Sensor(ci.TagEPuckLight)
	if lr := light.(ci.Light).Readings(); lr[0].Value != 1 || lr[1].Value != 0 {
		t.Errorf("light %v, want ps7 (reading 0) fully lit, the others dark", lr)
	}
	enc, _ := drv.Sensor(ci.TagDifferentialSteering)
	rd := enc.(ci.DifferentialSteeringSensor).Reading()
	spc := 1000 / (2 * math.Pi * 2.05)
	if math.Abs(rd.VelocityLeft+300/spc) > 1e-9 || math.Abs(rd.VelocityRight-500/spc) > 1e-9 || rd.WheelAxisLength != 5.3 {
		t.Errorf("encoders %+v", rd)
	}

	// Act: -D 388 388, the eight ring LEDs (never sent yet), -E, end; the
	// firmware echoes the speeds.
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5) // 5 cm/s = 388.2 steps/s
	leds, _ := drv.Actuator(ci.TagLEDs)
	leds.(ci.LEDs).SetSingleColor(2, ci.Red)
	want := append([]byte{0xBC}, le16(388, 388)...)
	for i := range 8 {
		state := byte(0)
		if i == 2 {
			state = 1
		}
		want = append(want, 0xB4, byte(i), state)
	}
	want = append(want, 0xBB, 0x00)
	err = run(drv.Act, func() {
		f.expect(want)
		f.reply(le16(388, 388))
	})
	if err != nil {
		t.Fatalf("Act: %v", err)
	}

	// Second sense: the step counters wrapped from 32767 to -32767 (+2
	// steps) and went from -5 to -15 (-10 steps).
	reply2 := append(bytes.Repeat([]byte{0, 0}, 16), le16(388, 388, -32767, -15)...)
	if err := run(drv.Sense, func() { f.expect(epuck.SenseChain[:]); f.reply(reply2) }); err != nil {
		t.Fatal(err)
	}
	rd = enc.(ci.DifferentialSteeringSensor).Reading()
	if math.Abs(rd.CoveredDistanceLeft-2/spc) > 1e-9 || math.Abs(rd.CoveredDistanceRight+10/spc) > 1e-9 {
		t.Errorf("covered distances %v, %v cm, want %v, %v", rd.CoveredDistanceLeft, rd.CoveredDistanceRight, 2/spc, -10/spc)
	}

	// Only changed LEDs are sent; speeds are clamped to 1000 steps/s.
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(-100, 100)
	leds.(ci.LEDs).SetAllColors(ci.Black)
	want = append(append([]byte{0xBC}, le16(-1000, 1000)...), 0xB4, 2, 0, 0xBB, 0x00)
	if err := run(drv.Act, func() { f.expect(want); f.reply(le16(-1000, 1000)) }); err != nil {
		t.Fatal(err)
	}

	// Stop: -D 0 0, -E, end.
	if err := run(drv.Stop, func() { f.expect(stopChain); f.reply(zeros4) }); err != nil {
		t.Fatal(err)
	}
}

func TestSerComRetriesBadReplies(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first []byte
	}{
		{"garbage", bytes.Repeat([]byte{0xFF, 0x7F}, 20)},
		{"truncated", make([]byte, 30)},
		{"shifted by a stray byte", append([]byte{0xAA}, realistic()[:39]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFirmware(t)
			drv, hook := openSerCom(t, f, senseDevices)
			good := realistic()
			err := run(drv.Sense, func() {
				f.expect(epuck.SenseChain[:])
				f.reply(tc.first)
				f.expect(epuck.SenseChain[:]) // retried, stale bytes flushed
				f.reply(good)
			})
			if err != nil {
				t.Fatalf("Sense after one %s reply: %v", tc.name, err)
			}
			var debug bool
			for _, e := range hook.AllEntries() {
				debug = debug || e.Level == logrus.DebugLevel
			}
			if !debug {
				t.Error("the bad reply was not logged")
			}
		})
	}
}

// realistic is an answer to SenseChain with dim ambient light.
func realistic() []byte {
	b := le16(150, 80, 60, 70, 60, 90, 120, 300)
	b = append(b, le16(4000, 3990, 3980, 3995, 4000, 4001, 3999, 3998)...)
	return append(b, le16(388, 388, 1200, 1190)...)
}

func TestSerComGivesUp(t *testing.T) {
	f := newFirmware(t)
	drv, _ := openSerCom(t, f, senseDevices)
	start := time.Now()
	err := run(drv.Sense, func() {
		f.expect(epuck.SenseChain[:]) // never answered
		f.expect(epuck.SenseChain[:])
	})
	if err == nil || !strings.Contains(err.Error(), "2 attempts failed") || !strings.Contains(err.Error(), "truncated reply: 0 of 40") {
		t.Fatalf("Sense with no answer: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("gave up after %v; the board's timeout is 150 ms per attempt", d)
	}
	// An echo that does not match the command is refused.
	err = run(drv.Stop, func() {
		f.expect(stopChain)
		f.reply(le16(100, 100))
		f.expect(stopChain)
		f.reply(le16(100, 100))
	})
	if err == nil || !strings.Contains(err.Error(), "runs the wheels at 100, 100") {
		t.Errorf("Stop with a wrong echo: %v", err)
	}
}

func TestOpenSerComErrors(t *testing.T) {
	b, _ := boards.Lookup("epuck")
	b.Serial.Port = "/nonexistent/tty"
	b.Timeout = 10 * time.Millisecond
	_, err := epuck.OpenSerCom(b, senseDevices, nil)
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/tty") || !strings.Contains(err.Error(), "-port") {
		t.Errorf("OpenSerCom on a missing port: %v", err)
	}
	// A port where nobody answers.
	f := newFirmware(t)
	b = f.board()
	b.Timeout = 20 * time.Millisecond
	_, err = epuck.OpenSerCom(b, senseDevices, nil)
	if err == nil || !strings.Contains(err.Error(), "advanced sercom") {
		t.Errorf("OpenSerCom with no firmware: %v", err)
	}
}

func TestSerComDisconnectReconnect(t *testing.T) {
	dir := t.TempDir()
	link := dir + "/rfcomm0"
	f := newFirmware(t)
	if err := os.Symlink(f.slave.Name(), link); err != nil {
		t.Fatal(err)
	}
	b := f.board()
	b.Serial.Port = link
	var drv *epuck.SerCom
	err := run(func() (err error) { drv, err = epuck.OpenSerCom(b, senseDevices, nil); return err },
		func() { f.expect(stopChain); f.reply(zeros4) })
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	// Hang up: the link now names a new terminal.
	f.master.Close()
	f.slave.Close()
	f2 := newFirmware(t)
	os.Remove(link)
	if err := os.Symlink(f2.slave.Name(), link); err != nil {
		t.Fatal(err)
	}
	err = run(drv.Sense, func() {
		// The driver notices the lost port, reopens it, stops the wheels
		// first, then retries its chain.
		f2.expect(append(append([]byte{}, stopChain[:5]...), 0x00))
		f2.expect(epuck.SenseChain[:])
		f2.reply(make([]byte, epuck.SenseReplyLen))
	})
	if err != nil {
		t.Fatalf("Sense across a reconnection: %v", err)
	}
	if drv.Reopens() != 1 {
		t.Errorf("%d reopens, want 1", drv.Reopens())
	}
}

func TestSerComClosed(t *testing.T) {
	f := newFirmware(t)
	drv, _ := openSerCom(t, f, senseDevices)
	if err := drv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err == nil || !errors.Is(err, err) || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Sense after Close: %v", err)
	}
}
