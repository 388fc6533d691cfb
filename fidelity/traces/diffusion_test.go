package traces_test

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"
)

// pathAndDisplacement returns the length of a robot's path, sampled at
// the traced ticks, and its net displacement from tick 0 to the last
// tick.
func pathAndDisplacement(tr *trace, id string) (path, disp float64) {
	prev := tr.at[0][id]
	for _, tick := range tr.ticks[1:] {
		p := tr.at[tick][id]
		path += math.Hypot(p.x-prev.x, p.y-prev.y)
		prev = p
	}
	first := tr.at[0][id]
	return path, math.Hypot(prev.x-first.x, prev.y-first.y)
}

// ks returns the two-sample Kolmogorov-Smirnov statistic: the largest
// distance between the empirical distribution functions of a and b.
func ks(a, b []float64) float64 {
	a, b = append([]float64(nil), a...), append([]float64(nil), b...)
	sort.Float64s(a)
	sort.Float64s(b)
	d, i, j := 0.0, 0, 0
	for i < len(a) && j < len(b) {
		x := min(a[i], b[j])
		for i < len(a) && a[i] == x {
			i++
		}
		for j < len(b) && b[j] == x {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

func mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// TestFootBotDiffusion runs the 20 seeds of footbot_diffusion_10, each
// from the initial state ARGoS 3 drew for it. Poses agree within 1 mm for
// the first 2 s (20 ticks); after that a different proximity reading can
// make a robot turn a tick earlier or later, and runs part. Over the 60 s
// the 200 robots' path lengths and net displacements must have the same
// distribution as in ARGoS 3: the two-sample Kolmogorov-Smirnov statistic
// stays below its critical value at the 5 % level, 1.358 sqrt(2/200).
func TestFootBotDiffusion(t *testing.T) {
	var paths, disps [2][]float64 // ours, ARGoS's
	parted := make([]string, 0, 20)
	for seed := 1; seed <= 20; seed++ {
		name := fmt.Sprintf("footbot_diffusion_10_seed%d", seed)
		ref := reference(t, name)
		ours := run(t, name, 0, placeAsARGoS(t, ref))
		w := compare(t, ours, ref, poseTol)
		if w.firstOver >= 0 && w.firstOver <= 20 {
			t.Errorf("seed %d: robots more than 1 mm from ARGoS 3's within 2 s: %v", seed, w)
		}
		if w.firstOver < 0 {
			parted = append(parted, "never")
		} else {
			parted = append(parted, fmt.Sprint(w.firstOver))
		}
		for k, tr := range []*trace{ours, ref} {
			for _, id := range tr.ids(0) {
				if !strings.HasPrefix(id, "fb") {
					continue
				}
				p, d := pathAndDisplacement(tr, id)
				paths[k] = append(paths[k], p)
				disps[k] = append(disps[k], d)
			}
		}
	}
	t.Logf("first tick more than 1 mm from ARGoS 3, seeds 1 to 20: %s", strings.Join(parted, " "))
	if n := len(paths[1]); n != 200 || len(paths[0]) != n {
		t.Fatalf("%d and %d robots, want 200", len(paths[0]), n)
	}
	crit := 1.358 * math.Sqrt(2.0/200)
	check(t, "footbot_diffusion_10", []figure{
		{"mean path length (sampled every 10 ticks)", mean(paths[0]), mean(paths[1]), 0.05, "m"},
		{"mean net displacement", mean(disps[0]), mean(disps[1]), 0.15, "m"},
		{"KS statistic, path length", ks(paths[0], paths[1]), 0, crit, ""},
		{"KS statistic, net displacement", ks(disps[0], disps[1]), 0, crit, ""},
	})
}
