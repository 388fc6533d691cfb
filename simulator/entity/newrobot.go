package entity

import (
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// NewRobotSpec returns the spec of a robot of the given tag ("foot-bot",
// "e-puck", "eye-bot") with an id, the id of its controller entry under
// <controllers>, a position and a yaw in radians: what loop functions
// hand to Simulator.AddEntity to add robots from code, as ARGoS's
// new CFootBotEntity(id, controller, position). The spec is made by the
// tag's own parser, so it is the robot an .argos file would declare.
func NewRobotSpec(tag, id, controller string, pos ci.Vector3, yaw float64) (*Spec, error) {
	parse, err := Types.Lookup(tag)
	if err != nil {
		return nil, fmt.Errorf("entity: %w", err)
	}
	num := func(v float64) string { return fmt.Sprint(v) }
	n := &config.Node{Name: tag, File: "(code)", Attrs: []config.Attr{{Name: "id", Value: id}},
		Children: []*config.Node{
			{Name: "body", File: "(code)", Attrs: []config.Attr{
				{Name: "position", Value: num(pos.X) + "," + num(pos.Y) + "," + num(pos.Z)},
				{Name: "orientation", Value: num(ci.Degrees(yaw)) + ",0,0"},
			}},
			{Name: "controller", File: "(code)", Attrs: []config.Attr{{Name: "config", Value: controller}}},
		}}
	s, err := parse(n)
	if err != nil {
		return nil, err
	}
	if s.Robot == nil {
		return nil, fmt.Errorf("entity: <%s> is not a robot", tag)
	}
	return s, nil
}
