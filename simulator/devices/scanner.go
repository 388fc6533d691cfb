package devices

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// Geometry of the foot-bot's distance scanner (ARGoS's
// ci_footbot_distance_scanner_sensor.h): two short-range sensors
// (readings 0 and 2, front and back at rotation 0) measure 4-30 cm, two
// long-range ones (1 and 3, left and right) 20-150 cm, from the body's
// edge, 0.123 m above the floor.
const (
	scannerHeight   = 0.123199866
	scannerShortMin = 0.04
	scannerShortMax = 0.30
	scannerLongMin  = 0.20
	scannerLongMax  = 1.50
	// ScannerNothing and ScannerTooClose are the readings of a ray that
	// hits nothing in range, and of one that hits closer than its minimum.
	ScannerNothing  = -2
	ScannerTooClose = -1
)

func init() {
	Actuators.MustRegister(ci.TagFootBotDistanceScanner,
		"The foot-bot's rotating distance scanner, actuator side (ci.DistanceScanner): Enable and Disable it, SetAngle holds it at an angle "+
			"(radians from the robot's front), SetRPM spins it (revolutions per minute, counter-clockwise for positive values).",
		newScannerActuator)
	for _, impl := range []string{"", "rot_z_only"} {
		Sensors.MustRegister(Key(ci.TagFootBotDistanceScanner, impl),
			"The foot-bot's distance scanner (ci.DistanceScannerSensor), as ARGoS's footbot_distance_scanner (rot_z_only): 2 short-range "+
				"sensors (4-30 cm, front and back at rotation 0) and 2 long-range ones (20-150 cm, left and right), 0.123 m high, distances in cm "+
				"from the body's edge; -1 when the obstacle is closer than the minimum, -2 when nothing is in range. Held still it gives 4 readings "+
				"(short front, long left, short back, long right); spinning, 6 per sensor spread over the angle it swept during the tick (the 6 "+
				"short front, short back, long left, long right). Nothing while disabled. Attributes: noise_range (\"min:max\" in cm, uniform "+
				"noise added to each distance), show_rays.",
			newScanner)
	}
}

// scannerActuator drives the scanner's state in the robot.
type scannerActuator struct {
	r        *entity.Robot
	on       bool
	rotating bool
	angle    float64
	speed    float64
}

func newScannerActuator(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation"); err != nil {
		return nil, err
	}
	if err := requireModel(n, r, entity.FootBot, ""); err != nil {
		return nil, err
	}
	if r.Scanner == nil {
		r.Scanner = &entity.Scanner{}
	}
	return &scannerActuator{r: r}, nil
}

var _ ci.DistanceScanner = (*scannerActuator)(nil)

func (a *scannerActuator) Enable()  { a.on = true }
func (a *scannerActuator) Disable() { a.on = false }

func (a *scannerActuator) SetAngle(angle float64) {
	a.on, a.rotating, a.angle = true, false, ci.NormalizeAngle(angle)
}

func (a *scannerActuator) SetRPM(rpm float64) {
	a.on, a.rotating, a.speed = true, true, rpm*2*math.Pi/60
}

func (a *scannerActuator) Apply() {
	s := a.r.Scanner
	s.On, s.Rotating, s.Speed = a.on, a.rotating, a.speed
	s.Prev = s.Angle
	if a.rotating {
		s.Angle = ci.NormalizeAngle(s.Angle + a.speed*a.r.TickLength)
	} else {
		s.Angle = a.angle
		s.Prev = a.angle
	}
}

func (a *scannerActuator) Reset() {
	*a = scannerActuator{r: a.r}
	*a.r.Scanner = entity.Scanner{}
}

// ScannerInspection is the scanner's state.
type ScannerInspection struct {
	On       bool    `json:"on"`
	Rotating bool    `json:"rotating"`
	AngleDeg float64 `json:"angle_deg"`
	RPM      float64 `json:"rpm"`
}

func (a *scannerActuator) Inspect() any {
	return ScannerInspection{On: a.on, Rotating: a.rotating, AngleDeg: ci.Degrees(a.angle), RPM: a.speed * 60 / (2 * math.Pi)}
}

// scanner is the distance scanner's sensor.
type scanner struct {
	r        *entity.Robot
	lo, hi   float64
	ShowRays bool
	readings []ci.DistanceReading
	cands    []int32 // the bodies within reach of the long rays
	short    []int32 // and of the short ones
}

func newScanner(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "noise_range", "show_rays"); err != nil {
		return nil, err
	}
	if err := requireModel(n, r, entity.FootBot, ""); err != nil {
		return nil, err
	}
	s := &scanner{r: r}
	var err error
	if s.lo, s.hi, err = noiseRange(n, "noise_range"); err != nil {
		return nil, err
	}
	if s.ShowRays, err = n.BoolOr("show_rays", false); err != nil {
		return nil, err
	}
	s.readings = make([]ci.DistanceReading, 0, 24)
	return s, nil
}

var _ ci.DistanceScannerSensor = (*scanner)(nil)

func (s *scanner) Readings() []ci.DistanceReading { return s.readings }

func (s *scanner) Update() {
	s.readings = s.readings[:0]
	var st entity.Scanner // off without an actuator
	if s.r.Scanner != nil {
		st = *s.r.Scanner
	}
	if !st.On {
		return
	}
	b := s.r.B()
	s.cands = s.r.Space.Nearby(b.Pos, b.Radius+scannerLongMax, b.Z+scannerHeight, s.r.Body, s.cands[:0])
	// the bodies the short rays can reach, a subset
	s.short = s.short[:0]
	for _, i := range s.cands {
		if s.r.Space.Bodies[i].Distance(b.Pos) <= b.Radius+scannerShortMax {
			s.short = append(s.short, i)
		}
	}
	if !st.Rotating {
		for k := 0; k < 4; k++ {
			s.ray(st.Angle+float64(k)*math.Pi/2, k%2 == 1)
		}
		return
	}
	span := math.Mod(st.Angle-st.Prev, 2*math.Pi)
	if span < 0 {
		span += 2 * math.Pi
	}
	span /= 6
	for _, sensor := range [4]struct {
		offset float64
		long   bool
	}{{0, false}, {math.Pi, false}, {math.Pi / 2, true}, {3 * math.Pi / 2, true}} {
		for k := 0; k < 6; k++ {
			s.ray(st.Prev+sensor.offset+float64(k)*span, sensor.long)
		}
	}
}

// ray measures along angle (relative to the robot's front).
func (s *scanner) ray(angle float64, long bool) {
	b := s.r.B()
	lo, hi := scannerShortMin, scannerShortMax
	if long {
		lo, hi = scannerLongMin, scannerLongMax
	}
	angle = ci.NormalizeAngle(angle)
	dir := ci.FromPolar(1, b.Yaw+angle)
	from := b.Pos.Add(dir.Scale(b.Radius))
	to := from.Add(dir.Scale(hi))
	d := float64(ScannerNothing)
	cands := s.short
	if long {
		cands = s.cands
	}
	if t, hit := s.r.Space.CastRayAmong(cands, from, to); hit >= 0 {
		if dist := t * hi; dist < lo {
			d = ScannerTooClose
		} else {
			d = 100 * dist
			if s.hi > s.lo {
				d += uniform(s.r, s.lo, s.hi)
			}
		}
	}
	s.readings = append(s.readings, ci.DistanceReading{Angle: angle, Distance: d, Long: long})
}

func (s *scanner) Reset() { s.readings = s.readings[:0] }

// DistancesInspection is what the distance scanner measured.
type DistancesInspection struct {
	AnglesDeg []float64 `json:"angles_deg"`
	Cm        []float64 `json:"distances_cm"`
	Long      []bool    `json:"long"`
}

func (s *scanner) Inspect() any {
	out := DistancesInspection{}
	for _, r := range s.readings {
		out.AnglesDeg = append(out.AnglesDeg, ci.Degrees(r.Angle))
		out.Cm = append(out.Cm, r.Distance)
		out.Long = append(out.Long, r.Long)
	}
	return out
}
