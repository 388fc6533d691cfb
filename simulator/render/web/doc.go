// Package web is the web viewer: the simulator serves a page and streams
// the arena's state to it over a WebSocket, so that an experiment can be
// watched, steered and inspected from any browser, with nothing installed.
//
//	<visualization>
//	  <web port="8080"/>
//	</visualization>
//
// or, for any experiment, argos -c FILE.argos --viz web. The page draws the
// arena from above and in 3D: robots with their heading and LED colours,
// walls, boxes and cylinders with their LEDs, lights, floor colours, laser
// spots, and on request the proximity rays and range-and-bearing links.
// It plays, pauses, steps, resets and changes the speed of the run;
// clicking a robot shows its id, pose, sensor readings and actuator values (every device
// that implements devices.Inspector); dragging a robot or a movable object
// moves it (Simulator.MoveBody). Several browsers may watch one run.
//
// Attributes of <web>: port (default 8080; 0 picks a free one), address
// (default 127.0.0.1), fps (most frames sent per second, default 30),
// autoplay (start playing, default false), speed (1 is real time, 0 as
// fast as possible; default 1).
//
// Safety. The viewer listens on the loopback interface only, refuses
// requests from other addresses and for other host names (DNS
// rebinding), unless address names another interface explicitly. It
// serves only the files embedded in the binary: no part of a request's
// path reaches the file system. A slow or vanished browser never holds
// the simulation up: each browser gets the newest frame when it is ready
// for one (older frames are dropped), its other messages go through a
// bounded queue, and a browser that cannot keep up with those, or does
// not take a message for writeTimeout, is disconnected.
//
// Control flow. The viewer is a simulator.Driver: Simulator.Execute hands
// it the run loop, and every Step, Reset and MoveBody happens on that one
// goroutine; the browsers' commands reach it through a channel. Without
// Execute (a program that calls Step itself) the viewer still shows the
// run, read-only.
package web
