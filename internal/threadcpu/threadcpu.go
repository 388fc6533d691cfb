// Package threadcpu reads the CPU time of the calling OS thread, which the
// benchmarks use instead of the wall clock: on a machine shared with other
// processes it changes far less with their load. A benchmark locks its
// goroutine to its thread (runtime.LockOSThread) before it reads it.
package threadcpu

import "time"

// Now returns the CPU time the calling OS thread has used so far, and
// false where the system does not tell it (the time is then 0).
func Now() (time.Duration, bool) { return now() }
