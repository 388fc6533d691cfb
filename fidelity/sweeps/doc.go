// Package sweeps checks ARGoS-Go's sensors against ARGoS 3 itself: it runs
// the sensor sweeps that ARGoS 3 (3.0.0-beta59, one dynamics2d engine)
// was run on, with sensor_probe_controller and pose_sweep_loop_functions,
// and compares the tables both simulators wrote. The sweep files and
// ARGoS 3's tables are in testdata/ (NAME.argos and NAME.tsv.gz, gzipped
// as they came); the .argos files run as they are.
//
// The package has only tests. go test -v prints, for each sweep, the
// largest difference from ARGoS 3's readings and where it is.
package sweeps
