// Package phototaxis holds the loop functions of ARGoS's evolution
// examples, galib_phototaxis_loop_functions and
// mpga_phototaxis_loop_functions (argos3-examples): one foot-bot, "fb"
// with the controller entry "fnn" (added when the arena has none), starts
// 4.5 m from the light at one of five trial poses and has the length of
// the experiment to reach it. The fitness, recorded at the end of the run
// as the metric "distance", is the robot's distance to the light in the
// ground plane: the lower the better.
//
//	<loop_functions label="galib_phototaxis_loop_functions" trial="0" />
//
// Trial i (0 to 4) puts the robot at angle (i+1)·15° around the light (the
// first light of the arena; ARGoS's examples put it at the origin),
// 4.5 m away, facing a direction drawn once per run from the experiment's
// seed (the stream "phototaxis"), as ARGoS draws the five orientations
// when the loop functions start. ARGoS's GA programs evaluate a genome on
// all five trials and keep the worst distance; argos sweep evolve does the
// same with the trials as a parameter (experiments/evolution).
package phototaxis

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
)

// ARGoS's labels; both are the same loop functions.
const (
	GALibLabel = "galib_phototaxis_loop_functions"
	MPGALabel  = "mpga_phototaxis_loop_functions"
)

// The trials, as ARGoS's examples set them.
const (
	Trials   = 5
	Distance = 4.5 // m from the light
	// RobotID and ControllerID are the robot the loop functions drive and
	// its controller entry.
	RobotID      = "fb"
	ControllerID = "fnn"
	// Metric is the recorded fitness.
	Metric = "distance"
)

func init() {
	desc := "ARGoS's phototaxis evolution loop functions: put the foot-bot \"fb\" (controller \"fnn\"; added when absent) " +
		"4.5 m from the light at trial pose trial=\"0\"..\"4\", and record its final distance to the light as the metric \"distance\"."
	for _, label := range []string{GALibLabel, MPGALabel} {
		simulator.LoopFunctionsTypes.MustRegister(label, desc, func() simulator.LoopFunctions { return &LoopFunctions{} })
	}
}

// LoopFunctions are the phototaxis loop functions.
type LoopFunctions struct {
	simulator.LoopFunctionsBase
	sim   *simulator.Simulator
	trial int
	light ci.Vector2
	body  int
	poses [Trials]struct {
		pos ci.Vector2
		yaw float64
	}
}

// Init finds or adds the robot, draws the trials' orientations and puts
// the robot at the pose of its trial.
func (l *LoopFunctions) Init(sim *simulator.Simulator, n *config.Node) error {
	l.sim = sim
	var err error
	if l.trial, err = n.IntOr("trial", 0); err != nil {
		return err
	}
	if l.trial < 0 || l.trial >= Trials {
		return n.AttrErrorf("trial", "give a trial from 0 to %d", Trials-1)
	}
	if lights := sim.Lights(); len(lights) > 0 {
		l.light = lights[0].Position.XY()
	}
	r := sim.RandomStream("phototaxis")
	for i := range l.poses {
		a := float64(i+1) * math.Pi / 12
		l.poses[i].pos = ci.Vector2{X: l.light.X + Distance*math.Cos(a), Y: l.light.Y + Distance*math.Sin(a)}
		l.poses[i].yaw = r.Float64() * 2 * math.Pi
	}
	h, ok := sim.Body(RobotID)
	if !ok {
		if sim.Experiment().FindController(ControllerID) == nil {
			return n.Errorf("phototaxis: the arena has no foot-bot %q and <controllers> no entry %q to give one; add <footbot_nn_controller id=%q>", RobotID, ControllerID, ControllerID)
		}
		p := l.poses[l.trial]
		spec, err := entity.NewRobotSpec("foot-bot", RobotID, ControllerID, ci.Vector3{X: p.pos.X, Y: p.pos.Y}, p.yaw)
		if err != nil {
			return n.Errorf("phototaxis: %v", err)
		}
		if h, err = sim.AddEntity(spec); err != nil {
			return n.Errorf("phototaxis: %v", err)
		}
	}
	l.body = h
	return l.Reset()
}

// Reset puts the robot back at its trial's pose.
func (l *LoopFunctions) Reset() error {
	p := l.poses[l.trial]
	return l.sim.MoveBody(l.body, ci.Vector3{X: p.pos.X, Y: p.pos.Y}, p.yaw)
}

// Performance is the robot's distance to the light in the ground plane
// (m), ARGoS's fitness.
func (l *LoopFunctions) Performance() float64 {
	b := l.sim.Space().Bodies[l.body]
	return b.Pos.Sub(l.light).Length()
}

// PostExperiment records the fitness.
func (l *LoopFunctions) PostExperiment() {
	l.sim.Metrics().Record(Metric, l.Performance())
}
