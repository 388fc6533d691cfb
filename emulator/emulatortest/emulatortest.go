// Package emulatortest has a fake emulator.Body, for testing emulated
// firmware without the simulator, and checks of simulated trajectories
// shared by the closed-loop tests of the emulator and the robot binary.
package emulatortest

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/argosgo/argos/emulator"
)

// Body is a fake emulator.Body: it returns the reading the test set and
// records the wheel commands. Wheel speeds are applied at once (Wheels
// of the reading follow the command).
type Body struct {
	mu     sync.Mutex
	read   emulator.Reading
	wheels [][2]float64
}

var _ emulator.Body = (*Body)(nil)

// NewBody returns a body with n proximity and light sensors reading 0.
func NewBody(n int) *Body {
	return &Body{read: emulator.Reading{Proximity: make([]float64, n), Light: make([]float64, n), Ahead: -1}}
}

// Set changes the reading under the body's lock.
func (b *Body) Set(fn func(r *emulator.Reading)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	fn(&b.read)
}

// Sense returns a copy of the reading.
func (b *Body) Sense() emulator.Reading {
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.read
	r.Proximity, r.Light, r.Ground = slices.Clone(r.Proximity), slices.Clone(r.Light), slices.Clone(r.Ground)
	return r
}

// SetWheels records the command.
func (b *Body) SetWheels(l, r float64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.read.Wheels = [2]float64{l, r}
	b.wheels = append(b.wheels, [2]float64{l, r})
}

// Wheels returns the commands received.
func (b *Body) Wheels() [][2]float64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.wheels)
}

// AvoidsWall checks that a robot of the given radius starting left of a
// wall whose face is the line x = wallX drove toward it (its centre came
// within reach of the wall: at least minAdvance from its start), never
// touched it (its centre stayed more than radius + 1 mm from the face; the
// physics stops a robot that touches at exactly its radius) and turned away (its heading changed by more than 45 degrees, or
// it moved back from the wall). It returns nil or what went wrong.
func AvoidsWall(traj []emulator.Pose, wallX, radius, minAdvance float64) error {
	if len(traj) < 2 {
		return fmt.Errorf("only %d poses", len(traj))
	}
	start, last := traj[0], traj[len(traj)-1]
	maxX, turn := start.X, 0.0
	for _, p := range traj {
		maxX = math.Max(maxX, p.X)
		d := math.Abs(math.Remainder(p.Yaw-start.Yaw, 2*math.Pi))
		turn = math.Max(turn, d)
	}
	switch {
	case maxX-start.X < minAdvance:
		return fmt.Errorf("the robot did not drive toward the wall: it advanced %.3f m (from x=%.3f to at most %.3f), want %.3f", maxX-start.X, start.X, maxX, minAdvance)
	case maxX > wallX-radius-0.001:
		return fmt.Errorf("the robot hit the wall: its centre reached x=%.4f, the wall's face is at %.3f and its radius %.3f", maxX, wallX, radius)
	case turn < math.Pi/4 && last.X > maxX-0.01:
		return fmt.Errorf("the robot did not turn away: heading changed by at most %.1f degrees and it ended at x=%.3f (max %.3f)", turn*180/math.Pi, last.X, maxX)
	}
	return nil
}
