package devices

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// wheels is the differential_steering actuator.
type wheels struct {
	r           *entity.Robot
	left, right float64 // cm/s, as set by the controller
	noise       float64 // cm/s
	factorAvg   float64
	factorStd   float64
}

func newWheels(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "noise_std_dev", "noise_factor_avg", "noise_factor_stddev"); err != nil {
		return nil, err
	}
	w := &wheels{r: r}
	var err error
	if w.noise, err = n.FloatOr("noise_std_dev", 0); err != nil {
		return nil, err
	}
	if w.factorAvg, err = n.FloatOr("noise_factor_avg", 1); err != nil {
		return nil, err
	}
	if w.factorStd, err = n.FloatOr("noise_factor_stddev", 0); err != nil {
		return nil, err
	}
	if w.noise < 0 || w.factorStd < 0 {
		return nil, n.Errorf("devices: differential_steering: noise_std_dev and noise_factor_stddev must not be negative")
	}
	return w, nil
}

var _ ci.DifferentialSteeringActuator = (*wheels)(nil)

// CloneFor implements Cloner: the same noise, stopped wheels.
func (w *wheels) CloneFor(r *entity.Robot) any {
	c := *w
	c.r, c.left, c.right = r, 0, 0
	return &c
}

// SetLinearVelocity sets the wheel speeds (cm/s). Exact wheels (no
// noise) apply them at once instead of in the next act phase: the same
// speeds reach the robot before the next tick's physics, as the act
// phase would apply them, and the act phase, which the wheels then
// need not (Tickless), skips a pass over every robot's wheels and body.
//
// The exact path is Apply inlined: noisy returns its speed unchanged when
// there is no noise, but for a zero, which it makes +0 (stopped). This
// runs once per robot and tick, and Apply's two calls to noisy, which the
// compiler does not inline (the noise draws make them too big), and the
// call to Apply were a quarter of it.
func (w *wheels) SetLinearVelocity(left, right float64) {
	w.left, w.right = left, right
	if w.exact() {
		w.r.SetWheels(stopped(left)/100, stopped(right)/100)
	}
}

// stopped returns v, or +0 for -0: what noisy returns for exact wheels.
func stopped(v float64) float64 {
	if v == 0 {
		return 0
	}
	return v
}

// exact reports whether the wheels have no noise: Apply then draws no
// random number and sets the speeds last set, whenever it is called.
func (w *wheels) exact() bool { return w.noise == 0 && w.factorStd == 0 && w.factorAvg == 1 }

// Tickless reports whether the act phase may skip the wheels: exact
// wheels applied their speeds when they were set.
func (w *wheels) Tickless() bool { return w.exact() }

// Reset stops the wheels, as ARGoS's actuator does: the first tick after a
// reset applies no speed the controller set before it.
func (w *wheels) Reset() {
	w.left, w.right = 0, 0
	if w.exact() {
		w.Apply()
	}
}

var _ Resetter = (*wheels)(nil)

func (w *wheels) Apply() {
	l, r := w.noisy(w.left), w.noisy(w.right)
	w.r.SetWheels(l/100, r/100)
}

func (w *wheels) noisy(v float64) float64 {
	if v == 0 {
		return 0 // a stopped robot stays stopped
	}
	if w.factorStd > 0 || w.factorAvg != 1 {
		v *= w.factorAvg + w.factorStd*w.r.Rand.NormFloat64()
	}
	if w.noise > 0 {
		v += w.noise * w.r.Rand.NormFloat64()
	}
	return v
}

// encoders is the differential_steering sensor: it reads the wheel
// speeds the actuator applied, as ARGoS's sensor does.
type encoders struct {
	r       *entity.Robot
	reading ci.DifferentialSteeringReading
	// ARGoS's uniform noise on the speeds (cm/s) and distances (cm)
	vel, dist [2]float64
}

func newEncoders(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "vel_noise_range", "dist_noise_range"); err != nil {
		return nil, err
	}
	e := &encoders{r: r}
	var err error
	if e.vel[0], e.vel[1], err = noiseRange(n, "vel_noise_range"); err != nil {
		return nil, err
	}
	if e.dist[0], e.dist[1], err = noiseRange(n, "dist_noise_range"); err != nil {
		return nil, err
	}
	return e, nil
}

var _ ci.DifferentialSteeringSensor = (*encoders)(nil)

func (e *encoders) Update() {
	l, r := e.r.Wheels[0]*100, e.r.Wheels[1]*100
	e.reading = ci.DifferentialSteeringReading{
		VelocityLeft: l, VelocityRight: r,
		CoveredDistanceLeft: l * e.r.TickLength, CoveredDistanceRight: r * e.r.TickLength,
		WheelAxisLength: e.r.Model.Axle * 100,
	}
	if e.vel[1] > e.vel[0] || e.dist[1] > e.dist[0] {
		rd := &e.reading
		rd.VelocityLeft += uniform(e.r, e.vel[0], e.vel[1])
		rd.VelocityRight += uniform(e.r, e.vel[0], e.vel[1])
		rd.CoveredDistanceLeft += uniform(e.r, e.dist[0], e.dist[1])
		rd.CoveredDistanceRight += uniform(e.r, e.dist[0], e.dist[1])
	}
}

func (e *encoders) Reading() ci.DifferentialSteeringReading { return e.reading }
