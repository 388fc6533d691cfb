// Package fixedwheels (directory controllers/fixed_wheels) is
// fixed_wheels_controller, the calibration controller of ARGoS's reference
// traces: it drives a robot's two wheels at constant speeds, optionally
// only during a window of control steps, and does nothing else. It reads
// no sensor and draws no random numbers, so a run shows the physics
// engine alone; use it to measure how a robot model accelerates, turns,
// slides along a wall or pushes an object (with
// github.com/argosgo/argos/loop_functions/trace recording the poses).
//
// Parameters, as attributes of <params>:
//
//	left, right  wheel speeds, cm/s (default 0)
//	start_tick   first control step that drives the wheels (default 0)
//	stop_tick    first control step that stops them again; a negative
//	             value (the default, -1) never stops them
//
// The controller counts its control steps: the first one after Init is
// step 1 (it runs in tick 1, so the count equals the simulation clock),
// and Reset sets the count back to 0. At step n it sets the wheels to
// (left, right) when start_tick <= n and (stop_tick < 0 or n < stop_tick),
// and to (0, 0) otherwise. As in ARGoS, speeds set at step n move the
// robot during tick n+1.
//
// Devices: the actuator differential_steering; <sensors /> may stay empty.
// It serves any robot with wheels (foot-bot, e-puck, Pi-puck):
//
//	<controllers>
//	  <fixed_wheels_controller id="fw" library="fixed_wheels">
//	    <actuators><differential_steering implementation="default"/></actuators>
//	    <sensors/>
//	    <params left="5" right="10" start_tick="1" stop_tick="-1"/>
//	  </fixed_wheels_controller>
//	</controllers>
package fixedwheels
