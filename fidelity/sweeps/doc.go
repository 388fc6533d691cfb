// Package sweeps checks ARGoS-Go's sensors against ARGoS 3 itself: it runs
// the sensor sweeps that ARGoS 3 (3.0.0-beta59, one dynamics2d engine)
// was run on, with sensor_probe_controller and pose_sweep_loop_functions,
// and compares the tables both simulators wrote. The sweep files and
// ARGoS 3's tables are in testdata/ (NAME.argos and NAME.tsv.gz, gzipped
// as they came); the .argos files run as they are.
//
// The sensors those sweeps do not cover (the foot-bot's and eye-bot's
// light rings, the e-puck's generic light, ground and proximity sensors,
// the foot-bot's base ground sensors, the eye-bot's proximity ring, and
// the range-and-bearing medium and sensor) are swept the same way
// (testdata/NAME.argos without a table) and compared with ARGoS 3's own
// model of each, written from ARGoS 3's sources and constants; where
// ARGoS-Go departs from it on purpose, the tests pin what ARGoS-Go does
// and docs/differences.md says why.
//
// The package has only tests. go test -v prints, for each sweep, the
// largest difference from ARGoS 3's readings (or model) and where it is.
package sweeps
