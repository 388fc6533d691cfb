package boards

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Protocol is what the robot's firmware speaks on its link.
type Protocol string

// The protocols the drivers of realrobot implement.
const (
	// ProtocolSerCom is the e-puck's "advanced sercom" (the driver speaks its ASCII mode), on a serial
	// port (UART or Bluetooth rfcomm).
	ProtocolSerCom Protocol = "epuck-sercom"
	// ProtocolEPuck2I2C is the e-puck2's Pi-puck frame protocol: one transaction
	// writes 20 bytes of actuators and reads 47 bytes of sensors at 0x1F.
	ProtocolEPuck2I2C Protocol = "epuck2-i2c"
	// ProtocolEPuck2SMBus is the other e-puck2 firmware variant at 0x1F: an SMBus
	// register map of 16-bit words.
	ProtocolEPuck2SMBus Protocol = "epuck2-smbus"
	// ProtocolAseba is the Aseba message protocol of the foot-bot's and eye-bot's
	// microcontroller nodes, over TCP to an Aseba switch or over serial.
	ProtocolAseba Protocol = "aseba"
)

// Board is the definition of one robot model and board variant. Get one
// with [Lookup]; each call returns a fresh copy.
type Board struct {
	// Name is what the robot command's -b flag and [Lookup] use.
	Name string
	// Model is the robot's tag in .argos files ("e-puck", "foot-bot",
	// "eye-bot").
	Model string
	// Description is one line for `robot -q`.
	Description string
	// Protocol is what the firmware speaks.
	Protocol Protocol
	// Target is the Go build for the board's CPU.
	Target Target
	// Serial is set for serial links (ProtocolSerCom; Aseba over serial).
	Serial *Serial
	// I2C is set for the Pi-puck's I²C links.
	I2C *I2C
	// Aseba is set for Aseba networks.
	Aseba *Aseba
	// Geometry is the robot's size and wheel layout.
	Geometry Geometry
	// Calibration turns raw e-puck readings into ci units.
	Calibration Calibration
	// Sensors and Actuators are the devices the board offers, by tag.
	Sensors, Actuators []Device
	// Timeout is how long the driver waits for one reply of the firmware
	// before it counts the exchange as failed; Retries is how many more
	// times it tries an exchange before it reports an error.
	Timeout time.Duration
	Retries int
}

// Target is a Go cross-compilation target.
type Target struct {
	GOOS, GOARCH, GOARM string
	// CPU names the processor, QEMU the command that runs the binary on
	// this machine (empty for the host).
	CPU, QEMU string
}

// Serial is a serial port.
type Serial struct {
	Port string
	Baud int
}

// I2C is the I²C link of a Pi-puck.
type I2C struct {
	// Bus is the periph bus name (i2creg.Open); Fallback are tried in
	// order when it does not exist (older kernels number the mux's
	// channels differently).
	Bus      string
	Fallback []string
	// Addr is the e-puck2's address (0x1F).
	Addr uint16
	// MuxAddr, when not zero, is a PCA9548 the driver itself switches to
	// MuxChannel before every transaction (when no kernel driver owns the
	// mux); with the kernel driver each channel is its own bus.
	MuxAddr    uint16
	MuxChannel int
	// ToFAddr (VL53L0X), IMUAddr (MPU-9250) and GroundAddr (ground-sensor
	// module) are on the same bus; 0 means absent.
	ToFAddr, IMUAddr, GroundAddr uint16
}

// Aseba is an Aseba network and the project's mapping of devices onto
// its nodes' variables (see the package documentation).
type Aseba struct {
	// Transport is "tcp" (Address is host:port of an Aseba switch) or
	// "serial" (Address is the port, Baud its rate).
	Transport string
	Address   string
	Baud      int
	// HostID is the node id the driver sends as.
	HostID uint16
	// Vars maps each device role onto a variable.
	Vars []AsebaVar
}

// AsebaVar is one Aseba variable a device reads or writes.
type AsebaVar struct {
	// Role says what the variable is for ("wheel.left.target").
	Role string
	// Node is the node id; NodeName and Name are the node's and the
	// variable's names in the node's description.
	Node     uint16
	NodeName string
	Name     string
	// Address is the variable's index in the node's memory, used when
	// the node gives no description (the drivers find the variable by
	// Name otherwise); Size is its length in 16-bit words.
	Address uint16
	Size    int
	// Unit is what one raw unit is worth in the device's ci unit.
	Unit float64
}

// Var returns the variable of a role.
func (a *Aseba) Var(role string) (AsebaVar, bool) {
	for _, v := range a.Vars {
		if v.Role == role {
			return v, true
		}
	}
	return AsebaVar{}, false
}

// Geometry is the robot's size and wheels.
type Geometry struct {
	// Radius of the body, Axle (distance between the wheels) and
	// WheelRadius, in metres.
	Radius, Axle, WheelRadius float64
	// StepsPerRevolution is the number of motor steps per wheel turn
	// (stepper motors of the e-puck); 0 when the firmware takes speeds.
	StepsPerRevolution float64
	// MaxWheelSpeed is the fastest wheel command the firmware takes, in
	// its own unit (steps/s on an e-puck, mm/s on a foot-bot).
	MaxWheelSpeed float64
	// ProximityAngles are the angles of the proximity sensors, radians
	// counter-clockwise from the front, in the order of ci readings
	// (ARGoS's model order).
	ProximityAngles []float64
	// LEDs is the number of LEDs of the leds actuator.
	LEDs int
}

// Calibration turns the raw readings of an e-puck into ci units.
type Calibration struct {
	// ProximityOrder[i] is the firmware's index of ci reading i (the
	// e-puck numbers its sensors clockwise from front-right, ARGoS
	// counter-clockwise from front-left).
	ProximityOrder []int
	// Proximity, Light and Ground map raw values to [0, 1].
	Proximity, Light, Ground Scale
	// RGBMax is the firmware's full brightness of an RGB LED channel.
	RGBMax uint8
}

// Scale maps a raw reading linearly to [0, 1]: Zero reads 0 and One reads
// 1 (One may be below Zero for inverted sensors, like the e-puck's
// ambient light, which drops when the light grows).
type Scale struct {
	Zero, One float64
}

// Value maps raw to [0, 1], clamped.
func (s Scale) Value(raw float64) float64 {
	if s.One == s.Zero {
		return 0
	}
	return math.Max(0, math.Min(1, (raw-s.Zero)/(s.One-s.Zero)))
}

// Raw is the inverse of Value (used by emulated firmware), rounded.
func (s Scale) Raw(v float64) float64 {
	return math.Round(s.Zero + math.Max(0, math.Min(1, v))*(s.One-s.Zero))
}

// Device is a device the board offers under its .argos tag.
type Device struct {
	Tag         string
	Description string
}

// HasSensor reports whether the board offers a sensor with the tag.
func (b *Board) HasSensor(tag string) bool { return hasTag(b.Sensors, tag) }

// HasActuator reports whether the board offers an actuator with the tag.
func (b *Board) HasActuator(tag string) bool { return hasTag(b.Actuators, tag) }

func hasTag(ds []Device, tag string) bool {
	return slices.ContainsFunc(ds, func(d Device) bool { return d.Tag == tag })
}

// Tags returns the tags of ds, for error messages.
func Tags(ds []Device) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Tag
	}
	return out
}

// definitions are the boards by name; each function builds a fresh value.
var definitions = map[string]func() Board{
	"epuck":        EPuck,
	"epuck-bt":     EPuckBluetooth,
	"pipuck":       PiPuck,
	"pipuck2":      PiPuck2,
	"pipuck-mux":   PiPuckMux,
	"pipuck-smbus": PiPuckSMBus,
	"footbot":      FootBot,
	"eyebot":       EyeBot,
}

// Names returns the names of the boards, sorted.
func Names() []string {
	names := make([]string, 0, len(definitions))
	for n := range definitions {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns a fresh copy of the board with the given name.
func Lookup(name string) (Board, error) {
	def, ok := definitions[name]
	if !ok {
		return Board{}, fmt.Errorf("boards: unknown board %q; use one of %s", name, strings.Join(Names(), ", "))
	}
	return def(), nil
}

// All returns a fresh copy of every board, sorted by name.
func All() []Board {
	var out []Board
	for _, n := range Names() {
		out = append(out, definitions[n]())
	}
	return out
}

// Check reports the first inconsistency of a board definition (a board
// edited by a caller, or a new definition): a missing link for its
// protocol, an impossible geometry or calibration.
func (b *Board) Check() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("boards: board %q: "+format, append([]any{b.Name}, args...)...)
	}
	switch b.Protocol {
	case ProtocolSerCom:
		if b.Serial == nil || b.Serial.Port == "" || b.Serial.Baud <= 0 {
			return fail("protocol %s needs a serial port and a baud rate", b.Protocol)
		}
	case ProtocolEPuck2I2C, ProtocolEPuck2SMBus:
		if b.I2C == nil || b.I2C.Bus == "" || b.I2C.Addr == 0 {
			return fail("protocol %s needs an I²C bus and address", b.Protocol)
		}
		if b.I2C.MuxAddr != 0 && (b.I2C.MuxChannel < 0 || b.I2C.MuxChannel > 7) {
			return fail("mux channel %d is not in 0..7", b.I2C.MuxChannel)
		}
	case ProtocolAseba:
		a := b.Aseba
		if a == nil || a.Address == "" || (a.Transport != "tcp" && a.Transport != "serial") {
			return fail("protocol aseba needs a transport (tcp or serial) and an address")
		}
		if a.Transport == "serial" && a.Baud <= 0 {
			return fail("aseba over serial needs a baud rate")
		}
		seen := map[string]bool{}
		for _, v := range a.Vars {
			if seen[v.Role] {
				return fail("aseba role %q is mapped twice", v.Role)
			}
			seen[v.Role] = true
			if v.Size <= 0 || v.Unit == 0 {
				return fail("aseba variable %q needs a positive size and a non-zero unit", v.Name)
			}
		}
	default:
		return fail("unknown protocol %q", b.Protocol)
	}
	g := b.Geometry
	if g.Axle <= 0 || g.WheelRadius < 0 || g.Radius <= 0 {
		return fail("geometry needs a positive radius and axle")
	}
	if b.Model == "e-puck" {
		c := b.Calibration
		if len(c.ProximityOrder) != len(g.ProximityAngles) {
			return fail("%d proximity angles but %d entries in the proximity order", len(g.ProximityAngles), len(c.ProximityOrder))
		}
		if g.StepsPerRevolution <= 0 || g.MaxWheelSpeed <= 0 {
			return fail("an e-puck needs steps per revolution and a maximum wheel speed")
		}
	}
	if b.Timeout <= 0 {
		return fail("the reply timeout must be positive")
	}
	return nil
}
