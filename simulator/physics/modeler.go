package physics

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/space"
)

// Modeler is implemented by engines that simulate only some kinds of
// bodies, as ARGoS's engines have models for some entity types only:
// pointmass3d flies eye-bots and nothing else. Models reports whether
// the engine simulates bodies like b.
//
// EngineFor gives a body to an engine that models it before any engine
// that does not say (the generic engines, such as dynamics2d), whatever
// the order of <physics_engines>, and never to a Modeler that does not
// model it: eye-bots go to pointmass3d and foot-bots to dynamics2d even
// when pointmass3d comes first and covers the whole arena.
type Modeler interface {
	Models(b *space.Body) bool
}

// Fallback is implemented by Modelers that also simulate some bodies
// they do not model, when no other engine takes them: ARGoS's pointmass3d
// has models for the foot-bot and the e-puck too (kinematic, on the
// floor), which its experiments with only that engine use.
type Fallback interface {
	Accepts(b *space.Body) bool
}

// EngineFor returns the index of the engine a mobile body belongs to, or
// -1: among the engines that contain the body's position (see Contains),
// the first Modeler that models it, else the first engine that is not a
// Modeler, else the first Fallback that accepts it.
func EngineFor(engines []Engine, b *space.Body) int {
	p := ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: b.Z}
	generic, fallback := -1, -1
	for i, e := range engines {
		if !Contains(e, p) {
			continue
		}
		if m, ok := e.(Modeler); ok {
			if m.Models(b) {
				return i
			}
			if f, ok := e.(Fallback); ok && fallback < 0 && f.Accepts(b) {
				fallback = i
			}
			continue
		}
		if generic < 0 {
			generic = i
		}
	}
	if generic >= 0 {
		return generic
	}
	return fallback
}
