package citest

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
)

func TestQuadrotorPosition(t *testing.T) {
	q := &QuadrotorPosition{}
	var a ci.QuadrotorPosition = q
	a.SetAbsolutePosition(ci.Vector3{X: 1, Y: 2, Z: 1.5})
	a.SetRelativePosition(ci.Vector3{X: -0.5, Z: 0.5})
	a.SetAbsoluteYaw(3)
	a.SetRelativeYaw(1)
	if q.Position != (ci.Vector3{X: 0.5, Y: 2, Z: 2}) || math.Abs(q.Yaw-(4-2*math.Pi)) > 1e-12 || q.Calls != 4 {
		t.Errorf("after four commands: %+v; want (0.5, 2, 2), yaw 4-2pi, 4 calls", q)
	}
}

func TestAltitude(t *testing.T) {
	var a ci.Altitude = &Altitude{Value: 1.25}
	if a.Reading() != 1.25 {
		t.Errorf("Reading() = %v, want 1.25", a.Reading())
	}
}

func TestLaserPointer(t *testing.T) {
	l := &LaserPointer{}
	var a ci.LaserPointer = l
	if a.IsOn() {
		t.Fatal("a new laser is on")
	}
	a.On(ci.Red)
	if !a.IsOn() || l.Color != ci.Red || l.Ons != 1 {
		t.Errorf("after On(red): %+v", l)
	}
	a.Off()
	if a.IsOn() || l.Offs != 1 || l.Color != ci.Red {
		t.Errorf("after Off: %+v", l)
	}
}
