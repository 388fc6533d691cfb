// Package epuck drives e-puck robots: the classic e-puck through the
// "advanced sercom" protocol, in its ASCII mode, on a serial port (go.bug.st/serial:
// a UART on the Gumstix Overo, Bluetooth rfcomm from a PC), and the
// e-puck2 with a Pi-puck through its I²C frames at 0x1F (periph) or the
// SMBus register map of the other firmware variant, with the
// time-of-flight sensor (VL53L0X), the IMU (MPU-9250) and the
// ground-sensor module on the same bus. The byte-level protocols are
// described in docs/robots.md, after GCtronic's asercom and e-puck2
// firmware and the Pi-puck documentation (https://www.gctronic.com/doc/index.php?title=Pi-puck).
//
// The codecs ([ParseReply], [SenseFromReplies], the binary mode's
// [ParseChain], [Actuators], [Sensors] and the chip register constants)
// are exported because the emulated firmware of package emulator/epuck
// uses the very same code.
//
// Importing the package registers its drivers in realrobot.Protocols
// under boards.ProtocolSerCom, boards.ProtocolEPuck2I2C and
// boards.ProtocolEPuck2SMBus; [OpenSerCom] and [OpenI2C] open them
// without the registry.
//
// # Units
//
// Wheel speeds are cm/s for the controller and motor steps/s on the wire
// (1000 steps per wheel turn, wheel radius 2.05 cm: 77.6 steps per cm),
// rounded and clamped to the board's MaxWheelSpeed. Proximity, light and
// ground readings go through the board's calibration to [0, 1].
// Proximity readings are in ARGoS's order (counter-clockwise from 17
// degrees); the firmware numbers its sensors clockwise from front-right,
// and the board's ProximityOrder maps one onto the other.
//
// # Faults
//
// Every exchange is checked: sercom replies by their framing (each line
// whole, ended by \r\n, answering the command due at its place, tagged
// with its attempt, with the right number of values) and by the range of
// their values (12-bit ADC readings), with every request ending in a
// speed query whose answer must echo the speeds sent; I²C frames by
// their XOR checksum; SMBus wheel speeds by reading them back. A failed
// exchange is retried Board.Retries times (stale input is flushed
// first), but never after a Stop came in the same tick: no retry and no
// later frame resends speeds older than a stop (realrobot.Supersede). A
// serial port that disappears is
// reopened at the next exchange, and the first command on a reopened port
// stops the wheels. A failure of the main link fails the tick (the
// runtime then stops the wheels); a failure of an auxiliary chip (ToF,
// IMU, ground module) degrades that sensor: it keeps its last reading and
// the error is logged.
package epuck
