package realrobot_test

import (
	"testing"

	"github.com/argosgo/argos/realrobot"
)

// Rings keep the board's angles and the values drivers set.
func TestRings(t *testing.T) {
	angles := []float64{0.1, 0.2, 0.3}
	p, l := realrobot.NewProximityRing(angles), realrobot.NewLightRing(angles)
	p.Set(1, 0.5)
	l.Set(2, 0.25)
	if p.Len() != 3 || l.Len() != 3 {
		t.Fatalf("lengths %d and %d, want 3", p.Len(), l.Len())
	}
	for i, a := range angles {
		if p.Readings()[i].Angle != a || l.Readings()[i].Angle != a {
			t.Errorf("sensor %d: angles %v and %v, want %v", i, p.Readings()[i].Angle, l.Readings()[i].Angle, a)
		}
	}
	if p.Readings()[1].Value != 0.5 || p.Readings()[0].Value != 0 || l.Readings()[2].Value != 0.25 {
		t.Errorf("values %v and %v", p.Readings(), l.Readings())
	}
}
