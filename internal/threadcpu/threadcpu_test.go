package threadcpu

import (
	"runtime"
	"testing"
)

// The thread's CPU time grows with work done on it and not with time spent
// asleep: over a busy loop it grows.
func TestNowGrowsWithWork(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := Now()
	if !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("no thread CPU time on linux")
		}
		t.Skip("no thread CPU time on " + runtime.GOOS)
	}
	x := 1.0
	for i := 0; i < 20_000_000; i++ {
		x = x*1.0000001 + 1e-9
	}
	t1, _ := Now()
	if t1 <= t0 {
		t.Fatalf("CPU time went from %v to %v over a busy loop (%g)", t0, t1, x)
	}
}
