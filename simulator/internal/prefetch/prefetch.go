// Package prefetch asks the processor to start loading a cache line
// before the code needs it: a loop over data scattered in memory (the
// robots of a tick, each with its body, sensors and controller apart)
// can then wait for several lines at once instead of one after another.
// It is a hint: it changes no result, and where the architecture has no
// such instruction (or this package no assembly for it) it does nothing.
package prefetch
