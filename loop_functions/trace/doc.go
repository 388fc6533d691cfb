// Package trace is trace_loop_functions, the pose recorder of ARGoS's
// reference traces: it writes where every robot, box and cylinder is, tick
// after tick, to a tab-separated file that reads back the exact numbers
// the simulator held. Use it to compare a run with another simulator's
// (ARGoS 3 with the same plugin), to calibrate a robot model, or to plot
// trajectories; the controller github.com/argosgo/argos/controllers/fixed_wheels
// drives robots at constant speeds for such runs.
//
//	<loop_functions library="trace_loop_functions" label="trace_loop_functions"
//	                output="run.tsv" every="10" />
//
// Attributes: output (required) is the file, created or truncated;
// a relative name lands in the run folder (argos --out) or the working
// directory. every (default 1, at least 1) is the period in ticks.
//
// The file has no header; each row is
//
//	tick  id  x  y  yaw
//
// separated by tabs and ended by "\n": the simulation clock (0 for the
// initial state), the entity's id as in the .argos file (or as
// <distribute> numbers it), the position of its origin in metres (for
// robots the point between the wheels, for boxes and cylinders the centre
// of the base) and its heading in radians, in (-pi, pi]. Numbers have 17
// significant digits (Go's %.17g, as C's printf writes them), so they read
// back as the exact float64 values.
//
// Which entities: every entity with a body (robots, boxes, cylinders; not
// lights). The rows of one tick are sorted by id, byte by byte.
//
//   - Tick 0 is written by Init, once the arena is built and before the
//     first tick: one row for every entity, movable or not, so that the
//     file also records walls and obstacles placed by <distribute>.
//   - Tick t >= 1 is written by PostStep (after every robot's control step)
//     when t is a multiple of every: one row for every movable entity.
//     Static entities never move and appear only at tick 0.
//   - Reset truncates the file and writes tick 0 again.
//
// Write errors are reported once, when the file is flushed at the end of
// the run or closed.
package trace
