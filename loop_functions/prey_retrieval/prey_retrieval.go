// Package prey_retrieval holds the loop functions of the prey-retrieval
// experiment (experiments/prey_retrieval.argos): they draw the nest on
// the floor and record the deliveries of preys; the robots find the nest
// with their own sensors.
package prey_retrieval

import (
	"errors"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/loop"
	"github.com/argosgo/argos/simulator/physics"
)

// PreyRetrievalLabel is the label of the prey-retrieval loop functions.
const PreyRetrievalLabel = "prey_retrieval_loop_functions"

// PreyRetrievalHeader is the first line of the statistics file; then one
// line per delivery: tick, prey id, its position.
const PreyRetrievalHeader = "# tick\tprey\tx\ty"

func init() {
	simulator.LoopFunctionsTypes.MustRegister(PreyRetrievalLabel,
		"Prey retrieval (experiments/prey_retrieval.argos): colours the floor (a disc, the nest, in nest_color on a floor_color floor; "+
			"declare <floor source=\"loop_functions\">) and watches the preys: a prey is delivered at the first tick its centre lies in "+
			"the nest while no robot grips it. They only measure: the robots find the nest with their own sensors. Child element "+
			"<prey_retrieval nest_center=\"-1.3,1.3\" nest_radius=\"0.5\" nest_color=\"green\" floor_color=\"white\" preys=\"id,id\" "+
			"stop_after=\"-1\" output=\"\"/>: preys lists the ids of the preys to watch (required); stop_after ends the run that many "+
			"seconds after the first delivery (negative: never); output names a file (in the run folder when relative) with one line "+
			"per delivery.",
		func() simulator.LoopFunctions { return NewPreyRetrieval() })
}

// PreyRetrieval are the prey-retrieval loop functions. Their accessors
// may be called between ticks.
type PreyRetrieval struct {
	simulator.LoopFunctionsBase
	sim *simulator.Simulator

	center    ci.Vector2
	radius    float64
	nestColor ci.Color
	floor     ci.Color
	stopAfter float64

	ids       []string
	bodies    []int
	delivered []int // tick of delivery, 0: not yet
	first     int   // tick of the first delivery, 0: none

	stats loop.StatsFile
}

// NewPreyRetrieval returns prey-retrieval loop functions, ready for Init.
func NewPreyRetrieval() *PreyRetrieval { return &PreyRetrieval{} }

// Init reads <prey_retrieval>, finds the preys and draws the floor.
func (f *PreyRetrieval) Init(sim *simulator.Simulator, n *config.Node) error {
	if err := n.CheckAttrs("label", "library"); err != nil {
		return err
	}
	if err := n.CheckChildren("prey_retrieval"); err != nil {
		return err
	}
	pn, err := n.Child("prey_retrieval")
	if err != nil {
		return err
	}
	if err := pn.CheckAttrs("nest_center", "nest_radius", "nest_color", "floor_color", "preys", "stop_after", "output"); err != nil {
		return err
	}
	*f = PreyRetrieval{sim: sim}
	if f.center, err = pn.Vector2Or("nest_center", ci.Vector2{X: -1.3, Y: 1.3}); err != nil {
		return err
	}
	if f.radius, err = pn.FloatOr("nest_radius", 0.5); err != nil {
		return err
	}
	if f.radius <= 0 {
		return pn.AttrErrorf("nest_radius", "give the radius of the nest in metres, above 0, like 0.5")
	}
	if f.nestColor, err = pn.ColorOr("nest_color", ci.Green); err != nil {
		return err
	}
	if f.floor, err = pn.ColorOr("floor_color", ci.White); err != nil {
		return err
	}
	if f.stopAfter, err = pn.FloatOr("stop_after", -1); err != nil {
		return err
	}
	f.stats = loop.StatsFile{Label: PreyRetrievalLabel, Header: PreyRetrievalHeader, Output: pn.StringOr("output", "")}
	list, err := pn.String("preys")
	if err != nil {
		return err
	}
	for _, id := range strings.Split(list, ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		h, ok := sim.Body(id)
		if !ok {
			return pn.AttrErrorf("preys", "no entity has id %q; list the ids of the preys (movable cylinders or boxes) of <arena>", id)
		}
		if !sim.Space().Bodies[h].Movable {
			return pn.AttrErrorf("preys", "%q is static; a prey must be movable=\"true\" to be carried", id)
		}
		f.ids, f.bodies = append(f.ids, id), append(f.bodies, h)
	}
	if len(f.ids) == 0 {
		return pn.AttrErrorf("preys", "list the ids of the preys, like preys=\"prey_yellow,prey_cyan\"")
	}
	f.delivered = make([]int, len(f.ids))
	if err := f.stats.Open(f.sim); err != nil {
		return pn.AttrErrorf("output", "%v; give a file name in a folder that exists and can be written", err)
	}
	sim.World().Floor = f.FloorColor
	return nil
}

// FloorColor is the floor the loop functions draw: the nest's colour in
// the nest, the floor colour elsewhere. It is safe to call while the
// robots sense.
func (f *PreyRetrieval) FloorColor(p ci.Vector2) ci.Color {
	if f.InNest(p) {
		return f.nestColor
	}
	return f.floor
}

// InNest reports whether p lies in the nest.
func (f *PreyRetrieval) InNest(p ci.Vector2) bool {
	return p.Sub(f.center).SquaredLength() <= f.radius*f.radius
}

// Nest returns the centre and radius of the nest.
func (f *PreyRetrieval) Nest() (center ci.Vector2, radius float64) { return f.center, f.radius }

// Preys returns the ids of the preys watched, in the order of preys.
func (f *PreyRetrieval) Preys() []string { return append([]string(nil), f.ids...) }

// Delivered returns the tick at which prey id was delivered and whether
// it was.
func (f *PreyRetrieval) Delivered(id string) (tick int, ok bool) {
	for i, p := range f.ids {
		if p == id && f.delivered[i] > 0 {
			return f.delivered[i], true
		}
	}
	return 0, false
}

// Gripped reports whether some robot grips body h.
func (f *PreyRetrieval) Gripped(h int) bool {
	engines := f.sim.Engines()
	for i := 0; i < f.sim.NumRobots(); i++ {
		b := f.sim.Robot(i).B()
		if b.Removed || b.Engine < 0 || int(b.Engine) >= len(engines) {
			continue
		}
		if g, ok := engines[b.Engine].(physics.Gripping); ok && g.Gripped(f.sim.Robot(i).Body) == h {
			return true
		}
	}
	return false
}

// PostStep records the preys delivered at this tick.
func (f *PreyRetrieval) PostStep() {
	sp := f.sim.Space()
	for i, h := range f.bodies {
		b := &sp.Bodies[h]
		if f.delivered[i] > 0 || b.Removed || !f.InNest(b.Pos) || f.Gripped(h) {
			continue
		}
		t := f.sim.Tick()
		f.delivered[i] = t
		if f.first == 0 {
			f.first = t
		}
		f.sim.Logger().Infof("%s: prey %q delivered to the nest at tick %d (%.1f s)", PreyRetrievalLabel, f.ids[i], t, float64(t)*f.sim.TickLength())
		f.stats.Printf("%d\t%s\t%.4f\t%.4f\n", t, f.ids[i], b.Pos.X, b.Pos.Y)
	}
	if f.sim.MetricsEnabled() {
		n := 0
		for _, d := range f.delivered {
			if d > 0 {
				n++
			}
		}
		f.sim.Metrics().Record("prey_retrieval.delivered", float64(n))
	}
}

// IsExperimentFinished ends the run stop_after seconds after the first
// delivery (never when stop_after is negative).
func (f *PreyRetrieval) IsExperimentFinished() bool {
	if f.stopAfter < 0 || f.first == 0 {
		return false
	}
	return float64(f.sim.Tick()-f.first)*f.sim.TickLength() >= f.stopAfter-1e-9
}

// Reset forgets the deliveries and truncates the statistics file.
func (f *PreyRetrieval) Reset() error {
	err := f.stats.Close()
	clear(f.delivered)
	f.first = 0
	return errors.Join(err, f.stats.Open(f.sim))
}

// PostExperiment flushes the statistics file.
func (f *PreyRetrieval) PostExperiment() {
	f.stats.Flush(f.sim)
}

// Destroy closes the statistics file.
func (f *PreyRetrieval) Destroy() error { return f.stats.Close() }
