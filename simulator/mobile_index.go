package simulator

// The index of mobile bodies (space.Space) is rebuilt after physics at
// every tick for the sensors, engines and media that query it. When none
// of them does (every engine, medium, sensor and actuator says so, and
// there are no loop functions, user functions or visualizations, which
// may query anything), the rebuild is skipped; Space brings the index up
// to date when asked, so that callers never see a stale one.

// MobileIndexUser is implemented by engines, media, sensors and
// actuators that know whether they query the space's index of mobile
// bodies (Near, NearMobile, Nearby, CastRay, Crowded, clearances, ...)
// after the physics phase. Whatever does not implement it is taken to
// query it.
type MobileIndexUser interface {
	UsesMobileIndex() bool
}

// indexNeed caches whether anything queries the mobile index; a robot's
// devices do not change after it is built and robots, engines, media and
// visualizations are only ever appended, so the answer is found again
// only when their numbers change.
type indexNeed struct {
	robots, engines, media, vis int
	valid, need                 bool
	// stale: the last tick skipped the rebuild
	stale bool
}

func usesIndex(x any) bool {
	u, ok := x.(MobileIndexUser)
	return !ok || u.UsesMobileIndex()
}

// needsMobileIndex reports whether anything may query the mobile index.
func (s *Simulator) needsMobileIndex() bool {
	if s.loop != nil || s.user != nil || len(s.spots.list) > 0 {
		return true
	}
	n := &s.index
	if n.valid && n.robots == len(s.robots) && n.engines == len(s.engines) && n.media == len(s.media) && n.vis == len(s.vis) {
		return n.need
	}
	n.robots, n.engines, n.media, n.vis, n.valid = len(s.robots), len(s.engines), len(s.media), len(s.vis), true
	n.need = len(s.vis) > 0 || s.anyUsesIndex()
	return n.need
}

func (s *Simulator) anyUsesIndex() bool {
	if anyUsesIndex(s.engines) || anyUsesIndex(s.media) {
		return true
	}
	for _, r := range s.robots {
		if anyUsesIndex(r.sensors()) || anyUsesIndex(r.actuators()) {
			return true
		}
	}
	return false
}

func anyUsesIndex[T any](xs []T) bool {
	for _, x := range xs {
		if usesIndex(x) {
			return true
		}
	}
	return false
}

// reindex rebuilds the mobile index after physics when anything may
// query it, and otherwise marks it stale.
func (s *Simulator) reindex() {
	if s.needsMobileIndex() {
		s.sp.ReindexWith(s.pool)
		s.index.stale = false
		return
	}
	s.index.stale = true
}

// freshIndex rebuilds an index that the last ticks left stale.
func (s *Simulator) freshIndex() {
	if s.index.stale {
		s.sp.Reindex()
		s.index.stale = false
	}
}
