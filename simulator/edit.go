package simulator

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// The methods below change the arena between ticks: from loop functions
// (PreStep, PostStep), from a viewer, or from a program driving Step.
// They must not be called during Step.

// Body returns the handle of the body of the entity with the given id.
func (s *Simulator) Body(id string) (int, bool) {
	i, ok := s.byID[id]
	return i, ok && !s.sp.Bodies[i].Removed
}

// MoveBody puts a movable body at a new pose (yaw in radians) and stops
// it. The body changes engine if the new position belongs to another.
func (s *Simulator) MoveBody(i int, pos ci.Vector3, yaw float64) error {
	if i < 0 || i >= len(s.sp.Bodies) || s.sp.Bodies[i].Removed {
		return fmt.Errorf("simulator: no body %d", i)
	}
	b := &s.sp.Bodies[i]
	if !b.Movable {
		return fmt.Errorf("simulator: %s %q is static and cannot be moved; declare it movable=\"true\"", b.Type, b.ID)
	}
	old := b.Engine
	was := *b
	b.Pos, b.Z = pos.XY(), pos.Z
	b.SetYaw(ci.NormalizeAngle(yaw))
	b.Vel, b.AngVel = ci.Vector2{}, 0
	to, _, err := s.engineOf(b.ID, b)
	if err != nil || to < 0 || !s.inArena(b) {
		*b = was
		return fmt.Errorf("simulator: (%g, %g, %g) lies outside the arena or in no physics engine; %s %q stays where it is", pos.X, pos.Y, pos.Z, b.Type, b.ID)
	}
	s.engines[old].Remove(i)
	if err := s.engines[to].Add(i); err != nil {
		return err
	}
	s.sp.Reindex()
	return nil
}

// AddEntity puts a new entity in the arena (a robot gets its devices and
// controller as declared in the experiment's <controllers>). It returns
// the entity's body handle (-1 for a light).
func (s *Simulator) AddEntity(spec *entity.Spec) (int, error) {
	if _, dup := s.byID[spec.ID]; dup {
		return -1, fmt.Errorf("simulator: an entity with id %q exists; pick a unique id", spec.ID)
	}
	if spec.Embodied {
		b := spec.Body
		if b.Cos == 0 && b.Sin == 0 {
			b.SetYaw(b.Yaw)
		}
		if !s.inArena(&b) || b.Movable && !s.hasEngine(spec.ID, &b) {
			return -1, fmt.Errorf("simulator: %s %q at (%g, %g, %g) lies outside the arena or in no physics engine", spec.Tag, spec.ID, b.Pos.X, b.Pos.Y, b.Z)
		}
	}
	robots := len(s.robots)
	if err := s.addEntity(spec); err != nil {
		return -1, err
	}
	if !spec.Embodied {
		return -1, nil
	}
	h := s.byID[spec.ID]
	if err := s.assignEngine(h); err != nil {
		s.sp.Remove(h)
		return -1, err
	}
	if !s.sp.Bodies[h].Movable {
		s.sp.StaticChanged()
	}
	s.sp.Reindex()
	if len(s.robots) > robots {
		r := s.robots[len(s.robots)-1]
		if err := s.buildController(r, ci.Params{}); err != nil {
			s.removeBody(h)
			r.removed = true
			return -1, err
		}
	}
	return h, nil
}

// RemoveEntity takes the entity with the given id out of the arena. A
// removed robot's controller is destroyed and the robot no longer acts
// nor senses; robot indices do not change.
func (s *Simulator) RemoveEntity(id string) error {
	h, ok := s.Body(id)
	if !ok {
		return fmt.Errorf("simulator: no entity %q in the arena", id)
	}
	if !s.sp.Bodies[h].Movable {
		return fmt.Errorf("simulator: %q is static; static entities cannot be removed during a run", id)
	}
	for _, r := range s.robots {
		if r.Body == h && !r.removed {
			r.removed = true
			r.SetWheels(0, 0)
			if r.ctrl != nil {
				if err := r.ctrl.Destroy(); err != nil {
					s.log.Warnf("controller of %q: Destroy: %v", id, err)
				}
			}
		}
	}
	s.removeBody(h)
	s.sp.Reindex()
	return nil
}

func (s *Simulator) removeBody(h int) {
	if e := s.sp.Bodies[h].Engine; e >= 0 {
		s.engines[e].Remove(h)
	}
	s.sp.Remove(h)
}

// inArena reports whether the body's centre lies inside the arena.
func (s *Simulator) inArena(b *space.Body) bool {
	lo, hi := s.sp.Bounds()
	return b.Pos.X >= lo.X && b.Pos.X <= hi.X && b.Pos.Y >= lo.Y && b.Pos.Y <= hi.Y
}
