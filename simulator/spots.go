package simulator

import "github.com/argosgo/argos/simulator/devices"

// spotSources are the robots' spot projectors (the eye-bot's laser
// pointer), found once: a robot's devices do not change after it is
// built, and robots are only ever appended.
type spotSources struct {
	robots int // len(Simulator.robots) when list was built
	list   []spotSource
}

type spotSource struct {
	r *robot
	p devices.SpotProjector
}

// publishSpots refreshes World.Spots from the robots' spot projectors, in
// robot order. It runs on the coordinating goroutine after physics (the
// spots follow the robots' new poses) and before the media and the
// sensors, which read the spots; nothing reads them while it writes.
func (s *Simulator) publishSpots() {
	src := &s.spots
	if src.robots != len(s.robots) {
		src.list = src.list[:0]
		for _, r := range s.robots {
			for _, a := range r.actuators() {
				if p, ok := a.(devices.SpotProjector); ok {
					src.list = append(src.list, spotSource{r, p})
				}
			}
		}
		src.robots = len(s.robots)
	}
	w := s.world
	w.Spots = w.Spots[:0]
	for _, ps := range src.list {
		if ps.r.removed {
			continue
		}
		if spot, on := ps.p.Spot(); on {
			w.Spots = append(w.Spots, spot)
		}
	}
}
