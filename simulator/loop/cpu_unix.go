//go:build unix

package loop

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user + system) the process used so far,
// all threads.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
