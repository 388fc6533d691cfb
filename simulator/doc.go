// Package simulator runs ARGoS experiments: it builds the arena, the
// robots, their devices and controllers, the physics engines and the loop
// functions from a .argos experiment (package config), then runs the tick:
//
//  1. act (parallel over robots): actuators write what the controllers
//     chose into the robots (wheel speeds, LED colours);
//  2. physics (parallel over engines, and inside them): engines step,
//     then commit the poses of the bodies they own; bodies that left an
//     engine's region migrate to the engine that contains them; the
//     space's index is rebuilt;
//  3. media;
//  4. loop functions' PreStep;
//  5. sense and control (parallel over robots): sensors read the space,
//     then ControlStep runs;
//  6. loop functions' PostStep; visualizations draw.
//
// Each robot owns a random stream derived from the experiment seed and its
// id, work is split into independent jobs, and nothing depends on which
// goroutine ran a job: the same seed gives bit-identical results for any
// number of threads.
//
// Loop functions and visualizations register themselves (LoopFunctionsTypes,
// Visualizations) from packages that the binaries import, like physics
// engines (physics.Engines) and controllers (ci.Controllers).
package simulator
