package dynamics2d

// ForceCP makes e step every body through cp, never through the free
// integrator, so that tests can compare both paths.
func ForceCP(e *Engine, on bool) { e.forceCP = on }

// SetChunk sets how many bodies one parallel job handles.
func SetChunk(e *Engine, n int) { e.chunk = n }

// Alone is how many bodies of the last cp sub-step had their drive solved
// whole, touching nothing (drive.go).
func Alone(e *Engine) int { return len(e.drives.alone) }
