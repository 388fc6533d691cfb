// Package synchronization is ARGoS's synchronization controller (the ARGoS
// 3 example footbot_synchronization,
// argos3-examples/controllers/footbot_synchronization): foot-bots that
// flash their LEDs like fireflies and end up flashing together.
//
// Each robot keeps a counter that starts at a random value in [0, 100)
// (from the robot's own random stream). Every tick it looks through its
// omnidirectional camera: if it sees a red blob (another robot flashing)
// the counter jumps ahead by a tenth of its value (integer division, so a
// counter below 10 does not move), otherwise it grows by one. When the
// counter passes 100 the robot lights all its LEDs red for one tick and
// starts again from 0; the rest of the time its LEDs are off (black).
//
// The jump is larger the closer a robot is to flashing, a simplified
// version of the Mirollo-Strogatz pulse-coupled oscillators ARGoS's
// example cites: robots that are almost ready fire along with the first
// one, and robots that have just fired wait for the others, so the group
// converges to one flash every 101 ticks.
//
// The controller has no parameters (<params /> as in ARGoS's
// synchronization.argos). Devices: actuator leds; sensor
// colored_blob_omnidirectional_camera.
package synchronization
