// Package trajectory is ARGoS's trajectory example (argos3-examples):
// trajectory_loop_functions keep, for every foot-bot, the points of its
// path (a new point whenever the robot is more than 5 cm from the last
// one), and trajectory_qtuser_functions draw them as lines in the viewer
// and the frames.
//
//	<loop_functions label="trajectory_loop_functions" />
//	...
//	<visualization>
//	  <qt-opengl><user_functions label="trajectory_qtuser_functions" /></qt-opengl>
//	</visualization>
package trajectory

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// ARGoS's labels.
const (
	Label              = "trajectory_loop_functions"
	UserFunctionsLabel = "trajectory_qtuser_functions"
)

// MinDistance is how far a foot-bot goes before its path gets a new
// point (m).
const MinDistance = 0.05

func init() {
	simulator.LoopFunctionsTypes.MustRegister(Label,
		"ARGoS's trajectory loop functions: keep every foot-bot's path, a point each time it has moved 5 cm "+
			"(draw them with trajectory_qtuser_functions).",
		func() simulator.LoopFunctions { return &LoopFunctions{} })
	simulator.UserFunctionsTypes.MustRegister(UserFunctionsLabel,
		"ARGoS's trajectory user functions: draw the paths kept by trajectory_loop_functions, one line per foot-bot.",
		func() simulator.UserFunctions { return &UserFunctions{} })
}

// LoopFunctions are trajectory_loop_functions.
type LoopFunctions struct {
	simulator.LoopFunctionsBase
	sim *simulator.Simulator
	ids []string
	// paths holds the points of each robot of ids, in the same order.
	paths [][]ci.Vector3
}

// Init starts every foot-bot's path where it stands.
func (l *LoopFunctions) Init(sim *simulator.Simulator, _ *config.Node) error {
	l.sim = sim
	return l.Reset()
}

// Reset starts the paths over from the robots' positions.
func (l *LoopFunctions) Reset() error {
	l.ids, l.paths = l.ids[:0], l.paths[:0]
	for i := range l.sim.NumRobots() {
		r := l.sim.Robot(i)
		if r.Model == nil || r.Model.Type != "foot-bot" {
			continue
		}
		l.ids = append(l.ids, r.ID)
		l.paths = append(l.paths, []ci.Vector3{position(r.B().Pos, r.B().Z)})
	}
	return nil
}

func position(p ci.Vector2, z float64) ci.Vector3 { return ci.Vector3{X: p.X, Y: p.Y, Z: z} }

// PostStep adds a point to the path of every robot that has gone far
// enough from its last one.
func (l *LoopFunctions) PostStep() {
	for k, id := range l.ids {
		h, ok := l.sim.Body(id)
		if !ok {
			continue
		}
		b := &l.sim.Space().Bodies[h]
		p := position(b.Pos, b.Z)
		last := l.paths[k][len(l.paths[k])-1]
		if d := p.Sub(last); d.X*d.X+d.Y*d.Y+d.Z*d.Z > MinDistance*MinDistance {
			l.paths[k] = append(l.paths[k], p)
		}
	}
}

// Path returns the points of a robot's path, or nil for an unknown id.
// The slice belongs to the loop functions.
func (l *LoopFunctions) Path(id string) []ci.Vector3 {
	for k, x := range l.ids {
		if x == id {
			return l.paths[k]
		}
	}
	return nil
}

// Robots returns the ids of the robots whose paths are kept.
func (l *LoopFunctions) Robots() []string { return l.ids }

// UserFunctions are trajectory_qtuser_functions: they draw the paths of
// the experiment's trajectory_loop_functions.
type UserFunctions struct {
	simulator.UserFunctionsBase
	loop *LoopFunctions
}

// Init finds the trajectory loop functions.
func (u *UserFunctions) Init(sim *simulator.Simulator, n *config.Node) error {
	l, ok := sim.LoopFunctions().(*LoopFunctions)
	if !ok {
		return n.Errorf("trajectory: %s draws the paths of %s; declare <loop_functions label=%q />", UserFunctionsLabel, Label, Label)
	}
	u.loop = l
	return nil
}

// DrawInWorld draws one green line per path.
func (u *UserFunctions) DrawInWorld(c *simulator.Canvas) {
	green := ci.Color{G: 160, A: 255}
	for _, p := range u.loop.paths {
		c.Polyline(p, green, 2)
	}
}
