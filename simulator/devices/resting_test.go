package devices_test

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
)

// fullRing is a proximity ring's readings computed from scratch, as an
// Update without noise computes them: a cast of every ray through the
// model's response.
func fullRing(r *entity.Robot, ring *entity.ProximityRing, response func(float64) float64) []float64 {
	b := r.B()
	inner := b.Radius
	if ring.Radius > 0 {
		inner = ring.Radius
	}
	dirs := make([]ci.Vector2, len(ring.Angles))
	for k, a := range ring.Angles {
		dirs[k] = ci.FromPolar(1, a)
	}
	t := make([]float64, len(dirs))
	hits := r.Space.CastRing(r.Body, dirs, inner, inner+ring.Range, b.Z+ring.Height, t)
	v := make([]float64, len(dirs))
	for k := range v {
		if hits > 0 && t[k] >= 0 {
			v[k] = response(t[k] * ring.Range)
		}
	}
	return v
}

// A crowd of e-pucks and foot-bots (foot-bots have a gripper's nub, so
// never rest) where a few move a little every tick and the others rest:
// every tick, every sensor reads bit for bit what a full cast reads,
// although most updates of resting robots keep their values; a
// controller that wrote its readings gets them written again; a static
// body added, or a robot added or removed, changes nothing of that; and
// a noisy sensor draws new readings every tick, resting or not.
func TestProximityRestingReadsAsAFullUpdate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := newArena(4)
	type sensed struct {
		r *entity.Robot
		p interface {
			Update()
			Readings() []ci.ProximityReading
		}
		ring     *entity.ProximityRing
		response func(float64) float64
	}
	var robots []sensed
	add := func(k int) {
		m, xml := entity.EPuck, `<epuck_proximity implementation="default"/>`
		if k%40 == 0 {
			m, xml = entity.FootBot, `<footbot_proximity implementation="default"/>`
		}
		r := addRobot(s, m, "r"+strconv.Itoa(k), rng.Float64()*3-1.5, rng.Float64()*3-1.5, rng.Float64()*360, uint64(k))
		robots = append(robots, sensed{r, proximitySensor(t, r, xml), &m.Proximity, m.Proximity.Response})
	}
	for k := range 400 {
		add(k)
	}
	addBox(s, 0, 0, 0.5, 0.05, 0.2, 30)
	noisyR := addRobot(s, entity.EPuck, "noisy", 1.8, 1.8, 0, 99)
	addBox(s, 1.88, 1.8, 0.02, 0.2, 0.1, 0) // in reach of most of its rays
	noisy := proximitySensor(t, noisyR, `<epuck_proximity implementation="default" noise_level="0.05"/>`)
	var lastNoisy []ci.ProximityReading
	kept, nonzero, noisyQuiet := 0, 0, 0
	for tick := range 120 {
		switch tick {
		case 40:
			addCylinder(s, 0.3, -0.3, 0.05, 0.1)
		case 60:
			add(1000)
		case 80:
			s.Remove(robots[3].r.Body)
			robots = append(robots[:3], robots[4:]...)
		}
		s.Reindex()
		for _, x := range robots {
			b := x.r.B()
			inner := b.Radius
			if x.ring.Radius > 0 {
				inner = x.ring.Radius
			}
			if s.Quiet(x.r.Body, inner+x.ring.Range) {
				kept++
			}
			x.p.Update()
			want := fullRing(x.r, x.ring, x.response)
			for k, rd := range x.p.Readings() {
				if math.Float64bits(rd.Value) != math.Float64bits(want[k]) {
					t.Fatalf("tick %d, robot %s, sensor %d: read %v, a full update reads %v", tick, x.r.ID, k, rd.Value, want[k])
				}
				if rd.Value != 0 {
					nonzero++
				}
			}
			if tick%7 == 0 && want[0]+want[1]+want[2]+want[3] != 0 {
				// a controller that writes its readings
				for k := range x.p.Readings() {
					x.p.Readings()[k].Value = 0.25
				}
			}
		}
		if s.Quiet(noisyR.Body, quietRingRange) {
			noisyQuiet++
		}
		noisy.Update()
		if lastNoisy != nil && equalReadings(noisy.Readings(), lastNoisy) {
			t.Fatalf("tick %d: a noisy sensor read the same values again: %v", tick, lastNoisy)
		}
		lastNoisy = append(lastNoisy[:0], noisy.Readings()...)
		// one robot in forty moves a little, or only turns
		for _, x := range robots {
			if rng.IntN(40) != 0 {
				continue
			}
			b := x.r.B()
			if rng.IntN(2) == 0 {
				b.SetYaw(b.Yaw + 0.02)
			} else {
				b.Pos = b.Pos.Add(ci.FromPolar(0.003, rng.Float64()*7))
			}
		}
	}
	if n := 120 * len(robots); kept < n/4 || nonzero == 0 || noisyQuiet < 100 {
		t.Errorf("%d of about %d updates of resting robots, %d readings not zero, the noisy robot quiet %d ticks of 120: the test checks too little",
			kept, n, nonzero, noisyQuiet)
	}
}

// quietRingRange is an e-puck's ring's reach from its centre.
var quietRingRange = entity.EPuck.Radius + entity.EPuck.Proximity.Range

func equalReadings(a, b []ci.ProximityReading) bool {
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// An Update of a resting robot does not cast its rays again: a change
// that the index does not look for (the height of a neighbour, which
// changes only through Add and Remove) goes unseen until the robot or
// its neighbour moves. (A probe of the mechanism, not a use of it.)
func TestProximityRestingKeepsItsReadings(t *testing.T) {
	s := newArena(4)
	me := addRobot(s, entity.EPuck, "me", 0, 0, 0, 1)
	other := addRobot(s, entity.EPuck, "other", 0.1, 0, 0, 2) // in front
	p := proximitySensor(t, me, `<epuck_proximity implementation="default"/>`)
	sum := func() float64 {
		v := 0.0
		for _, rd := range p.Readings() {
			v += rd.Value
		}
		return v
	}
	for range 3 {
		s.Reindex()
		p.Update()
	}
	seen := sum()
	if seen == 0 {
		t.Fatal("the robot does not see its neighbour")
	}
	s.Bodies[other.Body].Z = 1 // out of the ring's plane
	s.Reindex()
	p.Update()
	if got := sum(); got != 0 {
		t.Errorf("the neighbour rose out of reach: readings sum to %v, want 0", got)
	}
	s.Bodies[other.Body].Z = 0
	s.Reindex()
	p.Update()
	s.Reindex()
	p.Update()
	s.Bodies[other.Body].Height = 0.001 // below the ring: unseen by a resting robot
	s.Reindex()
	p.Update()
	if got := sum(); got != seen {
		t.Errorf("a resting robot's readings sum to %v after a change the index does not see, want those it kept, %v", got, seen)
	}
	s.Bodies[me.Body].SetYaw(1e-9)
	s.Reindex()
	p.Update()
	if got := sum(); got != 0 {
		t.Errorf("once the robot turned, its readings sum to %v, want 0", got)
	}
}
