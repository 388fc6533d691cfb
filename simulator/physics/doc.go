// Package physics defines what a physics engine is to the simulator, the
// registry of engines by their .argos tag, and the region (a prism with a
// polygonal base) an engine may be limited to.
//
// Every mobile body of the space belongs to exactly one engine. A tick of
// physics runs in two stages so that engines can run in parallel without
// locks: Step reads the space (as it was at the end of the previous tick)
// and advances the engine's own state; Commit writes the new poses of the
// engine's bodies into the space. Engines never write bodies they do not
// own. Bodies that left an engine's region are handed over afterwards, on
// the coordinating goroutine.
//
// Engines live in sub-packages (physics/dynamics2d, ...) that register
// themselves from init; binaries import the ones they ship.
package physics
