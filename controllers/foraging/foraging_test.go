package foraging_test

import (
	"errors"
	"github.com/argosgo/argos/behaviortk"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/foraging"
)

// bot is a citest robot with every device the controller needs.
type bot struct {
	robot  *citest.Robot
	wheels *citest.Wheels
	leds   *citest.LEDs
	rab    *citest.RangeAndBearing
	prox   *citest.Proximity
	light  *citest.Light
	ground *citest.Ground
}

func newBot() *bot {
	b := &bot{
		wheels: &citest.Wheels{},
		leds:   citest.NewLEDs(13),
		rab:    citest.NewRangeAndBearing(10),
		prox:   citest.NewFootBotProximity(),
		light:  citest.NewFootBotLight(),
		ground: citest.NewFootBotMotorGround(),
	}
	b.robot = citest.NewRobot("fb0", 1).
		AddActuator(ci.TagDifferentialSteering, b.wheels).
		AddActuator(ci.TagLEDs, b.leds).
		AddActuator(ci.TagRangeAndBearing, b.rab).
		AddSensor(ci.TagRangeAndBearing, b.rab).
		AddSensor(ci.TagFootBotProximity, b.prox).
		AddSensor(ci.TagFootBotLight, b.light).
		AddSensor(ci.TagFootBotMotorGround, b.ground)
	return b
}

// state builds <params><state .../></params> from attribute pairs.
func state(kv ...string) ci.Params {
	s := ci.NewParams(kv...)
	s.Name = "state"
	p := ci.NewParams()
	p.Children = []ci.Params{s}
	return p
}

func setup(t testing.TB, params ci.Params) (*foraging.Controller, *bot) {
	t.Helper()
	b := newBot()
	c := foraging.New()
	if err := c.Init(b.robot, params); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return c, b
}

// explorer returns a controller that left the nest at its second step.
func explorer(t *testing.T, kv ...string) (*foraging.Controller, *bot) {
	t.Helper()
	c, b := setup(t, state(append([]string{"initial_rest_to_explore_prob", "1"}, kv...)...))
	c.ControlStep()
	c.ControlStep()
	if !c.IsExploring() {
		t.Fatalf("state %v after two steps with probability 1, want exploring", c.State())
	}
	return c, b
}

func allColor(l *citest.LEDs, want ci.Color) bool {
	for _, c := range l.Colors {
		if c != want {
			return false
		}
	}
	return true
}

func TestInitRests(t *testing.T) {
	c, b := setup(t, ci.Params{})
	if !c.IsResting() || c.State() != foraging.Resting || !c.InNest() {
		t.Errorf("after Init: %v, in nest %v", c.State(), c.InNest())
	}
	if !allColor(b.leds, ci.Red) {
		t.Errorf("LEDs %v, want red", b.leds.Colors)
	}
	if b.rab.Data[0] != foraging.ExplorationNone {
		t.Errorf("payload %v, want byte 0 = none", b.rab.Data)
	}
	if r2e, e2r := c.Probabilities(); r2e != 0.1 || e2r != 0.1 {
		t.Errorf("probabilities %v, %v; want ARGoS's 0.1, 0.1", r2e, e2r)
	}
	if (c.Food() != foraging.FoodData{}) {
		t.Errorf("food %+v", c.Food())
	}
}

func TestRestDecides(t *testing.T) {
	// Probability 1: leaves at the second tick (it starts having rested
	// just enough, as in ARGoS).
	c, b := setup(t, state("initial_rest_to_explore_prob", "1"))
	c.ControlStep()
	if !c.IsResting() {
		t.Errorf("probability 1: %v after one tick, want resting", c.State())
	}
	c.ControlStep()
	if !c.IsExploring() || !allColor(b.leds, ci.Green) {
		t.Errorf("probability 1: %v with LEDs %v, want exploring, green", c.State(), b.leds.Colors[0])
	}
	// Probability 0: rests forever.
	c, b = setup(t, state("initial_rest_to_explore_prob", "0"))
	for range 200 {
		c.ControlStep()
	}
	if !c.IsResting() || b.wheels.Calls != 0 {
		t.Errorf("probability 0: %v, wheels set %d times", c.State(), b.wheels.Calls)
	}
	// The ARGoS default 0.1 with a 50-tick minimum: it leaves soon after
	// the start, then not before the minimum rest.
	c, _ = setup(t, ci.Params{})
	left := 0
	for i := 1; i <= 100 && left == 0; i++ {
		c.ControlStep()
		if c.IsExploring() {
			left = i
		}
	}
	if left == 0 {
		t.Error("with probability 0.1 the robot did not leave within 100 ticks")
	}
}

func TestSocialRule(t *testing.T) {
	c, b := setup(t, state("initial_rest_to_explore_prob", "0", "initial_explore_to_rest_prob", "0.5",
		"social_rule_rest_to_explore_delta_prob", "0.1", "social_rule_explore_to_rest_delta_prob", "0.2"))
	b.rab.Receive([]byte{foraging.ExplorationUnsuccessful}, []byte{foraging.ExplorationUnsuccessful}, []byte{}, []byte{foraging.ExplorationNone})
	c.ControlStep()
	r2e, e2r := c.Probabilities()
	if r2e != 0 || math.Abs(e2r-0.9) > 1e-12 {
		t.Errorf("two failures: probabilities %v, %v; want 0 (clamped), 0.9", r2e, e2r)
	}
	b.rab.Receive([]byte{2})
	c.ControlStep()
	if r2e, e2r = c.Probabilities(); r2e != 0 || e2r != 1 {
		t.Errorf("one more failure: probabilities %v, %v; want 0, 1 (clamped)", r2e, e2r)
	}
	b.rab.Receive([]byte{foraging.ExplorationSuccessful}, []byte{foraging.ExplorationSuccessful}, []byte{foraging.ExplorationSuccessful})
	c.ControlStep()
	r2e, e2r = c.Probabilities()
	if !c.IsResting() || math.Abs(r2e-0.3) > 1e-12 || math.Abs(e2r-0.4) > 1e-12 {
		t.Errorf("three successes: %v, probabilities %v, %v; want resting, 0.3, 0.4", c.State(), r2e, e2r)
	}
}

func TestExploreStraightAndAvoid(t *testing.T) {
	c, b := explorer(t)
	c.ControlStep()
	if b.wheels.Left != 10 || b.wheels.Right != 10 {
		t.Errorf("nothing sensed: wheels (%v, %v), want (10, 10)", b.wheels.Left, b.wheels.Right)
	}
	_, e2r := c.Probabilities()
	// An obstacle at the front-left (sensors 1 and 2, 22.5 and 37.5
	// degrees): the robot turns right on the spot (the escape direction is
	// behind-right, beyond the hard-turn threshold) and the collision rule
	// raises the probability to rest.
	b.prox.Set(1, 0.8)
	b.prox.Set(2, 0.8)
	c.ControlStep()
	if b.wheels.Left != 10 || b.wheels.Right != -10 {
		t.Errorf("obstacle front-left: wheels (%v, %v), want (10, -10)", b.wheels.Left, b.wheels.Right)
	}
	if _, now := c.Probabilities(); math.Abs(now-(e2r+0.01)) > 1e-12 {
		t.Errorf("collision rule: explore-to-rest %v, want %v", now, e2r+0.01)
	}
	// A faint obstacle dead ahead within the go-straight range is ignored.
	b.prox.SetAll()
	b.prox.Set(0, 0.03)
	b.prox.Set(23, 0.03)
	c.ControlStep()
	if b.wheels.Left != 10 || b.wheels.Right != 10 {
		t.Errorf("faint obstacle ahead: wheels (%v, %v), want (10, 10)", b.wheels.Left, b.wheels.Right)
	}
}

func TestExploreLeavesNestAwayFromLight(t *testing.T) {
	c, b := explorer(t)
	b.ground.SetAll(0.5) // grey: in the nest
	b.light.SetToward(0, 1)
	c.ControlStep()
	if !c.InNest() {
		t.Fatal("grey under sensors 2 and 3 is not the nest")
	}
	if b.wheels.Left != 7.5 || b.wheels.Right != 7.5 {
		t.Errorf("light ahead in the nest: wheels (%v, %v), want (7.5, 7.5): 10 forward minus 2.5 toward the light", b.wheels.Left, b.wheels.Right)
	}
	// Light behind: the sum is longer than the top speed, clamped.
	b.light.SetToward(math.Pi, 1)
	c.ControlStep()
	if b.wheels.Left != 10 || b.wheels.Right != 10 {
		t.Errorf("light behind in the nest: wheels (%v, %v), want (10, 10)", b.wheels.Left, b.wheels.Right)
	}
	// Out of the nest the light does not matter.
	b.ground.SetAll(1)
	b.light.SetToward(0, 1)
	c.ControlStep()
	if c.InNest() || b.wheels.Left != 10 || b.wheels.Right != 10 {
		t.Errorf("out of the nest: in nest %v, wheels (%v, %v), want (10, 10)", c.InNest(), b.wheels.Left, b.wheels.Right)
	}
	// Only readings 2 and 3 tell the nest.
	b.ground.SetAll(1)
	b.ground.Set(0, 0.5)
	b.ground.Set(1, 0.5)
	b.ground.Set(2, 0.5)
	c.ControlStep()
	if c.InNest() {
		t.Error("in the nest with sensor 3 on white")
	}
}

func TestFoodRuleAndReturn(t *testing.T) {
	c, b := explorer(t)
	r2e, e2r := c.Probabilities()
	c.PickUp(7)
	if item, ok := c.Carrying(); !ok || item != 7 {
		t.Fatalf("Carrying() = %d, %v after PickUp(7)", item, ok)
	}
	c.ControlStep()
	if !c.IsReturningToNest() || !allColor(b.leds, ci.Blue) {
		t.Errorf("with food: %v, LEDs %v; want returning, blue", c.State(), b.leds.Colors[0])
	}
	if now2e, now2r := c.Probabilities(); now2e != min(1, r2e+0.01) || math.Abs(now2r-(e2r-0.01)) > 1e-12 {
		t.Errorf("food rule: probabilities %v, %v; want %v, %v", now2e, now2r, min(1, r2e+0.01), e2r-0.01)
	}
	// Phototaxis: a light behind-left (150 degrees) gives a heading at 75
	// degrees, beyond the soft-turn threshold: the robot turns left.
	b.light.SetToward(ci.Radians(150), 1)
	c.ControlStep()
	if b.wheels.Left >= b.wheels.Right || b.wheels.Left < 0 {
		t.Errorf("light behind-left: wheels (%v, %v), want a soft left turn", b.wheels.Left, b.wheels.Right)
	}
	// The loop functions drop the item in the nest.
	if got := c.Drop(); got != 7 {
		t.Errorf("Drop() = %d, want 7", got)
	}
	if f := c.Food(); f.HasFoodItem || f.TotalFoodItems != 1 {
		t.Errorf("after Drop: %+v", f)
	}
	// In the nest for more than 50 ticks: stop, report success, rest.
	b.ground.SetAll(0.5)
	for i := 0; i <= 50; i++ {
		c.ControlStep()
		if !c.IsReturningToNest() {
			t.Fatalf("rests after %d ticks in the nest, want 51", i+1)
		}
	}
	c.ControlStep()
	if !c.IsResting() || b.wheels.Left != 0 || b.wheels.Right != 0 || !allColor(b.leds, ci.Red) {
		t.Errorf("after 52 ticks in the nest: %v, wheels (%v, %v), LEDs %v", c.State(), b.wheels.Left, b.wheels.Right, b.leds.Colors[0])
	}
	if b.rab.Data[0] != foraging.ExplorationSuccessful {
		t.Errorf("payload byte 0 = %d, want success", b.rab.Data[0])
	}
	// The result is said once: the next resting tick clears it.
	c.ControlStep()
	if b.rab.Data[0] != foraging.ExplorationNone {
		t.Errorf("payload byte 0 = %d one tick later, want none", b.rab.Data[0])
	}
}

func TestLeavingTheNestResetsTheSearch(t *testing.T) {
	c, b := explorer(t)
	c.PickUp(0)
	c.ControlStep()
	b.ground.SetAll(0.5)
	for range 40 {
		c.ControlStep()
	}
	b.ground.SetAll(1) // pushed out of the nest
	c.ControlStep()
	b.ground.SetAll(0.5)
	for range 50 {
		c.ControlStep()
	}
	if !c.IsReturningToNest() {
		t.Errorf("%v after 40 + 50 ticks in the nest with a break, want still returning (the count restarts)", c.State())
	}
}

func TestUnsuccessfulExploration(t *testing.T) {
	c, b := explorer(t, "initial_explore_to_rest_prob", "1", "minimum_unsuccessful_explore_time", "5",
		"collision_rule_explore_to_rest_delta_prob", "0")
	for i := 0; i < 6; i++ {
		c.ControlStep()
		if !c.IsExploring() {
			t.Fatalf("gave up after %d ticks, want more than 5", i+1)
		}
	}
	c.ControlStep()
	if !c.IsReturningToNest() {
		t.Fatalf("%v after 7 ticks without food, want returning", c.State())
	}
	b.ground.SetAll(0.5)
	for range 52 {
		c.ControlStep()
	}
	if !c.IsResting() || b.rab.Data[0] != foraging.ExplorationUnsuccessful {
		t.Errorf("%v with payload byte 0 = %d, want resting and unsuccessful", c.State(), b.rab.Data[0])
	}
}

func TestKeepsExploringWhenUnlucky(t *testing.T) {
	c, _ := explorer(t, "initial_explore_to_rest_prob", "0", "minimum_unsuccessful_explore_time", "0",
		"food_rule_explore_to_rest_delta_prob", "0", "collision_rule_explore_to_rest_delta_prob", "0")
	for range 100 {
		c.ControlStep()
	}
	if !c.IsExploring() {
		t.Errorf("%v with explore-to-rest probability 0, want exploring", c.State())
	}
	// With a food rule the probability grows each unlucky tick until the
	// robot goes home.
	c, _ = explorer(t, "initial_explore_to_rest_prob", "0", "minimum_unsuccessful_explore_time", "0",
		"food_rule_explore_to_rest_delta_prob", "0.5")
	for range 100 {
		c.ControlStep()
	}
	if !c.IsReturningToNest() {
		t.Errorf("%v with a growing explore-to-rest probability, want returning", c.State())
	}
}

func TestReset(t *testing.T) {
	c, b := explorer(t)
	c.PickUp(3)
	c.ControlStep()
	b.rab.SetByte(5, 9)
	c.Reset()
	if !c.IsResting() || (c.Food() != foraging.FoodData{}) || !allColor(b.leds, ci.Red) || b.rab.Data[5] != 0 {
		t.Errorf("after Reset: %v, food %+v, LEDs %v, payload %v", c.State(), c.Food(), b.leds.Colors[0], b.rab.Data)
	}
	if r2e, _ := c.Probabilities(); r2e != 1 {
		t.Errorf("rest-to-explore %v after Reset, want the initial 1", r2e)
	}
	c.ControlStep()
	c.ControlStep()
	if !c.IsExploring() {
		t.Errorf("%v at the second tick after Reset, want exploring", c.State())
	}
	if err := c.Destroy(); err != nil {
		t.Error(err)
	}
}

func TestParams(t *testing.T) {
	p := ci.NewParams()
	d := ci.NewParams("go_straight_angle_range", "-20:10", "delta", "0.3")
	d.Name = "diffusion"
	w := ci.NewParams("hard_turn_angle_threshold", "100", "soft_turn_angle_threshold", "60", "no_turn_angle_threshold", "5", "max_speed", "20")
	w.Name = "wheel_turning"
	s := ci.NewParams("minimum_resting_time", "7", "minimum_unsuccessful_explore_time", "8", "minimum_search_for_place_in_nest_time", "9",
		"social_rule_rest_to_explore_delta_prob", "0.5")
	s.Name = "state"
	p.Children = []ci.Params{d, w, s}
	got, err := foraging.ParseParams(p)
	if err != nil {
		t.Fatal(err)
	}
	want := foraging.DefaultParams()
	want.GoStraightMin, want.GoStraightMax, want.Delta = ci.Radians(-20), ci.Radians(10), 0.3
	want.Turning = behaviortk.WheelTurning{HardTurnAngle: ci.Radians(100), SoftTurnAngle: ci.Radians(60), NoTurnAngle: ci.Radians(5), MaxSpeed: 20}
	want.MinimumRestingTime, want.MinimumUnsuccessfulExploreTime, want.MinimumSearchForPlaceInNestTime = 7, 8, 9
	want.SocialRuleRestToExploreDeltaProb = 0.5
	if got != want {
		t.Errorf("ParseParams:\n got %+v\nwant %+v", got, want)
	}
	if def, err := foraging.ParseParams(ci.Params{}); err != nil || def != foraging.DefaultParams() {
		t.Errorf("empty params: %+v, %v", def, err)
	}
}

func TestParamErrors(t *testing.T) {
	for _, tc := range []struct {
		child, attr, value string
		fragments          []string
	}{
		{"diffusion", "go_straight_angle_range", "5", []string{"not a range", "-5:5"}},
		{"diffusion", "go_straight_angle_range", "5:-5", []string{"not a range"}},
		{"diffusion", "go_straight_angle_range", "a:b", []string{"not a range"}},
		{"diffusion", "delta", "x", []string{"not a number"}},
		{"diffusion", "delta", "-1", []string{"out of range"}},
		{"wheel_turning", "max_speed", "NaN", []string{"out of range"}},
		{"wheel_turning", "hard_turn_angle_threshold", "0", []string{"above 0 degrees"}},
		{"wheel_turning", "soft_turn_angle_threshold", "200", []string{"out of range", "[0, 180]"}},
		{"state", "initial_rest_to_explore_prob", "1.5", []string{"out of range", "[0, 1]"}},
		{"state", "minimum_resting_time", "-3", []string{"negative", "ticks"}},
		{"state", "minimum_resting_time", "2.5", []string{"not an integer"}},
	} {
		c := ci.NewParams(tc.attr, tc.value)
		c.Name, c.Where = tc.child, "foraging.argos:30"
		p := ci.NewParams()
		p.Children = []ci.Params{c}
		err := foraging.New().Init(newBot().robot, p)
		if err == nil {
			t.Errorf("%s %s=%q: Init succeeded", tc.child, tc.attr, tc.value)
			continue
		}
		msg := err.Error()
		for _, f := range append(tc.fragments, "foraging: ", "foraging.argos:30", tc.attr) {
			if !strings.Contains(msg, f) {
				t.Errorf("%s %s=%q: error %q does not mention %q", tc.child, tc.attr, tc.value, msg, f)
			}
		}
	}
}

func TestInitDeviceErrors(t *testing.T) {
	for _, tag := range []string{ci.TagDifferentialSteering, ci.TagLEDs, ci.TagRangeAndBearing, ci.TagFootBotProximity,
		ci.TagFootBotLight, ci.TagFootBotMotorGround} {
		b := newBot()
		r := citest.NewRobot("fb1", 1)
		for _, a := range []string{ci.TagDifferentialSteering, ci.TagLEDs, ci.TagRangeAndBearing} {
			if a != tag {
				dev, _ := b.robot.Actuator(a)
				r.AddActuator(a, dev)
			}
		}
		for _, s := range []string{ci.TagRangeAndBearing, ci.TagFootBotProximity, ci.TagFootBotLight, ci.TagFootBotMotorGround} {
			if s != tag {
				dev, _ := b.robot.Sensor(s)
				r.AddSensor(s, dev)
			}
		}
		err := foraging.New().Init(r, ci.Params{})
		if !errors.Is(err, ci.ErrNotDeclared) || !strings.HasPrefix(err.Error(), "foraging: ") || !strings.Contains(err.Error(), "<"+tag) {
			t.Errorf("without %s: error %v", tag, err)
		}
	}
	// A device of the wrong kind.
	r := citest.NewRobot("fb1", 1).AddActuator(ci.TagDifferentialSteering, &citest.Wheels{})
	r.AddSensor(ci.TagFootBotLight, citest.NewFootBotProximity())
	if err := foraging.New().Init(r, ci.Params{}); err == nil {
		t.Error("Init succeeded without most devices")
	}
}

func TestRegistered(t *testing.T) {
	f, err := ci.Controllers.Lookup(foraging.Label)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f().(*foraging.Controller); !ok || foraging.Label != "footbot_foraging_controller" {
		t.Errorf("%s makes a %T", foraging.Label, f())
	}
	for _, e := range ci.Controllers.Entries() {
		if e.Name == foraging.Label {
			for _, w := range []string{"footbot_motor_ground", "range_and_bearing", "foraging_loop_functions", "max_speed"} {
				if !strings.Contains(e.Description, w) {
					t.Errorf("description does not mention %s", w)
				}
			}
		}
	}
}

func TestConformance(t *testing.T) {
	b := newBot()
	b.prox.SetAll(0, 0.5, 0.2)
	b.light.SetToward(1, 0.8)
	b.ground.SetAll(0.5)
	b.rab.Receive([]byte{1}, []byte{2})
	citest.TestController(t, func() ci.Controller { return foraging.New() }, b.robot,
		state("initial_rest_to_explore_prob", "0.5", "minimum_resting_time", "2", "minimum_unsuccessful_explore_time", "3",
			"minimum_search_for_place_in_nest_time", "2"), 300)
}

func TestStateString(t *testing.T) {
	for s, want := range map[foraging.State]string{foraging.Resting: "resting", foraging.Exploring: "exploring",
		foraging.ReturningToNest: "returning to nest", 9: "State(9)"} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(s), s.String(), want)
		}
	}
}

func TestControlStepDoesNotAllocate(t *testing.T) {
	c, b := explorer(t)
	b.prox.SetAll(0.1, 0.5, 0.9)
	b.light.SetToward(2, 1)
	b.rab.Receive([]byte{1})
	if n := testing.AllocsPerRun(100, c.ControlStep); n != 0 {
		t.Errorf("ControlStep allocates %v times per call", n)
	}
}

func BenchmarkControlStep(b *testing.B) {
	c, bt := setup(b, state("initial_rest_to_explore_prob", "1", "minimum_unsuccessful_explore_time", "1000000000"))
	bt.prox.SetAll(0.1, 0.5, 0.9)
	bt.light.SetToward(2, 1)
	b.ReportAllocs()
	for b.Loop() {
		c.ControlStep()
	}
}
