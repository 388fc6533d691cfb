package entity

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// World is what devices may read besides their own robot: the space, the
// lights, the floor and the media (LED, range-and-bearing, radio) by id.
// It is written between ticks (set-up, media update, loop functions) and
// only read during the sense phase.
type World struct {
	Space  *space.Space
	Lights []*Light
	// Floor gives the floor colour at a point; nil means a white floor.
	Floor func(p ci.Vector2) ci.Color
	// Robots are all robots, in arena order.
	Robots []*Robot
	// ObjectLEDs are the LEDs of the boxes and cylinders that carry some,
	// in arena order (object_leds.go).
	ObjectLEDs []*ObjectLEDs
	// Spots are coloured light spots projected on surfaces (laser pointers
	// of flying robots), refreshed before the robots sense. Ground sensors
	// and cameras see them.
	Spots []Spot
	// Seed is the experiment's seed, for media that draw random numbers
	// (a channel's losses) from counter-based streams of their own.
	Seed uint64
	// Engines are the physics engines in file order; a body's Engine
	// field indexes them (devices of engine-held state, such as the
	// custom engine's agents, find their engine here).
	Engines []physics.Engine
	media   map[string]any
}

// Spot is a coloured light spot: where it lands (on the floor or on top of
// a body), its radius in metres, its colour, and the robot that makes it.
type Spot struct {
	Pos    ci.Vector3
	Radius float64
	Color  ci.Color
	Source int // index of the robot that projects it
}

// FloorColor returns the colour of the floor at p.
func (w *World) FloorColor(p ci.Vector2) ci.Color {
	if w.Floor == nil {
		return ci.White
	}
	return w.Floor(p)
}

// AddMedium registers a medium under its id, for devices to find.
func (w *World) AddMedium(id string, m any) error {
	if w.media == nil {
		w.media = map[string]any{}
	}
	if _, dup := w.media[id]; dup {
		return fmt.Errorf("entity: two media have id %q; give each medium a unique id", id)
	}
	w.media[id] = m
	return nil
}

// Medium returns the medium registered under id, as type T. Devices call
// it when they are built, with the id their XML names (medium="rab").
func Medium[T any](w *World, id string) (T, error) {
	var zero T
	m, ok := w.media[id]
	if !ok {
		return zero, fmt.Errorf("entity: no medium has id %q; declare it under <media>", id)
	}
	t, ok := m.(T)
	if !ok {
		return zero, fmt.Errorf("entity: medium %q is a %T, not the kind this device needs", id, m)
	}
	return t, nil
}
