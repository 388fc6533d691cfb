package simulator

import (
	"math"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/argosgo/argos/config"
)

// A serial pool runs a batch on the calling goroutine, one job after the
// other, in order, although it has workers.
func TestSerialPoolRunsOnCaller(t *testing.T) {
	p := newPool(2, "")
	defer p.close()
	p.serial = true
	var running, most atomic.Int32
	var order []int
	p.Run(4, func(i int) {
		now := running.Add(1)
		most.Store(max(most.Load(), now))
		time.Sleep(5 * time.Millisecond) // time for a worker to take share 1
		order = append(order, i)
		running.Add(-1)
	})
	if most.Load() != 1 {
		t.Errorf("%d jobs ran at once", most.Load())
	}
	for i, j := range order {
		if i != j {
			t.Fatalf("jobs ran in the order %v", order)
		}
	}
}

// A tick of fewer robots than Options.SerialBelow runs serially, one of
// at least that many on the threads, and the poses are the same bit for
// bit: with one thread, with two, and with two but serial ticks.
func TestSerialBelowSameResults(t *testing.T) {
	file := filepath.Join("testdata", "pinned", "kin_dense_noise.argos")
	run := func(threads, serialBelow int) ([][3]float64, bool) {
		exp, err := config.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		exp.LoopFunctions = nil
		exp.Framework.Length = 0
		sim, err := New(exp, Options{Threads: &threads, SerialBelow: serialBelow})
		if err != nil {
			t.Fatal(err)
		}
		defer sim.Close()
		serial := true
		for sim.Tick() < 100 {
			if err := sim.Step(); err != nil {
				t.Fatal(err)
			}
			serial = serial && sim.pool.serial
		}
		var poses [][3]float64
		for _, b := range sim.sp.Bodies {
			poses = append(poses, [3]float64{b.Pos.X, b.Pos.Y, b.Yaw})
		}
		return poses, serial
	}
	ref, _ := run(0, 0)
	for _, c := range []struct {
		threads, below int
		serial         bool
	}{{2, 0, false}, {2, math.MaxInt, true}, {2, 1, false}} {
		got, serial := run(c.threads, c.below)
		if serial != c.serial {
			t.Errorf("threads=%d SerialBelow=%d: serial ticks %v, want %v", c.threads, c.below, serial, c.serial)
		}
		for i := range ref {
			for k := range 3 {
				if math.Float64bits(got[i][k]) != math.Float64bits(ref[i][k]) {
					t.Fatalf("threads=%d SerialBelow=%d: body %d ends at %v, with threads=0 at %v", c.threads, c.below, i, got[i], ref[i])
				}
			}
		}
	}
}
