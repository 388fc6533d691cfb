package synchronization_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/synchronization"
)

func setup(t testing.TB, id string, seed uint64) (*synchronization.Controller, *citest.LEDs, *citest.BlobCamera) {
	t.Helper()
	leds, cam := citest.NewLEDs(13), &citest.BlobCamera{}
	r := citest.NewRobot(id, seed).AddActuator(ci.TagLEDs, leds).AddSensor(ci.TagOmnidirectionalCamera, cam)
	c := synchronization.New()
	if err := c.Init(r, ci.Params{}); err != nil {
		t.Fatalf("Init: %v", err)
	}
	return c, leds, cam
}

func lit(l *citest.LEDs, want ci.Color) bool {
	for _, c := range l.Colors {
		if c != want {
			return false
		}
	}
	return true
}

func TestInit(t *testing.T) {
	seen := map[int]bool{}
	for i := range 50 {
		c, _, cam := setup(t, fmt.Sprintf("fb%d", i), 3)
		if !cam.Enabled {
			t.Fatal("camera not enabled")
		}
		if n := c.Counter(); n < 0 || n >= synchronization.MaxCount {
			t.Errorf("initial counter %d outside [0, 100)", n)
		}
		seen[c.Counter()] = true
	}
	if len(seen) < 20 {
		t.Errorf("50 robots drew only %d different counters", len(seen))
	}
	a, _, _ := setup(t, "fb0", 9)
	b, _, _ := setup(t, "fb0", 9)
	if a.Counter() != b.Counter() {
		t.Error("same id and seed draw different counters")
	}
}

// Alone (no red blob seen) a robot flashes first when its counter passes
// 100, then every 101 ticks.
func TestFlashesEvery101TicksAlone(t *testing.T) {
	c, leds, cam := setup(t, "fb0", 1)
	cam.Set(ci.Blob{Color: ci.Yellow}, ci.Blob{Color: ci.Green}) // not red: ignored
	first := c.Counter()
	var flashes []int
	for tick := 1; tick <= 400; tick++ {
		c.ControlStep()
		if c.Flashing() != lit(leds, ci.Red) || !c.Flashing() && !lit(leds, ci.Black) {
			t.Fatalf("tick %d: flashing %v with LEDs %v", tick, c.Flashing(), leds.Colors)
		}
		if c.Flashing() {
			flashes = append(flashes, tick)
			if c.Counter() != 0 {
				t.Errorf("counter %d after a flash, want 0", c.Counter())
			}
		}
	}
	if len(flashes) < 3 || flashes[0] != 101-first {
		t.Fatalf("flashes at %v, starting from %d; want the first at %d", flashes, first, 101-first)
	}
	for i := 1; i < len(flashes); i++ {
		if d := flashes[i] - flashes[i-1]; d != 101 {
			t.Errorf("flashes %d ticks apart, want 101", d)
		}
	}
}

func TestSeeingAFlashAdvances(t *testing.T) {
	c, _, cam := setup(t, "fb0", 1)
	// Bring the counter to 0 by running to the first flash.
	for !c.Flashing() {
		c.ControlStep()
	}
	// Below 10, a flash seen holds the counter still.
	cam.Set(ci.Blob{Color: ci.Red, Distance: 0.3})
	c.ControlStep()
	if c.Counter() != 0 {
		t.Errorf("counter %d after seeing a flash at 0, want 0", c.Counter())
	}
	cam.Set()
	for range 50 {
		c.ControlStep()
	}
	// At 50, a flash seen adds 5.
	cam.Set(ci.Blob{Color: ci.Green}, ci.Blob{Color: ci.Red})
	c.ControlStep()
	if c.Counter() != 55 {
		t.Errorf("counter %d after seeing a flash at 50, want 55", c.Counter())
	}
	// At 92, a flash seen makes it 101: it flashes at once.
	cam.Set()
	for c.Counter() < 92 {
		c.ControlStep()
	}
	cam.Set(ci.Blob{Color: ci.Red})
	c.ControlStep()
	if !c.Flashing() || c.Counter() != 0 {
		t.Errorf("at 92 with a flash seen: flashing %v, counter %d; want a flash", c.Flashing(), c.Counter())
	}
	// A disabled camera sees nothing.
	cam.Disable()
	for range 20 {
		c.ControlStep()
	}
	if c.Counter() != 20 {
		t.Errorf("counter %d after 20 blind ticks from 0, want 20", c.Counter())
	}
}

// Two robots that see each other fall into step: the pulse coupling works
// on the controllers alone.
func TestTwoRobotsSynchronize(t *testing.T) {
	a, la, ca := setup(t, "fb0", 5)
	b, lb, cb := setup(t, "fb1", 5)
	together := 0
	for tick := 0; tick < 2000; tick++ {
		// Each camera shows what the other's LEDs showed last tick.
		ca.Set(ci.Blob{Color: lb.Colors[12]})
		cb.Set(ci.Blob{Color: la.Colors[12]})
		a.ControlStep()
		b.ControlStep()
		if tick >= 1500 && a.Flashing() && b.Flashing() {
			together++
		}
		if tick >= 1500 && a.Flashing() != b.Flashing() {
			t.Fatalf("tick %d: robots still flash apart (counters %d, %d)", tick, a.Counter(), b.Counter())
		}
	}
	if together < 4 {
		t.Errorf("%d joint flashes in the last 500 ticks, want about 5", together)
	}
}

func TestReset(t *testing.T) {
	c, _, _ := setup(t, "fb0", 1)
	for range 37 {
		c.ControlStep()
	}
	c.Reset()
	if c.Flashing() || c.Counter() < 0 || c.Counter() >= synchronization.MaxCount {
		t.Errorf("after Reset: counter %d, flashing %v", c.Counter(), c.Flashing())
	}
	if err := c.Destroy(); err != nil {
		t.Error(err)
	}
}

func TestInitErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		robot *citest.Robot
		tag   string
	}{
		{"no LEDs", citest.NewRobot("fb0", 1).AddSensor(ci.TagOmnidirectionalCamera, &citest.BlobCamera{}), ci.TagLEDs},
		{"no camera", citest.NewRobot("fb0", 1).AddActuator(ci.TagLEDs, citest.NewLEDs(13)), ci.TagOmnidirectionalCamera},
	} {
		err := synchronization.New().Init(tc.robot, ci.Params{})
		if !errors.Is(err, ci.ErrNotDeclared) || !strings.HasPrefix(err.Error(), "synchronization: ") || !strings.Contains(err.Error(), "<"+tc.tag) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	r := citest.NewRobot("fb0", 1).AddActuator(ci.TagLEDs, citest.NewLEDs(13)).AddSensor(ci.TagOmnidirectionalCamera, citest.NewFootBotLight())
	if err := synchronization.New().Init(r, ci.Params{}); !errors.Is(err, ci.ErrWrongType) {
		t.Errorf("light sensor as camera: %v", err)
	}
}

func TestRegistered(t *testing.T) {
	f, err := ci.Controllers.Lookup(synchronization.Label)
	if err != nil || synchronization.Label != "footbot_synchronization_controller" {
		t.Fatal(err)
	}
	if _, ok := f().(*synchronization.Controller); !ok {
		t.Errorf("makes a %T", f())
	}
}

func TestConformance(t *testing.T) {
	leds, cam := citest.NewLEDs(13), &citest.BlobCamera{}
	cam.Set(ci.Blob{Color: ci.Red})
	r := citest.NewRobot("fb0", 1).AddActuator(ci.TagLEDs, leds).AddSensor(ci.TagOmnidirectionalCamera, cam)
	citest.TestController(t, func() ci.Controller { return synchronization.New() }, r, ci.Params{}, 250)
}

func TestControlStepDoesNotAllocate(t *testing.T) {
	c, _, cam := setup(t, "fb0", 1)
	cam.Set(ci.Blob{Color: ci.Green}, ci.Blob{Color: ci.Red})
	if n := testing.AllocsPerRun(100, c.ControlStep); n != 0 {
		t.Errorf("ControlStep allocates %v times", n)
	}
}
