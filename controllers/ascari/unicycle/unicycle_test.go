package unicycle

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
)

// DriveTo's heading error is the wrapped difference, whatever the number
// of turns theta has accumulated; it turns on the spot when the error is
// large and drives when it is small.
func TestDriveTo(t *testing.T) {
	for _, tc := range []struct {
		th, gx, gy float64
		moves      bool
		w          float64 // sign of the turn
	}{
		{0, 1, 0, true, 0},
		{4 * math.Pi, 1, 0, true, 0},
		{-6 * math.Pi, 1, 0.1, true, 1},
		{2*math.Pi + 0.5, 1, 0, false, -1},
		{math.Pi / 2, 0, -1, false, 1}, // half a turn: either way; Round picks +pi
	} {
		st := &fakeState{names: []string{"x", "y", "theta"}, values: []float64{0, 0, tc.th}}
		ctl := &fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}
		b := &Body{state: st, control: ctl, x: 0, y: 1, th: 2, v: 0, w: 1, MaxV: 0.5, MaxW: 6}
		d := b.DriveTo(tc.gx, tc.gy)
		if math.Abs(d-math.Hypot(tc.gx, tc.gy)) > 1e-12 {
			t.Errorf("theta %v: distance %v", tc.th, d)
		}
		v, w := ctl.values[0], ctl.values[1]
		if (v > 0) != tc.moves || tc.moves && v < 0.49 {
			t.Errorf("theta %v, goal (%v, %v): v = %v", tc.th, tc.gx, tc.gy, v)
		}
		if tc.w == 0 && math.Abs(w) > 1e-9 || tc.w != 0 && w*tc.w <= 0 || math.Abs(w) > 6 {
			t.Errorf("theta %v, goal (%v, %v): w = %v", tc.th, tc.gx, tc.gy, w)
		}
	}
}

type fakeState struct {
	names  []string
	values []float64
}

func (s *fakeState) Names() []string   { return s.names }
func (s *fakeState) Values() []float64 { return s.values }
func (s *fakeState) Index(n string) int {
	for i, m := range s.names {
		if m == n {
			return i
		}
	}
	return -1
}

type fakeControl struct {
	names  []string
	values []float64
}

func (c *fakeControl) Names() []string      { return c.names }
func (c *fakeControl) Set(i int, v float64) { c.values[i] = v }
func (c *fakeControl) SetAll(v ...float64)  { copy(c.values, v) }
func (c *fakeControl) Index(n string) int {
	for i, m := range c.names {
		if m == n {
			return i
		}
	}
	return -1
}

var (
	_ ci.DynamicsState   = (*fakeState)(nil)
	_ ci.DynamicsControl = (*fakeControl)(nil)
)
