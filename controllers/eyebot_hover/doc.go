// Package eyebothover (directory controllers/eyebot_hover) is a small
// demonstration controller for the eye-bot: it takes off from where it
// stands, flies through a list of way-points at a fixed altitude, hovers
// over each one with its laser pointer marking the floor below, and loops
// (or lands after the last one). Its downward camera counts the coloured blobs below (the LEDs of
// the robots it flies over, other robots' laser spots); its LEDs turn blue
// while it sees any.
//
// Parameters, as attributes of <params>:
//
//	altitude   flight altitude of the bottom of the body, metres (default 1.5)
//	waypoints  "x,y; x,y; ..." in metres (default: the take-off point)
//	hold       ticks to hover over each way-point (default 50)
//	tolerance  how close to a way-point counts as there, metres (default 0.02)
//	laser      colour of the laser while hovering ("red", "0,255,0"; "off":
//	           none; default red)
//	loop       start again after the last way-point (default true); else land
//
// Devices: the actuator quadrotor_position and the sensor positioning;
// optionally the actuators laser_pointer and leds and the sensor
// colored_blob_perspective_camera.
//
//	<controllers>
//	  <eyebot_hover_controller id="ehc" library="">
//	    <actuators>
//	      <quadrotor_position implementation="default"/>
//	      <laser_pointer implementation="default"/>
//	      <leds implementation="default" medium="leds"/>
//	    </actuators>
//	    <sensors>
//	      <positioning implementation="default"/>
//	      <colored_blob_perspective_camera implementation="default" medium="leds"/>
//	    </sensors>
//	    <params altitude="1.5" waypoints="1,0; 0,1; -1,0; 0,-1" hold="30" laser="red"/>
//	  </eyebot_hover_controller>
//	</controllers>
package eyebothover
