package epuck

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/argosgo/argos/realrobot"
)

// The register map of the e-puck2 firmware variant that answers at 0x1F
// with SMBus words (docs/robots.md): 16-bit registers, little-endian as SMBus
// word transfers are. A word is read by writing its register number and
// reading 2 bytes, and written by writing the register number and the
// word. The driver reads and writes one register per transaction (the
// firmware's auto-increment is not confirmed).
const (
	RegOuterLEDs  = 0  // bit i: ring LED i on
	RegInnerLEDs  = 1  // bit 0: body LED, bit 1: front LED
	RegLeftSpeed  = 2  // int16 steps/s
	RegRightSpeed = 3  //
	RegLeftSteps  = 4  // int16 step counter
	RegRightSteps = 5  //
	RegIRControl  = 6  // 1: the IR sensors measure
	RegProximity  = 7  // 7-14: reflected IR, the firmware's sensor order
	RegAmbient    = 15 // 15-22: ambient IR
	SMBusRegs     = 23
)

// readWord reads one register, retried.
func (x *I2C) readWord(reg byte) (uint16, error) {
	var r [2]byte
	err := x.retry(func() error { return x.epuck.Tx([]byte{reg}, r[:]) })
	if err != nil {
		return 0, fmt.Errorf("epuck: reading SMBus register %d at %#x: %w", reg, x.b.I2C.Addr, err)
	}
	return binary.LittleEndian.Uint16(r[:]), nil
}

// writeWord writes one register, retried.
func (x *I2C) writeWord(reg byte, v uint16) error {
	return x.writeWordUnless(reg, v, nil)
}

// writeWordUnless writes one register, retried, unless (with a mark) a
// stop came since the tick of mark began: it then wraps
// realrobot.ErrSuperseded.
func (x *I2C) writeWordUnless(reg byte, v uint16, mark *uint64) error {
	w := []byte{reg, byte(v), byte(v >> 8)}
	err := x.retry(func() error {
		x.txMu.Lock()
		defer x.txMu.Unlock()
		if mark != nil && (x.sup.Superseded(*mark) || x.stopping.Load() > 0) {
			return errSuperseded
		}
		return x.epuck.Tx(w, nil)
	})
	if errors.Is(err, realrobot.ErrSuperseded) {
		return err
	}
	if err != nil {
		return fmt.Errorf("epuck: writing SMBus register %d at %#x: %w", reg, x.b.I2C.Addr, err)
	}
	return nil
}

var errSuperseded = fmt.Errorf("epuck: %w", realrobot.ErrSuperseded)

// smbusSense reads the step counters and the IR registers.
func (x *I2C) smbusSense() error {
	var regs [SMBusRegs]uint16
	for _, reg := range []byte{RegLeftSteps, RegRightSteps} {
		v, err := x.readWord(reg)
		if err != nil {
			return err
		}
		regs[reg] = v
	}
	if x.dev.prox != nil || x.dev.light != nil {
		for reg := byte(RegProximity); reg < SMBusRegs; reg++ {
			v, err := x.readWord(reg)
			if err != nil {
				return err
			}
			regs[reg] = v
		}
	}
	x.dev.setProximity(func(i int) float64 { return float64(regs[RegProximity+i]) })
	x.dev.setLight(func(i int) float64 { return float64(regs[RegAmbient+i]) })
	x.dev.setWheels([2]int16{x.act.Left, x.act.Right}, [2]int16{int16(regs[RegLeftSteps]), int16(regs[RegRightSteps])})
	return nil
}

// smbusSpeeds writes the wheel speeds and reads them back; with a mark,
// it gives up once a stop supersedes the tick of mark.
func (x *I2C) smbusSpeeds(l, r int16, mark *uint64) error {
	if x.closed {
		return fmt.Errorf("epuck: the driver is closed")
	}
	if l == 0 && r == 0 {
		// A stop writes both wheels whatever happens to the first:
		// one wheel left turning is the worst outcome.
		if err := errors.Join(x.writeWord(RegLeftSpeed, 0), x.writeWord(RegRightSpeed, 0)); err != nil {
			return err
		}
	} else {
		if err := x.writeWordUnless(RegLeftSpeed, uint16(l), mark); err != nil {
			return err
		}
		if err := x.writeWordUnless(RegRightSpeed, uint16(r), mark); err != nil {
			return err
		}
	}
	gl, err := x.readWord(RegLeftSpeed)
	if err != nil {
		return err
	}
	gr, err := x.readWord(RegRightSpeed)
	if err != nil {
		return err
	}
	if int16(gl) != l || int16(gr) != r {
		return fmt.Errorf("epuck: the firmware runs the wheels at %d, %d steps/s after a command of %d, %d", int16(gl), int16(gr), l, r)
	}
	x.act.Left, x.act.Right = l, r
	return nil
}

// smbusAct writes the speeds, and the ring LEDs when they changed.
func (x *I2C) smbusAct(l, r int16, mark uint64) error {
	if err := x.smbusSpeeds(l, r, &mark); err != nil {
		return err
	}
	if x.dev.leds == nil {
		return nil
	}
	var mask int
	for i, c := range x.dev.leds.Colors() {
		if lit(c) {
			mask |= 1 << i
		}
	}
	if mask == x.outer {
		return nil
	}
	if err := x.writeWord(RegOuterLEDs, uint16(mask)); err != nil {
		return err
	}
	x.outer = mask
	return nil
}

// smbusStart turns the IR sensors on.
func (x *I2C) smbusStart() error { return x.writeWord(RegIRControl, 1) }

// smbusUrgentStop writes zero speeds once, without reading back; txMu is
// held.
func (x *I2C) smbusUrgentStop() error {
	// Both wheels, whatever happens to the first.
	return errors.Join(x.epuck.Tx([]byte{RegLeftSpeed, 0, 0}, nil), x.epuck.Tx([]byte{RegRightSpeed, 0, 0}, nil))
}
