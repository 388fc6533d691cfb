package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

func init() {
	Sensors.MustRegister(ci.TagBattery,
		"The battery (ci.Battery), ARGoS's battery model: the robot's <battery> child sets discharge_model (or model): \"time\" (loses factor, "+
			"default 1e-5, per tick), \"motion\" (pos_factor per metre moved, default 1e-3, plus orient_factor per radian turned, default 1e-3), "+
			"\"time_motion\" (time_factor plus both), or \"none\"; start_charge and full_charge (default 1, the capacity). Without <battery> the "+
			"model is \"time\". AvailableCharge is charge/full_charge; TimeLeft the seconds left at the last tick's rate (+Inf when the charge "+
			"does not change). Attribute: noise_range (\"min:max\", uniform noise added to AvailableCharge, which stays in [0, 1]).",
		newBattery)
}

// battery simulates the robot's battery: the sensor carries the charge,
// which drops at every Update with time and motion.
type battery struct {
	r              *entity.Robot
	timeFactor     float64
	posFactor      float64
	orientFactor   float64
	start, full    float64
	charge         float64
	lo, hi         float64
	started        bool
	lastPos        ci.Vector3
	lastYaw        float64
	reading        ci.BatteryReading
	previousCharge float64
}

func newBattery(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "noise_range"); err != nil {
		return nil, err
	}
	b := &battery{r: r, timeFactor: 1e-5, start: 1, full: 1}
	var err error
	if b.lo, b.hi, err = noiseRange(n, "noise_range"); err != nil {
		return nil, err
	}
	var cfg *config.Node
	if r.Node != nil {
		cfg = r.Node.FirstChild("battery")
	}
	if cfg == nil {
		b.charge = b.start
		return b, nil
	}
	if err := cfg.CheckAttrs("discharge_model", "model", "factor", "time_factor", "pos_factor", "orient_factor", "start_charge", "full_charge"); err != nil {
		return nil, err
	}
	model := cfg.StringOr("discharge_model", cfg.StringOr("model", "time"))
	switch model {
	case "none", "":
		b.timeFactor = 0
	case "time":
		if b.timeFactor, err = cfg.FloatOr("factor", 1e-5); err != nil {
			return nil, err
		}
	case "motion", "time_motion":
		b.timeFactor = 0
		if model == "time_motion" {
			if b.timeFactor, err = cfg.FloatOr("time_factor", 1e-5); err != nil {
				return nil, err
			}
		}
		if b.posFactor, err = cfg.FloatOr("pos_factor", 1e-3); err != nil {
			return nil, err
		}
		if b.orientFactor, err = cfg.FloatOr("orient_factor", 1e-3); err != nil {
			return nil, err
		}
	default:
		return nil, cfg.Errorf("devices: battery discharge model %q: use \"time\", \"motion\", \"time_motion\" or \"none\"", model)
	}
	if b.full, err = cfg.FloatOr("full_charge", 1); err != nil {
		return nil, err
	}
	if b.start, err = cfg.FloatOr("start_charge", b.full); err != nil {
		return nil, err
	}
	if b.full <= 0 || b.start < 0 || b.start > b.full {
		return nil, cfg.Errorf("devices: battery: full_charge=%g must be positive and start_charge=%g between 0 and it", b.full, b.start)
	}
	if b.timeFactor < 0 || b.posFactor < 0 || b.orientFactor < 0 {
		return nil, cfg.Errorf("devices: battery: the discharge factors must not be negative")
	}
	b.charge = b.start
	return b, nil
}

var _ ci.Battery = (*battery)(nil)

func (b *battery) Reading() ci.BatteryReading { return b.reading }

// Update discharges the battery by the time and motion of the last tick
// (nothing at the first Update, which records where the robot starts).
func (b *battery) Update() {
	body := b.r.B()
	pos := ci.Vector3{X: body.Pos.X, Y: body.Pos.Y, Z: body.Z}
	if b.started && b.charge > 0 {
		moved := pos.Sub(b.lastPos).Length()
		turned := math.Abs(ci.NormalizeAngle(body.Yaw - b.lastYaw))
		b.charge = math.Max(0, b.charge-b.timeFactor-b.posFactor*moved-b.orientFactor*turned)
	}
	b.lastPos, b.lastYaw = pos, body.Yaw
	v := b.charge / b.full
	if b.hi > b.lo {
		v = entity.Clamp01(v + uniform(b.r, b.lo, b.hi))
	}
	b.reading.TimeLeft = math.Inf(1)
	if b.started {
		if diff := b.previousCharge - v; math.Abs(diff) > 1e-9 && diff > 0 {
			b.reading.TimeLeft = b.r.TickLength * v / diff
		}
	}
	b.reading.AvailableCharge = v
	b.previousCharge = v
	b.started = true
}

func (b *battery) Reset() {
	b.charge, b.started = b.start, false
	b.reading = ci.BatteryReading{}
}

// BatteryInspection is the battery's state.
type BatteryInspection struct {
	Charge   float64 `json:"available_charge"`
	TimeLeft float64 `json:"time_left_s"`
}

func (b *battery) Inspect() any {
	tl := b.reading.TimeLeft
	if math.IsInf(tl, 0) {
		tl = -1 // JSON has no infinity
	}
	return BatteryInspection{Charge: b.reading.AvailableCharge, TimeLeft: tl}
}
