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

// FollowLeg turns on the spot towards the goal, then drives with w
// exactly 0 (the heading does not change again) and arrives; it turns
// again when pushed off the line.
func TestFollowLeg(t *testing.T) {
	const h = 0.001
	for _, tc := range []struct{ th, gx, gy, tick float64 }{
		{0, 0, 1, h}, {4 * math.Pi, -1, 0, h}, {-6*math.Pi + 0.3, 0.5, -0.7, h}, {0, 1, 0, h},
		// ticks 3 and 10 times longer than FollowLeg is told: the turn
		// overshoots, then lands
		{0, 0, 1, 3 * h}, {1, -1, 0, 10 * h},
	} {
		st := &fakeState{names: []string{"x", "y", "theta"}, values: []float64{0, 0, tc.th}}
		ctl := &fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}
		b := &Body{state: st, control: ctl, x: 0, y: 1, th: 2, v: 0, w: 1, MaxV: 0.5, MaxW: 6}
		turned, pushed := false, false
		var heading float64
		arrived := -1
		ticks := int(20 / tc.tick)
		for tick := 0; tick < ticks; tick++ {
			if b.FollowLeg(tc.gx, tc.gy, 0.01, h) {
				arrived = tick
				break
			}
			v, w := ctl.values[0], ctl.values[1]
			if v != 0 && w != 0 {
				t.Fatalf("goal (%v, %v), tick %d: v = %v and w = %v together", tc.gx, tc.gy, tick, v, w)
			}
			if math.Abs(w) > 6 || v < 0 || v > 0.5 {
				t.Fatalf("goal (%v, %v), tick %d: commands (%v, %v) beyond the limits", tc.gx, tc.gy, tick, v, w)
			}
			if v > 0 && !turned {
				turned, heading = true, st.values[2]
			}
			if turned && st.values[2] != heading && !pushed {
				t.Fatalf("goal (%v, %v), tick %d: heading %v changed while driving (%v)", tc.gx, tc.gy, tick, st.values[2], heading)
			}
			// Euler steps of the unicycle
			st.values[0] += tc.tick * v * math.Cos(st.values[2])
			st.values[1] += tc.tick * v * math.Sin(st.values[2])
			st.values[2] += tc.tick * w
			if turned && !pushed && tick%int(0.5/tc.tick) == 0 && math.Hypot(tc.gx-st.values[0], tc.gy-st.values[1]) > 0.3 {
				// a shove 2 cm sideways: it must turn again and still arrive
				st.values[0] += 0.02 * math.Sin(heading)
				st.values[1] -= 0.02 * math.Cos(heading)
				pushed = true
			}
		}
		if arrived < 0 {
			t.Fatalf("goal (%v, %v): not reached in 20 s; at %v", tc.gx, tc.gy, st.values)
		}
		if !pushed && tc.gx != 0.5 {
			t.Errorf("goal (%v, %v): the test never pushed the agent", tc.gx, tc.gy)
		}
		// at most a half turn at 6 rad/s and the leg at 0.5 m/s, with the
		// slow-down of the last centimetres
		if limit := (math.Pi/6 + math.Hypot(tc.gx, tc.gy)/0.5 + 1.5) / tc.tick; float64(arrived) > limit {
			t.Errorf("goal (%v, %v): arrived after %d ticks, more than %v", tc.gx, tc.gy, arrived, limit)
		}
	}
}

// countingControl counts the commands set.
type countingControl struct {
	fakeControl
	sets int
}

func (c *countingControl) Set(i int, v float64) { c.sets++; c.fakeControl.Set(i, v) }

// Set sets the commands once, not again while they stay the same bit
// for bit; after Reset (the runtime zeroed the actuator) it sets them
// again.
func TestSetSkipsRepeatedCommands(t *testing.T) {
	st := &fakeState{names: []string{"x", "y", "theta"}, values: []float64{0, 0, 0}}
	ctl := &countingControl{fakeControl: fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}}
	b := &Body{state: st, control: ctl, x: 0, y: 1, th: 2, v: 0, w: 1, MaxV: 0.5, MaxW: 6}
	b.Set(0.3, 0)
	b.Stop()
	b.Stop()
	b.Stop()
	if ctl.sets != 4 || ctl.values[0] != 0 || ctl.values[1] != 0 {
		t.Errorf("%d commands set, values %v; want 4 (the speed, then one stop) and zeros", ctl.sets, ctl.values)
	}
	b.Set(0.3, 0)
	b.Set(0.3, 0)
	b.Set(0.3, math.Copysign(0, -1)) // -0 is another command
	if ctl.sets != 8 || ctl.values[0] != 0.3 {
		t.Errorf("%d commands set, values %v; want 8 and v = 0.3", ctl.sets, ctl.values)
	}
	// the runtime resets the actuator, the controller the body
	ctl.values[0], ctl.values[1] = 0, 0
	b.Reset()
	b.Set(0.3, math.Copysign(0, -1))
	if ctl.sets != 10 || ctl.values[0] != 0.3 {
		t.Errorf("after Reset: %d commands set, values %v; want 10 and v = 0.3", ctl.sets, ctl.values)
	}
}

// Set clamps to the limits as max and min do, NaN and signed zeros
// included, whether or not the command is within them.
func TestSetClamps(t *testing.T) {
	for _, c := range [][2]float64{{0.2, 1}, {0.5, 6}, {-0.5, -6}, {0.7, 7}, {-0.7, -7}, {math.NaN(), 1}, {0.1, math.NaN()},
		{math.Copysign(0, -1), math.Copysign(0, -1)}, {math.Inf(1), math.Inf(-1)}, {0, 0}} {
		ctl := &fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}
		b := &Body{control: ctl, v: 0, w: 1, MaxV: 0.5, MaxW: 6}
		b.Set(c[0], c[1])
		wv, ww := max(-0.5, min(0.5, c[0])), max(-6.0, min(6.0, c[1]))
		if math.Float64bits(ctl.values[0]) != math.Float64bits(wv) || math.Float64bits(ctl.values[1]) != math.Float64bits(ww) {
			t.Errorf("Set(%v, %v): commands %v, want %v %v", c[0], c[1], ctl.values, wv, ww)
		}
	}
}

// FollowLeg's straight part sets nothing while the commands are those it
// set last at full speed; whatever changed them meanwhile (a Stop, new
// limits, the slow-down of the last centimetres, Reset), it gives the
// commands the whole computation gives, bit for bit: a body that never
// takes the short cut, driven alongside, holds the same commands at every
// tick.
func TestFollowLegCruiseAsFull(t *testing.T) {
	const h = 0.001
	newBody := func() (*Body, *fakeState, *countingControl) {
		st := &fakeState{names: []string{"x", "y", "theta"}, values: []float64{0, 0, 0.3}}
		ctl := &countingControl{fakeControl: fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}}
		return &Body{state: st, control: ctl, x: 0, y: 1, th: 2, v: 0, w: 1, MaxV: 0.5, MaxW: 6}, st, ctl
	}
	fast, fst, fctl := newBody()
	full, sst, sctl := newBody()
	arrived := false
	cruised := 0
	for tick := 0; tick < 30000 && !arrived; tick++ {
		switch tick {
		case 700:
			fast.Stop() // something else set the commands
			full.Stop()
		case 1500:
			fast.MaxV, full.MaxV = 0.25, 0.25
		case 2500:
			fast.MaxW, full.MaxW = 5, 5 // the clamp of w = 0 is the same: no new command
		case 3000:
			fast.Reset()
			full.Reset()
			fctl.values[0], fctl.values[1] = 0, 0 // as the runtime's reset
			sctl.values[0], sctl.values[1] = 0, 0
		}
		full.leg.cruising = false
		before := fctl.sets
		a, b := fast.FollowLeg(3, 2, 0.01, h), full.FollowLeg(3, 2, 0.01, h)
		if fast.leg.cruising && fctl.sets == before {
			cruised++
		}
		if a != b || math.Float64bits(fctl.values[0]) != math.Float64bits(sctl.values[0]) ||
			math.Float64bits(fctl.values[1]) != math.Float64bits(sctl.values[1]) {
			t.Fatalf("tick %d: arrived %v, commands %v; the full computation: %v, %v", tick, a, fctl.values, b, sctl.values)
		}
		arrived = a
		for _, s := range []*fakeState{fst, sst} {
			v, w := fctl.values[0], fctl.values[1]
			s.values[0] += h * v * math.Cos(s.values[2])
			s.values[1] += h * v * math.Sin(s.values[2])
			s.values[2] += h * w
		}
	}
	if !arrived {
		t.Fatalf("not arrived: at %v", fst.values)
	}
	if cruised < 1000 {
		t.Errorf("the short cut was taken at %d ticks only", cruised)
	}
}

// Stop's short cut sets what Set(0, 0) sets, whatever the limits (NaN,
// zeros of both signs, negative, infinite, changed between two calls)
// and the commands held: a body whose Stop is Set(0, 0), driven
// alongside, holds the same commands, bit for bit, and sets as many.
func TestStopAsSet(t *testing.T) {
	nan, neg0 := math.NaN(), math.Copysign(0, -1)
	limits := []float64{0.5, math.Inf(1), nan, 0, neg0, -1}
	cmds := [][2]float64{{0, 0}, {0.3, 0}, {neg0, 0}, {0, neg0}, {nan, 1}}
	for _, mv := range limits {
		for _, mw := range limits {
			for _, mv2 := range limits {
				for _, mw2 := range limits {
					fc := &countingControl{fakeControl: fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}}
					sc := &countingControl{fakeControl: fakeControl{names: []string{"v", "w"}, values: make([]float64, 2)}}
					fast := &Body{control: fc, v: 0, w: 1, MaxV: mv, MaxW: mw}
					slow := &Body{control: sc, v: 0, w: 1, MaxV: mv, MaxW: mw}
					for k := 0; k < 4*len(cmds); k++ {
						switch k % 4 {
						case 0:
							c := cmds[k/4]
							fast.Set(c[0], c[1])
							slow.Set(c[0], c[1])
						case 2:
							// new limits, then the same limits as before
							fast.MaxV, fast.MaxW, slow.MaxV, slow.MaxW = mv2, mw2, mv2, mw2
							if k/4%2 == 1 {
								fast.MaxV, fast.MaxW, slow.MaxV, slow.MaxW = mv, mw, mv, mw
							}
							fallthrough
						default:
							fast.Stop()
							slow.Set(0, 0)
						}
						if fc.sets != sc.sets || math.Float64bits(fc.values[0]) != math.Float64bits(sc.values[0]) ||
							math.Float64bits(fc.values[1]) != math.Float64bits(sc.values[1]) {
							t.Fatalf("limits %v %v then %v %v, step %d: Stop left %v after %d sets, Set(0, 0) %v after %d",
								mv, mw, mv2, mw2, k, fc.values, fc.sets, sc.values, sc.sets)
						}
					}
				}
			}
		}
	}
}
