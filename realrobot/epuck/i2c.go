package epuck

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/realrobot"
	"github.com/sirupsen/logrus"
	"periph.io/x/conn/v3/driver/driverreg"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
	_ "periph.io/x/host/v3/sysfs" // registers /dev/i2c-* in i2creg on Linux
)

// MuxBus is one channel of a PCA9548 multiplexer: every transaction first
// selects the channel (write 1<<Channel to the mux), so that another
// program switching the mux cannot send a frame to the wrong chip.
type MuxBus struct {
	Bus     i2c.Bus
	Addr    uint16
	Channel int
}

var _ i2c.Bus = (*MuxBus)(nil)

func (m *MuxBus) String() string {
	return m.Bus.String() + "/mux@" + strconv.FormatUint(uint64(m.Addr), 16) + ":" + strconv.Itoa(m.Channel)
}

// Tx selects the channel, then runs the transaction.
func (m *MuxBus) Tx(addr uint16, w, r []byte) error {
	if err := m.Bus.Tx(m.Addr, []byte{1 << m.Channel}, nil); err != nil {
		return fmt.Errorf("epuck: selecting channel %d of the mux at %#x: %w", m.Channel, m.Addr, err)
	}
	return m.Bus.Tx(addr, w, r)
}

// SetSpeed sets the speed of the underlying bus.
func (m *MuxBus) SetSpeed(f physic.Frequency) error { return m.Bus.SetSpeed(f) }

var hostInit sync.Once

// OpenBus opens the board's I²C bus by its periph name (trying the
// fallbacks in order) and wraps it in the board's mux, if any. A bus an
// emulator registered in i2creg is found the same way.
func OpenBus(b *boards.Board) (i2c.BusCloser, error) {
	hostInit.Do(func() { _, _ = driverreg.Init() })
	var errs []error
	names := append([]string{b.I2C.Bus}, b.I2C.Fallback...)
	for _, name := range names {
		bus, err := i2creg.Open(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if b.I2C.MuxAddr != 0 {
			return &muxCloser{MuxBus{Bus: bus, Addr: b.I2C.MuxAddr, Channel: b.I2C.MuxChannel}, bus}, nil
		}
		return bus, nil
	}
	return nil, fmt.Errorf("epuck: cannot open the I²C bus (tried %s): %w; is I²C enabled and the Pi-puck's mux driver loaded? (-bus names another bus)",
		strings.Join(names, ", "), errors.Join(errs...))
}

type muxCloser struct {
	MuxBus
	c io.Closer
}

func (m *muxCloser) Close() error { return m.c.Close() }

// I2C drives an e-puck2 through a Pi-puck's I²C frames at 0x1F (or the
// SMBus register map of the other firmware variant, as the board says),
// with the ToF, IMU and ground sensors of the same bus. Make it with OpenI2C or
// NewI2C.
type I2C struct {
	b   boards.Board
	log logrus.FieldLogger
	dev *devices

	sup      realrobot.Supersede
	mu       sync.Mutex   // held by Sense, Act and a checked Stop
	txMu     sync.Mutex   // held by each transaction at the e-puck2's address
	stopping atomic.Int32 // urgent stops waiting for txMu
	withheld bool         // a frame carried zero speeds instead of act's
	speedsAt uint64       // the stops counted when act's speeds were set
	bus      i2c.Bus
	closer   io.Closer
	epuck    i2c.Dev
	tofDev   i2c.Dev
	imuDev   i2c.Dev
	grDev    i2c.Dev
	act      Actuators
	w        [ActuatorsLen]byte
	r        [SensorsLen]byte
	got      Sensors
	degraded map[string]bool
	closed   bool
	smbus    bool // the register-map firmware instead of frames
	outer    int  // SMBus: ring LEDs last written; -1 unknown
}

var _ realrobot.Driver = (*I2C)(nil)

// OpenI2C opens the board's bus (OpenBus) and the driver on it; Close
// closes the bus.
func OpenI2C(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (*I2C, error) {
	if b.I2C == nil {
		return nil, fmt.Errorf("epuck: board %q has no I²C bus", b.Name)
	}
	bus, err := OpenBus(&b)
	if err != nil {
		return nil, err
	}
	drv, err := NewI2C(bus, b, d, log)
	if err != nil {
		bus.Close()
		return nil, err
	}
	drv.closer = bus
	return drv, nil
}

// NewI2C makes the driver on an open bus (Close leaves the bus open). It
// stops the wheels as its first transaction, which also checks that the
// e-puck2 answers, and starts the declared ToF and IMU.
func NewI2C(bus i2c.Bus, b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (*I2C, error) {
	if b.I2C == nil {
		return nil, fmt.Errorf("epuck: board %q has no I²C bus", b.Name)
	}
	if b.Protocol != boards.ProtocolEPuck2I2C && b.Protocol != boards.ProtocolEPuck2SMBus {
		return nil, fmt.Errorf("epuck: board %q speaks %s, which this driver does not implement: %w", b.Name, b.Protocol, realrobot.ErrNotSupported)
	}
	if log == nil {
		log = discardLogger()
	}
	c := b.I2C
	x := &I2C{
		b: b, log: log.WithField("bus", bus.String()), dev: newDevices(b, d), bus: bus,
		epuck:  i2c.Dev{Bus: bus, Addr: c.Addr},
		tofDev: i2c.Dev{Bus: bus, Addr: c.ToFAddr}, imuDev: i2c.Dev{Bus: bus, Addr: c.IMUAddr}, grDev: i2c.Dev{Bus: bus, Addr: c.GroundAddr},
		degraded: map[string]bool{},
		smbus:    b.Protocol == boards.ProtocolEPuck2SMBus,
		outer:    -1,
	}
	if x.smbus {
		if err := x.smbusStart(); err != nil {
			return nil, fmt.Errorf("%w; check that the e-puck2 is on and its firmware has the SMBus register map at %#x", err, c.Addr)
		}
	}
	if err := x.Stop(); err != nil {
		return nil, fmt.Errorf("%w; check that the e-puck2 is on and its firmware speaks the Pi-puck frames at %#x", err, c.Addr)
	}
	if !x.smbus {
		x.dev.lastSteps, x.dev.haveSteps = x.got.Steps, true
	}
	if x.dev.tof != nil {
		if err := x.retry(func() error { return tofStart(&x.tofDev) }); err != nil {
			return nil, fmt.Errorf("epuck: time-of-flight sensor at %#x: %w; remove <%s> from <sensors> if the robot has none", c.ToFAddr, err, boards.TagToF)
		}
	}
	if x.dev.imu != nil {
		if err := x.retry(func() error { return imuStart(&x.imuDev) }); err != nil {
			return nil, fmt.Errorf("epuck: IMU at %#x: %w; remove <%s> from <sensors> if the robot has none", c.IMUAddr, err, boards.TagIMU)
		}
	}
	if x.dev.ground != nil {
		if err := x.retry(x.readGround); err != nil {
			return nil, fmt.Errorf("epuck: ground-sensor module at %#x: %w; remove the ground sensors from <sensors> if the robot has none", c.GroundAddr, err)
		}
	}
	return x, nil
}

// retry runs fn up to 1+Retries times.
func (x *I2C) retry(fn func() error) error {
	var err error
	for range 1 + max(0, x.b.Retries) {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// frame runs one frame transaction, retried on bus errors and bad
// checksums. The frame carries the speeds of the Act of the tick that
// began at speedsAt; once a stop came since, it carries zero speeds, so
// that neither a retry nor the next Sense undoes the stop.
func (x *I2C) frame() error {
	if x.closed {
		return errors.New("epuck: the driver is closed")
	}
	attempts := 1 + max(0, x.b.Retries)
	var last error
	for range attempts {
		if err := x.tx(); err != nil {
			last = err
			continue
		}
		s, err := DecodeSensors(x.r[:])
		if err != nil {
			last = err
			continue
		}
		x.got = s
		return nil
	}
	return fmt.Errorf("epuck: I²C frame at %#x on %s: %d attempts failed, the last: %w", x.b.I2C.Addr, x.bus, attempts, last)
}

// tx runs one frame transaction with the current actuator state.
func (x *I2C) tx() error {
	x.txMu.Lock()
	defer x.txMu.Unlock()
	if n := x.sup.Stops(); n != x.speedsAt {
		x.act.Left, x.act.Right, x.speedsAt = 0, 0, n
		x.withheld = true
	}
	a := x.act
	if x.stopping.Load() > 0 {
		a.Left, a.Right = 0, 0 // a stop waits for the bus: do not send speeds before it
		x.withheld = true
	}
	a.Encode(&x.w)
	return x.epuck.Tx(x.w[:], x.r[:])
}

// aux runs the exchange of an auxiliary chip; after the retries it
// degrades the sensor (its reading stays) and logs the change of state.
func (x *I2C) aux(name string, fn func() error) {
	err := x.retry(fn)
	switch {
	case err != nil && !x.degraded[name]:
		x.degraded[name] = true
		x.log.Errorf("epuck: %s failed after %d attempts: %v; it keeps its last reading until it answers again", name, 1+x.b.Retries, err)
	case err == nil && x.degraded[name]:
		x.degraded[name] = false
		x.log.Infof("epuck: %s answers again", name)
	}
}

// Degraded reports whether an auxiliary sensor ("time-of-flight sensor",
// "IMU", "ground sensors") is failing.
func (x *I2C) Degraded(name string) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.degraded[name]
}

func (x *I2C) readGround() error {
	var b [2 * GroundCount]byte
	if err := x.grDev.Tx([]byte{GroundRegValues}, b[:]); err != nil {
		return err
	}
	g, err := DecodeGround(b[:])
	if err != nil {
		return err
	}
	x.dev.setGround(g)
	return nil
}

// Sense runs a frame transaction (resending the last actuator frame) and
// reads the declared auxiliary chips.
func (x *I2C) Sense() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return errors.New("epuck: the driver is closed")
	}
	x.sup.BeginSense()
	if x.smbus {
		if err := x.smbusSense(); err != nil {
			return err
		}
	} else {
		if err := x.frame(); err != nil {
			return err
		}
		s := &x.got
		x.dev.setProximity(func(i int) float64 { return float64(s.Proximity[i]) })
		x.dev.setLight(func(i int) float64 { return float64(s.Ambient[i]) })
		x.dev.setWheels([2]int16{x.act.Left, x.act.Right}, s.Steps)
	}
	if x.dev.ground != nil {
		x.aux("ground sensors", x.readGround)
	}
	if x.dev.tof != nil {
		x.aux("time-of-flight sensor", func() error {
			mm, fresh, err := tofRead(&x.tofDev)
			if err == nil && fresh {
				x.dev.tof.readings[0].Distance = ToFDistanceCM(mm)
			}
			return err
		})
	}
	if x.dev.imu != nil {
		x.aux("IMU", func() error {
			var b [imuReadLen]byte
			if err := x.imuDev.Tx([]byte{IMURegAccelXOut}, b[:]); err != nil {
				return err
			}
			smp, err := DecodeIMU(b[:])
			if err == nil {
				x.dev.imu.s = smp
			}
			return err
		})
	}
	return nil
}

// Act sends the wheel speeds and LEDs the controller set. After a Stop
// in the same tick it sends nothing (realrobot.ErrSuperseded); a Stop
// during it makes its retries send zero speeds.
func (x *I2C) Act() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	mark := x.sup.BeginAct()
	if x.sup.Superseded(mark) {
		return fmt.Errorf("epuck: %w", realrobot.ErrSuperseded)
	}
	if x.smbus {
		l, r := x.dev.wheelSteps()
		return x.smbusAct(l, r, mark)
	}
	x.act.Left, x.act.Right = x.dev.wheelSteps()
	x.speedsAt, x.withheld = mark, false
	if l := x.dev.leds; l != nil {
		x.act.RedLEDs = 0
		for k := range 4 {
			if lit(l.Colors()[2*k]) {
				x.act.RedLEDs |= 1 << k
			}
			c := l.Colors()[2*k+1]
			x.act.RGB[k] = [3]uint8{x.rgb(c.R), x.rgb(c.G), x.rgb(c.B)}
		}
	}
	if err := x.frame(); err != nil {
		return err
	}
	if x.withheld {
		return fmt.Errorf("epuck: %w", realrobot.ErrSuperseded)
	}
	return nil
}

// rgb scales a 0-255 channel to the firmware's 0-RGBMax.
func (x *I2C) rgb(v uint8) uint8 {
	m := x.b.Calibration.RGBMax
	if m == 0 {
		m = 255
	}
	return uint8(math.Round(float64(v) * float64(m) / 255))
}

// Stop sends a frame with both wheels at 0. When an exchange is in
// progress (its retries can outlast a tick) it does not wait for it: it
// sends an all-zero frame (wheels stopped, LEDs off) between the
// exchange's transactions, once; that exchange's retries, and the frames
// after it until the next Act, carry zero speeds.
func (x *I2C) Stop() error {
	if x.mu.TryLock() {
		defer x.mu.Unlock()
		x.sup.Stopped()
		if x.smbus {
			return x.smbusSpeeds(0, 0, nil)
		}
		return x.frame()
	}
	x.stopping.Add(1)
	x.txMu.Lock()
	defer x.txMu.Unlock()
	x.sup.Stopped()
	x.stopping.Add(-1)
	if x.smbus {
		return x.smbusUrgentStop()
	}
	var w [ActuatorsLen]byte
	var r [SensorsLen]byte
	(&Actuators{}).Encode(&w)
	return x.epuck.Tx(w[:], r[:])
}

// Sensor returns the declared sensor with the tag.
func (x *I2C) Sensor(tag string) (any, bool) { return x.dev.sensor(tag) }

// Actuator returns the declared actuator with the tag.
func (x *I2C) Actuator(tag string) (any, bool) { return x.dev.actuator(tag) }

// Close closes the bus if OpenI2C opened it.
func (x *I2C) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.closed = true
	if x.closer != nil {
		c := x.closer
		x.closer = nil
		return c.Close()
	}
	return nil
}

func init() {
	realrobot.Protocols.MustRegister(string(boards.ProtocolSerCom),
		"e-puck: advanced sercom (ASCII mode, framed replies) over a serial port (go.bug.st/serial)",
		func(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (realrobot.Driver, error) {
			return OpenSerCom(b, d, log)
		})
	for _, p := range []boards.Protocol{boards.ProtocolEPuck2I2C, boards.ProtocolEPuck2SMBus} {
		realrobot.Protocols.MustRegister(string(p),
			"e-puck2 with Pi-puck: "+map[boards.Protocol]string{
				boards.ProtocolEPuck2I2C:   "I²C frames at 0x1F",
				boards.ProtocolEPuck2SMBus: "SMBus register map at 0x1F",
			}[p]+", plus ToF, IMU and ground sensors (periph)",
			func(b boards.Board, d realrobot.Devices, log logrus.FieldLogger) (realrobot.Driver, error) {
				return OpenI2C(b, d, log)
			})
	}
}
