// Package pointmass3d is ARGoS's 3D point-mass engine: it flies
// quad-rotors (the eye-bot) as point masses in 3D, driven by the
// set-points their actuators write into space.Body.Flight.
//
// # The model
//
// It follows ARGoS 3's CPointMass3DQuadRotorModel
// (plugins/simulator/physics_engines/pointmass3d/pointmass3d_quadrotor_model.cpp)
// with the eye-bot's constants (plugins/robots/eye-bot/simulator/
// pointmass3d_eyebot_model.cpp): mass 1 kg, inertia 0.01 kg m^2 about Z.
// Each tick runs `iterations` sub-steps (default 10, as ARGoS's physics
// clock) of, in ARGoS's order:
//
//  1. position += velocity * dt, yaw += rotational speed * dt;
//  2. limits: the body stays inside the arena (its centre at least a
//     radius from the sides), above the floor (z >= 0) and below the
//     ceiling (its top at most at the ceiling), and out of static bodies
//     whose height range it meets; a blocked axis loses its speed (an
//     inelastic stop);
//  3. velocity += dt/mass * force, rotational speed += dt/inertia * torque;
//  4. control: a PD controller per axis computes the force (and torque)
//     for the next sub-step; its derivative term is the change of the
//     error over the sub-step, as in ARGoS. Gravity (attribute gravity,
//     default -9.81 m/s^2) is compensated exactly, so a quad-rotor with no
//     error holds its altitude.
//
// Position set-points (space.ToPosition, actuator quadrotor_position):
// Kp 20, Kd 10 per axis, yaw Kp 0.5, Kd 0.1, forces clamped to 1000 N per
// axis and torques to 1000 N m (ARGoS's defaults). The controller is
// over-damped: a take-off to 1.5 m is within 1 mm of the set-point after
// about 2.5 s, without overshoot. As in ARGoS, a jump of the set-point
// gives a derivative kick (Kd times the jump over the sub-step, up to the
// force limit) that moves the body most of the way within a few tenths of
// a second; a horizontal move of 0.5 m overshoots by about 2 cm.
//
// Speed set-points (space.AtSpeed, actuator quadrotor_speed): velocity Kp
// 1 and Kd 0 per axis (ARGoS's eye-bot values: the speed is reached with
// a time constant of 1 s), rotational speed Kp 0.5. ARGoS uses Kd 0.1 for
// the rotational speed, which makes this discrete controller oscillate
// without bound at a 0.01 s sub-step (the derivative of the speed error
// feeds back ten times the error per sub-step); this engine uses Kd 0.
//
// A body whose Flight is in space.Hover (no quadrotor actuator has given a
// command) is driven kinematically by its drive (space.Drive) at constant
// height, as kinematics2d drives a ground robot: an eye-bot without
// actuators hovers where it is, and the engine passes the conformance
// checks of physicstest, which drive bodies that way.
//
// Ceiling attachment (Flight.Attach, actuator ceiling_attachment): the
// body flies straight up under position control until its top touches the
// ceiling, then hangs there with its motors off (no force, no motion)
// until Attach is cleared; Flight.Attached reports it. The ceiling is the
// top of the arena unless the attribute ceiling gives its height.
//
// Flying bodies do not collide with other mobile bodies (ARGoS's
// pointmass3d neither): an eye-bot flies over and through robots and
// movable objects. The engine models eye-bots (physics.Modeler): the
// simulator gives it every eye-bot, whatever the order of
// <physics_engines>; foot-bots and e-pucks go to it only when no other
// engine takes them (physics.Fallback), as in ARGoS's eyebot_circle
// example, where they drive kinematically (Hover mode, above). It accepts
// any movable body handed to it directly.
//
// Step reads the space and writes only the engine's own state, one chunk
// of bodies per job; Commit writes the owned bodies. Every body is
// integrated on its own, so results do not depend on the number of
// threads.
//
// # Attributes
//
//	<pointmass3d id="pm3d" iterations="10" gravity="-9.81" ceiling="3">
//	  <boundaries> ... </boundaries>   (optional region, see physics.Prism)
//	</pointmass3d>
package pointmass3d
