// Package simlink is the protocol between a simulation and a controller
// that runs outside it: a robot binary attached over TCP that drives one
// simulated robot (its sensors come from the simulator, its actuator
// values go back, one exchange per tick), or a real robot whose
// controller receives virtual readings of the simulated world.
//
// The simulator's side (simulator/remote) and the robot's side (the
// "sim" driver of realrobot) both import this package; it imports only
// ci and the standard library, so that the robot binary links no
// simulator code.
//
// # Frames
//
// Both directions carry frames on one TCP connection:
//
//	length  uint32, little-endian   bytes that follow (type and body), 1 to MaxFrame
//	type    byte                    one of the Frame* constants
//	body    length-1 bytes
//
// Numbers in bodies are unsigned varints (encoding/binary's Uvarint)
// unless said otherwise; a string is its length as a uvarint then its
// bytes; float64 values are 8 bytes, little-endian IEEE 754. A body must
// be consumed exactly: short bodies, trailing bytes and lengths beyond
// the frame are errors (ErrMalformed), and the connection is closed.
//
// # Exchange
//
//	client -> server  Hello    version byte (1), robot id, token,
//	                           sensor tags (count, strings), actuator tags (count, strings)
//	server -> client  Welcome  version byte, ticks per second, mode byte (0 lockstep,
//	                           1 real time), per actuator one uvarint parameter
//	                           (the number of LEDs of "leds", else 0)
//	              or  Reject   reason string; the server closes the connection
//	server -> client  Sense    tick, count, per sensor (hello order): length, bytes
//	client -> server  Act      tick, flags byte (bit 0: stop, wheels to zero),
//	                           count, per actuator (hello order): length, bytes
//	either            Bye      reason string; the sender closes the connection
//
// One Sense goes out per simulation tick; the client answers it with
// one Act carrying the same tick. In lockstep the simulation waits for
// that Act before the tick's control step ends; in real time it never
// waits and applies the last Act received (an Act for an older tick is
// still applied, since it is the newest the client sent). An Act with
// the stop flag may come at any time (the robot runtime stopping its
// wheels) and counts as the answer for its tick; a client that stopped
// while the next Sense was on its way answers that Sense with a stop
// too.
//
// # Device payloads
//
// Sensors and actuators travel as the ci interfaces their tags name
// (see [SensorKindOf] and [ActuatorKindOf]):
//
//	proximity, light      count, then per reading: value, angle (float64)
//	ground                count, then per reading: value, offset x, offset y
//	positioning           x, y, z, then the quaternion w, x, y, z
//	differential_steering sensor: velocity left, right, covered distance left,
//	                      right, wheel axis length; actuator: left, right (cm/s)
//	leds                  count, then per LED 4 bytes R, G, B, A
//	messaging             count, then per message its ci wire encoding
//	                      (ci.AppendMessage), prefixed by its length (uint32)
//	range_and_bearing     sensor: count, then per packet range, horizontal and
//	                      vertical bearing (float64), data (length, bytes);
//	                      actuator: data (length, bytes), at most the robot's
//	                      rab_data_size
//	colored_blob_*_camera count, then per blob R, G, B, A bytes, angle,
//	                      distance, x, y (float64); the simulation keeps the
//	                      camera enabled, the controller's side reports the
//	                      blobs while its copy is enabled
package simlink
