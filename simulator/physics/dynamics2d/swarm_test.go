package dynamics2d_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
	"github.com/argosgo/argos/simulator/physics/physicstest"
	"github.com/argosgo/argos/simulator/space"
)

// swarm builds a square arena of side size with walls around it and a
// cross of walls with doors inside, and n e-pucks at uniformly random
// poses that overlap nothing.
func swarm(tb testing.TB, n int, size float64, seed uint64) (*world, []int) {
	tb.Helper()
	w := newWorld(tb, size+1, "")
	h, t := size/2, 0.05
	w.box("north", 0, h, h, t, 0, 0)
	w.box("south", 0, -h, h, t, 0, 0)
	w.box("east", h, 0, t, h, 0, 0)
	w.box("west", -h, 0, t, h, 0, 0)
	// A cross with a door of 1 m in each arm.
	arm := (h - 0.5) / 2
	w.box("cross-e", 0.5+arm, 0, arm, t, 0, 0)
	w.box("cross-w", -0.5-arm, 0, arm, t, 0, 0)
	w.box("cross-n", 0, 0.5+arm, t, arm, 0, 0)
	w.box("cross-s", 0, -0.5-arm, t, arm, 0, 0)
	w.cylinder("pillar", h/2, h/2, 0.3, 0)
	w.sp.Reindex()
	place := space.NewPlacement(w.sp)
	rng := rand.New(rand.NewPCG(seed, 1))
	ids := make([]int, 0, n)
	for len(ids) < n {
		b := ePuck
		b.ID = fmt.Sprintf("ep%d", len(ids))
		b.Pos = ci.Vector2{X: (rng.Float64()*2 - 1) * h, Y: (rng.Float64()*2 - 1) * h}
		b.SetYaw((rng.Float64()*2 - 1) * math.Pi)
		if !place.Fits(&b) {
			continue
		}
		i := w.sp.Add(b)
		place.Insert(i)
		if err := w.eng.Add(i); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, i)
	}
	w.sp.Reindex()
	return w, ids
}

// TestDeterminism runs the same crowded swarm with the serial runner and
// with a runner that starts a goroutine per job: the poses must be
// bit-identical (run it with -race).
func TestDeterminism(t *testing.T) {
	const n, size, ticks = 150, 4, 60
	serial, ids := swarm(t, n, size, 7)
	parallel, _ := swarm(t, n, size, 7)
	parallel.run = physicstest.Goroutines{}
	for _, w := range []*world{serial, parallel} {
		dynamics2d.SetChunk(w.eng, 16) // many jobs
	}
	rng := rand.New(rand.NewPCG(3, 4))
	minCP, maxCP := n, 0
	for k := 0; k < ticks; k++ {
		if k%10 == 0 {
			for _, i := range ids {
				v, omega := 0.05+0.25*rng.Float64(), 2*rng.Float64()-1
				serial.drive(i, v, omega)
				parallel.drive(i, v, omega)
			}
		}
		serial.tick()
		parallel.tick()
		minCP, maxCP = min(minCP, serial.eng.InCP()), max(maxCP, serial.eng.InCP())
		if a, b := serial.eng.InCP(), parallel.eng.InCP(); a != b {
			t.Fatalf("tick %d: %d bodies in cp with the serial runner, %d with the parallel one", k+1, a, b)
		}
		for _, i := range ids {
			if a, b := serial.state(i), parallel.state(i); a != b {
				t.Fatalf("tick %d: %s\nserial   %v\nparallel %v", k+1, serial.body(i).ID, a, b)
			}
		}
	}
	t.Logf("bodies in cp: %d to %d of %d", minCP, maxCP, n)
	if minCP == 0 || maxCP == n {
		t.Errorf("bodies in cp ranged from %d to %d of %d; want both paths used every tick", minCP, maxCP, n)
	}
	// Nothing escaped the arena.
	for _, i := range ids {
		if p := serial.body(i).Pos; math.Abs(p.X) > size/2 || math.Abs(p.Y) > size/2 {
			t.Errorf("%s left the arena: %v", serial.body(i).ID, p)
		}
	}
}

// benchSwarm is the scalability benchmark's arena (docs/benchmarks.md)
// without controllers: 10,000 e-pucks uniformly placed in a 40 m square
// with walls, driving straight at 5 cm/s. One op is one tick: Step,
// Commit and the space's Reindex.
// Robots that drive straight pile up against the walls and each other,
// which makes later ticks dearer; so that ns/op does not depend on b.N,
// the engine is Reset (untimed) every 100 ticks.
func benchSwarm(b *testing.B, forceCP bool) { benchSwarmOf(b, 10000, 40, forceCP) }

// benchSwarmOf is benchSwarm with n e-pucks in a square of side size.
func benchSwarmOf(b *testing.B, n int, size float64, forceCP bool) {
	w, ids := swarm(b, n, size, 1)
	dynamics2d.ForceCP(w.eng, forceCP)
	for _, i := range ids {
		w.drive(i, 0.05, 0)
	}
	inCP, k := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if k++; k%100 == 0 {
			b.StopTimer()
			w.eng.Reset()
			w.sp.Reindex()
			b.StartTimer()
		}
		w.tick()
		inCP += w.eng.InCP()
	}
	b.StopTimer()
	b.ReportMetric(float64(inCP)/float64(b.N), "in-cp/op")
	b.ReportMetric(float64(len(ids))*float64(b.N)/b.Elapsed().Seconds(), "robot-steps/s")
}

func BenchmarkStep10000(b *testing.B)      { benchSwarm(b, false) }
func BenchmarkStep10000AllCP(b *testing.B) { benchSwarm(b, true) }

// BenchmarkStep250000 is one engine's share of a million e-pucks in four
// quadrant engines (argos bench --robots 1000000 --engines 4), at the
// density of the benchmarks above: where the engine's data no longer fits
// in the processor's caches.
func BenchmarkStep250000(b *testing.B) { benchSwarmOf(b, 250000, 200, false) }

// BenchmarkReindex10000 is the share of the space's index in a tick of
// the benchmarks above.
func BenchmarkReindex10000(b *testing.B) {
	w, _ := swarm(b, 10000, 40, 1)
	b.ReportAllocs()
	for b.Loop() {
		w.sp.Reindex()
	}
}
