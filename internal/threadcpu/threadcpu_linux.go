//go:build linux

package threadcpu

import (
	"time"

	"golang.org/x/sys/unix"
)

func now() (time.Duration, bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
