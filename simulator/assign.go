package simulator

import (
	"regexp"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

// ownership is the explicit assignment of entities to physics engines,
// as in ARGoS's original design: an engine element may list the entities
// it owns in <entity id="..."/> children, where id is a regular
// expression that matches whole ids ("fb_[0-9]+" lists fb_0, fb_1, ...).
//
//   - A mobile entity listed by an engine belongs to it wherever it goes:
//     it never migrates. Listed by two engines, it is an error.
//   - A static entity listed by engines is shared by those engines only,
//     instead of by every engine whose region it touches.
//   - Entities nobody lists go by the engines' regions.
//   - A list entry that matches no entity is an error (most likely a
//     typo).
type ownership struct {
	rules  []ownRule
	pinned []bool // per body handle: listed by its engine, never migrates
}

type ownRule struct {
	engine int
	id     string // as written
	re     *regexp.Regexp
	node   *config.Node
	used   bool
}

// parseOwnership reads the <entity> lists of the engine elements.
func (s *Simulator) parseOwnership() error {
	for i, n := range s.exp.PhysicsEngines {
		for _, c := range n.Children {
			if c.Name != "entity" {
				continue
			}
			id, err := c.String("id")
			if err != nil {
				return err
			}
			re, err := regexp.Compile("^(?:" + id + ")$")
			if err != nil {
				return c.AttrErrorf("id", "simulator: %q is not a valid regular expression (%v); write an entity id, or a pattern such as \"fb_[0-9]+\"", id, err)
			}
			s.own.rules = append(s.own.rules, ownRule{engine: i, id: id, re: re, node: c})
		}
	}
	return nil
}

// listedBy returns the engines whose lists hold id, marking their rules
// used.
func (s *Simulator) listedBy(id string) []int {
	var out []int
	for k := range s.own.rules {
		r := &s.own.rules[k]
		if !r.re.MatchString(id) {
			continue
		}
		r.used = true
		if len(out) == 0 || out[len(out)-1] != r.engine {
			out = append(out, r.engine)
		}
	}
	return out
}

// ruleOf returns the first rule of engine e that matches id.
func (s *Simulator) ruleOf(e int, id string) *ownRule {
	for k := range s.own.rules {
		if r := &s.own.rules[k]; r.engine == e && r.re.MatchString(id) {
			return r
		}
	}
	return nil
}

// engineOf returns the engine that takes the mobile body b of entity id:
// the engine that lists it, or else the one whose region holds it (-1 for
// none). pinned reports the former.
func (s *Simulator) engineOf(id string, b *space.Body) (engine int, pinned bool, err error) {
	if len(s.own.rules) > 0 {
		switch listed := s.listedBy(id); len(listed) {
		case 0:
		case 1:
			return listed[0], true, nil
		default:
			return -1, false, s.ruleOf(listed[1], id).node.Errorf("simulator: %s %q is listed by physics engines %q and %q; a mobile entity belongs to one engine, so list it in one",
				b.Type, id, s.engines[listed[0]].ID(), s.engines[listed[1]].ID())
		}
	}
	return s.engineFor(b), false, nil
}

// hasEngine reports whether some engine takes the mobile body b of
// entity id.
func (s *Simulator) hasEngine(id string, b *space.Body) bool {
	e, _, err := s.engineOf(id, b)
	return err != nil || e >= 0 // a conflict is reported when the body is assigned
}

// pin records whether body h stays in the engine that lists it.
func (s *Simulator) pin(h int, pinned bool) {
	if !pinned && h >= len(s.own.pinned) {
		return
	}
	for len(s.own.pinned) <= h {
		s.own.pinned = append(s.own.pinned, false)
	}
	s.own.pinned[h] = pinned
}

// pinnedBody reports whether body h stays in the engine that lists it.
func (s *Simulator) pinnedBody(h int) bool { return h < len(s.own.pinned) && s.own.pinned[h] }

// growEngines tells the engines that can make room for their bodies ahead
// (a Grow method) how many mobile bodies their regions hold, so that a
// million bodies are not copied as the engines' lists grow. With lists of
// owned entities it does nothing (matching a million ids twice costs more
// than it saves).
func (s *Simulator) growEngines() {
	if len(s.own.rules) > 0 || len(s.engines) == 0 {
		return
	}
	counts := make([]int, len(s.engines))
	for i := range s.sp.Bodies {
		if b := &s.sp.Bodies[i]; b.Movable && !b.Removed {
			if k := s.engineFor(b); k >= 0 {
				counts[k]++
			}
		}
	}
	for k, e := range s.engines {
		if g, ok := e.(interface{ Grow(n int) }); ok && counts[k] > 0 {
			g.Grow(counts[k])
		}
	}
}

// growEnginesAhead grows the engines, on another goroutine, by the bodies
// of a <distribute> (counts, by engine) and the arena's other elements,
// while the <distribute> adds its entities, so that the page faults of the
// engines' new lists (some 190 MB for a million bodies in kinematics2d)
// overlap that work; growEngines then finds room for every body. The
// function returned waits for it; nothing may use the engines before.
func (s *Simulator) growEnginesAhead(counts []int) (wait func()) {
	done := make(chan struct{})
	slack := len(s.exp.Arena.Children)
	go func() {
		defer close(done)
		for k, e := range s.engines {
			if g, ok := e.(interface{ Grow(n int) }); ok && counts[k] > 0 {
				g.Grow(counts[k] + slack)
			}
		}
	}()
	return func() { <-done }
}

// checkOwnership reports list entries that matched no entity.
func (s *Simulator) checkOwnership() error {
	for _, r := range s.own.rules {
		if !r.used {
			return r.node.Errorf("simulator: physics engine %q lists entity id %q, which matches no entity in the arena; check the id (a regular expression matching whole ids)",
				s.engines[r.engine].ID(), r.id)
		}
	}
	return nil
}

// staticEngines returns the engines that share static body i: those that
// list it, or else those whose region its bounding square touches.
func (s *Simulator) staticEngines(i int) []int {
	b := &s.sp.Bodies[i]
	if len(s.own.rules) > 0 {
		if listed := s.listedBy(b.ID); len(listed) > 0 {
			return listed
		}
	}
	var out []int
	for k, e := range s.engines {
		if r := e.Region(); r != nil {
			rlo, rhi := r.Bounds()
			if b.Pos.X+b.Radius < rlo.X || b.Pos.X-b.Radius > rhi.X || b.Pos.Y+b.Radius < rlo.Y || b.Pos.Y-b.Radius > rhi.Y {
				continue
			}
		}
		out = append(out, k)
	}
	return out
}
