// Package gripping is ARGoS's gripping controller (the ARGoS 3 example
// footbot_gripping, argos3-examples/controllers/footbot_gripping): a
// foot-bot drives forward to an object in front of it, grips it, drags it
// backwards and lets it go.
//
// Like ARGoS's, the controller is a script on a step counter: at steps
// 1-69 it drives forward at 5 cm/s; at step 70 it stops and locks the
// gripper; at steps 71-119 it drives backwards at 5 cm/s, dragging what it
// holds; at steps 120-169 it unlocks the gripper and keeps backing away;
// from step 170 on it stands still. With ARGoS's gripping.argos (a
// cylinder of radius 0.1 m whose centre is 0.5 m in front of the robot)
// the robot reaches the cylinder shortly before step 70 and drags it
// about 0.25 m.
//
// The timings and the speed are ARGoS's; they can be changed with
// optional attributes of <params>, useful for other arenas:
//
//	<params speed="5" grip_step="70" release_step="120" stop_step="170" />
//
// speed is in cm/s, the others are step numbers (1 is the first
// ControlStep) with grip_step < release_step <= stop_step. Devices:
// actuators differential_steering and footbot_gripper.
package gripping
