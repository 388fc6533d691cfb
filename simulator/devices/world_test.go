package devices_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/media"
	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/space"
)

// arena is a space with a World, its lights and media, for the devices
// of issue 3 that read more than their own robot.
type arena struct {
	tb  testing.TB
	sp  *space.Space
	w   *entity.World
	led *media.LED
	rab *media.RAB
}

// newWorld returns an empty square arena of the given side, centred on
// the origin, with an LED medium "leds" and a range-and-bearing medium
// "rab" (check_occlusions as given).
func newWorld(tb testing.TB, side float64, occlusions bool) *arena {
	tb.Helper()
	sp := space.New(ci.Vector3{Z: 1}, ci.Vector3{X: side, Y: side, Z: 2})
	w := &entity.World{Space: sp}
	a := &arena{tb: tb, sp: sp, w: w}
	var err error
	if a.led, err = media.NewLED(&config.Node{Name: "led", Attrs: []config.Attr{{Name: "id", Value: "leds"}}}, w); err != nil {
		tb.Fatal(err)
	}
	occ := fmt.Sprint(occlusions)
	if a.rab, err = media.NewRAB(&config.Node{Name: "range_and_bearing",
		Attrs: []config.Attr{{Name: "id", Value: "rab"}, {Name: "check_occlusions", Value: occ}}}, w); err != nil {
		tb.Fatal(err)
	}
	for id, m := range map[string]any{"leds": a.led, "rab": a.rab} {
		if err := w.AddMedium(id, m); err != nil {
			tb.Fatal(err)
		}
	}
	return a
}

// robot adds a robot of model m at (x, y) facing yawDeg degrees; node,
// when not "", is its arena element (for rab_range and <battery>).
func (a *arena) robot(m *entity.RobotModel, id string, x, y, yawDeg float64, node string) *entity.Robot {
	a.tb.Helper()
	r := addRobot(a.sp, m, id, x, y, yawDeg, uint64(len(a.w.Robots)+1))
	r.World = a.w
	r.Index = len(a.w.Robots)
	if node != "" {
		root, err := config.ParseTree("arena.argos", []byte(node))
		if err != nil {
			a.tb.Fatal(err)
		}
		r.Node = root
	}
	a.w.Robots = append(a.w.Robots, r)
	return r
}

// light adds a light.
func (a *arena) light(x, y, z, intensity float64, c ci.Color) *entity.Light {
	l := &entity.Light{ID: fmt.Sprint("light", len(a.w.Lights)), Position: ci.Vector3{X: x, Y: y, Z: z}, Color: c, Intensity: intensity}
	a.w.Lights = append(a.w.Lights, l)
	return l
}

// update reindexes the space and updates the media, as the simulator does
// between physics and sensing.
func (a *arena) update() {
	a.sp.Reindex()
	a.led.Update(physics.Serial{})
	a.rab.Update(physics.Serial{})
}

// dev builds a device from its XML for r (section "sensors" or
// "actuators") and fails the test on error.
func dev[T any](t testing.TB, r *entity.Robot, section, xml string) T {
	t.Helper()
	v, err := build(t, r, section, xml)
	if err != nil {
		t.Fatalf("building %s: %v", xml, err)
	}
	d, ok := v.(T)
	if !ok {
		t.Fatalf("%s built a %T, which is not a %T", xml, v, *new(T))
	}
	return d
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }
