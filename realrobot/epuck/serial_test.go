package epuck_test

import (
	"bytes"
	"errors"
	"fmt"
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

// board returns the e-puck board on this terminal, with a timeout short
// enough for the tests that wait it out and long enough for a script on
// a loaded machine to answer in time (a late answer is rejected).
func (f *firmware) board() boards.Board {
	b, _ := boards.Lookup("epuck")
	b.Serial.Port = f.slave.Name()
	b.Timeout = 400 * time.Millisecond
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

// script keeps the attempt numbers of a scripted exchange, for their
// tags.
type script struct {
	*firmware
	n uint64 // the driver's last attempt
}

// request is what attempt n sends for body.
func request(n uint64, body string) []byte {
	b, _ := epuck.AppendTag(nil, nil, n)
	return append(b, body...)
}

// answer is the reply of attempt n: its tag lines, then lines.
func answer(n uint64, lines ...string) []byte {
	_, want := epuck.AppendTag(nil, nil, n)
	var b []byte
	for _, e := range want {
		b = append(b, e.Letter, '\r', '\n')
	}
	for _, l := range lines {
		b = append(b, l+"\r\n"...)
	}
	return b
}

// next expects the next attempt's request for body and answers lines
// (nothing when lines is nil).
func (s *script) next(body string, lines ...string) {
	s.t.Helper()
	s.n++
	s.expect(request(s.n, body))
	if lines != nil {
		s.reply(answer(s.n, lines...))
	}
}

const (
	stopBody  = "D,0,0\rE\r"
	senseBody = "N\rO\rE\rQ\r"
)

var senseDevices = realrobot.Devices{
	Sensors:   []string{ci.TagEPuckProximity, ci.TagEPuckLight, ci.TagDifferentialSteering},
	Actuators: []string{ci.TagDifferentialSteering, ci.TagLEDs},
}

func openSerCom(t *testing.T, f *firmware, devs realrobot.Devices) (*epuck.SerCom, *test.Hook, *script) {
	t.Helper()
	log, hook := test.NewNullLogger()
	log.SetLevel(logrus.DebugLevel)
	sc := &script{firmware: f}
	var drv *epuck.SerCom
	err := run(func() (err error) {
		drv, err = epuck.OpenSerCom(f.board(), devs, log)
		return err
	}, func() { sc.next(stopBody, "d", "e,0,0") })
	if err != nil {
		t.Fatalf("OpenSerCom: %v", err)
	}
	t.Cleanup(func() { drv.Close() })
	return drv, hook, sc
}

func TestSerComFrames(t *testing.T) {
	f := newFirmware(t)
	drv, _, sc := openSerCom(t, f, senseDevices)

	// Sense: the tag, N, O, E, Q; one line each back.
	err := run(drv.Sense, func() {
		sc.next(senseBody,
			"n,4000,100,100,100,100,100,100,1800", // ps0 (front-right) far off the scale, ps7 (front-left) half
			"o,4000,4000,4000,4000,4000,4000,4000,0",
			"e,-300,500",
			"q,32767,-5")
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

	// Act: D,388,388, the eight ring LEDs (never sent yet), E; the
	// firmware echoes the speeds.
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5) // 5 cm/s = 388.2 steps/s
	leds, _ := drv.Actuator(ci.TagLEDs)
	leds.(ci.LEDs).SetSingleColor(2, ci.Red)
	body := "D,388,388\r"
	lines := []string{"d"}
	for i := range 8 {
		state := 0
		if i == 2 {
			state = 1
		}
		body += fmt.Sprintf("L,%d,%d\r", i, state)
		lines = append(lines, "l")
	}
	body += "E\r"
	lines = append(lines, "e,388,388")
	if err := run(drv.Act, func() { sc.next(body, lines...) }); err != nil {
		t.Fatalf("Act: %v", err)
	}

	// Second sense: the step counters wrapped from 32767 to -32767 (+2
	// steps) and went from -5 to -15 (-10 steps).
	err = run(drv.Sense, func() {
		sc.next(senseBody, "n,0,0,0,0,0,0,0,0", "o,0,0,0,0,0,0,0,0", "e,388,388", "q,-32767,-15")
	})
	if err != nil {
		t.Fatal(err)
	}
	rd = enc.(ci.DifferentialSteeringSensor).Reading()
	if math.Abs(rd.CoveredDistanceLeft-2/spc) > 1e-9 || math.Abs(rd.CoveredDistanceRight+10/spc) > 1e-9 {
		t.Errorf("covered distances %v, %v cm, want %v, %v", rd.CoveredDistanceLeft, rd.CoveredDistanceRight, 2/spc, -10/spc)
	}

	// Only changed LEDs are sent; speeds are clamped to 1000 steps/s.
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(-100, 100)
	leds.(ci.LEDs).SetAllColors(ci.Black)
	if err := run(drv.Act, func() { sc.next("D,-1000,1000\rL,2,0\rE\r", "d", "l", "e,-1000,1000") }); err != nil {
		t.Fatal(err)
	}

	// Stop: D,0,0 and E.
	if err := run(drv.Stop, func() { sc.next(stopBody, "d", "e,0,0") }); err != nil {
		t.Fatal(err)
	}
}

func TestSerComRetriesBadReplies(t *testing.T) {
	for _, tc := range []struct {
		name  string
		first func(n uint64) []byte
	}{
		{"garbage", func(uint64) []byte { return bytes.Repeat([]byte{0xFF, 0x7F}, 20) }},
		{"truncated", func(n uint64) []byte { b := answer(n, realistic()...); return b[:len(b)/2] }},
		{"shifted by a stray byte", func(n uint64) []byte { return append([]byte{'7'}, answer(n, realistic()...)...) }},
		{"a value out of range", func(n uint64) []byte {
			return answer(n, "n,150,80,60,70,60,90,120,9000", "o,0,0,0,0,0,0,0,0", "e,0,0", "q,0,0")
		}},
		{"a line without its delimiter", func(n uint64) []byte {
			return answer(n, "n,150,80,60,70,60,90,120,300o,0,0,0,0,0,0,0,0", "e,0,0", "q,0,0")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFirmware(t)
			drv, hook, sc := openSerCom(t, f, senseDevices)
			err := run(drv.Sense, func() {
				sc.next(senseBody)
				sc.reply(tc.first(sc.n))
				sc.next(senseBody, realistic()...) // retried, stale bytes flushed
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

// realistic is an answer to the sense request with dim ambient light.
func realistic() []string {
	return []string{"n,150,80,60,70,60,90,120,300", "o,4000,3990,3980,3995,4000,4001,3999,3998", "e,388,388", "q,1200,1190"}
}

// A reply that comes after its attempt timed out is rejected by its
// framing, whatever its values: the late answer to the previous attempt
// (same command, other tag), and the late echo of an act read where a
// sense is due.
func TestSerComRejectsLateReplies(t *testing.T) {
	f := newFirmware(t)
	b := f.board()
	b.Retries = 2
	log, hook := test.NewNullLogger()
	log.SetLevel(logrus.DebugLevel)
	sc := &script{firmware: f}
	var drv *epuck.SerCom
	err := run(func() (err error) { drv, err = epuck.OpenSerCom(b, senseDevices, log); return err },
		func() { sc.next(stopBody, "d", "e,0,0") })
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	stale := []string{"n,1,2,3,4,5,6,7,8", "o,0,0,0,0,0,0,0,0", "e,0,0", "q,0,0"}
	fresh := []string{"n,100,100,100,100,100,100,100,3500", "o,0,0,0,0,0,0,0,0", "e,0,0", "q,0,0"}
	err = run(drv.Sense, func() {
		sc.next(senseBody) // times out
		first := sc.n
		sc.next(senseBody)
		// The first attempt's answer arrives now, during the second:
		// right letters, plausible values, the first attempt's tag.
		sc.reply(answer(first, stale...))
		sc.next(senseBody, fresh...)
	})
	if err != nil {
		t.Fatalf("Sense: %v", err)
	}
	prox, _ := drv.Sensor(ci.TagEPuckProximity)
	if v := prox.(ci.Proximity).Readings()[0].Value; v != 1 {
		t.Errorf("proximity 0 reads %v: the late reply was taken (want 1, from the fresh one)", v)
	}
	// The act's echo, late, then read by the next sense.
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5)
	err = run(drv.Act, func() {
		sc.next("D,388,388\rL,0,0\rL,1,0\rL,2,0\rL,3,0\rL,4,0\rL,5,0\rL,6,0\rL,7,0\rE\r", "d", "l", "l", "l", "l", "l", "l", "l", "l", "e,388,388")
	})
	if err != nil {
		t.Fatalf("Act: %v", err)
	}
	err = run(drv.Sense, func() {
		sc.next(senseBody)
		// Lines that answer E and Q, not N: read as values they would
		// shift the proximity ring.
		sc.reply(append(answer(sc.n), "e,388,388\r\nq,0,0\r\n"...))
		sc.next(senseBody, fresh...)
	})
	if err != nil {
		t.Fatalf("Sense after a stray echo: %v", err)
	}
	var rejected int
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "bad reply") && strings.Contains(e.Message, "due") {
			rejected++
		}
	}
	if rejected != 2 {
		t.Errorf("%d replies rejected by their framing, want 2", rejected)
	}
}

// After a Stop, a retry of the act in progress does not resend its
// speeds, and an Act of the same tick sends nothing.
func TestSerComStopSupersedesTheAct(t *testing.T) {
	f := newFirmware(t)
	drv, _, sc := openSerCom(t, f, senseDevices)
	if err := run(drv.Sense, func() { sc.next(senseBody, realistic()...) }); err != nil {
		t.Fatal(err)
	}
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5)
	leds, _ := drv.Actuator(ci.TagLEDs)
	leds.(ci.LEDs).SetAllColors(ci.Black)
	act := "D,388,388\rL,0,0\rL,1,0\rL,2,0\rL,3,0\rL,4,0\rL,5,0\rL,6,0\rL,7,0\rE\r"
	err := run(drv.Act, func() {
		sc.next(act) // not answered: the act will retry
		// The runtime's overrun stop, while the act waits.
		if err := drv.Stop(); err != nil {
			t.Errorf("urgent Stop: %v", err)
		}
		f.expect([]byte("D,0,0\r"))
		// Nothing else may come: no retry of the act.
		f.master.SetReadDeadline(time.Now().Add(400 * time.Millisecond))
		if n, _ := f.master.Read(make([]byte, 64)); n > 0 {
			t.Errorf("the driver sent %d more bytes after the stop", n)
		}
	})
	if !errors.Is(err, realrobot.ErrSuperseded) {
		t.Errorf("Act: %v, want ErrSuperseded", err)
	}
	// A new tick drives again; the urgent stop's "d" is skipped.
	err = run(drv.Sense, func() {
		sc.n++
		f.expect(request(sc.n, senseBody))
		f.reply(append([]byte("d\r\n"), answer(sc.n, realistic()...)...))
	})
	if err != nil {
		t.Fatalf("Sense: %v", err)
	}
	if err := run(drv.Stop, func() { sc.next(stopBody, "d", "e,0,0") }); err != nil {
		t.Fatal(err)
	}
	if err := drv.Act(); !errors.Is(err, realrobot.ErrSuperseded) {
		t.Errorf("Act after a Stop in the same tick: %v, want ErrSuperseded", err)
	}
}

func TestSerComGivesUp(t *testing.T) {
	f := newFirmware(t)
	drv, _, sc := openSerCom(t, f, senseDevices)
	start := time.Now()
	err := run(drv.Sense, func() {
		sc.next(senseBody) // never answered
		sc.next(senseBody)
	})
	if err == nil || !strings.Contains(err.Error(), "2 attempts failed") || !strings.Contains(err.Error(), "truncated reply: 0 of 7 lines") {
		t.Fatalf("Sense with no answer: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("gave up after %v; the board's timeout is 400 ms per attempt", d)
	}
	// An echo that does not match the command is refused.
	err = run(drv.Stop, func() {
		sc.next(stopBody, "d", "e,100,100")
		sc.next(stopBody, "d", "e,100,100")
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
	sc := &script{firmware: f}
	var drv *epuck.SerCom
	err := run(func() (err error) { drv, err = epuck.OpenSerCom(b, senseDevices, nil); return err },
		func() { sc.next(stopBody, "d", "e,0,0") })
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
	sc2 := &script{firmware: f2, n: sc.n}
	err = run(drv.Sense, func() {
		// The driver notices the lost port, reopens it, stops the wheels
		// first, then retries its request.
		sc2.next(stopBody, "d", "e,0,0")
		sc2.next(senseBody, realistic()...)
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
	drv, _, _ := openSerCom(t, f, senseDevices)
	if err := drv.Close(); err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Sense after Close: %v", err)
	}
}
