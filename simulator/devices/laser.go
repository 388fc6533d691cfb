package devices

import (
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
)

// DefaultSpotRadius is the radius of a laser spot in metres unless
// <laser_pointer spot_radius> says otherwise.
const DefaultSpotRadius = 0.05

// laserPointer is the laser_pointer actuator: it points straight down
// from the centre of the robot. What the controller sets is applied in
// the act phase; the spot is computed from the robot's pose after
// physics, when the simulator collects the spots (SpotProjector).
type laserPointer struct {
	r      *entity.Robot
	radius float64
	// set by the controller
	on    bool
	color ci.Color
	// applied
	applied      bool
	appliedColor ci.Color
}

func newLaserPointer(r *entity.Robot, n *config.Node) (any, error) {
	if err := n.CheckAttrs("implementation", "spot_radius"); err != nil {
		return nil, err
	}
	l := &laserPointer{r: r}
	var err error
	if l.radius, err = n.FloatOr("spot_radius", DefaultSpotRadius); err != nil {
		return nil, err
	}
	if l.radius <= 0 {
		return nil, n.Errorf("devices: laser_pointer: spot_radius=%g must be positive (metres)", l.radius)
	}
	return l, nil
}

var (
	_ ci.LaserPointer = (*laserPointer)(nil)
	_ SpotProjector   = (*laserPointer)(nil)
	_ Inspector       = (*laserPointer)(nil)
)

// On turns the laser on with colour c (black is a laser that makes no
// visible spot, as an LED set to black is off).
func (l *laserPointer) On(c ci.Color) { l.on, l.color = true, c }
func (l *laserPointer) Off()          { l.on = false }

// IsOn reports what the controller set last.
func (l *laserPointer) IsOn() bool { return l.on }

func (l *laserPointer) Apply() { l.applied, l.appliedColor = l.on, l.color }

// Spot implements SpotProjector: the spot lands straight below the
// robot's centre, on the top of the highest body under it or on the
// floor.
func (l *laserPointer) Spot() (entity.Spot, bool) {
	if !l.applied || l.appliedColor == ci.Black {
		return entity.Spot{}, false
	}
	b := l.r.B()
	if b.Removed {
		return entity.Spot{}, false
	}
	z := surfaceBelow(l.r.Space, b.Pos, b.Z, l.r.Body)
	return entity.Spot{
		Pos:    ci.Vector3{X: b.Pos.X, Y: b.Pos.Y, Z: z},
		Radius: l.radius, Color: l.appliedColor, Source: l.r.Index,
	}, true
}

// LaserInspection is the laser's state.
type LaserInspection struct {
	On    bool   `json:"on"`
	Color string `json:"color"`
}

func (l *laserPointer) Inspect() any {
	return LaserInspection{On: l.applied, Color: HexColor(l.appliedColor)}
}

// Reset turns the laser off.
func (l *laserPointer) Reset() { l.on, l.applied = false, false }

var _ Resetter = (*laserPointer)(nil)
