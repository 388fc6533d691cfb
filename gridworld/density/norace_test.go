//go:build !race

package density_test

const raceEnabled = false
