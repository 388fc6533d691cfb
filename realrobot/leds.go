package realrobot

import "github.com/argosgo/argos/ci"

// LEDs is the controller side of a robot's LEDs for drivers: it keeps the
// colours the controller chose, which the driver writes out in Act.
type LEDs struct{ colors []ci.Color }

// NewLEDs returns n LEDs, all off (black).
func NewLEDs(n int) *LEDs {
	l := &LEDs{colors: make([]ci.Color, n)}
	for i := range l.colors {
		l.colors[i] = ci.Black
	}
	return l
}

var _ ci.LEDs = (*LEDs)(nil)

// Len returns the number of LEDs.
func (l *LEDs) Len() int { return len(l.colors) }

// SetSingleColor sets LED i; an index out of range is ignored.
func (l *LEDs) SetSingleColor(i int, c ci.Color) {
	if i >= 0 && i < len(l.colors) {
		l.colors[i] = c
	}
}

// SetAllColors sets every LED.
func (l *LEDs) SetAllColors(c ci.Color) {
	for i := range l.colors {
		l.colors[i] = c
	}
}

// Colors returns the current colours; the slice belongs to l.
func (l *LEDs) Colors() []ci.Color { return l.colors }
