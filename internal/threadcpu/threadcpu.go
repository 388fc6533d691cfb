// Package threadcpu reads the CPU time of the calling OS thread, which the
// benchmarks use instead of the wall clock: on a machine shared with other
// processes it changes far less with their load. A benchmark locks its
// goroutine to its thread (runtime.LockOSThread) before it reads it.
package threadcpu

import "time"

// Now returns the CPU time the calling OS thread has used so far, and
// false where the system does not tell it (the time is then 0).
func Now() (time.Duration, bool) { return now() }

// Least keeps the least CPU time, and the sum, of the spans of the
// calling thread that Start and Stop bound: a benchmark times each
// iteration (or the part of it it measures) with them, on a goroutine
// locked to its thread.
type Least struct {
	least, total, t0 time.Duration
	spans            int
	started          bool
}

// Start begins a span.
func (l *Least) Start() {
	l.t0, l.started = Now()
}

// Stop ends the span Start began and keeps its time if it is the least
// so far (nothing where the thread's time cannot be read).
func (l *Least) Stop() {
	t1, ok := Now()
	if !ok || !l.started {
		return
	}
	if d := t1 - l.t0; l.spans == 0 || d < l.least {
		l.least = d
	}
	l.total += t1 - l.t0
	l.spans++
	l.started = false
}

// Per returns the least span in nanoseconds divided by n (per robot, per
// update, ...), and false when no span was timed.
func (l *Least) Per(n float64) (float64, bool) {
	return float64(l.least.Nanoseconds()) / n, l.spans > 0
}

// Mean returns the mean span in nanoseconds divided by n, and false when
// no span was timed.
func (l *Least) Mean(n float64) (float64, bool) {
	return float64(l.total.Nanoseconds()) / float64(max(l.spans, 1)) / n, l.spans > 0
}
