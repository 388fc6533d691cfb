package media_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// swarm is n robots of model m at random poses in a square arena of the
// given side with a few walls, every robot a member of a RAB medium.
type swarm struct {
	sp     *space.Space
	w      *entity.World
	rab    *media.RAB
	led    *media.LED
	robots []*entity.Robot
	mem    []*media.RABMember
}

func newSwarm(tb testing.TB, n int, side float64, m *entity.RobotModel, occlusions bool, seed uint64) *swarm {
	return newSwarmIn(tb, n, side, side, m, occlusions, seed)
}

// newSwarmIn is newSwarm in an arena of another size.
func newSwarmIn(tb testing.TB, n int, side, arena float64, m *entity.RobotModel, occlusions bool, seed uint64) *swarm {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	sp := space.New(ci.Vector3{Z: 1}, ci.Vector3{X: arena, Y: arena, Z: 2})
	w := &entity.World{Space: sp}
	s := &swarm{sp: sp, w: w}
	for k := 0; k < 8; k++ { // walls
		b := space.Body{Type: "box", Shape: space.Box, Half: ci.Vector2{X: side / 8, Y: 0.05}, Height: 0.5,
			Pos: ci.Vector2{X: (rng.Float64() - 0.5) * side * 0.8, Y: (rng.Float64() - 0.5) * side * 0.8}}
		b.Radius = math.Hypot(b.Half.X, b.Half.Y)
		b.SetYaw(rng.Float64() * math.Pi)
		sp.Add(b)
	}
	place := space.NewPlacement(sp)
	for len(s.robots) < n {
		b := space.Body{ID: fmt.Sprint("r", len(s.robots)), Type: m.Type, Shape: space.Disc, Radius: m.Radius, Height: m.Height,
			Mass: m.Mass, Movable: true, Pos: ci.Vector2{X: (rng.Float64() - 0.5) * (side - 0.2), Y: (rng.Float64() - 0.5) * (side - 0.2)}}
		b.SetYaw(rng.Float64() * 2 * math.Pi)
		if g := m.Gripper; g != nil {
			b.SetNub(g.Disc, m.Radius, rng.Float64()*2*math.Pi) // turrets turned anyhow
		}
		if !place.Fits(&b) {
			continue
		}
		h := sp.Add(b)
		place.Insert(h)
		r := &entity.Robot{ID: b.ID, Model: m, Index: len(s.robots), Body: h, Space: sp, World: w,
			Rand: rand.New(rand.NewPCG(seed, uint64(h))), TickLength: 0.1, LEDs: make([]ci.Color, m.LEDs)}
		s.robots = append(s.robots, r)
		w.Robots = append(w.Robots, r)
	}
	sp.Reindex()
	var err error
	attrs := []config.Attr{{Name: "id", Value: "rab"}, {Name: "check_occlusions", Value: fmt.Sprint(occlusions)}}
	if s.rab, err = media.NewRAB(&config.Node{Name: "range_and_bearing", Attrs: attrs}, w); err != nil {
		tb.Fatal(err)
	}
	if s.led, err = media.NewLED(&config.Node{Name: "led", Attrs: attrs[:1]}, w); err != nil {
		tb.Fatal(err)
	}
	for _, r := range s.robots {
		mb, err := s.rab.Join(r)
		if err != nil {
			tb.Fatal(err)
		}
		s.mem = append(s.mem, mb)
	}
	return s
}

// goRunner runs every job on its own goroutine, in any order.
type goRunner struct{}

func (goRunner) Run(n int, job func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); job(i) }()
	}
	wg.Wait()
}

// The medium's grid search and once-per-pair occlusion test give exactly
// what checking every pair of robots gives, in robot order, and the same
// with any runner; also with a tenth of the robots 2 km away in a 5 km
// arena, which makes the medium's grid sparse.
func TestRABMatchesBruteForce(t *testing.T) {
	for _, occ := range []bool{true, false} {
		for _, m := range []*entity.RobotModel{entity.FootBot, entity.EPuck} {
			for _, spread := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/occlusions=%v/spread=%v", m.Type, occ, spread), func(t *testing.T) { rabMatchesBruteForce(t, m, occ, spread) })
			}
		}
	}
}

func rabMatchesBruteForce(t *testing.T, m *entity.RobotModel, occ, spread bool) {
	var s *swarm
	if !spread {
		s = newSwarm(t, 400, 8, m, occ, 3)
	} else {
		s = newSwarmIn(t, 400, 8, 5000, m, occ, 3)
		for i, r := range s.robots {
			if i%10 == 0 {
				b := r.B()
				b.Pos = b.Pos.Add(ci.Vector2{X: 1500, Y: 1400})
			}
		}
		s.sp.Reindex()
	}
	// some robots have a longer range, one has another payload size
	s.mem[5].Range, s.mem[17].Range = 2*m.RAB.Range, 0.5*m.RAB.Range
	s.mem[30].Payload = make([]byte, 3)
	s.rab.Update(goRunner{})
	for i, rx := range s.mem {
		var want []int32
		for j, tx := range s.mem {
			if i == j || len(tx.Payload) != len(rx.Payload) {
				continue
			}
			if tx.Position().Sub(rx.Position()).Length() >= tx.Range {
				continue
			}
			if occ && media.Occluded(s.sp, rx.Position(), tx.Position(), rx.Robot.Body, tx.Robot.Body) {
				continue
			}
			want = append(want, int32(j))
		}
		if !slices.Equal(rx.Heard(), want) {
			t.Fatalf("robot %d hears %v, want %v", i, rx.Heard(), want)
		}
	}
	heard := func() [][]int32 {
		var out [][]int32
		for _, mb := range s.mem {
			out = append(out, slices.Clone(mb.Heard()))
		}
		return out
	}
	a := heard()
	s.rab.Update(physics.Serial{})
	if b := heard(); !slices.EqualFunc(a, b, slices.Equal[[]int32]) {
		t.Fatal("a serial update differs from a parallel one")
	}
	if spread {
		far := 0
		for i := 0; i < len(s.mem); i += 10 {
			far += len(s.mem[i].Heard())
		}
		if far == 0 {
			t.Fatal("the robots 2 km away hear nobody: the test proves little")
		}
	}
}

// Occluded agrees with a fine sampling of the segment against the
// bodies' prisms.
func TestOccludedMatchesSampling(t *testing.T) {
	s := newSwarm(t, 200, 4, entity.FootBot, true, 9)
	rng := rand.New(rand.NewPCG(5, 5))
	inside := func(b *space.Body, p ci.Vector3) bool {
		in := b.Distance(p.XY()) == 0 || b.Nub().R > 0 && p.XY().Sub(b.NubCenter()).Length() < b.Nub().R
		return p.Z >= b.Z && p.Z < b.Z+b.Height && in
	}
	nubs := 0
	disagree := 0
	for k := 0; k < 2000; k++ {
		from := ci.Vector3{X: (rng.Float64() - 0.5) * 4, Y: (rng.Float64() - 0.5) * 4, Z: rng.Float64() * 0.3}
		to := ci.Vector3{X: (rng.Float64() - 0.5) * 4, Y: (rng.Float64() - 0.5) * 4, Z: rng.Float64() * 0.3}
		got := media.Occluded(s.sp, from, to, -1, -1)
		want := false
		for i := range s.sp.Bodies {
			b := &s.sp.Bodies[i]
			r := b.Reach()
			if math.Max(from.X, to.X) < b.Pos.X-r || math.Min(from.X, to.X) > b.Pos.X+r ||
				math.Max(from.Y, to.Y) < b.Pos.Y-r || math.Min(from.Y, to.Y) > b.Pos.Y+r {
				continue // too far to meet the segment
			}
			for q := 1; q < 4000 && !want; q++ {
				f := float64(q) / 4000
				p := from.Add(ci.Vector3{X: (to.X - from.X) * f, Y: (to.Y - from.Y) * f, Z: (to.Z - from.Z) * f})
				if inside(b, p) {
					want = true
					if b.Distance(p.XY()) > 0 {
						nubs++ // only the gripper's nub is met there
					}
				}
			}
		}
		if got != want {
			disagree++ // a segment may only graze a body between two samples
		}
	}
	if disagree > 4 {
		t.Errorf("Occluded disagrees with sampling on %d of 2000 segments", disagree)
	}
	if nubs == 0 {
		t.Error("no segment meets a foot-bot's gripper nub first: the test proves little about them")
	}
}

// BenchmarkRABUpdate is the medium alone: 10,000 e-pucks at the density
// of the scalability experiment (6.25 per m^2), each hearing about 12
// others within 0.8 m.
//
// The foot-bot case spreads 10,000 foot-bots over 100 m x 100 m (1 per
// m^2): about 28 within their 3 m range, robots hiding each other.
func BenchmarkRABUpdate(b *testing.B) {
	for _, c := range []struct {
		m    *entity.RobotModel
		side float64
		occ  bool
	}{{entity.EPuck, 40, true}, {entity.EPuck, 40, false}, {entity.FootBot, 100, true}, {entity.FootBot, 100, false}} {
		m, side, occ := c.m, c.side, c.occ
		b.Run(fmt.Sprintf("%s/occlusions=%v", m.Type, occ), func(b *testing.B) {
			s := newSwarm(b, 10000, side, m, occ, 1)
			s.rab.Update(physics.Serial{})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.rab.Update(physics.Serial{})
			}
			heard := 0
			for _, mb := range s.mem {
				heard += len(mb.Heard())
			}
			b.ReportMetric(float64(heard)/float64(len(s.mem)), "heard/robot")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s.mem)), "ns/robot")
		})
	}
}

// BenchmarkLEDUpdate indexes every LED of 10,000 foot-bots, a third lit.
func BenchmarkLEDUpdate(b *testing.B) {
	s := newSwarm(b, 10000, 60, entity.FootBot, true, 1)
	for i, r := range s.robots {
		if i%3 == 0 {
			for k := range r.LEDs {
				r.LEDs[k] = ci.Red
			}
		}
	}
	s.led.Update(physics.Serial{})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.led.Update(physics.Serial{})
	}
	b.ReportMetric(float64(s.led.Len()), "lit")
}
