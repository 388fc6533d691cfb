package devices_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// A device element of a snippet is at line firstDeviceLine of "exp.argos".
const firstDeviceLine = 6

// deviceNode parses an experiment whose only controller has the given
// XML as its only sensor (section "sensors") or actuator ("actuators").
func deviceNode(t testing.TB, section, xml string) config.Device {
	t.Helper()
	doc := fmt.Sprintf(`<argos-configuration>
  <framework><experiment ticks_per_second="10" /></framework>
  <controllers>
    <test_controller id="tc">
      <%s>
        %s
      </%s>
    </test_controller>
  </controllers>
  <arena size="1,1,1" />
</argos-configuration>
`, section, xml, section)
	x, err := config.Parse("exp.argos", []byte(doc))
	if err != nil {
		t.Fatalf("config.Parse: %v", err)
	}
	c := x.Controllers[0]
	devs := c.Sensors
	if section == "actuators" {
		devs = c.Actuators
	}
	if len(devs) != 1 {
		t.Fatalf("%d devices in the snippet, want 1", len(devs))
	}
	return devs[0]
}

// build makes the device of the snippet for r through the registries, as
// the simulator does.
func build(t testing.TB, r *entity.Robot, section, xml string) (any, error) {
	t.Helper()
	d := deviceNode(t, section, xml)
	reg := devices.Sensors
	if section == "actuators" {
		reg = devices.Actuators
	}
	f, err := reg.Lookup(devices.Key(d.Tag, d.Implementation))
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	return f(r, d.Node)
}

// sensor builds a sensor that must exist and implement ci interface T.
func sensor[T any](t testing.TB, r *entity.Robot, xml string) interface {
	devices.Sensor
	Reading() T
} {
	t.Helper()
	v, err := build(t, r, "sensors", xml)
	if err != nil {
		t.Fatalf("building %s: %v", xml, err)
	}
	s, ok := v.(interface {
		devices.Sensor
		Reading() T
	})
	if !ok {
		t.Fatalf("%s built a %T, which is not a Sensor with Reading() %T", xml, v, *new(T))
	}
	return s
}

// proximitySensor builds a proximity ring.
func proximitySensor(t testing.TB, r *entity.Robot, xml string) interface {
	devices.Sensor
	ci.Proximity
} {
	t.Helper()
	v, err := build(t, r, "sensors", xml)
	if err != nil {
		t.Fatalf("building %s: %v", xml, err)
	}
	p, ok := v.(interface {
		devices.Sensor
		ci.Proximity
	})
	if !ok {
		t.Fatalf("%s built a %T, not a Sensor and ci.Proximity", xml, v)
	}
	return p
}

// newArena returns an empty arena of the given side, centred on 0.
func newArena(side float64) *space.Space {
	return space.New(ci.Vector3{Z: 0.5}, ci.Vector3{X: side, Y: side, Z: 1})
}

// addRobot puts a robot of model m in s, at (x, y) facing yaw degrees,
// with its random stream seeded by seed.
func addRobot(s *space.Space, m *entity.RobotModel, id string, x, y, yawDeg float64, seed uint64) *entity.Robot {
	b := space.Body{ID: id, Type: m.Type, Shape: space.Disc, Radius: m.Radius, Height: m.Height, Mass: m.Mass,
		MaxForce: m.MaxForce, MaxTorque: m.MaxTorque, Movable: true, Pos: ci.Vector2{X: x, Y: y}}
	b.SetYaw(ci.Radians(yawDeg))
	if g := m.Gripper; g != nil {
		b.SetNub(g.Disc, m.Radius, 0) // as entity's parser does
	}
	h := s.Add(b)
	return &entity.Robot{ID: id, Model: m, Body: h, Space: s, Rand: rand.New(rand.NewPCG(seed, 0)), TickLength: 0.1}
}

// addBox adds a static box of size sx x sy x sz at (x, y) turned by yaw
// degrees.
func addBox(s *space.Space, x, y, sx, sy, sz, yawDeg float64) int {
	b := space.Body{Type: "box", Shape: space.Box, Half: ci.Vector2{X: sx / 2, Y: sy / 2},
		Radius: math.Hypot(sx/2, sy/2), Height: sz, Pos: ci.Vector2{X: x, Y: y}}
	b.SetYaw(ci.Radians(yawDeg))
	return s.Add(b)
}

// addCylinder adds a static cylinder.
func addCylinder(s *space.Space, x, y, r, h float64) int {
	return s.Add(space.Body{Type: "cylinder", Shape: space.Disc, Radius: r, Height: h, Pos: ci.Vector2{X: x, Y: y}})
}
