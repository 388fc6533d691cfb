package foraging

import (
	"fmt"
	"github.com/argosgo/argos/behaviortk"
	"math"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Params are the settings of the controller, read from the children
// <diffusion>, <wheel_turning> and <state> of <params>. Angles are in
// radians here and in degrees in the file.
type Params struct {
	// GoStraightMin and GoStraightMax bound the angle of the proximity
	// vector within which a faint obstacle is ignored (attribute
	// go_straight_angle_range="min:max" of <diffusion>, degrees).
	GoStraightMin, GoStraightMax float64
	// Delta is the largest length of the proximity vector still taken as
	// free (attribute delta of <diffusion>).
	Delta float64
	// Turning is <wheel_turning>.
	Turning behaviortk.WheelTurning
	// The probabilities of <state>, in [0, 1].
	InitialRestToExploreProb            float64
	InitialExploreToRestProb            float64
	FoodRuleExploreToRestDeltaProb      float64
	FoodRuleRestToExploreDeltaProb      float64
	CollisionRuleExploreToRestDeltaProb float64
	SocialRuleRestToExploreDeltaProb    float64
	SocialRuleExploreToRestDeltaProb    float64
	MinimumRestingTime                  int // ticks
	MinimumUnsuccessfulExploreTime      int // ticks
	MinimumSearchForPlaceInNestTime     int // ticks
}

// DefaultParams returns the values of ARGoS's experiments/foraging.argos
// (argos3-examples), used for every attribute the file leaves out.
func DefaultParams() Params {
	return Params{
		GoStraightMin: ci.Radians(-5), GoStraightMax: ci.Radians(5),
		Delta: 0.1,
		Turning: behaviortk.WheelTurning{
			HardTurnAngle: ci.Radians(90),
			SoftTurnAngle: ci.Radians(70),
			NoTurnAngle:   ci.Radians(10),
			MaxSpeed:      10,
		},
		InitialRestToExploreProb:            0.1,
		InitialExploreToRestProb:            0.1,
		FoodRuleExploreToRestDeltaProb:      0.01,
		FoodRuleRestToExploreDeltaProb:      0.01,
		CollisionRuleExploreToRestDeltaProb: 0.01,
		SocialRuleRestToExploreDeltaProb:    0.01,
		SocialRuleExploreToRestDeltaProb:    0.01,
		MinimumRestingTime:                  50,
		MinimumUnsuccessfulExploreTime:      600,
		MinimumSearchForPlaceInNestTime:     50,
	}
}

// ParseParams reads <params> over the defaults.
func ParseParams(p ci.Params) (Params, error) {
	out := DefaultParams()
	r := reader{}

	d := p.ChildOr("diffusion")
	if d.Has("go_straight_angle_range") {
		out.GoStraightMin, out.GoStraightMax = r.angleRange(d, "go_straight_angle_range")
	}
	out.Delta = r.float(d, "delta", out.Delta, 0, math.Inf(1))

	if r.err == nil {
		var err error
		if out.Turning, err = behaviortk.ParseWheelTurning(p, out.Turning); err != nil {
			r.err = fmt.Errorf("foraging: %w", err)
		}
	}

	s := p.ChildOr("state")
	for _, f := range []struct {
		attr string
		v    *float64
	}{
		{"initial_rest_to_explore_prob", &out.InitialRestToExploreProb},
		{"initial_explore_to_rest_prob", &out.InitialExploreToRestProb},
		{"food_rule_explore_to_rest_delta_prob", &out.FoodRuleExploreToRestDeltaProb},
		{"food_rule_rest_to_explore_delta_prob", &out.FoodRuleRestToExploreDeltaProb},
		{"collision_rule_explore_to_rest_delta_prob", &out.CollisionRuleExploreToRestDeltaProb},
		{"social_rule_rest_to_explore_delta_prob", &out.SocialRuleRestToExploreDeltaProb},
		{"social_rule_explore_to_rest_delta_prob", &out.SocialRuleExploreToRestDeltaProb},
	} {
		*f.v = r.float(s, f.attr, *f.v, 0, 1)
	}
	out.MinimumRestingTime = r.ticks(s, "minimum_resting_time", out.MinimumRestingTime)
	out.MinimumUnsuccessfulExploreTime = r.ticks(s, "minimum_unsuccessful_explore_time", out.MinimumUnsuccessfulExploreTime)
	out.MinimumSearchForPlaceInNestTime = r.ticks(s, "minimum_search_for_place_in_nest_time", out.MinimumSearchForPlaceInNestTime)
	return out, r.err
}

// reader reads attributes and keeps the first error.
type reader struct{ err error }

func (r *reader) float(p ci.Params, attr string, def, lo, hi float64) float64 {
	if r.err != nil {
		return def
	}
	v, err := p.FloatOr(attr, def)
	switch {
	case err != nil:
		r.err = fmt.Errorf("foraging: %w", err)
	case math.IsNaN(v) || v < lo || v > hi:
		r.err = fmt.Errorf("foraging: %s: %s=%q is out of range; give a number in [%g, %g], like %g", p.Location(), attr, p.Attrs[attr], lo, hi, def)
	}
	return v
}

func (r *reader) ticks(p ci.Params, attr string, def int) int {
	if r.err != nil {
		return def
	}
	v, err := p.IntOr(attr, def)
	switch {
	case err != nil:
		r.err = fmt.Errorf("foraging: %w", err)
	case v < 0:
		r.err = fmt.Errorf("foraging: %s: %s=%d is negative; give a number of ticks, like %d", p.Location(), attr, v, def)
	}
	return v
}

// angleRange reads "min:max" in degrees, as ARGoS writes a CRange.
func (r *reader) angleRange(p ci.Params, attr string) (lo, hi float64) {
	if r.err != nil {
		return 0, 0
	}
	v, _ := p.Lookup(attr)
	a, b, ok := strings.Cut(v, ":")
	x, errA := strconv.ParseFloat(strings.TrimSpace(a), 64)
	y, errB := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if !ok || errA != nil || errB != nil || math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || x > y {
		r.err = fmt.Errorf("foraging: %s: %s=%q is not a range; write min:max in degrees, like -5:5", p.Location(), attr, v)
		return 0, 0
	}
	return ci.Radians(x), ci.Radians(y)
}
