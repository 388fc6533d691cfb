// Package web is the web viewer: the simulator serves a page and streams
// the arena's state to it over a WebSocket, so that an experiment can be
// watched, steered and inspected from any browser, with nothing installed.
//
//	<visualization>
//	  <web port="8080"/>
//	</visualization>
//
// or, for any experiment, argos -c FILE.argos --viz web. ARGoS 3's
// <qt-opengl> opens the same viewer, so ARGoS files run unchanged (argos
// -z skips both): its autoplay and title are used, its camera placements
// (<camera><placements><placement index position look_at up
// lens_focal_length>, or the older <placement idx>) become camera presets
// of the page's 3D view, which it then opens from the first; the rest of
// ARGoS's element (lua_editor, <frame_grabbing>, <timeline>...) is ignored
// with a debug line. <web> takes <camera> too.
//
// The page draws the arena from above and in 3D: foot-bots with their
// treels, LED ring, gripper and camera tube, e-pucks with their wheels,
// eye-bots as quadrotors with a line and a shadow down to the floor, LEDs
// in their colours (pale when off), ids (in 3D too), walls, boxes and
// cylinders with their LEDs, lights (visible at any zoom), floor colours,
// laser spots, and on request the proximity rays and range-and-bearing
// links, on a floor grid spaced for the arena. It plays, pauses, steps,
// resets and changes the speed of the run; clicking a robot shows its id,
// pose, controller, sensor readings and actuator values (every device
// that implements devices.Inspector). Dragging a robot or a movable object
// moves it (Simulator.MoveBody) where it is dropped, dragging its handle
// or shift-dragging turns it; a drop that would overlap another body or
// leave the arena is refused with the reason, as in ARGoS, and the body
// stays where it was. Reset puts back what was moved. Several browsers may
// watch one run.
//
// User functions (simulator.UserFunctions, <user_functions label> in
// <qt-opengl> or <web>) draw into every frame sent: points, lines,
// circles, boxes, texts, texts above robots and robot colours, in both
// views. The selection (a click on an entity, a click on the floor to
// deselect) and the arrows and letters typed while no input field has the
// focus reach them as Simulator.SelectEntity and Simulator.PressKey, on
// the goroutine that runs the simulator; keys a closing browser held are
// released. Without user functions nothing is drawn nor sent for them.
//
// Attributes of <web> (also accepted by <qt-opengl>): port (default
// 8080; 0 picks a free one), address (default 127.0.0.1), fps (most
// frames sent per second, default 30), autoplay (start playing, default
// false), speed (1 is real time, 0 as fast as possible; default 1).
//
// Large swarms. Frames are binary (frame.go): poses quantised to 16 bits
// over the arena, LED colours through a palette, and each browser gets
// only what changed since the frame it got before. 10,000 e-pucks make a
// 64 KB first frame and 28 KB frames while they move. The page stamps
// robots that are a few pixels wide straight into an image and draws
// point sprites in 3D beyond a few hundred robots; BenchmarkTopView10k
// measures it in headless Chromium. FrameState decodes frames in Go.
//
// Safety. The viewer listens on the loopback interface only, refuses
// requests from other addresses and for other host names (DNS
// rebinding), unless address names another interface explicitly. It
// serves only the files embedded in the binary: no part of a request's
// path reaches the file system. A slow or vanished browser never holds
// the simulation up: each browser gets the newest frame when it is ready
// for one (older frames are merged into it), its other messages go
// through a bounded queue, and a browser that cannot keep up with those,
// or does not take a message for writeTimeout, is disconnected.
//
// Control flow. The viewer is a simulator.Driver: Simulator.Execute hands
// it the run loop, and every Step, Reset and MoveBody happens on that one
// goroutine; the browsers' commands reach it through a channel. Drive
// returns the context's error when the context ends it, as Simulator.Run
// does, so that argos exits 130 after Ctrl-C with the viewer as without.
// Without Execute (a program that calls Step itself) the viewer still
// shows the run, read-only.
package web
