// Package flocking is ARGoS's flocking controller (the ARGoS 3 example
// footbot_flocking, argos3-examples/controllers/footbot_flocking): foot-bots
// move together toward a light while keeping a fixed distance from each
// other, so that the group travels as a loose hexagonal lattice with
// aligned headings.
//
// Every robot lights its beacon (LED 12) red and switches its
// omnidirectional camera on. Each tick it adds two vectors and drives
// toward their sum:
//
//   - toward the light: the sum of the light readings as vectors (length
//     the reading, direction the sensor's angle), scaled to a quarter of
//     max_speed; zero when no light is seen;
//   - flocking: for every red blob closer than 1.8 times target_distance,
//     a vector along the blob's angle whose length is the generalized
//     Lennard-Jones interaction at the blob's distance d (cm),
//     -gain/d * ((target/d)^(2*exponent) - (target/d)^exponent), which
//     pushes away below the target distance and pulls beyond it; the
//     vectors are averaged and clamped to max_speed.
//
// Headings become wheel speeds through ARGoS's three turning mechanisms
// (no turn, soft turn, hard turn) with hysteresis; see [behaviortk.WheelTurning].
//
// The camera reports distances in metres; the controller works in
// centimetres, as ARGoS does, so target_distance="75" means 0.75 m.
//
// Parameters, as children of <params> (every attribute is optional and
// defaults to the value of ARGoS's flocking.argos, see [DefaultParams]):
//
//	<params>
//	  <wheel_turning hard_turn_angle_threshold="90" soft_turn_angle_threshold="70"
//	                 no_turn_angle_threshold="10" max_speed="10" />
//	  <flocking target_distance="75" gain="1000" exponent="2" />
//	</params>
//
// Devices: actuators differential_steering and leds; sensors
// footbot_light and colored_blob_omnidirectional_camera.
package flocking
