// Package density is ParSwarm's density estimation application, the
// algorithm of Musco, Su and Lynch ("Ant-inspired density estimation via
// random walks"): every agent walks at random on a torus and, every
// round, counts the other agents sharing its vertex; after T rounds its
// estimate of the density (agents per vertex) is its count divided by T.
//
// It registers as the grid program "density_estimation":
//
//	<agents program="density_estimation" quantity="1000" radius="0">
//	  <params rounds="50"/>
//	</agents>
//
// The run ends after rounds rounds (T, default 50); the run folder gets
// every agent's estimate at the end (metric density_estimate, which
// argos plot draws as a histogram) and, every round, the mean estimate
// so far.
package density

import (
	"math"

	"github.com/argosgo/argos/gridworld"
)

// Agent is an agent's state: how many other agents it has met.
type Agent struct{ Met int32 }

// World is the density-estimation world.
type World = gridworld.World[Agent, struct{}, struct{}]

// Rules are the program's user functions.
type Rules struct {
	// T is the number of rounds after which the run is finished.
	T int
	g gridworld.Grid
}

// Transition counts the agents sharing the vertex and steps to a random
// neighbour.
func (r *Rules) Transition(a *Agent, v *gridworld.View[struct{}, struct{}], rnd *gridworld.Rand) gridworld.Transition[Agent, struct{}] {
	return gridworld.Transition[Agent, struct{}]{State: Agent{a.Met + int32(v.Count()-1)}, Move: rnd.Dir(r.g)}
}

// Finished ends the run after T rounds.
func (r *Rules) Finished(w *World) bool { return w.Round() >= r.T }

// Program is a density-estimation world as the argos command runs it.
type Program struct {
	*World
	rules *Rules
	est   []float64
}

// NewWorld builds a density-estimation world of T rounds.
func NewWorld(cfg gridworld.Config, T int) (*Program, error) {
	r := &Rules{T: T, g: cfg.Grid}
	w, err := gridworld.New[Agent, struct{}, struct{}](cfg, r)
	if err != nil {
		return nil, err
	}
	return &Program{World: w, rules: r}, nil
}

// New is the program's gridworld.Factory.
func New(s *gridworld.Setup) (gridworld.Instance, error) {
	T, err := s.Params.IntOr("rounds", 50)
	if err != nil {
		return nil, err
	}
	if T < 1 {
		return nil, s.ParamErrorf("rounds", "write the number of rounds T to walk, at least 1")
	}
	r := &Rules{T: T, g: s.Grid}
	w, err := gridworld.Build[Agent, struct{}, struct{}](s, 0, r)
	if err != nil {
		return nil, err
	}
	return &Program{World: w, rules: r}, nil
}

// Estimates returns every agent's density estimate so far, by id: the
// agents it met divided by the rounds done.
func (p *Program) Estimates(dst []float64) []float64 {
	n := p.NumAgents()
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	t := float64(max(1, p.Round()))
	p.Each(func(id, _ int32, a *Agent) { dst[id] = float64(a.Met) / t })
	return dst
}

// Density returns the density the estimates aim at: the other agents per
// vertex an agent expects to meet, (agents-1)/vertices.
func (p *Program) Density() float64 {
	return float64(p.NumAgents()-1) / float64(p.Grid().Vertices())
}

// Report records the mean estimate every round and, at the end, every
// agent's estimate, their mean and standard deviation, and the density.
func (p *Program) Report(rec gridworld.Recorder, final bool) {
	p.est = p.Estimates(p.est)
	mean, sd := MeanSD(p.est)
	rec.Record("mean_estimate", mean)
	if !final {
		return
	}
	rec.Record("sd_estimate", sd)
	rec.Record("density", p.Density())
	for id, e := range p.est {
		rec.RecordAgent(int32(id), "density_estimate", e)
	}
}

// MeanSD returns the mean and the standard deviation of xs.
func MeanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	mean = s / float64(len(xs))
	var q float64
	for _, x := range xs {
		q += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(q / float64(len(xs)))
}

func init() {
	gridworld.Programs.MustRegister("density_estimation",
		"ParSwarm's density estimation (Musco, Su and Lynch): agents walk at random and count the agents sharing their vertex every round; "+
			"after T rounds an agent's estimate of the density is its count divided by T. <params rounds=\"50\"/> (T). "+
			"Records every agent's density_estimate at the end (argos plot draws their histogram) and the mean estimate every round.",
		New)
}
