// Package dynamics2d is the 2D dynamics physics engine of ARGoS, on
// github.com/jakecoffman/cp (a Go port of Chipmunk, the library ARGoS's
// dynamics2d uses).
//
// The model is ARGoS's: a wheeled robot is a rigid disc dragged toward the
// velocity its wheels ask for (forward speed along its heading at the start
// of the tick, angular speed (v_r - v_l)/axle) by a constraint whose
// impulse is bounded by a maximum force and torque, exactly what ARGoS
// builds with a pivot joint and a gear joint (max bias 0) to a control
// body; movable boxes and cylinders are dragged toward rest by the same
// constraint, which models their friction on the floor; walls and fixed
// objects are static shapes. Masses, moments of inertia (2 m r² for
// discs), friction (0.7 between mobile shapes, 0.1 on static ones), the
// collision slop and the contact points are ARGoS's, and the foot-bot's
// gripper body is folded into its base; fidelity/traces compares the
// engine with ARGoS 3's own traces. Two bodies touch only where their
// height ranges meet (a robot passes under a raised bar), as in the
// space's queries.
// Each tick runs `iterations` (default 10) space steps of tick/iterations,
// with `iterations` solver iterations each, as ARGoS does. The drives of
// all the bodies in the cp space are one cp constraint, solved body after
// body: a drive moves its own body only, so this gives the numbers of a
// constraint per body, with less memory and in the bodies' memory order.
//
// # Free bodies
//
// Most robots of a swarm touch nothing most of the time, and a body that
// touches nothing is moved by its drive constraint alone. The engine keeps
// such bodies out of the cp space and integrates them with the very same
// impulse arithmetic cp would apply (warm-started, clamped, same sub-step
// order, so that both give the same numbers bit for bit), in parallel
// chunks; only the bodies that may touch something
// during the coming tick (another body or a wall within the distance both
// can travel in one tick) are stepped by cp. A body moves between the two
// sets on the coordinating goroutine of the engine, in a fixed order, so
// results do not depend on the number of threads.
// A body borrows a cp body and shape from the engine's pool while it is in
// the cp space, so that cp's memory is that of the few bodies it steps;
// within cp, the drive of a body without a contact in a sub-step is solved
// whole at once, as the free integrator does.
//
// # Gripping
//
// The engine implements physics.Gripping: a gripped body is held to its
// gripper by a cp pivot joint at the grip point (ARGoS's values: max bias
// 0.95 m/s, max force 10000 N); it turns freely about that point and
// still collides with the gripper's body. Both bodies stay in the cp space
// while the grip lasts. Joints are made and broken only on the
// coordinating goroutine, between ticks; removing either body from the
// engine, or Reset, releases the grip.
//
// # Attributes
//
//	<dynamics2d id="dyn2d" iterations="10" spatial_index="bbtree">
//	  <boundaries> ... </boundaries>   (optional region, see physics.Prism)
//	</dynamics2d>
//
// spatial_index is "bbtree" (cp's default) or "hash"; with "hash",
// active_cell_size (metres) and active_cells size the hash.
package dynamics2d
