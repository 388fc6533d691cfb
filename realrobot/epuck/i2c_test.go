package epuck_test

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/epuck"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
	"periph.io/x/conn/v3/physic"
)

// xor is the frame checksum, computed independently of the package.
func xor(b []byte) byte {
	var x byte
	for _, c := range b {
		x ^= c
	}
	return x
}

// withSum appends the checksum.
func le16(v ...int) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint16(b, uint16(int16(x)))
	}
	return b
}

func withSum(b ...byte) []byte { return append(b, xor(b)) }

// stopFrame is the actuator frame with everything at zero.
var stopFrame = withSum(make([]byte, 19)...)

// sensorFrame returns a 47-byte sensor frame: proximity i = 100*(i+1),
// ambient i = 4000 - i, mic 0, selector 5 with the button pressed, steps
// (left, right), TV remote 0.
func sensorFrame(left, right int16) []byte {
	var b []byte
	for i := range 8 {
		b = append(b, le16(100*(i+1))...)
	}
	for i := range 8 {
		b = append(b, le16(4000-i)...)
	}
	b = append(b, make([]byte, 8)...)
	b = append(b, 0x15)
	b = append(b, le16(int(left), int(right))...)
	b = append(b, 0)
	return withSum(b...)
}

func tofStartOps() []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: 0x29, W: []byte{0xC0}, R: []byte{0xEE}},
		{Addr: 0x29, W: []byte{0x80, 0x01}}, {Addr: 0x29, W: []byte{0xFF, 0x01}}, {Addr: 0x29, W: []byte{0x00, 0x00}},
		{Addr: 0x29, W: []byte{0x91}, R: []byte{0x3C}}, {Addr: 0x29, W: []byte{0x91, 0x3C}},
		{Addr: 0x29, W: []byte{0x00, 0x01}}, {Addr: 0x29, W: []byte{0xFF, 0x00}}, {Addr: 0x29, W: []byte{0x80, 0x00}},
		{Addr: 0x29, W: []byte{0x00, 0x02}},
	}
}

func imuStartOps() []i2ctest.IO {
	return []i2ctest.IO{
		{Addr: 0x68, W: []byte{0x75}, R: []byte{0x71}},
		{Addr: 0x68, W: []byte{0x6B, 0x00}}, {Addr: 0x68, W: []byte{0x1C, 0x00}}, {Addr: 0x68, W: []byte{0x1B, 0x00}},
	}
}

// groundOp reads the ground module: big-endian 1000, 500, 0.
var groundOp = i2ctest.IO{Addr: 0x60, W: []byte{0x00}, R: []byte{0x03, 0xE8, 0x01, 0xF4, 0x00, 0x00}}

var allDevices = realrobot.Devices{
	Sensors: []string{ci.TagEPuckProximity, ci.TagEPuckLight, ci.TagDifferentialSteering, ci.TagEPuckGround,
		boards.TagToF, boards.TagIMU},
	Actuators: []string{ci.TagDifferentialSteering, ci.TagLEDs},
}

func pipuck(t *testing.T, name string) boards.Board {
	t.Helper()
	b, err := boards.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestI2CFrames(t *testing.T) {
	ops := []i2ctest.IO{{Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)}}
	ops = append(ops, tofStartOps()...)
	ops = append(ops, imuStartOps()...)
	ops = append(ops, groundOp)
	// Sense: the frame (the last actuators again), then ground, ToF, IMU.
	imu := []byte{0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x83} // ax = 1 g, gz = 1 °/s
	ops = append(ops,
		i2ctest.IO{Addr: 0x1F, W: stopFrame, R: sensorFrame(10, -20)},
		groundOp,
		i2ctest.IO{Addr: 0x29, W: []byte{0x13}, R: []byte{0x07}},
		i2ctest.IO{Addr: 0x29, W: []byte{0x1E}, R: []byte{0x01, 0x2C}}, // 300 mm
		i2ctest.IO{Addr: 0x29, W: []byte{0x0B, 0x01}},
		i2ctest.IO{Addr: 0x68, W: []byte{0x3B}, R: imu},
	)
	// Act: 5 cm/s on both wheels (388 steps/s = 0x0184), LED1 red (bit 0),
	// LED2 pure red at the firmware's 0-100 scale, LED8 white.
	act := []byte{0x84, 0x01, 0x84, 0x01, 0x00, 0x01, 100, 0, 0, 0, 0, 0, 0, 0, 0, 100, 100, 100, 0}
	ops = append(ops, i2ctest.IO{Addr: 0x1F, W: withSum(act...), R: sensorFrame(10, -20)})
	// Stop keeps the LEDs and zeroes the speeds.
	stop := append([]byte{0, 0, 0, 0}, act[4:]...)
	ops = append(ops, i2ctest.IO{Addr: 0x1F, W: withSum(stop...), R: sensorFrame(10, -20)})

	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	drv, err := epuck.NewI2C(bus, pipuck(t, "pipuck"), allDevices, nil)
	if err != nil {
		t.Fatalf("NewI2C: %v", err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatalf("Sense: %v", err)
	}
	sensor := func(tag string) any {
		s, ok := drv.Sensor(tag)
		if !ok {
			t.Fatalf("no sensor %s", tag)
		}
		return s
	}
	pr := sensor(ci.TagEPuckProximity).(ci.Proximity).Readings()
	// reading 0 (17°) is ps7 = 800; reading 7 (343°) is ps0 = 100.
	if math.Abs(pr[0].Value-700.0/3400) > 1e-9 || pr[7].Value != 0 {
		t.Errorf("proximity %v", pr)
	}
	gr := sensor(ci.TagEPuckGround).(ci.Ground).Readings()
	if gr[0].Value != 1 || gr[1].Value != 0.5 || gr[2].Value != 0 || gr[0].Offset.Y <= 0 {
		t.Errorf("ground %v, want 1, 0.5, 0 from left to right", gr)
	}
	tof := sensor(boards.TagToF).(ci.DistanceScannerSensor).Readings()
	if len(tof) != 1 || tof[0].Distance != 30 || tof[0].Angle != 0 {
		t.Errorf("ToF %v, want 30 cm straight ahead", tof)
	}
	m := sensor(boards.TagIMU).(interface {
		Acceleration() ci.Vector3
		AngularVelocity() ci.Vector3
	})
	if a, w := m.Acceleration(), m.AngularVelocity(); math.Abs(a.X-9.80665) > 1e-9 || math.Abs(w.Z-math.Pi/180) > 1e-9 {
		t.Errorf("IMU %v, %v", a, w)
	}
	enc := sensor(ci.TagDifferentialSteering).(ci.DifferentialSteeringSensor).Reading()
	spc := 1000 / (2 * math.Pi * 2.05)
	if math.Abs(enc.CoveredDistanceLeft-10/spc) > 1e-9 || math.Abs(enc.CoveredDistanceRight+20/spc) > 1e-9 {
		t.Errorf("encoders %+v", enc)
	}
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5)
	l, _ := drv.Actuator(ci.TagLEDs)
	l.(ci.LEDs).SetSingleColor(0, ci.Red)
	l.(ci.LEDs).SetSingleColor(1, ci.Red)
	l.(ci.LEDs).SetSingleColor(7, ci.White)
	if err := drv.Act(); err != nil {
		t.Fatalf("Act: %v", err)
	}
	if err := drv.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
}

func TestI2CMux(t *testing.T) {
	sel := i2ctest.IO{Addr: 0x70, W: []byte{0x02}} // channel 1
	bus := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		sel, {Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)},
		sel, {Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)},
	}}
	b := pipuck(t, "pipuck-mux")
	mux := &epuck.MuxBus{Bus: bus, Addr: b.I2C.MuxAddr, Channel: b.I2C.MuxChannel}
	drv, err := epuck.NewI2C(mux, b, realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatal(err)
	}
	if err := bus.Close(); err != nil {
		t.Error(err)
	}
	if !strings.Contains(mux.String(), "mux@70:1") {
		t.Errorf("mux name %q", mux.String())
	}
}

// flaky fails the transactions whose 0-based index is in fail.
type flaky struct {
	mu   sync.Mutex
	bus  i2c.Bus
	n    int
	fail map[int]error
}

func (f *flaky) String() string { return "flaky" }
func (f *flaky) Tx(addr uint16, w, r []byte) error {
	f.mu.Lock()
	n := f.n
	f.n++
	err := f.fail[n]
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.bus.Tx(addr, w, r)
}
func (f *flaky) SetSpeed(physic.Frequency) error { return nil }

func TestI2CRetries(t *testing.T) {
	nack := errors.New("sysfs-i2c: remote I/O error")
	timeout := errors.New("sysfs-i2c: connection timed out")
	bad := sensorFrame(0, 0)
	bad[46] ^= 0xFF
	ops := []i2ctest.IO{
		{Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)}, // open
		{Addr: 0x1F, W: stopFrame, R: bad},               // sense: bad checksum
		{Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)}, // retried
	}
	pb := &i2ctest.Playback{Ops: ops, DontPanic: true}
	// Transactions 1 and 2 (after the open) NACK and time out: each is
	// retried, then the bad checksum, then a good frame: 4 of the 4
	// attempts the board allows.
	bus := &flaky{bus: pb, fail: map[int]error{1: nack, 2: timeout}}
	drv, err := epuck.NewI2C(bus, pipuck(t, "pipuck"), realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatalf("Sense with 3 failed attempts of 4: %v", err)
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
	// Four failures in a row: an error naming the last one.
	pb2 := &i2ctest.Playback{Ops: []i2ctest.IO{{Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)}}, DontPanic: true}
	bus2 := &flaky{bus: pb2, fail: map[int]error{1: nack, 2: nack, 3: nack, 4: timeout}}
	drv, err = epuck.NewI2C(bus2, pipuck(t, "pipuck"), realrobot.Devices{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = drv.Stop()
	if err == nil || !strings.Contains(err.Error(), "4 attempts failed") || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("Stop on a dead bus: %v", err)
	}
}

func TestI2CAuxDegrades(t *testing.T) {
	imu := make([]byte, 14)
	imu[4] = 0x40 // az = 1 g
	frame := i2ctest.IO{Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)}
	ops := append([]i2ctest.IO{frame}, imuStartOps()...) // transactions 0-4
	ops = append(ops,
		frame, i2ctest.IO{Addr: 0x68, W: []byte{0x3B}, R: imu}, // 5-6: first sense
		frame,                                                               // 7, then 8-11: the IMU fails 4 times
		frame, i2ctest.IO{Addr: 0x68, W: []byte{0x3B}, R: make([]byte, 14)}, // 12-13: back, all zero
	)
	pb := &i2ctest.Playback{Ops: ops, DontPanic: true}
	nack := errors.New("NACK")
	bus := &flaky{bus: pb, fail: map[int]error{8: nack, 9: nack, 10: nack, 11: nack}}
	log, hook := test.NewNullLogger()
	drv, err := epuck.NewI2C(bus, pipuck(t, "pipuck"), realrobot.Devices{Sensors: []string{boards.TagIMU}}, log)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := drv.Sensor(boards.TagIMU)
	acc := func() float64 { return s.(*epuck.IMU).Acceleration().Z }
	if err := drv.Sense(); err != nil || math.Abs(acc()-9.80665) > 1e-9 {
		t.Fatalf("first Sense: %v, az %v", err, acc())
	}
	if err := drv.Sense(); err != nil {
		t.Fatalf("a failing IMU failed the tick: %v", err)
	}
	if !drv.Degraded("IMU") || math.Abs(acc()-9.80665) > 1e-9 {
		t.Errorf("degraded %v, az %v: the IMU should keep its last reading", drv.Degraded("IMU"), acc())
	}
	var logged bool
	for _, e := range hook.AllEntries() {
		logged = logged || e.Level == logrus.ErrorLevel && strings.Contains(e.Message, "IMU failed after 4 attempts")
	}
	if !logged {
		t.Error("the degraded IMU was not logged as an error")
	}
	if err := drv.Sense(); err != nil || drv.Degraded("IMU") || acc() != 0 {
		t.Errorf("third Sense: %v, degraded %v, az %v", err, drv.Degraded("IMU"), acc())
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

func TestNewI2CErrors(t *testing.T) {
	// No ToF at 0x29: a clear error at start-up.
	pb := &i2ctest.Playback{DontPanic: true, Ops: []i2ctest.IO{
		{Addr: 0x1F, W: stopFrame, R: sensorFrame(0, 0)},
		{Addr: 0x29, W: []byte{0xC0}, R: []byte{0x00}},
		{Addr: 0x29, W: []byte{0xC0}, R: []byte{0x00}},
		{Addr: 0x29, W: []byte{0xC0}, R: []byte{0x00}},
		{Addr: 0x29, W: []byte{0xC0}, R: []byte{0x00}},
	}}
	_, err := epuck.NewI2C(pb, pipuck(t, "pipuck"), realrobot.Devices{Sensors: []string{boards.TagToF}}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a VL53L0X") || !strings.Contains(err.Error(), "remove <epuck_tof>") {
		t.Errorf("NewI2C without a ToF: %v", err)
	}
	serial := pipuck(t, "pipuck")
	serial.Protocol = boards.ProtocolSerCom
	_, err = epuck.NewI2C(pb, serial, realrobot.Devices{}, nil)
	if !errors.Is(err, realrobot.ErrNotSupported) {
		t.Errorf("NewI2C for a sercom board: %v", err)
	}
	b := pipuck(t, "pipuck")
	b.I2C.Bus, b.I2C.Fallback = "no-such-bus", []string{"nor-this-one"}
	_, err = epuck.OpenI2C(b, realrobot.Devices{}, nil)
	if err == nil || !strings.Contains(err.Error(), "no-such-bus") || !strings.Contains(err.Error(), "nor-this-one") {
		t.Errorf("OpenI2C on a missing bus: %v", err)
	}
}

func TestSMBusFrames(t *testing.T) {
	word := func(reg byte, v int) i2ctest.IO { return i2ctest.IO{Addr: 0x1F, W: []byte{reg}, R: le16(v)} }
	set := func(reg byte, v int) i2ctest.IO { return i2ctest.IO{Addr: 0x1F, W: append([]byte{reg}, le16(v)...)} }
	ops := []i2ctest.IO{
		set(6, 1),                                    // IR on
		set(2, 0), set(3, 0), word(2, 0), word(3, 0), // stop, read back
		word(4, 100), word(5, -100), // steps
	}
	for i := range 8 {
		ops = append(ops, word(byte(7+i), 100*(i+1))) // reflected, ps0..ps7
	}
	for i := range 8 {
		ops = append(ops, word(byte(15+i), 4000))
	}
	ops = append(ops, set(2, 388), set(3, -388), word(2, 388), word(3, -388), set(0, 0x05)) // act: LEDs 0 and 2
	ops = append(ops, set(2, 388), set(3, -388), word(2, 388), word(3, -388))               // same LEDs: not rewritten
	pb := &i2ctest.Playback{Ops: ops, DontPanic: true}
	devs := realrobot.Devices{Sensors: []string{ci.TagEPuckProximity, ci.TagDifferentialSteering}, Actuators: []string{ci.TagDifferentialSteering, ci.TagLEDs}}
	drv, err := epuck.NewI2C(pb, pipuck(t, "pipuck-smbus"), devs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatal(err)
	}
	p, _ := drv.Sensor(ci.TagEPuckProximity)
	if pr := p.(ci.Proximity).Readings(); math.Abs(pr[0].Value-700.0/3400) > 1e-9 || pr[7].Value != 0 {
		t.Errorf("proximity %v", pr)
	}
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, -5)
	l, _ := drv.Actuator(ci.TagLEDs)
	l.(ci.LEDs).SetSingleColor(0, ci.Red)
	l.(ci.LEDs).SetSingleColor(2, ci.Green)
	if err := drv.Act(); err != nil {
		t.Fatal(err)
	}
	if err := drv.Act(); err != nil {
		t.Fatal(err)
	}
	if err := pb.Close(); err != nil {
		t.Error(err)
	}
}

// hanging is an e-puck2 on a bus that records the wheel speeds of every
// frame and can hold one transaction until released, then time it out
// (the e-puck2 took the frame, its answer was lost).
type hanging struct {
	mu      sync.Mutex
	speeds  [][2]int16
	hold    int // 1-based index of the transaction to hold
	n       int
	held    chan struct{}
	release chan struct{}
}

func (h *hanging) String() string { return "hanging" }
func (h *hanging) Tx(addr uint16, w, r []byte) error {
	a, err := epuck.DecodeActuators(w)
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.n++
	h.speeds = append(h.speeds, [2]int16{a.Left, a.Right})
	hold := h.n == h.hold
	h.mu.Unlock()
	copy(r, sensorFrame(0, 0))
	if hold {
		close(h.held)
		<-h.release
		return errors.New("sysfs-i2c: connection timed out")
	}
	return nil
}
func (h *hanging) SetSpeed(physic.Frequency) error { return nil }

func (h *hanging) frames() [][2]int16 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([][2]int16(nil), h.speeds...)
}

// A stop during an act whose transaction timed out: the act's retries
// and the next sense carry zero speeds, not the act's.
func TestI2CStopStaysAStop(t *testing.T) {
	bus := &hanging{hold: 3, held: make(chan struct{}), release: make(chan struct{})}
	devs := realrobot.Devices{Actuators: []string{ci.TagDifferentialSteering}}
	drv, err := epuck.NewI2C(bus, pipuck(t, "pipuck"), devs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := drv.Sense(); err != nil { // transaction 2
		t.Fatal(err)
	}
	w, _ := drv.Actuator(ci.TagDifferentialSteering)
	w.(ci.DifferentialSteeringActuator).SetLinearVelocity(5, 5)
	acted := make(chan error, 1)
	go func() { acted <- drv.Act() }() // transaction 3 hangs
	<-bus.held
	stopped := make(chan error, 1)
	go func() { stopped <- drv.Stop() }() // the runtime's overrun stop
	time.Sleep(50 * time.Millisecond)     // Stop waits for the bus
	close(bus.release)
	if err := <-stopped; err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := <-acted; !errors.Is(err, realrobot.ErrSuperseded) {
		t.Errorf("Act: %v, want ErrSuperseded", err)
	}
	if err := drv.Sense(); err != nil {
		t.Fatal(err)
	}
	f := bus.frames()
	if len(f) < 5 || f[2] != [2]int16{388, 388} || f[3] != [2]int16{} {
		t.Fatalf("frames %v: want the act's, then the stop's", f)
	}
	for i, s := range f[3:] {
		if s != [2]int16{} {
			t.Errorf("frame %d after the stop carries %v: the stop was undone (frames %v)", 4+i, s, f)
		}
	}
	// The next tick's act drives again.
	if err := drv.Act(); err != nil {
		t.Fatal(err)
	}
	if f := bus.frames(); f[len(f)-1] != [2]int16{388, 388} {
		t.Errorf("the next act sent %v", f[len(f)-1])
	}
}
