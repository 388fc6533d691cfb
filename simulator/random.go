package simulator

import mrand "math/rand/v2"

// RandomStream returns a new random stream derived from the experiment's
// seed and name, the way every robot's stream is derived from its id:
// loop functions and user functions that draw random numbers take one
// under their label, so that a run is repeatable from its seed and a
// reset (a new stream under the same name) draws the same numbers again.
func (s *Simulator) RandomStream(name string) *mrand.Rand { return s.newRand(name) }
