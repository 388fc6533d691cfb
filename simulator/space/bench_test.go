package space_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator/space"
)

// benchArena is the scalability benchmark's world (docs/benchmarks.md): a
// 41 m arena closed by 20 m walls and split into rooms by 9 m walls, with
// n e-pucks at uniformly random poses that overlap nothing.
func benchArena(tb testing.TB, n int) *space.Space {
	tb.Helper()
	s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 41, Y: 41, Z: 1})
	for _, w := range [][4]float64{
		{-10, -20, 20, 0.1}, {10, -20, 20, 0.1}, {-10, 20, 20, 0.1}, {10, 20, 20, 0.1},
		{-20, -10, 0.1, 20}, {-20, 10, 0.1, 20}, {20, -10, 0.1, 20}, {20, 10, 0.1, 20},
		{0, -4.5, 0.1, 9}, {-4.5, 0, 9, 0.1}, {0, 4.5, 0.1, 9}, {4.5, 0, 9, 0.1},
		{0, -15.5, 0.1, 9}, {-15.5, 0, 9, 0.1}, {0, 15.5, 0.1, 9}, {15.5, 0, 9, 0.1},
	} {
		s.Add(wall(w[0], w[1], w[2], w[3], 0.5, 0))
	}
	p := space.NewPlacement(s)
	r := rand.New(rand.NewPCG(7, 8))
	for range n {
		for trial := 0; ; trial++ {
			if trial == 1000 {
				tb.Fatalf("cannot place %d e-pucks", n)
			}
			b := robot(-19.9+r.Float64()*39.8, -19.9+r.Float64()*39.8, epuckR, epuckH)
			b.SetYaw(r.Float64() * 2 * math.Pi)
			if p.Fits(&b) {
				p.Insert(s.Add(b))
				break
			}
		}
	}
	s.Reindex()
	return s
}

// BenchmarkCastRay casts the 0.1 m proximity rays of randomly chosen
// e-pucks among 10,000 (a few percent of them hit something).
func BenchmarkCastRay(b *testing.B) {
	s := benchArena(b, 10000)
	type ray struct {
		from, to ci.Vector2
		self     int
	}
	r := rand.New(rand.NewPCG(9, 10))
	rays := make([]ray, 4096)
	for k := range rays {
		i := 16 + r.IntN(len(s.Bodies)-16)
		body := &s.Bodies[i]
		a := r.Float64() * 2 * math.Pi
		rays[k] = ray{body.Pos.Add(ci.FromPolar(body.Radius, a)), body.Pos.Add(ci.FromPolar(body.Radius+0.1, a)), i}
	}
	b.ReportAllocs()
	b.ResetTimer()
	hits := 0
	for k := 0; b.Loop(); k++ {
		q := &rays[k%len(rays)]
		if _, hit := s.CastRay(q.from, q.to, 0.06, q.self); hit >= 0 {
			hits++
		}
	}
	b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
}

// BenchmarkReindex rebuilds the index of n e-pucks, as the simulator
// does every tick; the static walls are indexed once. The e-pucks do not
// move and nothing reads the grid: only the pass over the bodies and the
// refresh of the lists run (BenchmarkReindexDrift has the other cases).
func BenchmarkReindex(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := benchArena(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				s.Reindex()
			}
		})
	}
}

// BenchmarkReindexArena rebuilds the index of one foot-bot and four
// walls, as diffusion_1 has them, in arenas of growing size: the cost
// follows the bodies, not the area.
func BenchmarkReindexArena(b *testing.B) {
	for _, size := range []float64{3, 100, 10000} {
		b.Run(fmt.Sprintf("%gm", size), func(b *testing.B) {
			s := arena(size)
			for _, w := range [][4]float64{{0, 1, 2, 0.1}, {0, -1, 2, 0.1}, {1, 0, 0.1, 2}, {-1, 0, 0.1, 2}} {
				s.Add(wall(w[0], w[1], w[2], w[3], 0.5, 0))
			}
			i := s.Add(robot(0, 0, footbotR, footbotH))
			s.Reindex()
			b.ReportAllocs()
			for k := 0; b.Loop(); k++ {
				s.Bodies[i].Pos = v2(0.001*float64(k%100), 0) // it moves every tick
				s.Reindex()
			}
		})
	}
}

// BenchmarkStoredOrder is a tick's index work for 100,000 e-pucks at the
// density of the scalability benchmark (10,000 in 40 m): the rebuild,
// then a ring of eight proximity rays around every robot in storage
// order, with the robots stored in space order (as set-up lays them out)
// and in random order (as they end up after a long run: their neighbours
// anywhere in memory). The gap between the two is what long runs lose to
// drift.
func BenchmarkStoredOrder(b *testing.B) {
	const n, side = 100000, 126.0
	drifted := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: side + 1, Y: side + 1, Z: 1})
	p := space.NewPlacement(drifted)
	r := rand.New(rand.NewPCG(11, 12))
	for range n { // placed, and so stored, at random
		for {
			body := robot((r.Float64()-0.5)*side, (r.Float64()-0.5)*side, epuckR, epuckH)
			body.SetYaw(r.Float64() * 2 * math.Pi)
			if p.Fits(&body) {
				p.Insert(drifted.Add(body))
				break
			}
		}
	}
	drifted.Reindex()
	laid := space.New(drifted.Center, drifted.Size)
	for _, k := range laid.LayoutOrder(n, func(k int) ci.Vector2 { return drifted.Bodies[k].Pos }) {
		laid.Add(drifted.Bodies[k])
	}
	laid.Reindex()
	var dirs []ci.Vector2
	for k := range 8 {
		dirs = append(dirs, ci.FromPolar(1, float64(k)*math.Pi/4))
	}
	for _, c := range []struct {
		name string
		s    *space.Space
	}{{"space_order", laid}, {"random_order", drifted}} {
		b.Run(c.name, func(b *testing.B) {
			s := c.s
			t := make([]float64, len(dirs))
			hits := 0
			// the least CPU time of an iteration, on this thread: what
			// other processes' load changes least, to compare builds on
			// a busy machine
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var least threadcpu.Least
			b.ReportAllocs()
			for b.Loop() {
				least.Start()
				s.Reindex()
				for i := range s.Bodies {
					hits += s.CastRing(i, dirs, epuckR, epuckR+0.1, 0.02, t)
				}
				least.Stop()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/robot")
			if ns, ok := least.Per(n); ok {
				b.ReportMetric(ns, "min-cpu-ns/robot")
			}
			b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
		})
	}
}

// BenchmarkReindexDrift rebuilds the index of n e-pucks at the
// scalability benchmark's density (10,000 in 40 m), stored in space order
// as set-up lays them out, after every robot moved 5 mm (a tick's drive
// at 5 cm/s; back and forth, so that the scene stays the same): what the
// simulator's ticks do, where few robots change cell from one rebuild to
// the next. Reports the rebuild's CPU time per robot, on average
// (cpu-ns/robot) and at least (min-cpu-ns/robot): ns/robot is wall time,
// which on a shared machine also counts the time other processes hold the
// cores (a million robots at load 6 to 8 on two cores: 226 to 376 ns/robot
// for 102 to 140 CPU ns, about what the simulator's ticks spend on their
// rebuild). The random_order case stores the million robots in random
// order instead, as a long run leaves them (their neighbours anywhere in
// memory, as BenchmarkStoredOrder's): the refresh of the neighbour lists
// then reads items all over. The robots never drift far enough to have
// the lists built again, and nothing reads the grid, which a rebuild then
// leaves unbuilt; in the grid_read case a query reads it after every
// rebuild, so that each rebuild also builds the grid, whose passes in
// body order read and write it all over when the robots are in random
// order.
func BenchmarkReindexDrift(b *testing.B) {
	for _, c := range []struct {
		n              int
		shuffled, read bool
	}{{100000, false, false}, {1000000, false, false}, {1000000, true, false}, {1000000, false, true}, {1000000, true, true}} {
		name := fmt.Sprint(c.n)
		if c.shuffled {
			name += "_random_order"
		}
		if c.read {
			name += "_grid_read"
		}
		b.Run(name, func(b *testing.B) {
			n := c.n
			side := 40 * math.Sqrt(float64(n)/10000)
			placed := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: side + 1, Y: side + 1, Z: 1})
			p := space.NewPlacement(placed)
			p.Grow(n)
			placed.Grow(n)
			r := rand.New(rand.NewPCG(13, 14))
			for range n {
				for {
					body := robot((r.Float64()-0.5)*side, (r.Float64()-0.5)*side, epuckR, epuckH)
					body.SetYaw(r.Float64() * 2 * math.Pi)
					if p.Fits(&body) {
						p.Insert(placed.Add(body))
						break
					}
				}
			}
			s := space.New(placed.Center, placed.Size)
			s.Grow(n)
			order := s.LayoutOrder(n, func(k int) ci.Vector2 { return placed.Bodies[k].Pos })
			if c.shuffled {
				r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			for _, k := range order {
				s.Add(placed.Bodies[k])
			}
			placed = nil
			s.Reindex()
			step := 0.005
			// the least CPU time of a rebuild, on this thread (as
			// BenchmarkStoredOrder)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var least threadcpu.Least
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				for i := range s.Bodies {
					body := &s.Bodies[i]
					body.Pos = body.Pos.Add(ci.Vector2{X: body.Cos * step, Y: body.Sin * step})
				}
				step = -step
				b.StartTimer()
				least.Start()
				s.Reindex()
				least.Stop()
				if c.read {
					s.NearMobile(ci.Vector2{}, ci.Vector2{}, func(int) bool { return false })
				}
			}
			if ns, ok := least.Mean(float64(n)); ok {
				b.ReportMetric(ns, "cpu-ns/robot")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/robot")
			if ns, ok := least.Per(float64(n)); ok {
				b.ReportMetric(ns, "min-cpu-ns/robot")
			}
		})
	}
}
