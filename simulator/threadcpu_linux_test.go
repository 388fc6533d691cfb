//go:build linux

package simulator_test

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time of the calling thread (lock the
// goroutine to it), which other processes' load changes less than the
// wall clock.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
