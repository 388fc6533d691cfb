// Package foraging holds ARGoS's foraging_loop_functions (from the
// argos3-examples foraging experiment): the floor with its nest and food
// items, the hand-over of items to footbot_foraging_controller robots,
// and the per-tick statistics file. Import it (or
// github.com/argosgo/argos/loop_functions/examples) in the argos binary
// to run experiments/foraging.argos.
package foraging

import (
	"errors"
	"math/rand/v2"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/loop"
)

// ForagingLabel is the label of the foraging loop functions, as ARGoS's
// foraging.argos names them.
const ForagingLabel = "foraging_loop_functions"

// The geometry of ARGoS's foraging_loop_functions.cpp (argos3-examples):
// food items are scattered uniformly over x in [-0.9, 1.7], y in
// [-1.7, 1.7]; the nest is everything with x < -1, grey (gray50) on the
// floor; an item picked up is moved to (100, 100), out of sight.
var (
	ForagingItemsX = [2]float64{-0.9, 1.7}
	ForagingItemsY = [2]float64{-1.7, 1.7}
	ForagingNestX  = -1.0
	foragingGone   = ci.Vector2{X: 100, Y: 100}
)

// ForagingHeader is the first line of the statistics file, as ARGoS
// writes it; then one line per tick with those five tab-separated values.
const ForagingHeader = "# clock\twalking\tresting\tcollected_food\tenergy"

func init() {
	simulator.LoopFunctionsTypes.MustRegister(ForagingLabel,
		"Foraging (ARGoS's foraging_loop_functions): draws the floor (grey nest at x < -1, black food items of "+
			"the given radius on white), gives an item to a robot without one that stands on it, takes it back "+
			"when the robot is in the nest (counting it and scattering a new item), and writes one line per tick: "+
			"clock, walking robots, resting robots, collected food, energy. Child element <foraging items=\"15\" "+
			"radius=\"0.1\" energy_per_item=\"1000\" energy_per_walking_robot=\"1\" output=\"foraging.txt\"/> "+
			"(defaults as shown; without output no file is written; a relative output goes in the run folder). "+
			"Robots take part when their controller has IsResting, Carrying, PickUp and Drop "+
			"(footbot_foraging_controller).",
		func() simulator.LoopFunctions { return NewForaging() })
}

// Forager is what the foraging loop functions need of a robot's
// controller; footbot_foraging_controller (controllers/foraging) has it.
// Robots whose controller lacks it are ignored.
type Forager interface {
	// IsResting reports whether the robot rests in the nest.
	IsResting() bool
	// Carrying returns the index of the food item the robot carries and
	// whether it carries one.
	Carrying() (item int, ok bool)
	// PickUp gives the robot food item i.
	PickUp(i int)
	// Drop takes the carried item back and returns its index.
	Drop() int
}

// Foraging is the foraging_loop_functions loop functions. Its statistics
// are readable between ticks.
type Foraging struct {
	simulator.LoopFunctionsBase
	sim *simulator.Simulator
	rng *rand.Rand

	items           []ci.Vector2
	radius2         float64
	perItem         int64
	perWalking      int64
	stats           loop.StatsFile
	collected       int
	energy          int64
	walking         int
	resting         int
	foragers        []int
	checkedForagers bool
}

// NewForaging returns foraging loop functions, ready for Init.
func NewForaging() *Foraging { return &Foraging{} }

// Init reads <foraging>, scatters the items, opens the statistics file
// and gives the floor to the arena.
func (f *Foraging) Init(sim *simulator.Simulator, n *config.Node) error {
	if err := n.CheckAttrs("label", "library"); err != nil {
		return err
	}
	if err := n.CheckChildren("foraging"); err != nil {
		return err
	}
	fn := n.FirstChild("foraging")
	if err := fn.CheckAttrs("items", "radius", "energy_per_item", "energy_per_walking_robot", "output"); err != nil {
		return err
	}
	items, radius, perItem, perWalking, output := 15, 0.1, int64(1000), int64(1), ""
	if fn != nil {
		var err error
		if items, err = fn.IntOr("items", items); err != nil {
			return err
		}
		if items < 0 {
			return fn.AttrErrorf("items", "give the number of food items, 0 or more, like 15")
		}
		if radius, err = fn.FloatOr("radius", radius); err != nil {
			return err
		}
		if radius <= 0 {
			return fn.AttrErrorf("radius", "give the radius of a food item in metres, above 0, like 0.1")
		}
		n1, err := fn.IntOr("energy_per_item", int(perItem))
		if err != nil {
			return err
		}
		n2, err := fn.IntOr("energy_per_walking_robot", int(perWalking))
		if err != nil {
			return err
		}
		perItem, perWalking = int64(n1), int64(n2)
		output = fn.StringOr("output", "")
	}
	*f = Foraging{
		sim: sim, items: make([]ci.Vector2, items), radius2: radius * radius,
		perItem: perItem, perWalking: perWalking,
		stats: loop.StatsFile{Label: ForagingLabel, Header: ForagingHeader, Output: output},
	}
	f.scatter()
	if err := f.stats.Open(f.sim); err != nil {
		return fn.AttrErrorf("output", "%v; give a file name in a folder that exists and can be written", err)
	}
	sim.World().Floor = f.FloorColor
	return nil
}

// scatter reseeds the items' random stream (derived from the experiment
// seed, so that a reset gives the same items) and places every item.
func (f *Foraging) scatter() {
	f.rng = f.sim.RandomStream(ForagingLabel)
	for i := range f.items {
		f.items[i] = f.randomItem()
	}
}

func (f *Foraging) randomItem() ci.Vector2 {
	return ci.Vector2{
		X: ForagingItemsX[0] + f.rng.Float64()*(ForagingItemsX[1]-ForagingItemsX[0]),
		Y: ForagingItemsY[0] + f.rng.Float64()*(ForagingItemsY[1]-ForagingItemsY[0]),
	}
}

// FloorColor is the floor the loop functions draw: grey in the nest,
// black on a food item, white elsewhere (ARGoS's GetFloorColor). It is
// safe to call while the robots sense.
func (f *Foraging) FloorColor(p ci.Vector2) ci.Color {
	if p.X < ForagingNestX {
		return ci.Gray50
	}
	for _, it := range f.items {
		if p.Sub(it).SquaredLength() < f.radius2 {
			return ci.Black
		}
	}
	return ci.White
}

// PreStep drops the items of the robots in the nest, hands items to the
// robots that stand on one, counts walking and resting robots, updates
// the energy and writes the tick's line.
func (f *Foraging) PreStep() {
	f.walking, f.resting = 0, 0
	found := false
	for i := 0; i < f.sim.NumRobots(); i++ {
		r := f.sim.Robot(i)
		if r.B().Removed {
			continue
		}
		c, ok := f.sim.Controller(i).(Forager)
		if !ok {
			continue
		}
		found = true
		if c.IsResting() {
			f.resting++
		} else {
			f.walking++
		}
		pos := r.B().Pos
		if _, carrying := c.Carrying(); carrying {
			if pos.X < ForagingNestX {
				f.items[c.Drop()] = f.randomItem()
				f.energy += f.perItem
				f.collected++
			}
			continue
		}
		if pos.X > ForagingNestX {
			for k, it := range f.items {
				if pos.Sub(it).SquaredLength() < f.radius2 {
					f.items[k] = foragingGone
					c.PickUp(k)
					break
				}
			}
		}
	}
	if !found && !f.checkedForagers {
		f.sim.Logger().Warnf("%s: no robot has a foraging controller (footbot_foraging_controller); nothing will be collected", ForagingLabel)
	}
	f.checkedForagers = true
	f.energy -= int64(f.walking) * f.perWalking
	f.stats.Printf("%d\t%d\t%d\t%d\t%d\n", f.sim.Tick(), f.walking, f.resting, f.collected, f.energy)
	if f.sim.MetricsEnabled() {
		m := f.sim.Metrics()
		m.Record("foraging.walking", float64(f.walking))
		m.Record("foraging.resting", float64(f.resting))
		m.Record("foraging.collected_food", float64(f.collected))
		m.Record("foraging.energy", float64(f.energy))
	}
}

// Reset zeroes the counters, scatters the items again as at the start and
// truncates the statistics file.
func (f *Foraging) Reset() error {
	err := f.stats.Close()
	f.collected, f.energy, f.walking, f.resting = 0, 0, 0, 0
	f.scatter()
	return errors.Join(err, f.stats.Open(f.sim))
}

// PostExperiment flushes the statistics file, so that it covers the ticks
// run even when the run was cut short.
func (f *Foraging) PostExperiment() {
	f.stats.Flush(f.sim)
}

// Destroy closes the statistics file.
func (f *Foraging) Destroy() error { return f.stats.Close() }

// Collected returns the number of items brought to the nest.
func (f *Foraging) Collected() int { return f.collected }

// Energy returns the swarm's energy: energy_per_item for each item
// collected, minus energy_per_walking_robot for each robot not resting at
// each tick.
func (f *Foraging) Energy() int64 { return f.energy }

// Walking returns how many robots were walking (exploring or returning
// to the nest) at the last tick.
func (f *Foraging) Walking() int { return f.walking }

// Resting returns how many robots rested at the last tick.
func (f *Foraging) Resting() int { return f.resting }

// Items returns a copy of the food items' positions; an item a robot
// carries is at (100, 100).
func (f *Foraging) Items() []ci.Vector2 { return append([]ci.Vector2(nil), f.items...) }
