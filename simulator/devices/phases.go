package devices

import (
	"math"
	"strconv"
	"strings"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
)

// Coordinator is an optional interface of actuators whose effect changes
// the structure of a physics engine (the gripper creates and removes
// joints), which must not happen in the parallel act phase. Apply only
// records what the controller asked for; after every robot's Apply and
// before physics, the simulator calls Coordinate on its coordinating
// goroutine, robot after robot, with the engines by index
// (space.Body.Engine).
type Coordinator interface {
	Coordinate(engines []physics.Engine) error
}

// Resetter is an optional interface of devices that keep state between
// ticks (a battery's charge, a turret's mode): the simulator calls Reset
// when the experiment is reset, before the controllers' Reset.
type Resetter interface {
	Reset()
}

// requireModel checks that a model-specific device (tag) is built for a
// robot of model m, and names the generic tag to use instead.
func requireModel(n *config.Node, r *entity.Robot, m *entity.RobotModel, generic string) error {
	if r.Model == m {
		return nil
	}
	if generic != "" {
		return n.Errorf("devices: <%s> is a device of the %s, but robot %q is a %s; use the generic <%s>", n.Name, m.Type, r.ID, r.Model.Type, generic)
	}
	return n.Errorf("devices: <%s> is a device of the %s, but robot %q is a %s", n.Name, m.Type, r.ID, r.Model.Type)
}

// noiseLevel reads ARGoS's noise_level: uniform noise in [-level, level]
// added to each reading.
func noiseLevel(n *config.Node) (float64, error) {
	v, err := n.FloatOr("noise_level", 0)
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, n.AttrErrorf("noise_level", "must not be negative")
	}
	return v, nil
}

// noiseRange reads an ARGoS range attribute "min:max" (for example
// pos_noise_range="-0.1:0.2"); absent, it is [0, 0].
func noiseRange(n *config.Node, name string) (lo, hi float64, err error) {
	v, ok := n.Attr(name)
	if !ok {
		return 0, 0, nil
	}
	a, b, found := strings.Cut(v, ":")
	if !found {
		return 0, 0, n.AttrErrorf(name, "write a range \"min:max\", like \"-0.1:0.1\"")
	}
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
	if err1 != nil || err2 != nil || math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, 0, n.AttrErrorf(name, "both ends of the range must be numbers, like \"-0.1:0.1\"")
	}
	if lo > hi {
		return 0, 0, n.AttrErrorf(name, "the minimum %g is above the maximum %g", lo, hi)
	}
	return lo, hi, nil
}

// uniform draws from [lo, hi) with the robot's stream.
func uniform(r *entity.Robot, lo, hi float64) float64 {
	return lo + (hi-lo)*r.Rand.Float64()
}

// mediumID reads the medium attribute.
func mediumID(n *config.Node, required bool) (string, error) {
	if id, ok := n.Attr("medium"); ok {
		if id == "" {
			return "", n.AttrErrorf("medium", "name the id of a medium declared under <media>")
		}
		return id, nil
	}
	if required {
		return "", n.Errorf("devices: <%s> needs a medium attribute naming a medium of <media>, like medium=%q", n.Name, defaultMedium(n.Name))
	}
	return "", nil
}

func defaultMedium(tag string) string {
	if strings.Contains(tag, "camera") {
		return "leds"
	}
	return "rab"
}

// findMedium returns the medium of type T named id, or the only one when
// id is "" (kind names it in errors).
func findMedium[T any](r *entity.Robot, n *config.Node, id, kind string) (T, error) {
	var zero T
	if r.World == nil {
		return zero, n.Errorf("devices: robot %q is in no world, so it has no %s medium", r.ID, kind)
	}
	var m T
	var err error
	if id == "" {
		m, err = entity.OnlyMedium[T](r.World, kind)
	} else {
		m, err = entity.Medium[T](r.World, id)
	}
	if err != nil {
		return zero, n.Errorf("devices: <%s>: %w", n.Name, err)
	}
	return m, nil
}

// Every device of issue 3 describes itself to a viewer.
var (
	_ Inspector = (*lightRotZ)(nil)
	_ Inspector = (*lightGeneric)(nil)
	_ Inspector = (*ground)(nil)
	_ Inspector = (*omniCamera)(nil)
	_ Inspector = (*rabSensor)(nil)
	_ Inspector = (*rabActuator)(nil)
	_ Inspector = (*gripper)(nil)
	_ Inspector = (*turret)(nil)
	_ Inspector = (*turretEncoder)(nil)
	_ Inspector = (*scannerActuator)(nil)
	_ Inspector = (*scanner)(nil)
	_ Inspector = (*battery)(nil)
)
