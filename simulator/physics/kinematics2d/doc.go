// Package kinematics2d is the fast engine of the original ARGoS design:
// first-order motion in a plane, no mass, no forces, no friction. Each
// body moves at the velocity it asks for (forward speed along its heading
// and angular speed, integrated exactly along the arc); a move that would
// make two bodies overlap (discs and boxes, exact for disc-disc and
// disc-box) is not made, so bodies stop at obstacles instead of being
// pushed back by contact forces. Movable objects are never pushed: in a
// kinematic world nothing transmits force.
//
// Collisions are resolved Jacobi-style, which keeps results independent of
// the number of threads: every body proposes a move from the same state,
// proposals that collide with another proposal (or a static body) are
// withdrawn, and this repeats until no proposal changes. A body that
// already overlaps another (placed there by loop functions) may still move
// as long as the overlap does not grow, so overlaps resolve themselves.
//
// Bodies do not slide along what they touch: a body that keeps asking for
// a move into another is stopped tick after tick. A long run of a crowded
// swarm gathers many such stuck bodies, and they cost little: a body that
// did not move and asks for the same velocity proposes the move it was
// stopped from again without working it out anew (no sines and cosines
// for a turn), and while it and the one that stopped it neither move nor
// change the velocity they ask for, the same pair collides again: the
// engine withdraws the move without looking for neighbours (and without
// writing the body again). In the later rounds, a kept proposal is
// checked again only against the neighbours whose start pose it touches
// that the round before withdrew, the only ones that can make it collide
// now. Results are those of the plain Jacobi iteration, bit for bit.
//
// # The plane
//
// The engine's plane is perpendicular to an axis at a distance from the
// origin: the floor (perpendicular="z" distance="0", the default), the
// ceiling (perpendicular="z" distance="3"), a wall (perpendicular="x"
// distance="5"). A body belongs to the engine whose plane it lies in (and,
// with <boundaries>, whose region holds it), so several instances can run
// at once on different planes. In a wall plane the engine's axes are (Y, Z)
// of the arena, for perpendicular="y" they are (Z, X); static obstacles are
// taken into account only in horizontal planes, where an upright box or
// cylinder that spans the plane's height cuts it in its footprint.
//
// # Attributes
//
//	<kinematics2d id="k" iterations="1" perpendicular="z" distance="0">
//	  <boundaries> ... </boundaries>   (optional region, see physics.Prism)
//	</kinematics2d>
//
// iterations splits a tick into that many sub-steps for finer collision
// checks (default 1; ARGoS's "subclock").
package kinematics2d
