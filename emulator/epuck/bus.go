package epuck

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/argosgo/argos/boards"
	rr "github.com/argosgo/argos/realrobot/epuck"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2creg"
	"periph.io/x/conn/v3/physic"
)

// Errors of the emulated bus, worded as Linux's i2c-dev reports them
// through periph.
var (
	ErrNACK    = errors.New("sysfs-i2c: remote I/O error (NACK)")
	ErrTimeout = errors.New("sysfs-i2c: connection timed out")
)

// Bus is an emulated Pi-puck I²C bus: the e-puck2 at 0x1F, and the
// VL53L0X, MPU-9250, ground module and PCA9548 mux the board declares.
// It implements periph's i2c.BusCloser.
type Bus struct {
	tx      sync.Mutex // one transaction at a time, as on a real adapter
	fw      *Firmware
	name    string
	channel int  // selected mux channel; -1 none
	tofOn   bool // ranging started
	reg     map[uint16]byte
}

var _ i2c.BusCloser = (*Bus)(nil)

// NewBus returns an emulated bus named name serving fw's robot (the board
// is the firmware's).
func NewBus(fw *Firmware, name string) *Bus {
	return &Bus{fw: fw, name: name, channel: -1, reg: map[uint16]byte{}}
}

// RegisterBus registers b in periph's i2creg under its name, so that a
// driver opening that bus name gets it; the returned function
// unregisters it.
func RegisterBus(b *Bus) (unregister func() error, err error) {
	if err := i2creg.Register(b.name, nil, -1, func() (i2c.BusCloser, error) { return b, nil }); err != nil {
		return nil, fmt.Errorf("emulator/epuck: %w", err)
	}
	return func() error { return i2creg.Unregister(b.name) }, nil
}

func (b *Bus) String() string { return b.name }

// SetSpeed accepts any speed.
func (b *Bus) SetSpeed(physic.Frequency) error { return nil }

// Close does nothing: the bus lives as long as its registration.
func (b *Bus) Close() error { return nil }

// Frames returns the number of actuator frames with a good checksum the
// e-puck2 received.
func (b *Bus) Frames() int {
	b.fw.mu.Lock()
	defer b.fw.mu.Unlock()
	return b.fw.frames
}

// Tx runs one transaction.
func (b *Bus) Tx(addr uint16, w, r []byte) error {
	b.tx.Lock()
	defer b.tx.Unlock()
	late, err := b.run(addr, w, r)
	if late > 0 {
		time.Sleep(late)
		return ErrTimeout
	}
	return err
}

// run runs a transaction; a Late fault returns how long it takes before
// it times out.
func (b *Bus) run(addr uint16, w, r []byte) (time.Duration, error) {
	f := b.fw
	f.mu.Lock()
	defer f.mu.Unlock()
	if addr == f.b.I2C.Addr && f.faults.Late > 0 && (f.b.I2C.MuxAddr == 0 || b.channel == f.b.I2C.MuxChannel) {
		f.faults.Late--
		b.tx1(addr, w, r)
		return f.faults.LateBy, nil
	}
	return 0, b.tx1(addr, w, r)
}

// tx1 is a transaction; f.mu is held.
func (b *Bus) tx1(addr uint16, w, r []byte) error {
	f := b.fw
	c := f.b.I2C
	if c.MuxAddr != 0 {
		if addr == c.MuxAddr {
			if len(w) != 1 || len(r) != 0 {
				return ErrNACK
			}
			b.channel = -1
			for ch := range 8 {
				if w[0] == 1<<ch {
					b.channel = ch
				}
			}
			return nil
		}
		if b.channel != c.MuxChannel {
			return ErrNACK // the e-puck's channel is not connected
		}
	}
	switch addr {
	case c.Addr:
		switch {
		case f.faults.NACK > 0:
			f.faults.NACK--
			return ErrNACK
		case f.faults.Timeout > 0:
			f.faults.Timeout--
			return ErrTimeout
		case f.faults.Mute:
			return ErrNACK
		}
		if f.b.Protocol == boards.ProtocolEPuck2SMBus {
			return b.smbus(w, r)
		}
		return b.frame(w, r)
	case c.ToFAddr:
		return b.tof(w, r)
	case c.IMUAddr:
		return b.imu(w, r)
	case c.GroundAddr:
		if len(w) != 1 || w[0] != rr.GroundRegValues || len(r) != 2*rr.GroundCount {
			return ErrNACK
		}
		rd := f.body.Sense()
		var g [rr.GroundCount]uint16
		for i := range g {
			v := 1.0
			if i < len(rd.Ground) {
				v = rd.Ground[i]
			}
			g[i] = uint16(f.b.Calibration.Ground.Raw(v))
		}
		enc := rr.EncodeGround(g)
		copy(r, enc[:])
		return nil
	}
	return ErrNACK
}

// frame is the e-puck2's side of a frame transaction.
func (b *Bus) frame(w, r []byte) error {
	f := b.fw
	if len(w) != rr.ActuatorsLen || len(r) != rr.SensorsLen {
		return ErrNACK
	}
	if a, err := rr.DecodeActuators(w); err == nil { // a bad frame is ignored
		f.frames++
		f.setSpeed(a.Left, a.Right)
		for k := range 4 {
			f.leds[2*k] = a.RedLEDs&(1<<k) != 0
			f.rgb[k] = a.RGB[k]
			f.leds[2*k+1] = a.RGB[k] != [3]uint8{}
		}
	}
	p, amb, st := f.raw(f.body.Sense())
	s := rr.Sensors{Proximity: p, Ambient: amb, Steps: st}
	var out [rr.SensorsLen]byte
	s.Encode(&out)
	if f.faults.BadChecksum > 0 {
		f.faults.BadChecksum--
		out[rr.SensorsLen-1] ^= 0x5A
	}
	copy(r, out[:])
	return nil
}

// smbus is the register-map firmware's side of a word transaction.
func (b *Bus) smbus(w, r []byte) error {
	f := b.fw
	switch {
	case len(w) == 3 && len(r) == 0: // write a word
		v := int16(binary.LittleEndian.Uint16(w[1:]))
		switch w[0] {
		case rr.RegLeftSpeed:
			f.setSpeed(v, f.speed[1])
		case rr.RegRightSpeed:
			f.setSpeed(f.speed[0], v)
		case rr.RegOuterLEDs:
			for i := range 8 {
				f.leds[i] = v&(1<<i) != 0
			}
		case rr.RegInnerLEDs:
			f.leds[rr.LEDBody], f.leds[rr.LEDFront] = v&1 != 0, v&2 != 0
		case rr.RegIRControl:
		default:
			return ErrNACK
		}
		return nil
	case len(w) == 1 && len(r) == 2: // read a word
		p, amb, st := f.raw(f.body.Sense())
		var v uint16
		switch reg := int(w[0]); {
		case reg == rr.RegLeftSpeed || reg == rr.RegRightSpeed:
			v = uint16(f.speed[reg-rr.RegLeftSpeed])
		case reg == rr.RegLeftSteps || reg == rr.RegRightSteps:
			v = uint16(st[reg-rr.RegLeftSteps])
		case reg >= rr.RegProximity && reg < rr.RegAmbient:
			v = p[reg-rr.RegProximity]
		case reg >= rr.RegAmbient && reg < rr.SMBusRegs:
			v = amb[reg-rr.RegAmbient]
		case reg < rr.SMBusRegs:
		default:
			return ErrNACK
		}
		binary.LittleEndian.PutUint16(r, v)
		return nil
	}
	return ErrNACK
}

// tof is a VL53L0X: the registers the driver uses.
func (b *Bus) tof(w, r []byte) error {
	if len(w) == 0 {
		return ErrNACK
	}
	reg := uint16(w[0])
	if len(w) == 2 && len(r) == 0 {
		b.reg[0x2900|reg] = w[1]
		if reg == rr.ToFRegSysRangeStart && w[1] != 0 {
			b.tofOn = true
		}
		return nil
	}
	if len(w) != 1 {
		return ErrNACK
	}
	switch {
	case reg == rr.ToFRegModelID && len(r) == 1:
		r[0] = rr.ToFModelID
	case reg == rr.ToFRegStopVariable && len(r) == 1:
		r[0] = 0x3C
	case reg == rr.ToFRegIntStatus && len(r) == 1:
		r[0] = 0
		if b.tofOn {
			r[0] = 0x07
		}
	case reg == rr.ToFRegRange && len(r) == 2:
		mm := uint16(rr.ToFOutOfRange)
		if a := b.fw.body.Sense().Ahead; a >= 0 && a*1000 <= rr.ToFMaxRangeMM {
			mm = uint16(math.Round(a * 1000))
		}
		binary.BigEndian.PutUint16(r, mm)
	default:
		for i := range r {
			r[i] = b.reg[0x2900|(reg+uint16(i))]
		}
	}
	return nil
}

// imu is an MPU-9250 at rest on the floor, turning with the robot.
func (b *Bus) imu(w, r []byte) error {
	if len(w) == 2 && len(r) == 0 {
		return nil // configuration writes
	}
	if len(w) != 1 {
		return ErrNACK
	}
	switch {
	case w[0] == rr.IMURegWhoAmI && len(r) == 1:
		r[0] = rr.IMUWhoAmI9250
	case w[0] == rr.IMURegAccelXOut && len(r) == 14:
		rd := b.fw.body.Sense()
		s := rr.IMUSample{Acceleration: [3]float64{0, 0, rr.StandardGravity}, AngularVelocity: [3]float64{0, 0, rd.YawRate}}
		out := rr.EncodeIMU(s)
		copy(r, out[:])
	default:
		return ErrNACK
	}
	return nil
}
