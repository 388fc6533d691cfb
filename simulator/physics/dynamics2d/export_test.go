package dynamics2d

// ForceCP makes e step every body through cp, never through the free
// integrator, so that tests can compare both paths.
func ForceCP(e *Engine, on bool) { e.forceCP = on }

// SetChunk sets how many bodies one parallel job handles.
func SetChunk(e *Engine, n int) { e.chunk = n }
