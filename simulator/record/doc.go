// Package record writes run folders: everything needed to understand and
// repeat a run, and its data in a form that loads straight into pandas, R
// or DuckDB.
//
// A run folder (argos --out DIR) holds:
//
//	experiment.argos   the experiment file as run, with the seed filled in
//	command.txt        the command line that repeats the run
//	run.json           version, Go version, seed, threads, start and end, ticks done, status
//	argos.log          the log
//	metrics.csv        the recorded metrics in long (tidy) format
//	metrics.parquet    the same rows, when asked (argos --parquet)
//
// plus what the experiment's recorders write (the text visualization's
// file). Metrics rows have the columns tick, time (simulated seconds),
// robot (the robot's id; empty in CSV and null in Parquet for per-tick
// metrics of the whole experiment), metric and value: one row per value
// recorded, ready for
//
//	df = pd.read_csv("run/metrics.csv")
//	df.pivot_table(index="time", columns="metric", values="value")
//
// Loop functions record through Simulator.Metrics and
// Simulator.RobotMetrics, controllers through ci.Metrics(robot). Rows are
// flushed at least once a second and on Close, so a run cut short (a
// signal, an error) leaves complete, readable files for the ticks done.
package record
