// Package realrobot runs a controller on a real robot: the tick loop
// (sense -> ControlStep -> act at the experiment's ticks_per_second), the
// robot handle the controller gets, and the registry of the drivers that
// speak each board's protocol (one package per robot model:
// realrobot/epuck, realrobot/footbot, realrobot/eyebot, with the Aseba
// codec in realrobot/aseba).
//
// A [Driver] is one link to the robot's hardware and the devices built on
// it; the model packages register an [Opener] per [boards.Protocol] in
// [Protocols]. [Open] looks the board's protocol up, opens the driver for
// the devices the controller declares, and initialises the controller;
// [New] does the same on a driver the caller opened (tests, custom links).
//
// Two drivers are not hardware: realrobot/attach links the controller to
// a robot of a running simulation (the board "sim"; with a robot's
// board, a real robot of a mixed experiment gets the simulation's
// virtual readings), and realrobot/udpmsg adds the ci messaging devices
// over UDP between real robots.
//
// # Faults
//
// [Runtime.Run] never leaves the wheels running after something went
// wrong:
//
//   - a tick that has not finished at the end of its period (an overrun)
//     has the wheels commanded to zero at once, and its own commands are
//     never sent: the runtime does not call its Act, and a Stop
//     supersedes an Act already under way ([Supersede]: no retry of a
//     driver resends a command older than the stop). The loop goes on,
//     and the next tick that finishes in time drives the wheels again;
//   - a tick that has not finished after [Options.StallAfter] (a stalled
//     tick) ends the run with [ErrStalled]; the controller is not
//     destroyed, since its ControlStep may still be running;
//   - a failed exchange with the hardware (after the driver's own
//     retries) skips the tick: the wheels are commanded to zero and the
//     error is logged; the loop recovers at the first tick that works.
//     After [Options.MaxFailures] failed ticks in a row the run ends with
//     [ErrDeviceLost];
//   - a panic in ControlStep ends the run with a [PanicError] (wrapping
//     [ErrControllerPanic]) that names the file:line of the panicking
//     frame; the whole stack goes to the log at debug level;
//   - a cancelled context (a terminating signal in the robot command)
//     ends the run after the current tick, with no error.
//
// The wheels are stopped before anything about the end of the run is
// logged, and the log says "wheels stopped" only after a stop went out.
// In every case [Runtime.Close] then stops the wheels again, calls the
// controller's Destroy (except after a stall) and closes the driver.
//
// Only this package's loop touches the wall clock; drivers and
// controllers never read it to decide what to do.
package realrobot
