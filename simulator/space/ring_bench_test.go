package space_test

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/internal/threadcpu"
	"github.com/argosgo/argos/simulator/space"
)

// BenchmarkCastRing casts an e-puck's ring of eight 0.1 m proximity rays
// (ARGoS's angles) around each robot of a patch of 576 e-pucks at random
// headings: "crowded" packs them on a jittered hexagonal lattice 2 cm
// apart, a dozen discs within a ring's reach (all its buffer holds
// without spilling) and nearly every ray hitting one; "cluster" places
// them at random, overlapping nothing, in a square they cover a third
// of, as robots gather late in a diffusion run (a few discs in reach,
// some rays hitting); "alone" sets them a metre apart, as most of a
// sparse swarm (nothing in reach: the clearance answers). Reports the
// time per ring, and the least CPU time of a pass over the patch per ring.
func BenchmarkCastRing(b *testing.B) {
	dirs := make([]ci.Vector2, 8)
	for k, div := range [8]float64{10.5884, 3.5999, 2, 1.2, 0.8571, 0.6667, 0.5806, 0.5247} {
		a := math.Pi / float64(float32(div))
		if a > math.Pi {
			a -= 2 * math.Pi
		}
		dirs[k] = ci.FromPolar(1, a)
	}
	const n = 576
	for _, c := range []string{"crowded", "cluster", "alone"} {
		b.Run(c, func(b *testing.B) {
			s := space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: 30, Y: 30, Z: 1})
			r := rand.New(rand.NewPCG(41, 42))
			switch c {
			case "cluster":
				side := math.Sqrt(n * math.Pi * epuckR * epuckR * 3)
				p := space.NewPlacement(s)
				for len(s.Bodies) < n {
					body := robot((r.Float64()-0.5)*side, (r.Float64()-0.5)*side, epuckR, epuckH)
					body.SetYaw(r.Float64() * 2 * math.Pi)
					if p.Fits(&body) {
						p.Insert(s.Add(body))
					}
				}
			default:
				const rows = 24
				spacing, jitter := 0.09, 0.002
				if c == "alone" {
					spacing = 1
				}
				for y := range rows {
					for x := range n / rows {
						px := (float64(x)+0.5*float64(y%2)-rows/2)*spacing + (r.Float64()-0.5)*jitter
						py := (float64(y)*math.Sqrt(3)/2-rows/2)*spacing + (r.Float64()-0.5)*jitter
						body := robot(px, py, epuckR, epuckH)
						body.SetYaw(r.Float64() * 2 * math.Pi)
						s.Add(body)
					}
				}
			}
			s.Reindex()
			t := make([]float64, len(dirs))
			hits, rings := 0, 0
			// the least CPU time of an iteration, on this thread: what
			// other processes' load changes least, to compare builds on
			// a busy machine
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var least threadcpu.Least
			b.ReportAllocs()
			for b.Loop() {
				least.Start()
				for i := range s.Bodies {
					hits += s.CastRing(i, dirs, epuckR, epuckR+0.1, 0.06, t)
				}
				least.Stop()
				rings += len(s.Bodies)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(rings), "ns/ring")
			if ns, ok := least.Per(n); ok {
				b.ReportMetric(ns, "min-cpu-ns/ring")
			}
			b.ReportMetric(float64(hits)/float64(rings), "hits/ring")
		})
	}
}
