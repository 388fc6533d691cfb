package simlink

import (
	"fmt"
	"slices"
	"strings"
)

// Merge rules say, for a real robot attached to a simulation, where each
// sensor's readings come from (merge="tag:rule,tag:rule" on <remote>;
// the robot command reads it from the same file):
//
//   - max: the robot's own readings and the simulation's virtual ones,
//     reading by reading, the larger (proximity and light rings);
//   - virtual: the simulation's only;
//   - real: the robot's own only (every sensor the board has, unless
//     listed).
//
// A sensor the board does not have (positioning, messaging) always
// comes from the simulation.
func MergeRules() []string { return []string{"max", "virtual", "real"} }

// ParseMerge reads a merge attribute into tag -> rule.
func ParseMerge(v string) (map[string]string, error) {
	out := map[string]string{}
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		tag, rule, ok := strings.Cut(item, ":")
		tag, rule = strings.TrimSpace(tag), strings.TrimSpace(rule)
		if !ok || tag == "" || !slices.Contains(MergeRules(), rule) {
			return nil, fmt.Errorf("simlink: merge item %q: write tag:rule with rule %s, as merge=\"epuck_proximity:max\"", item, strings.Join(MergeRules(), ", "))
		}
		if rule == "max" {
			if k := SensorKindOf(tag); k != KindProximity && k != KindLight {
				return nil, fmt.Errorf("simlink: merge item %q: max merges proximity and light rings only", item)
			}
		}
		out[tag] = rule
	}
	return out, nil
}
