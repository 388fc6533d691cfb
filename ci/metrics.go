package ci

// Recorder records named measurements of the current tick, for the run's
// data (argos --out writes them as CSV and Parquet in long format: tick,
// time, robot, metric, value). Names are free text; use the same name for
// the same quantity at every tick. Record never fails and costs next to
// nothing where nothing is kept.
type Recorder interface {
	Record(name string, value float64)
}

// MetricsRobot is the optional interface of a [Robot] whose runtime keeps
// metrics (the simulator). Controllers use [Metrics] rather than asserting
// it.
type MetricsRobot interface {
	Robot
	Metrics() Recorder
}

// Metrics returns the recorder of robot r's metrics: what it records is
// tagged with the robot's id. Where the runtime keeps no metrics (a real
// robot, a fake), it returns a recorder that drops everything, so a
// controller may record unconditionally:
//
//	func (c *Controller) Init(r ci.Robot, p ci.Params) error {
//		c.metrics = ci.Metrics(r)
//		...
//	}
//
//	func (c *Controller) ControlStep() {
//		...
//		c.metrics.Record("obstacle", front)
//	}
//
// Call it in Init and keep the recorder; recording from ControlStep is
// safe while the robots run in parallel.
func Metrics(r Robot) Recorder {
	if m, ok := r.(MetricsRobot); ok {
		if rec := m.Metrics(); rec != nil {
			return rec
		}
	}
	return discardRecorder{}
}

// RecorderFunc adapts a function to a Recorder (fakes, tests, adapters).
type RecorderFunc func(name string, value float64)

// Record calls f(name, value).
func (f RecorderFunc) Record(name string, value float64) { f(name, value) }

type discardRecorder struct{}

func (discardRecorder) Record(string, float64) {}
