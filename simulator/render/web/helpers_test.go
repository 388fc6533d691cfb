package web_test

import (
	"path/filepath"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/simulator/physics/pointmass3d"
)

// manual is a controller driven from outside, as ARGoS's
// footbot_manualcontrol: the user functions set its wheel speeds.
type manual struct {
	wheels      ci.DifferentialSteeringActuator
	left, right float64
}

func (m *manual) Init(r ci.Robot, _ ci.Params) (err error) {
	m.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, "differential_steering")
	return err
}
func (m *manual) ControlStep()   { m.wheels.SetLinearVelocity(m.left, m.right) }
func (m *manual) Reset()         { m.left, m.right = 0, 0 }
func (m *manual) Destroy() error { return nil }

// keysUF are test user functions: they draw a magenta disc at (0.5, -1),
// the id of the selected robot above it and fb1 in orange, record the
// selection and keys, and drive the selected robot with the arrows as
// ARGoS's manualcontrol_qtuser_functions do.
type keysUF struct {
	simulator.UserFunctionsBase
	sim      *simulator.Simulator
	selected string
	events   []string
	held     map[simulator.Key]bool
}

func (u *keysUF) Init(sim *simulator.Simulator, _ *config.Node) error {
	u.sim, u.held = sim, map[simulator.Key]bool{}
	return nil
}

var magenta = ci.Color{R: 255, G: 0, B: 255}

func (u *keysUF) DrawInWorld(c *simulator.Canvas) {
	c.Circle(ci.Vector3{X: 0.5, Y: -1, Z: 0.01}, 0.3, magenta, true)
	c.RobotColor("fb1", ci.Color{R: 255, G: 140})
	if u.selected != "" {
		c.RobotText(u.selected, "driving "+u.selected, ci.Color{B: 200})
	}
}

func (u *keysUF) EntitySelected(id string) {
	u.selected = id
	u.events = append(u.events, "select "+id)
}

func (u *keysUF) EntityDeselected(id string) {
	u.events = append(u.events, "deselect "+id)
	u.drive()
	u.selected = ""
}

func (u *keysUF) KeyPressed(k simulator.Key) {
	u.events = append(u.events, "press "+string(k))
	u.held[k] = true
	u.drive()
}

func (u *keysUF) KeyReleased(k simulator.Key) {
	u.events = append(u.events, "release "+string(k))
	delete(u.held, k)
	u.drive()
}

// drive sets the selected robot's wheels from the held arrows (W/A/S/D
// too), 10 cm/s.
func (u *keysUF) drive() {
	for i := 0; i < u.sim.NumRobots(); i++ {
		m, ok := u.sim.Controller(i).(*manual)
		if !ok {
			continue
		}
		m.left, m.right = 0, 0
		if u.sim.Robot(i).ID != u.selected {
			continue
		}
		up := u.held[simulator.KeyUp] || u.held["w"] || u.held["W"]
		down := u.held[simulator.KeyDown] || u.held["s"] || u.held["S"]
		left := u.held[simulator.KeyLeft] || u.held["a"] || u.held["A"]
		right := u.held[simulator.KeyRight] || u.held["d"] || u.held["D"]
		switch {
		case up:
			m.left, m.right = 10, 10
		case down:
			m.left, m.right = -10, -10
		case left:
			m.left, m.right = -5, 5
		case right:
			m.left, m.right = 5, -5
		}
	}
}

func init() {
	ci.Controllers.MustRegister("web_test_manual", "test: wheels set by the user functions", func() ci.Controller { return &manual{} })
	simulator.UserFunctionsTypes.MustRegister("web_test_manual_uf", "test: draws, records the selection and keys, drives the selected robot",
		func() simulator.UserFunctions { return &keysUF{} })
}

// testExperiment loads testdata/NAME with its visualization on a free
// port.
func testExperiment(t testing.TB, name string) *config.Experiment {
	t.Helper()
	exp, err := config.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range exp.Visualizations {
		if v.Name == "web" || v.Name == "qt-opengl" {
			v.Attrs = append(v.Attrs, config.Attr{Name: "port", Value: "0"})
		}
	}
	return exp
}
