package custom

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// AgentTag is the tag of the entities a custom engine moves.
const AgentTag = "agent"

func init() {
	entity.Types.MustRegister(AgentTag,
		"An agent whose dynamics a <custom> engine defines (ASCARI's agents): id, dynamics (the name of a <dynamics>), radius (m, default 0.05), "+
			"height (m, default 0.1); <body position orientation/> gives its x, y and theta; <state name=\"value\" .../> the other states at "+
			"the start (default 0); <controller config=\"ID\"/>. Its controller reads the states with the dynamics_state sensor and sets the "+
			"controls with the dynamics_control actuator; it may also talk (messaging) and see where it is (positioning).",
		parseAgent)
	devices.Sensors.MustRegister(ci.TagDynamicsState,
		"The states of an <agent> (ci.DynamicsState), in the order its dynamics declares them, at the end of the last physics step.", newStateSensor)
	devices.Actuators.MustRegister(ci.TagDynamicsControl,
		"The control commands of an <agent> (ci.DynamicsControl), in the order its dynamics declares them; they hold from the next physics step on.",
		newControlActuator)
}

func parseAgent(n *config.Node) (*entity.Spec, error) {
	if err := n.CheckAttrs("id", "dynamics", "radius", "height"); err != nil {
		return nil, err
	}
	id, err := n.String("id")
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, n.Errorf("custom: <agent> has an empty id; give it a unique id")
	}
	dyn, err := n.String("dynamics")
	if err != nil {
		return nil, err
	}
	if err := checkDynamics(n, id, dyn); err != nil {
		return nil, err
	}
	r, err := n.FloatOr("radius", 0.05)
	if err != nil {
		return nil, err
	}
	h, err := n.FloatOr("height", 0.1)
	if err != nil {
		return nil, err
	}
	if !(r > 0) || !(h > 0) {
		return nil, n.Errorf("custom: agent %q: radius=%g and height=%g must be positive (metres)", id, r, h)
	}
	s := &entity.Spec{Tag: AgentTag, Node: n, Embodied: true}
	s.SetID(id)
	s.Robot = &entity.RobotModel{Type: AgentTag, Radius: r, Height: h, Mass: 1, Axle: 1}
	s.Body = space.Body{ID: id, Type: AgentTag, Shape: space.Disc, Radius: r, Height: h, Mass: 1, Movable: true}
	s.Body.SetYaw(0)
	for _, c := range n.Children {
		switch c.Name {
		case "body":
			if err := c.CheckAttrs("position", "orientation"); err != nil {
				return nil, err
			}
			pos, err := c.Vector3("position")
			if err != nil {
				return nil, err
			}
			o, err := c.EulerOr("orientation", config.EulerDeg{})
			if err != nil {
				return nil, err
			}
			if err := s.SetPose(c, pos, o); err != nil {
				return nil, err
			}
			s.Posed = true
		case "controller":
			if s.ControllerID, err = c.String("config"); err != nil {
				return nil, err
			}
		case "state":
			// read by the engine, which knows the dynamics' states
		default:
			return nil, c.Errorf("custom: agent %q: unknown element <%s>; an agent holds <body>, <state> and <controller config=\"...\"/>", id, c.Name)
		}
	}
	if s.ControllerID == "" {
		return nil, n.Errorf("custom: agent %q has no controller; add <controller config=\"ID\"/> naming a controller of <controllers>", id)
	}
	return s, nil
}

// checkDynamics reports an agent whose dynamics no <custom> engine of
// its file defines.
func checkDynamics(n *config.Node, id, name string) error {
	root := n
	for root.Parent() != nil {
		root = root.Parent()
	}
	pe := root.FirstChild("physics_engines")
	if pe == nil {
		return nil // the simulator says that the agent lies in no engine
	}
	var defined []string
	for _, e := range pe.Children {
		if e.Name != "custom" {
			continue
		}
		for _, d := range e.Children {
			if d.Name != "dynamics" {
				continue
			}
			dn, _ := d.Attr("name")
			if dn == name {
				return nil
			}
			defined = append(defined, strconv.Quote(dn))
		}
	}
	if len(defined) == 0 {
		return n.Errorf("custom: agent %q names dynamics %q, but no <custom> engine under <physics_engines> defines any; add one with <dynamics name=%q ...>", id, name, name)
	}
	return n.Errorf("custom: agent %q names dynamics %q, which no <custom> engine defines (they define %s); name one of them, or define it",
		id, name, strings.Join(defined, ", "))
}

// engineOf returns the custom engine that moves robot r's agent.
func engineOf(r *entity.Robot, n *config.Node, tag string) (*Engine, error) {
	b := r.B()
	if r.World != nil && b.Engine >= 0 && int(b.Engine) < len(r.World.Engines) {
		if e, ok := r.World.Engines[b.Engine].(*Engine); ok && e.DynamicsOf(r.Body) != nil {
			return e, nil
		}
	}
	if b.Type != AgentTag {
		return nil, n.Errorf("custom: <%s> is for <agent> entities, not for the %s %q", tag, r.Model.Type, r.ID)
	}
	return nil, n.Errorf("custom: agent %q is not moved by a <custom> engine that defines its dynamics; declare one under <physics_engines>", r.ID)
}

type stateSensor struct {
	e      *Engine
	layout uint64 // the engine's layout when values was found
	body   int
	names  []string
	// values are the agent's states where the engine's Commit leaves
	// them, or the sensor's own copy of the last ones while the engine
	// does not own the agent
	values []float64
}

func newStateSensor(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	e, err := engineOf(r, n, ci.TagDynamicsState)
	if err != nil {
		return nil, err
	}
	return newStateSensorOf(e, r.Body), nil
}

// newStateSensorOf returns the state sensor of body i's agent.
func newStateSensorOf(e *Engine, i int) *stateSensor {
	d := e.DynamicsOf(i)
	s := &stateSensor{e: e, body: i, names: d.States, values: make([]float64, len(d.States))}
	e.State(i, s.values)
	s.link()
	return s
}

// Update finds the agent's states again when agents came or went: the
// engine's Commit has written them already. Values does it too, so that
// the simulator need not call Update at each tick (Tickless).
func (s *stateSensor) Update() {
	if s.layout != s.e.layout {
		s.link()
	}
}

// Tickless tells the simulator that Update need not run at each tick:
// Values and String find the agent's states again themselves.
func (s *stateSensor) Tickless() bool { return true }

// link points values at where the engine keeps the agent's states, or
// at a copy of the last ones when the engine no longer owns the agent.
func (s *stateSensor) link() {
	s.layout = s.e.layout
	if v := s.e.valuesOf(s.body); v != nil {
		s.values = v
		return
	}
	s.values = slices.Clone(s.values)
}

func (s *stateSensor) Names() []string { return s.names }
func (s *stateSensor) Values() []float64 {
	if s.layout != s.e.layout {
		s.link()
	}
	return s.values
}
func (s *stateSensor) Index(name string) int  { return slices.Index(s.names, name) }
func (s *stateSensor) String() string         { return fmt.Sprintf("%v = %v", s.names, s.Values()) }
func (c *controlActuator) Names() []string    { return c.names }
func (c *controlActuator) Index(n string) int { return slices.Index(c.names, n) }

// controlActuator writes each command into the engine's registers as it
// is set (each agent its own registers: robots set them in parallel);
// Apply writes them all again only when the agent's registers moved.
type controlActuator struct {
	e      *Engine
	at     lane // where the agent's registers are
	body   int
	names  []string
	values []float64
}

func newControlActuator(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	e, err := engineOf(r, n, ci.TagDynamicsControl)
	if err != nil {
		return nil, err
	}
	return newControlActuatorOf(e, r.Body), nil
}

// newControlActuatorOf returns the control actuator of body i's agent,
// which the engine keeps to apply it when agents come or go (see
// Engine.applyActuators).
func newControlActuatorOf(e *Engine, i int) *controlActuator {
	d := e.DynamicsOf(i)
	c := &controlActuator{e: e, body: i, names: d.Controls, values: make([]float64, len(d.Controls)), at: lane{layout: e.layout - 1}}
	e.acts = append(e.acts, c)
	e.applied = e.layout - 1
	return c
}

// Set sets command i; it holds from the next physics step on.
func (c *controlActuator) Set(i int, v float64) {
	if i >= 0 && i < len(c.values) {
		c.values[i] = v
		if c.at.layout == c.e.layout {
			c.at.setControl(i, v)
		}
	}
}

func (c *controlActuator) SetAll(v ...float64) {
	copy(c.values, v)
	if c.at.layout == c.e.layout {
		c.at.setControls(c.values)
	}
}

// Tickless tells the simulator that Apply need not run at each tick: the
// engine applies its actuators before a step when agents came or went.
func (c *controlActuator) Tickless() bool { return true }

// Apply writes the commands into the engine when the agent's registers
// are not where they were at the last Set (agents came or went, the
// engine was reset): Set wrote them already otherwise. The engine calls
// it before a step that follows such a change.
func (c *controlActuator) Apply() {
	if c.at.layout != c.e.layout {
		c.at = c.e.laneOf(c.body)
		c.at.setControls(c.values)
	}
}

// Reset sets every command to 0.
func (c *controlActuator) Reset() {
	clear(c.values)
	if c.at.layout == c.e.layout {
		c.at.setControls(c.values)
	}
}

var (
	_ ci.DynamicsState   = (*stateSensor)(nil)
	_ ci.DynamicsControl = (*controlActuator)(nil)
)

// UsesMobileIndex tells the simulator that the devices read and write
// the engine's registers only, never the space's index.
func (s *stateSensor) UsesMobileIndex() bool     { return false }
func (c *controlActuator) UsesMobileIndex() bool { return false }
