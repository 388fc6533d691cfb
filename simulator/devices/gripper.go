package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
)

func init() {
	Actuators.MustRegister(ci.TagFootBotGripper,
		"The foot-bot's gripper (ci.Gripper), on the turret at the body's edge, 0.085 m high. Lock grips the nearest grippable body (a movable box "+
			"or cylinder, a prey, or another robot) within 1 cm of the gripper; the held body then follows through a pivot joint of the physics "+
			"engine (dynamics2d) until Unlock. Gripping() reports whether something is held. Both bodies must be in the same engine; in an engine "+
			"without gripping (kinematics2d) Lock holds nothing. The joint is made between ticks, so Gripping() turns true at the tick after Lock.",
		newGripper)
	Actuators.MustRegister(ci.TagFootBotTurret,
		"The foot-bot's rotating turret (ci.Turret), which carries the gripper and the LED ring: SetRotation turns it to an angle with ARGoS's "+
			"PD control (P 0.4, D 0.2), SetRotationSpeed at a constant speed (rad/s), SetPassive lets it be.",
		newTurret)
	Sensors.MustRegister(ci.TagFootBotTurretEncoder,
		"The foot-bot's turret encoder (ci.TurretEncoder): the turret's rotation, radians counter-clockwise from the robot's front.",
		newTurretEncoder)
}

// gripper is the foot-bot's gripper. Lock and Unlock record the wish;
// Coordinate makes or breaks the joint between ticks.
type gripper struct {
	r       *entity.Robot
	spec    *entity.Gripper
	locked  bool
	held    int
	turret  float64 // the turret's rotation when the joint was placed
	nearby  []int32
	lastErr error
}

func newGripper(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	if r.Model.Gripper == nil {
		return nil, n.Errorf("devices: robot %q is a %s, which has no gripper", r.ID, r.Model.Type)
	}
	return &gripper{r: r, spec: r.Model.Gripper, held: -1}, nil
}

var (
	_ ci.Gripper  = (*gripper)(nil)
	_ Coordinator = (*gripper)(nil)
)

func (g *gripper) Lock()          { g.locked = true }
func (g *gripper) Unlock()        { g.locked = false }
func (g *gripper) Gripping() bool { return g.held >= 0 }
func (g *gripper) Apply()         {}

// point returns the gripper's position in the ground plane.
func (g *gripper) point() ci.Vector2 {
	b := g.r.B()
	return b.Pos.Add(ci.FromPolar(b.Radius, b.Yaw+g.r.Turret))
}

// Coordinate grips or releases through the robot's engine.
func (g *gripper) Coordinate(engines []physics.Engine) error {
	b := g.r.B()
	if b.Removed || b.Engine < 0 || int(b.Engine) >= len(engines) {
		g.held = -1
		return nil
	}
	eng, ok := engines[b.Engine].(physics.Gripping)
	if !ok {
		g.held = -1
		return nil
	}
	g.held = eng.Gripped(g.r.Body)
	switch {
	case g.locked && g.held < 0:
		if obj := g.find(); obj >= 0 {
			// an object in another engine cannot be held: Grip refuses it
			if g.lastErr = eng.Grip(g.r.Body, obj, g.point()); g.lastErr == nil {
				g.held, g.turret = obj, g.r.Turret
			}
		}
	case g.locked && g.r.Turret != g.turret:
		// the turret turned: move the grip point with it
		if eng.Grip(g.r.Body, g.held, g.point()) == nil {
			g.turret = g.r.Turret
		}
	case !g.locked && g.held >= 0:
		eng.Release(g.r.Body)
		g.held = -1
	}
	return nil
}

// find returns the nearest grippable body within reach of the gripper,
// or -1.
func (g *gripper) find() int {
	b := g.r.B()
	p := g.point()
	g.nearby = g.r.Space.Nearby(p, g.spec.Reach, b.Z+g.spec.Height, g.r.Body, g.nearby[:0])
	best, bestD := -1, math.Inf(1)
	for _, i := range g.nearby {
		o := &g.r.Space.Bodies[i]
		if !entity.Grippable(o) {
			continue
		}
		if d := o.Distance(p); d <= g.spec.Reach && d < bestD {
			best, bestD = int(i), d
		}
	}
	return best
}

func (g *gripper) Reset() { g.locked, g.held, g.lastErr = false, -1, nil }

// GripperInspection is the gripper's state, and why the last grip failed
// (an object in another engine).
type GripperInspection struct {
	Locked bool   `json:"locked"`
	Held   string `json:"held"`
	Error  string `json:"error,omitempty"`
}

func (g *gripper) Inspect() any {
	out := GripperInspection{Locked: g.locked}
	if g.lastErr != nil {
		out.Error = g.lastErr.Error()
	}
	if g.held >= 0 && g.held < len(g.r.Space.Bodies) {
		out.Held = g.r.Space.Bodies[g.held].ID
	}
	return out
}

// ARGoS's PD gains for the turret's position control
// (dynamics2d_footbot_model.cpp).
const (
	turretP = 0.4
	turretD = 0.2
)

type turretMode uint8

const (
	turretPassive turretMode = iota
	turretPosition
	turretSpeed
)

// turret is the foot-bot's turret actuator.
type turret struct {
	r       *entity.Robot
	mode    turretMode
	target  float64
	speed   float64
	prevErr float64
}

func newTurret(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	if err := requireModel(n, r, entity.FootBot, ""); err != nil {
		return nil, err
	}
	return &turret{r: r}, nil
}

var _ ci.Turret = (*turret)(nil)

func (t *turret) SetRotation(angle float64) {
	if t.mode != turretPosition {
		t.prevErr = 0
	}
	t.mode, t.target = turretPosition, ci.NormalizeAngle(angle)
}

func (t *turret) SetRotationSpeed(speed float64) { t.mode, t.speed = turretSpeed, speed }
func (t *turret) SetPassive()                    { t.mode = turretPassive }

// Apply turns the turret for one tick.
func (t *turret) Apply() {
	dt := t.r.TickLength
	switch t.mode {
	case turretPosition:
		e := ci.NormalizeAngle(t.target - t.r.Turret)
		w := turretP * e
		if dt > 0 {
			w += turretD * (e - t.prevErr) / dt
		}
		t.prevErr = e
		t.r.Turret = ci.NormalizeAngle(t.r.Turret + w*dt)
	case turretSpeed:
		t.r.Turret = ci.NormalizeAngle(t.r.Turret + t.speed*dt)
	default:
		return
	}
	t.r.B().SetNubAngle(t.r.Turret) // the gripper's jaws turn with it
}

func (t *turret) Reset() {
	t.mode, t.target, t.speed, t.prevErr = turretPassive, 0, 0, 0
	t.r.Turret = 0
	t.r.B().SetNubAngle(0)
}

// TurretInspection is the turret's mode and set-points.
type TurretInspection struct {
	Mode      string  `json:"mode"`
	TargetDeg float64 `json:"target_deg"`
	SpeedRadS float64 `json:"speed_rad_s"`
}

func (t *turret) Inspect() any {
	return TurretInspection{Mode: [...]string{"passive", "position", "speed"}[t.mode], TargetDeg: ci.Degrees(t.target), SpeedRadS: t.speed}
}

// turretEncoder reads the turret's rotation.
type turretEncoder struct {
	r        *entity.Robot
	rotation float64
}

func newTurretEncoder(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	if err := requireModel(n, r, entity.FootBot, ""); err != nil {
		return nil, err
	}
	return &turretEncoder{r: r}, nil
}

var _ ci.TurretEncoder = (*turretEncoder)(nil)

func (e *turretEncoder) Update()           { e.rotation = e.r.Turret }
func (e *turretEncoder) Rotation() float64 { return e.rotation }
func (e *turretEncoder) Reset()            { e.rotation = 0 }

// AngleInspection is an angle in degrees.
type AngleInspection struct {
	Deg float64 `json:"deg"`
}

func (e *turretEncoder) Inspect() any { return AngleInspection{Deg: ci.Degrees(e.rotation)} }
