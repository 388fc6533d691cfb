package simulator

import "github.com/argosgo/argos/ci"

// Sample is one recorded measurement of the current tick. Robot is the id
// of the robot it belongs to, "" for a per-tick metric of the whole
// experiment.
type Sample struct {
	Robot string
	Name  string
	Value float64
}

// metricsState holds the per-tick samples and whether recording is on
// (Options.Metrics).
type metricsState struct {
	on   bool
	tick []Sample
}

// Record implements ci.Recorder for per-tick metrics.
func (m *metricsState) Record(name string, value float64) {
	if m.on {
		m.tick = append(m.tick, Sample{Name: name, Value: value})
	}
}

// robotMetrics is one robot's recorder. Its controller records from
// ControlStep, which runs in parallel over robots: each robot owns its
// buffer, so no lock is needed.
type robotMetrics struct {
	st      *metricsState
	id      string
	samples []Sample
}

// Record implements ci.Recorder for the metrics of one robot.
func (m *robotMetrics) Record(name string, value float64) {
	if m.st != nil && m.st.on {
		m.samples = append(m.samples, Sample{Robot: m.id, Name: name, Value: value})
	}
}

// Metrics implements ci.MetricsRobot: what ci.Metrics(robot) returns to
// a controller.
func (h handle) Metrics() ci.Recorder { return h.r.recorder() }

// recorder returns the robot's recorder: one that keeps nothing when
// recording is off.
func (r *robot) recorder() ci.Recorder {
	if r.metrics == nil {
		return noRecorder{}
	}
	return r.metrics
}

// noRecorder records nothing: the robots' recorder when recording is off,
// which saves a million robots 48 MB of recorders that would stay empty.
type noRecorder struct{}

func (noRecorder) Record(string, float64) {}

var _ ci.MetricsRobot = handle{}

// Metrics returns the recorder of per-tick metrics of the whole
// experiment, for loop functions (PreStep, PostStep, PostExperiment).
// Recording is a no-op unless the simulator was built with
// Options.Metrics (argos --out).
func (s *Simulator) Metrics() ci.Recorder { return &s.metrics }

// RobotMetrics returns the recorder of robot i's metrics, the one its
// controller gets from ci.Metrics: loop functions use it to record a
// value per robot.
func (s *Simulator) RobotMetrics(i int) ci.Recorder { return s.robots[i].recorder() }

// MetricsEnabled reports whether recorded metrics are kept, so that loop
// functions can skip computing what nobody records.
func (s *Simulator) MetricsEnabled() bool { return s.metrics.on }

// TakeSamples appends to dst the samples recorded since the last call and
// forgets them: first the per-tick ones, then each robot's, in arena
// order, each in the order they were recorded (the same for any thread
// count). A recorder calls it from its Draw, after every tick; the
// samples belong to Tick().
func (s *Simulator) TakeSamples(dst []Sample) []Sample {
	dst = append(dst, s.metrics.tick...)
	s.metrics.tick = s.metrics.tick[:0]
	for _, r := range s.robots {
		if r.metrics == nil {
			continue
		}
		dst = append(dst, r.metrics.samples...)
		r.metrics.samples = r.metrics.samples[:0]
	}
	return dst
}
