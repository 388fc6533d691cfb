// Package traces checks ARGoS-Go's dynamics against ARGoS 3 itself: it
// runs the pose-trace scenarios that ARGoS 3 (3.0.0-beta59, one dynamics2d
// engine with its defaults, 10 ticks per second) was run on, and compares
// the traces both simulators wrote with trace_loop_functions. The
// scenario files and ARGoS 3's traces are in testdata/ (NAME.argos and
// NAME.tsv.gz, the trace gzipped); the .argos files are run as they are, with
// fixed_wheels_controller, footbot_diffusion_controller and
// trace_loop_functions of this repository.
//
// The package has only tests. go test -v prints the fidelity table: for
// each scenario the figures that characterise it (first motion, speed
// along a wall, overlap of bodies in contact, ...), ARGoS-Go's value,
// ARGoS 3's and the difference, each with the tolerance the test holds
// it to.
//
// Deterministic scenarios (a lone e-puck driving straight and on an arc,
// a foot-bot spinning on the spot, sliding along a wall met at 45
// degrees, two foot-bots pushing each other head-on, a foot-bot pushing a
// movable box): every pose of every tick within 1 mm and 1e-5 rad of
// ARGoS 3's, and the figures to their stated tolerances.
//
// A crowd of 20 e-pucks turning in a walled pen: poses within 1 mm for
// the first 100 ticks, then the crowd's statistics over the 600 ticks
// (how often and how deeply robots overlap, how far they move per tick,
// that none leaves the pen, that contacts never change a heading). After
// about 6 s the two simulators resolve some three-body contacts in a
// different order (cp visits contact pairs in another order than ARGoS's
// Chipmunk), and from there the crowd's motion diverges as any chaotic
// system would.
//
// Ten foot-bots running footbot_diffusion among walls and obstacles, 20
// seeds: each run starts from the initial state ARGoS 3 drew for the seed
// (the <distribute> blocks are replaced by the entities of ARGoS's tick-0
// block), poses agree within 1 mm for the first 2 s, and the 200 robots'
// path lengths and net displacements over 60 s have the same
// distribution (two-sample Kolmogorov-Smirnov test at the 5 % level).
package traces
