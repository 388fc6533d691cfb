package realrobot

import (
	"errors"
	"sync/atomic"
)

// ErrSuperseded is wrapped by the error of an Act that a Stop
// superseded: the Stop came after the tick's Sense began, so the
// commands of that tick were not sent (or not sent again).
var ErrSuperseded = errors.New("the commands were superseded by a stop")

// Supersede keeps a stop a stop: a driver embeds one to tell whether a
// Stop came since the tick in progress began, so that neither the Act
// of that tick nor any retry of its commands undoes the stop.
//
// A tick begins with Sense (BeginSense); an Act that follows no Sense
// (a driver used by hand) begins its own tick. The driver calls Stopped
// when it sends a stop, and before every write of Act's commands (each
// retry included) asks Superseded with the mark BeginAct returned. The
// two must happen under the lock that serializes the driver's writes,
// so that a command checked before a stop is never written after it.
//
// The runtime's loop never calls Act for a tick that already overran, so
// the only Stop an Act can meet is one that came while the tick ran.
type Supersede struct {
	stops  atomic.Uint64
	base   uint64 // stops when the tick began
	sensed bool   // a Sense began a tick that no Act has ended
}

// Stopped records that a stop is being sent.
func (s *Supersede) Stopped() { s.stops.Add(1) }

// BeginSense marks the start of a tick and returns its mark. The
// driver's exchange lock is held.
func (s *Supersede) BeginSense() uint64 {
	s.base, s.sensed = s.stops.Load(), true
	return s.base
}

// BeginAct returns the mark of the tick Act belongs to: the tick begun
// by the last Sense, or a new one when no Sense came since the last Act.
// The driver's exchange lock is held.
func (s *Supersede) BeginAct() uint64 {
	if !s.sensed {
		s.base = s.stops.Load()
	}
	s.sensed = false
	return s.base
}

// Stops returns the number of stops so far (a mark of now).
func (s *Supersede) Stops() uint64 { return s.stops.Load() }

// Superseded reports whether a stop came since the tick of mark began.
func (s *Supersede) Superseded(mark uint64) bool { return s.stops.Load() != mark }
