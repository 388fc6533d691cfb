// Package behaviortk is the behavioural toolkit: controllers built from
// small behaviours that work on a copy of the robot's state instead of on
// its devices.
//
// A [State] is a snapshot of every sensor reading of one robot plus the
// actuator outputs pending for this step. A [Device] binding reads the
// robot's sensors into the state once per step and writes the outputs back
// once, at the end, so behaviours never touch devices and can be composed
// and tested freely:
//
//   - a [Behavior] reads and changes a State in Step;
//   - [Sequence] runs behaviours one after the other on the same state:
//     later ones override earlier ones (priority by order);
//   - [Parallel] runs each child on its own copy of the state and merges
//     the copies with a merge function;
//   - [FSM] is a finite-state machine: named states, each with a
//     behaviour, transitions triggered by named inputs, a start state, and
//     the current state queryable for logging and tests;
//   - [Controller] hosts a root behaviour and is itself a ci.Controller,
//     so it registers like any controller.
//
// Copying a State ([State.CopyTo]) reuses the destination's buffers: after
// the first copy it allocates nothing, and the copy shares no slice with
// the original.
//
// The package imports only ci: controllers built with it run unchanged in
// the simulator and on real robots.
package behaviortk
