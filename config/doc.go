// Package config reads ARGoS 3 experiment files (.argos XML) into a tree of
// elements that remember their file and line, plus the typed top-level
// sections that every experiment has.
//
// [Load] and [Parse] check the XML and the sections this package owns:
// <framework> (threads, length, ticks per second, random seed), the
// <controllers> with their actuators, sensors and params, <loop_functions>,
// and the size and centre of the <arena>. Everything else (the entities of
// the arena, physics engines, media, visualizations) is handed to the
// simulator as [Node]s, which it reads with the typed accessors:
//
//	size, err := box.Vector3("size")         // "x,y,z"
//	yaw, err := body.EulerOr("orientation", config.EulerDeg{}) // "z,y,x" in degrees
//	movable, err := box.BoolOr("movable", true)
//	if err := box.CheckAttrs("id", "size", "movable", "mass"); err != nil { ... }
//
// Every error about the content of a file is an [*Error] whose message
// starts with the position and the element, names the attribute and says
// what to write instead:
//
//	exp.argos:23: <box id="wall">: attribute size="1,-2,0.5": sizes must be positive; write three positive numbers "x,y,z" in metres
//
// The simulator produces its own errors the same way with [Node.Errorf]
// and [Node.AttrErrorf].
//
// [ParseDistribute] reads a <distribute> element of the arena: the
// position and orientation generators (constant, uniform, gaussian, grid,
// as in ARGoS) and the entity to copy. Sampling takes the caller's
// *rand.Rand, so the same seed places the same robots at the same poses.
//
// The package keeps no state between calls; everything it returns belongs
// to the caller.
package config
