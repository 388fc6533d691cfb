// Package diffusion is ARGoS's diffusion controller (the ARGoS 3 example
// footbot_diffusion): the robot drives straight and turns away from
// whatever its proximity sensors see, so that a swarm spreads out over the
// arena.
//
// Each tick it adds up the proximity readings as vectors (length the
// reading, direction the sensor's angle) and divides by the number of
// sensors. If that vector points within alpha of the front and is shorter
// than delta, nothing is in the way and the robot goes straight at
// velocity; otherwise it turns by stopping one wheel, as ARGoS does: right
// (left wheel at velocity, right wheel stopped) when the vector points to
// the left (positive angle), left otherwise, including dead ahead.
//
// Parameters, as attributes of <params>:
//
//	alpha     half-width of the "straight ahead" cone, degrees (default 7.5)
//	delta     largest mean proximity still taken as "free" (default 0.1)
//	velocity  wheel speed, cm/s (default 5)
//
// Devices: the actuator differential_steering, and one proximity sensor:
// footbot_proximity, epuck_proximity or proximity, the first of those the
// robot declares. The same controller therefore serves the foot-bot and
// the e-puck, and is registered as footbot_diffusion_controller and
// epuck_diffusion_controller:
//
//	<controllers>
//	  <footbot_diffusion_controller id="fdc" library="">
//	    <actuators><differential_steering implementation="default"/></actuators>
//	    <sensors><footbot_proximity implementation="default" show_rays="true"/></sensors>
//	    <params alpha="7.5" delta="0.1" velocity="5"/>
//	  </footbot_diffusion_controller>
//	</controllers>
//
// The defaults are the values of ARGoS's footbot_diffusion.argos; ARGoS's
// C++ class itself defaults to alpha 10, delta 0.5 and velocity 2.5 when
// the attributes are absent.
package diffusion
