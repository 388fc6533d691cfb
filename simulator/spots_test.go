package simulator

import (
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

type plainActuator struct{}

func (plainActuator) Apply() {}

type spotter struct {
	on   bool
	spot entity.Spot
}

func (s *spotter) Apply()                    {}
func (s *spotter) Spot() (entity.Spot, bool) { return s.spot, s.on }

var _ devices.SpotProjector = (*spotter)(nil)

func spotWorld(n int) (*Simulator, []*spotter) {
	s := &Simulator{world: &entity.World{}}
	var lasers []*spotter
	for i := range n {
		r := &robot{Robot: entity.Robot{Index: i}}
		r.setDevices(nil, []devices.Actuator{plainActuator{}, plainActuator{}})
		if i%100 == 0 {
			l := &spotter{spot: entity.Spot{Pos: ci.Vector3{X: float64(i)}, Source: i}}
			r.setDevices(nil, append(r.actuators(), l))
			lasers = append(lasers, l)
		}
		s.robots = append(s.robots, r)
	}
	return s, lasers
}

func TestPublishSpots(t *testing.T) {
	s, lasers := spotWorld(1000)
	s.publishSpots()
	if len(s.world.Spots) != 0 {
		t.Fatalf("lasers off: %v", s.world.Spots)
	}
	lasers[3].on, lasers[7].on = true, true
	s.robots[700].removed = true
	s.publishSpots()
	if sp := s.world.Spots; len(sp) != 1 || sp[0].Source != 300 {
		t.Fatalf("spots %+v, want the one of robot 300 (robot 700 is removed)", sp)
	}
}

// BenchmarkPublishSpots: the cost per tick of collecting the spots of a
// 10,000-robot swarm with 100 laser pointers.
func BenchmarkPublishSpots(b *testing.B) {
	s, lasers := spotWorld(10000)
	for _, l := range lasers {
		l.on = true
	}
	for b.Loop() {
		s.publishSpots()
	}
}
