package footbot_nn_test

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/footbot_nn"
)

func robot() (*citest.Robot, *citest.Wheels, *citest.Proximity, *citest.Light) {
	wheels := &citest.Wheels{}
	prox := citest.NewFootBotProximity()
	light := citest.NewFootBotLight()
	r := citest.NewRobot("fb", 1).AddActuator("differential_steering", wheels).
		AddSensor("footbot_proximity", prox).AddSensor("footbot_light", light)
	return r, wheels, prox, light
}

// weights returns 98 weights: bias b for both outputs, w on one input of
// output 0 (the left wheel) and nothing else.
func weights(b float64, input int, w float64) string {
	ws := make([]string, 98)
	for i := range ws {
		ws[i] = "0"
	}
	ws[0], ws[49] = ftoa(b), ftoa(b)
	ws[1+input] = ftoa(w)
	return strings.Join(ws, ",")
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func TestPerceptronDrivesTheWheels(t *testing.T) {
	r, wheels, _, light := robot()
	c := &footbot_nn.Controller{}
	// output 0 reads light sensor 0 (input 24) with weight 10
	if err := c.Init(r, ci.NewParams("num_inputs", "48", "num_outputs", "2", "weights", weights(0, 24, 10))); err != nil {
		t.Fatal(err)
	}
	c.ControlStep()
	if wheels.Left != 0 || wheels.Right != 0 {
		t.Errorf("no input, zero weights: wheels %g %g, want 0 0 (sigmoid 0.5 is the middle of [-5, 5])", wheels.Left, wheels.Right)
	}
	light.Set(0, 0.5)
	c.ControlStep()
	want := -5 + 10/(1+math.Exp(-5))
	if math.Abs(wheels.Left-want) > 1e-12 || wheels.Right != 0 {
		t.Errorf("light 0 at 0.5: wheels %g %g, want %g 0", wheels.Left, wheels.Right, want)
	}
	if footbot_nn.WheelSpeed(0) != -5 || footbot_nn.WheelSpeed(1) != 5 {
		t.Error("outputs 0 and 1 must map to -5 and 5 cm/s")
	}
}

func TestWeightsFromAFile(t *testing.T) {
	dir := t.TempDir()
	ws := strings.ReplaceAll(weights(-20, 0, 0), ",", " ")
	if err := os.WriteFile(filepath.Join(dir, "best.dat"), []byte("98 "+ws+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, wheels, _, _ := robot()
	c := &footbot_nn.Controller{}
	// a relative path is looked up next to the experiment file
	p := ci.NewParams("num_inputs", "48", "num_outputs", "2", "parameter_file", "best.dat")
	p.Where = filepath.Join(dir, "exp.argos") + ":12"
	if err := c.Init(r, p); err != nil {
		t.Fatal(err)
	}
	c.ControlStep()
	if wheels.Left > -4.99 || wheels.Right > -4.99 {
		t.Errorf("bias -20: wheels %g %g, want full speed backwards", wheels.Left, wheels.Right)
	}
}

func TestInitErrors(t *testing.T) {
	dir := t.TempDir()
	short := filepath.Join(dir, "short.dat")
	os.WriteFile(short, []byte("98 1 2 3\n"), 0o644)
	for _, c := range []struct {
		name   string
		params []string
		want   string
	}{
		{"no weights", []string{"num_inputs", "48", "num_outputs", "2"}, "no weights"},
		{"too few weights", []string{"num_inputs", "48", "num_outputs", "2", "weights", "1,2,3"}, "3 weights, but 48 inputs and 2 outputs take (48+1)*2 = 98"},
		{"not a number", []string{"num_inputs", "48", "num_outputs", "2", "weights", "1,x"}, `weight 1, "x", is not a finite number`},
		{"inputs", []string{"num_inputs", "10", "num_outputs", "2", "weights", "1"}, `num_inputs=10, but the robot has 24 proximity and 24 light readings`},
		{"outputs", []string{"num_inputs", "48", "num_outputs", "3", "weights", "1"}, "num_outputs=3"},
		{"file count", []string{"num_inputs", "48", "num_outputs", "2", "parameter_file", short}, `it starts with "98" but holds 3 weights`},
		{"no file", []string{"num_inputs", "48", "num_outputs", "2", "parameter_file", filepath.Join(dir, "none.dat")}, "parameter_file"},
	} {
		r, _, _, _ := robot()
		err := (&footbot_nn.Controller{}).Init(r, ci.NewParams(c.params...))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "footbot_nn: ") {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestLifeCycle(t *testing.T) {
	r, _, _, _ := robot()
	citest.TestController(t, func() ci.Controller { return &footbot_nn.Controller{} }, r,
		ci.NewParams("num_inputs", "48", "num_outputs", "2", "weights", weights(1, 3, -2)), 10)
}
