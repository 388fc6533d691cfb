package devices

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

func init() {
	const read = "Each sensor reads the grey level (0.299 R + 0.587 G + 0.114 B, over 255) of the floor under it (the <floor>, white without one), " +
		"or of a laser spot covering that point. Attribute: noise_level (uniform noise in [-noise_level, noise_level] added before clamping or thresholding)."
	for _, impl := range []string{"", "rot_z_only"} {
		Sensors.MustRegister(Key(ci.TagFootBotMotorGround, impl),
			"The foot-bot's 4 motor ground sensors (ci.Ground), grey levels in [0, 1], at (+-0.063, +-0.0116) m, ordered front-left, back-left, "+
				"back-right, front-right, as ARGoS's footbot_motor_ground. "+read,
			groundFactory(entity.FootBot, 0, 4))
		Sensors.MustRegister(Key(ci.TagFootBotBaseGround, impl),
			"The foot-bot's 8 base ground sensors (ci.Ground), black (0) or white (1): the grey level thresholded at 0.5, on a 0.08 m circle every "+
				"45 degrees from the front, as ARGoS's footbot_base_ground. "+read,
			groundFactory(entity.FootBot, 4, 12))
		Sensors.MustRegister(Key(ci.TagEPuckGround, impl),
			"The e-puck's 3 ground sensors (ci.Ground), grey levels in [0, 1], at (0.03, -0.009), (0.03, 0), (0.03, 0.009) m. "+read,
			groundFactory(entity.EPuck, 0, 3))
		Sensors.MustRegister(Key(ci.TagGround, impl),
			"Every ground sensor of any robot that has them (ci.Ground), ARGoS's generic ground sensor: grey-level sensors read [0, 1], "+
				"black-and-white ones 0 or 1 (the foot-bot: its 4 motor then its 8 base sensors). "+read,
			groundFactory(nil, 0, -1))
	}
}

// ground reads the floor under some of the robot's ground sensors.
type ground struct {
	r        *entity.Robot
	sensors  []entity.GroundSensor
	noise    float64
	readings []ci.GroundReading
}

// groundFactory builds the sensor over ground sensors [from, to) of
// model m (nil: any model; to -1: all of them).
func groundFactory(m *entity.RobotModel, from, to int) Factory {
	return func(r *entity.Robot, n *config.Node) (any, error) {
		if err := n.CheckAttrs("implementation", "noise_level"); err != nil {
			return nil, err
		}
		if m != nil {
			if err := requireModel(n, r, m, ci.TagGround); err != nil {
				return nil, err
			}
		}
		all := r.Model.Ground
		if len(all) == 0 {
			return nil, n.Errorf("devices: robot %q is a %s, which has no ground sensors", r.ID, r.Model.Type)
		}
		if to < 0 {
			to = len(all)
		}
		g := &ground{r: r, sensors: all[from:to]}
		var err error
		if g.noise, err = noiseLevel(n); err != nil {
			return nil, err
		}
		g.readings = make([]ci.GroundReading, len(g.sensors))
		for i, s := range g.sensors {
			g.readings[i].Offset = s.Offset
		}
		return g, nil
	}
}

var _ ci.Ground = (*ground)(nil)

func (g *ground) Readings() []ci.GroundReading { return g.readings }

func (g *ground) Update() {
	b := g.r.B()
	for i, s := range g.sensors {
		p := ci.Vector2{X: b.Pos.X + b.Cos*s.Offset.X - b.Sin*s.Offset.Y, Y: b.Pos.Y + b.Sin*s.Offset.X + b.Cos*s.Offset.Y}
		v := entity.Gray(GroundColor(g.r.World, p, b.Z))
		if g.noise > 0 {
			v += uniform(g.r, -g.noise, g.noise)
		}
		if s.BlackWhite {
			if v < 0.5 {
				v = 0
			} else {
				v = 1
			}
		} else {
			v = entity.Clamp01(v)
		}
		g.readings[i].Value = v
	}
}

// GroundColor returns what a downward-looking sensor at p, on a robot
// standing at height z, sees: a laser spot lying on the floor there, else
// the floor's colour.
func GroundColor(w *entity.World, p ci.Vector2, z float64) ci.Color {
	if w == nil {
		return ci.White
	}
	for k := range w.Spots {
		s := &w.Spots[k]
		if s.Pos.Z <= z+1e-3 && s.Pos.XY().Sub(p).SquaredLength() <= s.Radius*s.Radius {
			return s.Color
		}
	}
	return w.FloorColor(p)
}

func (g *ground) Reset() {
	for i := range g.readings {
		g.readings[i].Value = 0
	}
}

func (g *ground) Inspect() any {
	out := GroundInspection{Values: make([]float64, len(g.readings)), Offsets: make([][2]float64, len(g.readings))}
	for i, r := range g.readings {
		out.Values[i], out.Offsets[i] = r.Value, [2]float64{r.Offset.X, r.Offset.Y}
	}
	return out
}

// GroundInspection is what a ground sensor read: one value per sensor
// and where the sensor sits (metres, robot frame).
type GroundInspection struct {
	Values  []float64    `json:"values"`
	Offsets [][2]float64 `json:"offsets_m"`
}
