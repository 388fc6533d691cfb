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

// Least keeps the shortest span: after a short and a long busy loop, it
// holds less than the long one took, and Per divides it; with no span
// timed it says so.
func TestLeastKeepsTheShortestSpan(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if _, ok := Now(); !ok {
		t.Skip("no thread CPU time on " + runtime.GOOS)
	}
	var none Least
	if _, ok := none.Per(1); ok {
		t.Fatal("Per says a span was timed before any")
	}
	busy := func(n int) float64 {
		x := 1.0
		for i := 0; i < n; i++ {
			x = x*1.0000001 + 1e-9
		}
		return x
	}
	var l Least
	l.Start()
	busy(1_000_000)
	l.Stop()
	t0, _ := Now()
	l.Start()
	busy(40_000_000)
	l.Stop()
	t1, _ := Now()
	least, ok := l.Per(1)
	if !ok || least <= 0 || least >= float64((t1-t0).Nanoseconds()) {
		t.Fatalf("least span %v ns (ok %v), the long one took %v", least, ok, t1-t0)
	}
	if half, _ := l.Per(2); half != least/2 {
		t.Fatalf("Per(2) = %v, want %v", half, least/2)
	}
	if mean, ok := l.Mean(1); !ok || mean <= least || mean >= float64((t1-t0).Nanoseconds()) {
		t.Fatalf("mean span %v ns (ok %v): not between the least %v and the long one %v", mean, ok, least, t1-t0)
	}
	l.Stop() // a Stop without a Start keeps nothing
	if again, _ := l.Per(1); again != least {
		t.Fatalf("a lone Stop changed the least span from %v to %v", least, again)
	}
}
