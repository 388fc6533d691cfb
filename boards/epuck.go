package boards

import (
	"math"
	"time"

	"github.com/argosgo/argos/ci"
)

// Tags of the e-puck2 devices that ci has no constant for. ci has no
// interface for them either: TagToF gives a [ci.DistanceScannerSensor]
// (one reading straight ahead, in cm), TagIMU a sensor with the methods
// Acceleration() ci.Vector3 (m/s²) and AngularVelocity() ci.Vector3
// (rad/s), which a controller asks for with an interface it declares.
const (
	TagToF = "epuck_tof"
	TagIMU = "epuck_imu"
)

// ePuckProximityDegrees are the e-puck's sensor angles in ARGoS's order
// (counter-clockwise from the front).
var ePuckProximityDegrees = [8]float64{17, 50, 90, 150, 210, 270, 310, 343}

func ePuckGeometry(maxSpeed float64) Geometry {
	g := Geometry{
		Radius: 0.035, Axle: 0.053, WheelRadius: 0.0205,
		StepsPerRevolution: 1000, MaxWheelSpeed: maxSpeed,
		LEDs: 8,
	}
	for _, d := range ePuckProximityDegrees {
		g.ProximityAngles = append(g.ProximityAngles, ci.NormalizeAngle(ci.Radians(d)))
	}
	return g
}

// ePuckCalibration: ci reading i (ARGoS order, counter-clockwise from
// 17 degrees) is the firmware's sensor 7-i (ps0 front-right, clockwise).
func ePuckCalibration() Calibration {
	return Calibration{
		ProximityOrder: []int{7, 6, 5, 4, 3, 2, 1, 0},
		Proximity:      Scale{Zero: 100, One: 3500},
		Light:          Scale{Zero: 4000, One: 0}, // ambient IR drops as the light grows
		Ground:         Scale{Zero: 0, One: 1000},
		RGBMax:         100,
	}
}

func ePuckSerComDevices() (sensors, actuators []Device) {
	return []Device{
			{ci.TagEPuckProximity, "8 IR proximity sensors (sercom -'N'), [0,1] by the board's calibration"},
			{ci.TagProximity, "same as epuck_proximity"},
			{ci.TagEPuckLight, "8 ambient light sensors (sercom -'O')"},
			{ci.TagLight, "same as epuck_light"},
			{ci.TagDifferentialSteering, "wheel speeds (-'E') and distances from the step counters (-'Q')"},
		}, []Device{
			{ci.TagDifferentialSteering, "wheel speeds in cm/s, sent as steps/s (-'D')"},
			{ci.TagLEDs, "the 8 red ring LEDs (-'L'): on unless the colour is black"},
		}
}

// EPuck is the classic e-puck with a Gumstix Overo (Cortex-A8) talking
// advanced sercom to the dsPIC over its UART.
func EPuck() Board {
	s, a := ePuckSerComDevices()
	return Board{
		Name:        "epuck",
		Model:       "e-puck",
		Description: "e-puck with Gumstix Overo: advanced sercom on /dev/ttyS0 at 115200 baud",
		Protocol:    ProtocolSerCom,
		Target:      Target{GOOS: "linux", GOARCH: "arm", GOARM: "7", CPU: "Cortex-A8", QEMU: "qemu-arm-static -cpu cortex-a8"},
		Serial:      &Serial{Port: "/dev/ttyS0", Baud: 115200},
		Geometry:    ePuckGeometry(1000),
		Calibration: ePuckCalibration(),
		Sensors:     s, Actuators: a,
		// 40 bytes take 3.5 ms at 115200 baud; the dsPIC answers within
		// a few ms. Three attempts fit in a 10 Hz tick and a half.
		Timeout: 50 * time.Millisecond,
		Retries: 2,
	}
}

// EPuckBluetooth is an e-puck driven from a PC over Bluetooth (rfcomm).
func EPuckBluetooth() Board {
	b := EPuck()
	b.Name = "epuck-bt"
	b.Description = "e-puck driven from a PC over Bluetooth: advanced sercom on /dev/rfcomm0"
	b.Target = Target{}
	b.Serial = &Serial{Port: "/dev/rfcomm0", Baud: 115200}
	b.Timeout = 300 * time.Millisecond // rfcomm latency is tens of ms
	return b
}

func piPuckDevices() (sensors, actuators []Device) {
	return []Device{
			{ci.TagEPuckProximity, "8 IR proximity sensors (frame bytes 0-15), [0,1] by the board's calibration"},
			{ci.TagProximity, "same as epuck_proximity"},
			{ci.TagEPuckLight, "8 ambient light sensors (frame bytes 16-31)"},
			{ci.TagLight, "same as epuck_light"},
			{ci.TagDifferentialSteering, "wheel speeds (commanded) and distances from the step counters (frame bytes 41-44)"},
			{ci.TagEPuckGround, "3 ground sensors of the ground-sensor module at 0x60"},
			{ci.TagGround, "same as epuck_ground"},
			{TagToF, "VL53L0X time-of-flight distance sensor at 0x29 (ci.DistanceScannerSensor, cm)"},
			{TagIMU, "MPU-9250 accelerometer and gyroscope at 0x68"},
		}, []Device{
			{ci.TagDifferentialSteering, "wheel speeds in cm/s, sent as steps/s (frame bytes 0-3)"},
			{ci.TagLEDs, "LED1..LED8: odd LEDs red on/off, even LEDs RGB (frame bytes 5-17)"},
		}
}

// PiPuck is an e-puck2 with a Pi-puck and a Raspberry Pi Zero W (ARMv6),
// the kernel's PCA9548 driver exposing the e-puck's channel as
// /dev/i2c-12 (/dev/i2c-4 on older kernels).
func PiPuck() Board {
	s, a := piPuckDevices()
	return Board{
		Name:        "pipuck",
		Model:       "e-puck",
		Description: "e-puck2 with Pi-puck and Pi Zero W: I²C frames at 0x1F on /dev/i2c-12 (kernel mux)",
		Protocol:    ProtocolEPuck2I2C,
		Target:      Target{GOOS: "linux", GOARCH: "arm", GOARM: "6", CPU: "ARM1176", QEMU: "qemu-arm-static -cpu arm1176"},
		I2C: &I2C{
			Bus: "/dev/i2c-12", Fallback: []string{"/dev/i2c-4"}, Addr: 0x1F,
			ToFAddr: 0x29, IMUAddr: 0x68, GroundAddr: 0x60,
		},
		Geometry:    ePuckGeometry(1100), // the e-puck2 firmware clamps at 1100 steps/s
		Calibration: ePuckCalibration(),
		Sensors:     s, Actuators: a,
		Timeout: 20 * time.Millisecond,
		Retries: 3, // the vendor example retries 3 times
	}
}

// PiPuck2 is PiPuck with a Raspberry Pi Zero 2 W on a 64-bit OS.
func PiPuck2() Board {
	b := PiPuck()
	b.Name = "pipuck2"
	b.Description = "e-puck2 with Pi-puck and Pi Zero 2 W (64-bit): I²C frames at 0x1F on /dev/i2c-12"
	b.Target = Target{GOOS: "linux", GOARCH: "arm64", CPU: "Cortex-A53", QEMU: "qemu-aarch64-static -cpu cortex-a53"}
	return b
}

// PiPuckMux is PiPuck on a kernel without the mux driver: the driver
// selects channel 1 of the PCA9548 at 0x70 on /dev/i2c-1 itself.
func PiPuckMux() Board {
	b := PiPuck()
	b.Name = "pipuck-mux"
	b.Description = "e-puck2 with Pi-puck, no kernel mux driver: PCA9548 at 0x70 channel 1 switched by the driver on /dev/i2c-1"
	b.I2C.Bus, b.I2C.Fallback = "/dev/i2c-1", nil
	b.I2C.MuxAddr, b.I2C.MuxChannel = 0x70, 1
	return b
}

// PiPuckSMBus is PiPuck whose e-puck2 firmware answers at 0x1F with the
// SMBus register map instead of frames; the ToF, IMU and ground module
// are separate chips and stay as they are.
func PiPuckSMBus() Board {
	b := PiPuck()
	b.Name = "pipuck-smbus"
	b.Description = "e-puck2 with Pi-puck, register-map firmware: SMBus words at 0x1F on /dev/i2c-12"
	b.Protocol = ProtocolEPuck2SMBus
	return b
}

// WheelStepsPerCM returns how many motor steps one centimetre of wheel
// travel is (e-puck: 1000 / (2 pi 2.05 cm) = 77.6).
func (g Geometry) WheelStepsPerCM() float64 {
	if g.WheelRadius <= 0 {
		return 0
	}
	return g.StepsPerRevolution / (2 * math.Pi * g.WheelRadius * 100)
}
