// Package sensor_probe is a controller that only reads sensors: at every
// control step it copies every reading of the sensors its robot declares
// into a list that loop functions (or a test) read afterwards. With the
// pose_sweep loop functions (package loop_functions/pose_sweep) it
// tabulates a sensor's readings over a list of poses, to calibrate a
// sensor or plot its response; it is the controller ARGoS 3's sensor
// sweeps were made with, so the same experiment files run unchanged.
//
// It is registered as sensor_probe_controller and works on any robot. It
// reads these sensors when the controller entry declares them, in this
// order:
//
//	epuck_proximity, footbot_proximity, eyebot_proximity, proximity  (ci.Proximity)
//	footbot_light, epuck_light, eyebot_light, light                 (ci.Light)
//	footbot_motor_ground, footbot_base_ground, epuck_ground, ground (ci.Ground)
//	range_and_bearing                                               (ci.RangeAndBearingSensor)
//
// Each reading keeps the sensor's tag, its index in the sensor's reading
// list, its value and an angle in radians, counter-clockwise from the
// robot's front: the sensor's angle for proximity and light sensors, the
// direction of the sensor's offset for ground sensors. A range-and-bearing
// packet is a reading whose value is the range in centimetres and whose
// angle is the horizontal bearing; Packets keeps the packets whole.
//
// It sets no actuator, except that the optional parameter send (bytes in
// decimal, comma-separated) makes it broadcast those bytes through the
// range_and_bearing actuator at every step; the robot must then declare
// that actuator, and, to be heard in ARGoS 3, the range_and_bearing sensor
// too. Declared with no sensors it is an idle robot.
//
//	<controllers>
//	  <sensor_probe_controller id="probe" library="sensor_probe_controller">
//	    <actuators><range_and_bearing implementation="default" medium="rab"/></actuators>
//	    <sensors>
//	      <footbot_proximity implementation="default" show_rays="false" noise_level="0"/>
//	      <range_and_bearing implementation="medium" medium="rab"/>
//	    </sensors>
//	    <params send="1,2,3"/>
//	  </sensor_probe_controller>
//	</controllers>
package sensor_probe
