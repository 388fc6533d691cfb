// Package footbot_nn is ARGoS's footbot_nn_controller (argos3-examples),
// the controller of the evolution examples: a perceptron maps the
// foot-bot's 24 proximity and 24 light readings (48 inputs) to its two
// wheel speeds. Each output is the sigmoid of a bias plus the weighted
// inputs, in [0, 1], mapped linearly onto [-5, 5] cm/s so that the robot
// can back up.
//
//	<footbot_nn_controller id="fnn">
//	  <actuators><differential_steering implementation="default" /></actuators>
//	  <sensors>
//	    <footbot_proximity implementation="default" />
//	    <footbot_light implementation="rot_z_only" />
//	  </sensors>
//	  <params num_inputs="48" num_outputs="2" parameter_file="best.dat" />
//	</footbot_nn_controller>
//
// The (num_inputs + 1) x num_outputs weights come from weights="w0,w1,..."
// or from parameter_file, a text file holding their count and then the
// weights (ARGoS's best_N.dat files; a relative path is looked up in the
// working directory, then next to the experiment file); weights wins
// when both are given, which is how argos sweep evolve hands each genome
// over. Output i uses weights i*(num_inputs+1) (the bias) to
// i*(num_inputs+1)+num_inputs.
package footbot_nn

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Label is ARGoS's name of the controller.
const Label = "footbot_nn_controller"

// MaxWheelSpeed is the wheel speed (cm/s) of an output of 1; an output
// of 0 drives the wheel backwards at the same speed.
const MaxWheelSpeed = 5.0

func init() {
	ci.Controllers.MustRegister(Label,
		"ARGoS's neural-network foot-bot (evolution examples): a perceptron from the 24 proximity and 24 light "+
			"readings to the two wheel speeds in [-5, 5] cm/s. Params: num_inputs (48), num_outputs (2), and the "+
			"(num_inputs+1)*num_outputs weights as weights=\"w0,w1,...\" or parameter_file=\"best.dat\" (their count, "+
			"then the weights). Devices: differential_steering; footbot_proximity, footbot_light.",
		func() ci.Controller { return &Controller{} })
}

// Perceptron is a one-layer network with a sigmoid on each output.
type Perceptron struct {
	Inputs, Outputs []float64
	// Weights holds, for each output, its bias then one weight per input.
	Weights []float64
}

// NewPerceptron returns a perceptron of the given size with the given
// weights, which must number (inputs+1)*outputs.
func NewPerceptron(inputs, outputs int, weights []float64) (*Perceptron, error) {
	if inputs < 1 || outputs < 1 {
		return nil, fmt.Errorf("footbot_nn: a perceptron of %d inputs and %d outputs; give at least one of each", inputs, outputs)
	}
	if want := (inputs + 1) * outputs; len(weights) != want {
		return nil, fmt.Errorf("footbot_nn: %d weights, but %d inputs and %d outputs take (%d+1)*%d = %d", len(weights), inputs, outputs, inputs, outputs, want)
	}
	return &Perceptron{Inputs: make([]float64, inputs), Outputs: make([]float64, outputs), Weights: weights}, nil
}

// Compute sets the outputs from the inputs.
func (p *Perceptron) Compute() {
	n := len(p.Inputs) + 1
	for i := range p.Outputs {
		w := p.Weights[i*n : (i+1)*n]
		sum := w[0]
		for j, x := range p.Inputs {
			sum += w[j+1] * x
		}
		p.Outputs[i] = 1 / (1 + math.Exp(-sum))
	}
}

// Controller is footbot_nn_controller.
type Controller struct {
	wheels ci.DifferentialSteeringActuator
	prox   ci.Proximity
	light  ci.Light
	net    *Perceptron
}

var _ ci.Controller = (*Controller)(nil)

// Init takes the devices and reads the network's size and weights.
func (c *Controller) Init(r ci.Robot, p ci.Params) error {
	var err error
	if c.wheels, err = ci.GetActuator[ci.DifferentialSteeringActuator](r, ci.TagDifferentialSteering); err != nil {
		return fmt.Errorf("footbot_nn: %w", err)
	}
	if c.prox, err = ci.GetSensor[ci.Proximity](r, ci.TagFootBotProximity); err != nil {
		return fmt.Errorf("footbot_nn: %w", err)
	}
	if c.light, err = ci.GetSensor[ci.Light](r, ci.TagFootBotLight); err != nil {
		return fmt.Errorf("footbot_nn: %w", err)
	}
	inputs, err := p.Int("num_inputs")
	if err != nil {
		return fmt.Errorf("footbot_nn: %w", err)
	}
	outputs, err := p.Int("num_outputs")
	if err != nil {
		return fmt.Errorf("footbot_nn: %w", err)
	}
	if have := len(c.prox.Readings()) + len(c.light.Readings()); inputs != have {
		return fmt.Errorf("footbot_nn: %s: num_inputs=%d, but the robot has %d proximity and %d light readings; write num_inputs=\"%d\"",
			p.Location(), inputs, len(c.prox.Readings()), len(c.light.Readings()), have)
	}
	if outputs != 2 {
		return fmt.Errorf("footbot_nn: %s: num_outputs=%d; the network drives the two wheels, write num_outputs=\"2\"", p.Location(), outputs)
	}
	weights, err := readWeights(p)
	if err != nil {
		return err
	}
	if c.net, err = NewPerceptron(inputs, outputs, weights); err != nil {
		return fmt.Errorf("%w (%s)", err, p.Location())
	}
	return nil
}

// readWeights reads weights= or parameter_file=.
func readWeights(p ci.Params) ([]float64, error) {
	if s, ok := p.Lookup("weights"); ok {
		w, err := ParseWeights(strings.ReplaceAll(s, ",", " "))
		if err != nil {
			return nil, fmt.Errorf("footbot_nn: %s: weights: %w", p.Location(), err)
		}
		return w, nil
	}
	file, ok := p.Lookup("parameter_file")
	if !ok {
		return nil, fmt.Errorf("footbot_nn: %s: no weights; add weights=\"w0,w1,...\" or parameter_file=\"best.dat\" to <params>", p.Location())
	}
	data, err := os.ReadFile(file)
	if err != nil && !filepath.IsAbs(file) {
		// next to the experiment file ("file.argos:12")
		if where := p.Location(); where != "" {
			if i := strings.LastIndexByte(where, ':'); i > 0 {
				where = where[:i]
			}
			if d, err2 := os.ReadFile(filepath.Join(filepath.Dir(where), file)); err2 == nil {
				data, err = d, nil
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("footbot_nn: %s: parameter_file: %w; give a file of weights (looked in the working directory and next to the experiment)", p.Location(), err)
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return nil, fmt.Errorf("footbot_nn: %s: parameter_file %s is empty; write the number of weights, then the weights", p.Location(), file)
	}
	n, err := strconv.Atoi(fields[0])
	if err != nil || n != len(fields)-1 {
		return nil, fmt.Errorf("footbot_nn: %s: parameter_file %s: it starts with %q but holds %d weights; write their count, then the weights", p.Location(), file, fields[0], len(fields)-1)
	}
	w, err := ParseWeights(strings.Join(fields[1:], " "))
	if err != nil {
		return nil, fmt.Errorf("footbot_nn: %s: parameter_file %s: %w", p.Location(), file, err)
	}
	return w, nil
}

// ParseWeights reads numbers separated by spaces.
func ParseWeights(s string) ([]float64, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, errors.New("no numbers")
	}
	if len(fields) > 1_000_000 {
		return nil, fmt.Errorf("%d numbers; at most 1000000", len(fields))
	}
	w := make([]float64, len(fields))
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("weight %d, %q, is not a finite number", i, f)
		}
		w[i] = x
	}
	return w, nil
}

// ControlStep feeds the readings through the network and sets the wheels.
func (c *Controller) ControlStep() {
	in := c.net.Inputs
	k := 0
	for _, r := range c.prox.Readings() {
		in[k] = r.Value
		k++
	}
	for _, r := range c.light.Readings() {
		in[k] = r.Value
		k++
	}
	c.net.Compute()
	c.wheels.SetLinearVelocity(WheelSpeed(c.net.Outputs[0]), WheelSpeed(c.net.Outputs[1]))
}

// WheelSpeed maps a network output in [0, 1] onto [-5, 5] cm/s.
func WheelSpeed(out float64) float64 { return -MaxWheelSpeed + 2*MaxWheelSpeed*out }

// Reset clears the network's inputs and outputs.
func (c *Controller) Reset() {
	clear(c.net.Inputs)
	clear(c.net.Outputs)
}

// Destroy does nothing.
func (c *Controller) Destroy() error { return nil }

// Network returns the controller's perceptron (nil before Init).
func (c *Controller) Network() *Perceptron { return c.net }
