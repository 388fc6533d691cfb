package simulator_test

import (
	"runtime"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// Closing a run destroys every controller without making a list as long
// as the robots (a million robots' was 16 MB, made at the end of the run,
// when its memory peaks).
func TestCloseAllocatesLittle(t *testing.T) {
	exp, err := config.Load(repoFile("experiments", "scalability", "scalability_10000_e1.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.LoopFunctions = nil
	exp.Visualizations = nil
	exp.Framework.Length = 0
	sim, err := simulator.New(exp, simulator.Options{Threads: intp(0)})
	if err != nil {
		t.Fatal(err)
	}
	if n := sim.NumRobots(); n < 10000 {
		t.Fatalf("%d robots, want 10,000", n)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if b := after.TotalAlloc - before.TotalAlloc; b > 64<<10 {
		t.Errorf("Close of %d robots allocated %d bytes, want under 64 KiB", sim.NumRobots(), b)
	}
}
