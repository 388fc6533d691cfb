package epuck

import (
	"encoding/binary"
	"fmt"
	"math"

	"periph.io/x/conn/v3/i2c"
)

// Registers of the chips on the Pi-puck's e-puck bus that the drivers
// use, from their datasheets.
const (
	// VL53L0X time-of-flight sensor (ST datasheet and API; the start-up
	// sequence is the one of ST's API as Pololu's library does it).
	ToFRegSysRangeStart  = 0x00 // 0x01 single shot, 0x02 back-to-back
	ToFRegIntClear       = 0x0B // write 0x01 after reading a result
	ToFRegIntStatus      = 0x13 // bits 0-2 non-zero: a result is ready
	ToFRegRange          = 0x1E // RESULT_RANGE_STATUS + 10: range in mm, big-endian
	ToFRegStopVariable   = 0x91
	ToFRegModelID        = 0xC0 // reads ToFModelID
	ToFModelID           = 0xEE
	ToFOutOfRange        = 8190 // the chip's "nothing seen"
	ToFMaxRangeMM        = 2000
	IMURegAccelConfig    = 0x1C // MPU-9250 (InvenSense register map)
	IMURegGyroConfig     = 0x1B
	IMURegAccelXOut      = 0x3B // 14 bytes: accel x,y,z, temperature, gyro x,y,z (big-endian int16)
	IMURegPowerMgmt1     = 0x6B
	IMURegWhoAmI         = 0x75
	IMUWhoAmI9250        = 0x71
	IMUWhoAmI9255        = 0x73
	IMUAccelLSBPerG      = 16384 // at ±2 g
	IMUGyroLSBPerDegS    = 131   // at ±250 °/s
	GroundRegValues      = 0x00  // ground module: 3 big-endian uint16 from register 0
	GroundCount          = 3
	MuxAddr              = 0x70 // PCA9548: write 1<<channel to select a channel
	StandardGravity      = 9.80665
	imuReadLen           = 14
	tofStartBackToBack   = 0x02
	tofIntClearValue     = 0x01
	imuConfigFullScale2G = 0x00
)

// tofStartSequence and tofEndSequence frame the stop-variable write of
// ST's start-continuous sequence: register, value pairs.
var (
	tofOpen  = [][2]byte{{0x80, 0x01}, {0xFF, 0x01}, {0x00, 0x00}}
	tofClose = [][2]byte{{0x00, 0x01}, {0xFF, 0x00}, {0x80, 0x00}}
)

func readReg(d *i2c.Dev, reg byte, r []byte) error { return d.Tx([]byte{reg}, r) }

func writeReg(d *i2c.Dev, reg, v byte) error { return d.Tx([]byte{reg, v}, nil) }

// tofStart checks the VL53L0X's model id and starts back-to-back
// ranging.
func tofStart(d *i2c.Dev) error {
	var id [1]byte
	if err := readReg(d, ToFRegModelID, id[:]); err != nil {
		return err
	}
	if id[0] != ToFModelID {
		return fmt.Errorf("epuck: the chip at %#x is not a VL53L0X (model id %#02x, want %#02x)", d.Addr, id[0], ToFModelID)
	}
	for _, w := range tofOpen {
		if err := writeReg(d, w[0], w[1]); err != nil {
			return err
		}
	}
	var sv [1]byte
	if err := readReg(d, ToFRegStopVariable, sv[:]); err != nil {
		return err
	}
	if err := writeReg(d, ToFRegStopVariable, sv[0]); err != nil {
		return err
	}
	for _, w := range tofClose {
		if err := writeReg(d, w[0], w[1]); err != nil {
			return err
		}
	}
	return writeReg(d, ToFRegSysRangeStart, tofStartBackToBack)
}

// tofRead returns the last range in mm and whether a new one was ready.
func tofRead(d *i2c.Dev) (mm uint16, fresh bool, err error) {
	var st [1]byte
	if err := readReg(d, ToFRegIntStatus, st[:]); err != nil {
		return 0, false, err
	}
	if st[0]&0x07 == 0 {
		return 0, false, nil
	}
	var r [2]byte
	if err := readReg(d, ToFRegRange, r[:]); err != nil {
		return 0, false, err
	}
	if err := writeReg(d, ToFRegIntClear, tofIntClearValue); err != nil {
		return 0, false, err
	}
	return binary.BigEndian.Uint16(r[:]), true, nil
}

// ToFDistanceCM converts a VL53L0X range to the centimetres of
// ci.DistanceReading: -1 when nothing is in range.
func ToFDistanceCM(mm uint16) float64 {
	if mm >= ToFOutOfRange || mm > ToFMaxRangeMM {
		return -1
	}
	return float64(mm) / 10
}

// imuStart checks the MPU-9250 and sets ±2 g and ±250 °/s.
func imuStart(d *i2c.Dev) error {
	var id [1]byte
	if err := readReg(d, IMURegWhoAmI, id[:]); err != nil {
		return err
	}
	if id[0] != IMUWhoAmI9250 && id[0] != IMUWhoAmI9255 {
		return fmt.Errorf("epuck: the chip at %#x is not an MPU-9250 (WHO_AM_I %#02x)", d.Addr, id[0])
	}
	for _, w := range [][2]byte{{IMURegPowerMgmt1, 0}, {IMURegAccelConfig, imuConfigFullScale2G}, {IMURegGyroConfig, 0}} {
		if err := writeReg(d, w[0], w[1]); err != nil {
			return err
		}
	}
	return nil
}

// IMUSample is one accelerometer and gyroscope reading in SI units.
type IMUSample struct {
	Acceleration    [3]float64 // m/s²
	AngularVelocity [3]float64 // rad/s
}

// DecodeIMU decodes the 14 bytes read from IMURegAccelXOut.
func DecodeIMU(b []byte) (IMUSample, error) {
	var s IMUSample
	if len(b) != imuReadLen {
		return s, fmt.Errorf("%w: IMU sample of %d bytes, want %d", ErrGarbage, len(b), imuReadLen)
	}
	be := binary.BigEndian
	for i := range 3 {
		s.Acceleration[i] = float64(int16(be.Uint16(b[2*i:]))) / IMUAccelLSBPerG * StandardGravity
		s.AngularVelocity[i] = float64(int16(be.Uint16(b[8+2*i:]))) / IMUGyroLSBPerDegS * math.Pi / 180
	}
	return s, nil
}

// EncodeIMU is the chip's side of DecodeIMU (temperature reads 0).
func EncodeIMU(s IMUSample) [imuReadLen]byte {
	var b [imuReadLen]byte
	be := binary.BigEndian
	for i := range 3 {
		be.PutUint16(b[2*i:], uint16(clampInt16(s.Acceleration[i]/StandardGravity*IMUAccelLSBPerG)))
		be.PutUint16(b[8+2*i:], uint16(clampInt16(s.AngularVelocity[i]*180/math.Pi*IMUGyroLSBPerDegS)))
	}
	return b
}

func clampInt16(v float64) int16 {
	return int16(math.Max(math.MinInt16, math.Min(math.MaxInt16, math.Round(v))))
}

// DecodeGround decodes the 6 bytes of the ground module: three big-endian
// values, left, centre, right (the byte order of the module's PIC
// firmware).
func DecodeGround(b []byte) ([GroundCount]uint16, error) {
	var g [GroundCount]uint16
	if len(b) != 2*GroundCount {
		return g, fmt.Errorf("%w: ground reading of %d bytes, want %d", ErrGarbage, len(b), 2*GroundCount)
	}
	for i := range g {
		g[i] = binary.BigEndian.Uint16(b[2*i:])
	}
	return g, nil
}

// EncodeGround is the module's side of DecodeGround.
func EncodeGround(g [GroundCount]uint16) [2 * GroundCount]byte {
	var b [2 * GroundCount]byte
	for i, v := range g {
		binary.BigEndian.PutUint16(b[2*i:], v)
	}
	return b
}
