package foraging

import (
	"fmt"
	"github.com/argosgo/argos/behaviortk"

	"github.com/argosgo/argos/ci"
)

// Label is the label under which the controller is registered, as
// ARGoS's foraging.argos names it.
const Label = "footbot_foraging_controller"

const description = "Foraging (ARGoS's footbot_foraging): rests in the nest, explores for food, " +
	"returns to the nest guided by the light; the loop functions foraging_loop_functions pick up " +
	"and drop the items. Params (children of <params>, every attribute optional, defaults from " +
	"ARGoS's foraging.argos): <diffusion go_straight_angle_range=\"-5:5\" delta=\"0.1\"/>, " +
	"<wheel_turning hard_turn_angle_threshold=\"90\" soft_turn_angle_threshold=\"70\" " +
	"no_turn_angle_threshold=\"10\" max_speed=\"10\"/>, <state initial_rest_to_explore_prob " +
	"initial_explore_to_rest_prob food_rule_explore_to_rest_delta_prob " +
	"food_rule_rest_to_explore_delta_prob collision_rule_explore_to_rest_delta_prob " +
	"social_rule_rest_to_explore_delta_prob social_rule_explore_to_rest_delta_prob " +
	"minimum_resting_time minimum_unsuccessful_explore_time minimum_search_for_place_in_nest_time/>. " +
	"Devices: actuators differential_steering, leds, range_and_bearing; sensors footbot_proximity, " +
	"footbot_light, footbot_motor_ground, range_and_bearing."

func init() {
	ci.Controllers.MustRegister(Label, description, func() ci.Controller { return New() })
}

// State is the state of the controller's state machine.
type State int

const (
	// Resting in the nest.
	Resting State = iota
	// Exploring for food.
	Exploring
	// ReturningToNest with or without food.
	ReturningToNest
)

// String names the state.
func (s State) String() string {
	switch s {
	case Resting:
		return "resting"
	case Exploring:
		return "exploring"
	case ReturningToNest:
		return "returning to nest"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// The results of an exploration, broadcast in byte 0 of the
// range-and-bearing payload (ARGoS's ELastExplorationResult).
const (
	ExplorationNone         byte = 0
	ExplorationSuccessful   byte = 1
	ExplorationUnsuccessful byte = 2
)

// FoodData is what the loop functions keep up to date: whether the robot
// carries a food item, which one, and how many it brought to the nest.
type FoodData struct {
	HasFoodItem    bool
	FoodItemIdx    int
	TotalFoodItems int
}

// Controller is the foraging controller. Make one with New; it is ready
// after Init.
type Controller struct {
	wheels    ci.DifferentialSteeringActuator
	leds      ci.LEDs
	rabOut    ci.RangeAndBearingActuator
	rabIn     ci.RangeAndBearingSensor
	proximity ci.Proximity
	light     ci.Light
	ground    ci.Ground
	robot     ci.Robot

	params Params
	steer  behaviortk.Steering

	state                       State
	inNest                      bool
	restToExploreProb           float64
	exploreToRestProb           float64
	timeRested                  int
	timeExploringUnsuccessfully int
	timeSearchingForPlace       int
	lastExploration             byte
	food                        FoodData
}

var _ ci.Controller = (*Controller)(nil)

// New returns a controller that Init has still to set up.
func New() *Controller { return &Controller{} }

// Init takes the devices of r, reads params and starts resting.
func (c *Controller) Init(r ci.Robot, params ci.Params) error {
	p, err := ParseParams(params)
	if err != nil {
		return err
	}
	*c = Controller{robot: r, params: p, steer: behaviortk.Steering{WheelTurning: p.Turning}}
	errs := []error{}
	get := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering)
	get(err)
	c.leds, err = ci.GetActuator[ci.LEDs](r, ci.TagLEDs)
	get(err)
	c.rabOut, err = ci.GetActuator[ci.RangeAndBearingActuator](r, ci.TagRangeAndBearing)
	get(err)
	c.rabIn, err = ci.GetSensor[ci.RangeAndBearingSensor](r, ci.TagRangeAndBearing)
	get(err)
	c.proximity, err = ci.GetSensor[ci.Proximity](r, ci.TagFootBotProximity)
	get(err)
	c.light, err = ci.GetSensor[ci.Light](r, ci.TagFootBotLight)
	get(err)
	c.ground, err = ci.GetSensor[ci.Ground](r, ci.TagFootBotMotorGround)
	get(err)
	if len(errs) > 0 {
		return fmt.Errorf("foraging: %w", errs[0])
	}
	c.Reset()
	return nil
}

// Reset brings the controller back to resting in the nest with the
// initial probabilities, as right after Init.
func (c *Controller) Reset() {
	p := &c.params
	c.state = Resting
	c.inNest = true
	c.restToExploreProb = p.InitialRestToExploreProb
	c.exploreToRestProb = p.InitialExploreToRestProb
	c.timeExploringUnsuccessfully = 0
	// As in ARGoS, a robot starts having rested enough, so that it
	// decides at the first tick instead of waiting.
	c.timeRested = p.MinimumRestingTime
	c.timeSearchingForPlace = 0
	c.food = FoodData{}
	c.steer.Reset()
	c.leds.SetAllColors(ci.Red)
	c.lastExploration = ExplorationNone
	c.rabOut.ClearData()
	c.rabOut.SetByte(0, ExplorationNone)
}

// Destroy releases nothing and returns nil.
func (c *Controller) Destroy() error { return nil }

// ControlStep runs one step of the state machine.
func (c *Controller) ControlStep() {
	switch c.state {
	case Resting:
		c.rest()
	case Exploring:
		c.explore()
	case ReturningToNest:
		c.returnToNest()
	}
}

// State returns the current state.
func (c *Controller) State() State { return c.state }

// IsResting reports whether the robot rests in the nest.
func (c *Controller) IsResting() bool { return c.state == Resting }

// IsExploring reports whether the robot explores.
func (c *Controller) IsExploring() bool { return c.state == Exploring }

// IsReturningToNest reports whether the robot heads for the nest.
func (c *Controller) IsReturningToNest() bool { return c.state == ReturningToNest }

// InNest reports whether the robot last saw itself in the nest.
func (c *Controller) InNest() bool { return c.inNest }

// Probabilities returns the current probabilities to switch from resting
// to exploring and from exploring to resting.
func (c *Controller) Probabilities() (restToExplore, exploreToRest float64) {
	return c.restToExploreProb, c.exploreToRestProb
}

// Food returns the food data.
func (c *Controller) Food() FoodData { return c.food }

// Carrying returns the index of the food item the robot carries, and
// whether it carries one.
func (c *Controller) Carrying() (item int, ok bool) {
	return c.food.FoodItemIdx, c.food.HasFoodItem
}

// PickUp gives the robot food item i. The loop functions call it between
// ticks when the robot stands on the item.
func (c *Controller) PickUp(i int) {
	c.food.HasFoodItem = true
	c.food.FoodItemIdx = i
}

// Drop takes the carried item from the robot and counts it as brought to
// the nest; it returns the item's index. The loop functions call it
// between ticks when the robot is in the nest.
func (c *Controller) Drop() int {
	i := c.food.FoodItemIdx
	c.food.HasFoodItem = false
	c.food.FoodItemIdx = 0
	c.food.TotalFoodItems++
	return i
}

// rest waits in the nest and listens to what the others found.
func (c *Controller) rest() {
	p := &c.params
	if c.timeRested > p.MinimumRestingTime && c.robot.Rand().Float64() < c.restToExploreProb {
		c.leds.SetAllColors(ci.Green)
		c.state = Exploring
		c.timeRested = 0
		return
	}
	c.timeRested++
	if c.timeRested == 1 {
		// Say the last result only once.
		c.rabOut.SetByte(0, ExplorationNone)
	}
	// Social rule: news from the others change the probabilities.
	for _, pkt := range c.rabIn.Packets() {
		if len(pkt.Data) == 0 {
			continue
		}
		switch pkt.Data[0] {
		case ExplorationSuccessful:
			c.restToExploreProb = clamp01(c.restToExploreProb + p.SocialRuleRestToExploreDeltaProb)
			c.exploreToRestProb = clamp01(c.exploreToRestProb - p.SocialRuleExploreToRestDeltaProb)
		case ExplorationUnsuccessful:
			c.exploreToRestProb = clamp01(c.exploreToRestProb + p.SocialRuleExploreToRestDeltaProb)
			c.restToExploreProb = clamp01(c.restToExploreProb - p.SocialRuleRestToExploreDeltaProb)
		}
	}
}

// explore wanders until it carries food or gives up.
func (c *Controller) explore() {
	p := &c.params
	back := false
	if c.food.HasFoodItem {
		// Food rule: success makes exploring more attractive.
		c.exploreToRestProb = clamp01(c.exploreToRestProb - p.FoodRuleExploreToRestDeltaProb)
		c.restToExploreProb = clamp01(c.restToExploreProb + p.FoodRuleRestToExploreDeltaProb)
		c.lastExploration = ExplorationSuccessful
		back = true
	} else if c.timeExploringUnsuccessfully > p.MinimumUnsuccessfulExploreTime {
		if c.robot.Rand().Float64() < c.exploreToRestProb {
			c.lastExploration = ExplorationUnsuccessful
			back = true
		} else {
			// Food rule the other way: no luck makes resting more
			// attractive.
			c.exploreToRestProb = clamp01(c.exploreToRestProb + p.FoodRuleExploreToRestDeltaProb)
			c.restToExploreProb = clamp01(c.restToExploreProb - p.FoodRuleRestToExploreDeltaProb)
		}
	}
	if back {
		c.timeExploringUnsuccessfully = 0
		c.timeSearchingForPlace = 0
		c.leds.SetAllColors(ci.Blue)
		c.state = ReturningToNest
		return
	}
	c.timeExploringUnsuccessfully++
	c.updateInNest()
	diffusion, collision := c.diffusionVector()
	if collision {
		// Collision rule: crowding makes resting more attractive.
		c.exploreToRestProb = clamp01(c.exploreToRestProb + p.CollisionRuleExploreToRestDeltaProb)
		c.restToExploreProb = clamp01(c.restToExploreProb - p.CollisionRuleExploreToRestDeltaProb)
	}
	v := p.Turning.MaxSpeed
	heading := diffusion.Scale(v)
	if c.inNest {
		// Leave the nest: away from the light.
		heading = heading.Sub(c.vectorToLight().Scale(0.25 * v))
	}
	c.wheels.SetLinearVelocity(c.steer.Speeds(heading))
}

// returnToNest follows the light to the nest, then looks for a place to
// rest.
func (c *Controller) returnToNest() {
	p := &c.params
	c.updateInNest()
	if c.inNest {
		if c.timeSearchingForPlace > p.MinimumSearchForPlaceInNestTime {
			c.wheels.SetLinearVelocity(0, 0)
			c.rabOut.SetByte(0, c.lastExploration)
			c.leds.SetAllColors(ci.Red)
			c.state = Resting
			c.timeSearchingForPlace = 0
			c.lastExploration = ExplorationNone
			return
		}
		c.timeSearchingForPlace++
	} else {
		c.timeSearchingForPlace = 0
	}
	v := p.Turning.MaxSpeed
	diffusion, _ := c.diffusionVector()
	c.wheels.SetLinearVelocity(c.steer.Speeds(diffusion.Scale(v).Add(c.vectorToLight().Scale(v))))
}

// updateInNest reads the motor ground sensors: the robot is in the nest
// when readings 2 and 3 both see grey (ARGoS's UpdateState).
func (c *Controller) updateInNest() {
	g := c.ground.Readings()
	c.inNest = len(g) > 3 && grey(g[2].Value) && grey(g[3].Value)
}

func grey(v float64) bool { return v > 0.25 && v < 0.75 }

// vectorToLight returns a unit vector toward the light, or zero when no
// light is seen.
func (c *Controller) vectorToLight() ci.Vector2 {
	var sum ci.Vector2
	for _, r := range c.light.Readings() {
		sum = sum.Add(ci.FromPolar(r.Value, r.Angle))
	}
	if sum.Length() > 0 {
		return ci.FromPolar(1, sum.Angle())
	}
	return ci.Vector2{}
}

// diffusionVector returns straight ahead (1, 0) when nothing is close, or
// a unit vector away from the obstacles, and whether there was one.
func (c *Controller) diffusionVector() (ci.Vector2, bool) {
	var sum ci.Vector2
	for _, r := range c.proximity.Readings() {
		sum = sum.Add(ci.FromPolar(r.Value, r.Angle))
	}
	a, l := sum.Angle(), sum.Length()
	if a >= c.params.GoStraightMin && a <= c.params.GoStraightMax && l < c.params.Delta {
		return ci.Vector2{X: 1}, false
	}
	if l == 0 { // delta 0 and nothing sensed: nothing to avoid
		return ci.Vector2{X: 1}, true
	}
	return sum.Scale(-1 / l), true
}

func clamp01(v float64) float64 { return min(1, max(0, v)) }
