package dynamics2d

import (
	"testing"

	"github.com/jakecoffman/cp/v2"
)

// The solver's direct access to a cp body's velocities reads and writes
// the very fields cp's getters and setters do.
func TestBodyVelocityFields(t *testing.T) {
	b := cp.NewBody(2, 3)
	b.SetVelocity(1.5, -2.25)
	b.SetAngularVelocity(0.75)
	if *velocity(b) != (cp.Vector{X: 1.5, Y: -2.25}) || *angularVelocity(b) != 0.75 {
		t.Fatalf("read %v, %v; cp has %v, %v", *velocity(b), *angularVelocity(b), b.Velocity(), b.AngularVelocity())
	}
	*velocity(b) = cp.Vector{X: -4, Y: 8}
	*angularVelocity(b) = -1.125
	if b.Velocity() != (cp.Vector{X: -4, Y: 8}) || b.AngularVelocity() != -1.125 {
		t.Fatalf("wrote (-4, 8), -1.125; cp reads %v, %v", b.Velocity(), b.AngularVelocity())
	}
	// nothing else changed
	if b.Mass() != 2 || b.Moment() != 3 || b.Position() != (cp.Vector{}) || b.Angle() != 0 {
		t.Fatalf("mass %g, moment %g, position %v, angle %g changed", b.Mass(), b.Moment(), b.Position(), b.Angle())
	}
}
