package realrobot

import "github.com/argosgo/argos/ci"

// ProximityRing is the controller side of a ring of proximity sensors for
// drivers: the angles come from the board, the values from the driver's
// Sense.
type ProximityRing struct{ readings []ci.ProximityReading }

// NewProximityRing returns a ring with one sensor per angle (radians,
// counter-clockwise from the front), all reading 0.
func NewProximityRing(angles []float64) *ProximityRing {
	r := &ProximityRing{readings: make([]ci.ProximityReading, len(angles))}
	for i, a := range angles {
		r.readings[i].Angle = a
	}
	return r
}

var _ ci.Proximity = (*ProximityRing)(nil)

// Readings implements ci.Proximity.
func (r *ProximityRing) Readings() []ci.ProximityReading { return r.readings }

// Len returns the number of sensors.
func (r *ProximityRing) Len() int { return len(r.readings) }

// Set sets sensor i's value.
func (r *ProximityRing) Set(i int, v float64) { r.readings[i].Value = v }

// LightRing is ProximityRing for light sensors.
type LightRing struct{ readings []ci.LightReading }

// NewLightRing returns a ring with one sensor per angle, all reading 0.
func NewLightRing(angles []float64) *LightRing {
	r := &LightRing{readings: make([]ci.LightReading, len(angles))}
	for i, a := range angles {
		r.readings[i].Angle = a
	}
	return r
}

var _ ci.Light = (*LightRing)(nil)

// Readings implements ci.Light.
func (r *LightRing) Readings() []ci.LightReading { return r.readings }

// Len returns the number of sensors.
func (r *LightRing) Len() int { return len(r.readings) }

// Set sets sensor i's value.
func (r *LightRing) Set(i int, v float64) { r.readings[i].Value = v }
