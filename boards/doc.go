// Package boards holds the board definitions of the real robots: for each
// robot model and board variant, which bus, address, port, baud rate and
// firmware protocol its devices use, the robot's geometry, the calibration
// that turns raw readings into ci units, and the devices it offers under
// their .argos tags.
//
// Definitions are values, not code paths: [Lookup] builds a fresh
// [Board] from its definition on every call, so no code can change a
// definition at run time; a caller may tweak its own copy (the robot
// command's -port and -bus flags do, for emulated hardware).
//
// # Boards
//
//	name          model     link                                           Go target
//	epuck         e-puck    advanced sercom (ASCII) on /dev/ttyS0, 115200   linux/arm GOARM=7 (Gumstix Overo, Cortex-A8)
//	epuck-bt      e-puck    advanced sercom (ASCII) on /dev/rfcomm0         the host (a PC driving the robot over Bluetooth)
//	pipuck        e-puck    e-puck2 I²C frames at 0x1F on /dev/i2c-12       linux/arm GOARM=6 (Pi Zero W, ARM1176)
//	pipuck2       e-puck    e-puck2 I²C frames at 0x1F on /dev/i2c-12       linux/arm64 (Pi Zero 2 W, Cortex-A53)
//	pipuck-mux    e-puck    e-puck2 I²C frames, PCA9548 at 0x70 channel 1   linux/arm GOARM=6 (no kernel mux driver)
//	                        selected by the driver on /dev/i2c-1
//	pipuck-smbus  e-puck    SMBus register map at 0x1F on /dev/i2c-12       linux/arm GOARM=6
//	footbot       foot-bot  Aseba over TCP to asebaswitch, 127.0.0.1:33333  linux/arm GOARM=6 (i.MX31, ARM1136)
//	eyebot        eye-bot   Aseba over TCP to asebaswitch, 127.0.0.1:33333  linux/arm GOARM=6 (assumed: same board)
//
// # Aseba mapping of the foot-bot and the eye-bot
//
// No public register map of the marXbot's (foot-bot's) and eye-bot's
// dsPIC modules exists, so the project defines one (docs/robots.md). Each
// device reads or writes Aseba variables of one node; a variable is
// named as in the node's description, where the drivers look its
// address up; Address, its index in the node's variable memory, is used
// for a node that gives no description. It is Size 16-bit words long.
// Raw values are int16; Unit is what one raw unit is worth in the ci unit
// of the device.
//
// foot-bot:
//
//	role                   node           variable          addr size unit                     device (tag)
//	wheel.left.target      1 motor.left   speed.target      0    1    1 mm/s = 0.1 cm/s        differential_steering (actuator)
//	wheel.left.speed       1 motor.left   speed.measured    1    1    0.1 cm/s                 differential_steering (sensor)
//	wheel.right.target     2 motor.right  speed.target      0    1    0.1 cm/s                 differential_steering (actuator)
//	wheel.right.speed      2 motor.right  speed.measured    1    1    0.1 cm/s                 differential_steering (sensor)
//	wheel.left.odometry    1 motor.left   odometry          2    1    1 mm (wrapping)          differential_steering (sensor)
//	wheel.right.odometry   2 motor.right  odometry          2    1    1 mm (wrapping)          differential_steering (sensor)
//	proximity              3 ring         prox.values       0    24   1/4095                   footbot_proximity, proximity
//	light                  3 ring         light.values      24   24   1/4095                   footbot_light, light
//	ground.base            4 ground       ground.base       0    8    1/4095                   footbot_base_ground
//	ground.motor           4 ground       ground.motor      8    4    1/4095                   footbot_motor_ground, ground
//	leds                   5 leds         leds.rgb          0    39   R,G,B of 13 LEDs, 0..255 leds
//	battery.charge         6 power        battery.charge    0    1    1/1000                   battery
//	battery.time_left      6 power        battery.time_left 1    1    1 s                      battery
//
// eye-bot:
//
//	role                   node           variable          addr size unit                     device (tag)
//	flight.mode            1 flight       flight.mode       0    1    0 hover, 1 position, 2 speed
//	flight.position.target 1 flight       position.target   1    4    x, y, z in mm, yaw in mrad quadrotor_position
//	flight.speed.target    1 flight       speed.target      5    4    mm/s, yaw rate in mrad/s  quadrotor_speed
//	flight.position        1 flight       position          9    4    x, y, z in mm, yaw in mrad (read back)
//	altitude               1 flight       altitude          13   1    1 mm                     altitude
//	proximity              2 ring         prox.values       0    24   1/4095                   eyebot_proximity, proximity
//	light                  2 ring         light.values      24   24   1/4095                   eyebot_light, light
//	leds                   3 leds         leds.rgb          0    48   R,G,B of 16 LEDs, 0..255 leds
//
// Stopping a foot-bot writes 0 to both wheel targets; stopping an eye-bot
// writes mode 0 (hover where it is) and a zero speed target.
package boards
