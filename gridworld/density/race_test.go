//go:build race

package density_test

// raceEnabled is true under go test -race, which makes the 10^6-agent
// check too slow for the suite.
const raceEnabled = true
