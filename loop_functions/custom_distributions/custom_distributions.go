// Package customdistributions is ARGoS's custom_distributions loop
// functions (argos3-examples): foot-bots placed from code, in the
// distributions that <distribute> cannot describe. Each child of
// <loop_functions> adds robot_num foot-bots running the controller entry
// "ffc", numbered fb0, fb1, ... across the children in file order:
//
//		<loop_functions label="custom_distributions_loop_functions">
//		  <cluster   center="5,0"  robot_num="30" robot_density="0.1" />
//		  <scalefree center="0,0"  robot_num="30" robot_range="1.5" />
//		  <line      center="-1,0" robot_num="10" robot_distance="0.3" />
//		</loop_functions>
//
//	  - cluster: uniformly at random, with a random heading, in the square
//	    centred on center whose area holds the robots' footprints at the
//	    given density (footprint area / square area);
//	  - scalefree: the first robot at center, each next one near a robot
//	    already placed, picked with a probability that grows with how many
//	    robots were placed near it (preferential attachment), at a random
//	    offset of between robot_range/2 and robot_range on each axis;
//	  - line: robot i at center + (i, i), as ARGoS's example places them
//	    (it reads robot_distance but does not use it).
//
// A robot that cannot be placed without overlapping another body after
// 20 tries (20 pivots of 20 tries for scalefree) is an error, as in
// ARGoS. The random draws come from the experiment's seed.
package customdistributions

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
)

// Label is ARGoS's label of the loop functions.
const Label = "custom_distributions_loop_functions"

// Controller is the controller entry every placed robot runs, as in
// ARGoS's example.
const Controller = "ffc"

// The trials of ARGoS's example.
const (
	maxPlaceTrials = 20
	maxRobotTrials = 20
	footBotRadius  = 0.085036758
)

func init() {
	simulator.LoopFunctionsTypes.MustRegister(Label,
		"ARGoS's custom_distributions: adds foot-bots (controller entry \"ffc\", ids fb0, fb1, ...) from code, one child "+
			"element per group: <cluster center=\"x,y\" robot_num=\"N\" robot_density=\"D\"/> (uniform in a square that "+
			"makes the footprints cover D of it), <scalefree center robot_num robot_range/> (preferential attachment "+
			"near robots already placed), <line center robot_num robot_distance/> (robot i at center+(i,i), as ARGoS).",
		func() simulator.LoopFunctions { return &LoopFunctions{} })
}

// LoopFunctions are the custom_distributions loop functions.
type LoopFunctions struct {
	simulator.LoopFunctionsBase
	sim *simulator.Simulator
	rng *rand.Rand
	// Placed is the number of robots added so far.
	Placed int
}

// Init adds the robots of every child element.
func (l *LoopFunctions) Init(sim *simulator.Simulator, n *config.Node) error {
	l.sim, l.rng, l.Placed = sim, sim.RandomStream(Label), 0
	for _, d := range n.Children {
		var err error
		switch d.Name {
		case "line":
			err = l.group(d, "robot_distance", l.line)
		case "cluster":
			err = l.group(d, "robot_density", l.cluster)
		case "scalefree":
			err = l.group(d, "robot_range", l.scaleFree)
		default:
			return d.Errorf("custom_distributions: unknown distribution <%s>; use <line>, <cluster> or <scalefree>", d.Name)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// group reads a child's common attributes and its own one, then places.
func (l *LoopFunctions) group(d *config.Node, attr string, place func(d *config.Node, c ci.Vector2, n int, v float64) error) error {
	if err := d.CheckAttrs("center", "robot_num", attr); err != nil {
		return err
	}
	center, err := d.Vector2("center")
	if err != nil {
		return err
	}
	num, err := d.Int("robot_num")
	if err != nil {
		return err
	}
	if num < 0 || num > 100000 {
		return d.Errorf("custom_distributions: robot_num=%d: give 0 to 100000 robots", num)
	}
	v, err := d.Float(attr)
	if err != nil {
		return err
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return d.Errorf("custom_distributions: %s=%g: give a positive number", attr, v)
	}
	return place(d, center, num, v)
}

// add puts the next robot, fbN, at pos.
func (l *LoopFunctions) add(d *config.Node, pos ci.Vector2, yaw float64) (int, error) {
	id := "fb" + strconv.Itoa(l.Placed)
	l.Placed++
	spec, err := entity.NewRobotSpec("foot-bot", id, Controller, ci.Vector3{X: pos.X, Y: pos.Y}, yaw)
	if err != nil {
		return -1, d.Errorf("custom_distributions: %v", err)
	}
	h, err := l.sim.AddEntity(spec)
	if err != nil {
		return -1, d.Errorf("custom_distributions: %v", err)
	}
	return h, nil
}

// try moves body h to pos and reports whether it fits there.
func (l *LoopFunctions) try(h int, pos ci.Vector2, yaw float64) bool {
	if err := l.sim.MoveBody(h, ci.Vector3{X: pos.X, Y: pos.Y}, yaw); err != nil {
		return false
	}
	_, overlap := l.sim.Space().Overlapping(h, 0)
	return !overlap
}

func (l *LoopFunctions) line(d *config.Node, c ci.Vector2, n int, _ float64) error {
	for i := range n {
		if _, err := l.add(d, c.Add(ci.Vector2{X: float64(i), Y: float64(i)}), 0); err != nil {
			return err
		}
	}
	return nil
}

func (l *LoopFunctions) cluster(d *config.Node, c ci.Vector2, n int, density float64) error {
	half := math.Sqrt(math.Pi*footBotRadius*footBotRadius*float64(n)/density) / 2
	for range n {
		h, err := l.add(d, c, 0)
		if err != nil {
			return err
		}
		placed := false
		for t := 0; t <= maxPlaceTrials && !placed; t++ {
			p := c.Add(ci.Vector2{X: l.uniform(-half, half), Y: l.uniform(-half, half)})
			placed = l.try(h, p, l.uniform(0, 2*math.Pi))
		}
		if !placed {
			return d.Errorf("custom_distributions: cannot place fb%d in the cluster: the square of side %.2f m is too full; lower robot_density", l.Placed-1, 2*half)
		}
	}
	return nil
}

func (l *LoopFunctions) scaleFree(d *config.Node, c ci.Vector2, n int, rng float64) error {
	if n == 0 {
		return nil
	}
	type node struct {
		conns int
		body  int
	}
	var nodes []node
	total := 0
	insert := func(h int) { nodes = append(nodes, node{1, h}); total += 2 }
	pick := func() int {
		if len(nodes) == 1 {
			return 0
		}
		x := l.rng.IntN(total)
		sum := 0
		for k, nd := range nodes {
			sum += nd.conns
			if sum > x {
				return k
			}
		}
		return len(nodes) - 1
	}
	h, err := l.add(d, c, 0)
	if err != nil {
		return err
	}
	insert(h)
	halfRange := rng / 2
	coord := func() float64 {
		v := l.uniform(-halfRange, halfRange)
		if v > 0 {
			return v + halfRange
		}
		return v - halfRange
	}
	for i := 1; i < n; i++ {
		h, err := l.add(d, c, 0)
		if err != nil {
			return err
		}
		placed, pivot := false, 0
		for r := 0; r <= maxRobotTrials && !placed; r++ {
			pivot = pick()
			yaw := l.uniform(0, 2*math.Pi)
			from := l.sim.Space().Bodies[nodes[pivot].body].Pos
			for t := 0; t <= maxPlaceTrials && !placed; t++ {
				placed = l.try(h, from.Add(c).Add(ci.Vector2{X: coord(), Y: coord()}), yaw)
			}
		}
		if !placed {
			return d.Errorf("custom_distributions: cannot place fb%d in the scale-free distribution; raise robot_range", l.Placed-1)
		}
		nodes[pivot].conns++
		insert(h)
	}
	return nil
}

func (l *LoopFunctions) uniform(lo, hi float64) float64 { return lo + (hi-lo)*l.rng.Float64() }

// Reset keeps the robots where the reset puts them: the simulator
// restores their start poses.
func (l *LoopFunctions) Reset() error { return nil }

var _ simulator.LoopFunctions = (*LoopFunctions)(nil)
