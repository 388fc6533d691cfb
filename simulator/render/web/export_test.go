package web

import "time"

// SetLimits shortens the write timeout and queue length for tests.
func (v *Viewer) SetLimits(writeTimeout time.Duration, maxQueue int) {
	v.writeTimeout, v.maxQueue = writeTimeout, maxQueue
}

// Dropped is the number of frames replaced before a browser took them.
func (v *Viewer) Dropped() int64 { return v.dropped.Load() }

// Clients is the number of connected browsers.
func (v *Viewer) Clients() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.clients)
}
