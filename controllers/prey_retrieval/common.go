package preyretrieval

import (
	"fmt"
	"math"
	"strings"

	"github.com/argosgo/argos/behaviortk"
	"github.com/argosgo/argos/ci"
)

// The colours of the visual protocol, unless <params> say otherwise.
var (
	// DefaultLaser is the colour of the eye-bot's laser spot.
	DefaultLaser = ci.Red
	// DefaultCarrier is the colour of a carrier's LEDs.
	DefaultCarrier = ci.Blue
	// DefaultNest is the colour of the light that marks the nest.
	DefaultNest = ci.Green
)

// DefaultPreys returns the colours of the preys' LEDs: yellow and cyan.
func DefaultPreys() []ci.Color { return []ci.Color{ci.Yellow, ci.Cyan} }

// same reports whether two colours are the same, ignoring alpha.
func same(a, b ci.Color) bool { return a.R == b.R && a.G == b.G && a.B == b.B }

// params reads <params> and remembers the first error, so that a builder
// reads every value and checks once.
type params struct {
	p    ci.Params
	name string
	err  error
}

func (r *params) fail(err error) {
	if r.err == nil && err != nil {
		r.err = fmt.Errorf("%s: %w", r.name, err)
	}
}

// float reads a finite number in [lo, hi].
func (r *params) float(attr string, def, lo, hi float64) float64 {
	v, err := r.p.FloatOr(attr, def)
	if err != nil {
		r.fail(err)
		return def
	}
	if math.IsNaN(v) || v < lo || v > hi {
		r.fail(fmt.Errorf("%s: %s=%q: give a number between %g and %g", r.p.Location(), attr, r.p.Attrs[attr], lo, hi))
		return def
	}
	return v
}

func (r *params) color(attr string, def ci.Color) ci.Color {
	s, ok := r.p.Lookup(attr)
	if !ok {
		return def
	}
	c, err := ci.ParseColor(s)
	if err != nil {
		r.fail(fmt.Errorf("%s: %s: %w", r.p.Location(), attr, err))
		return def
	}
	return c
}

// colors reads a list of colours separated by semicolons
// ("yellow;cyan", "255,255,0;0,255,255").
func (r *params) colors(attr string, def []ci.Color) []ci.Color {
	s, ok := r.p.Lookup(attr)
	if !ok {
		return def
	}
	var out []ci.Color
	for _, part := range strings.Split(s, ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		c, err := ci.ParseColor(part)
		if err != nil {
			r.fail(fmt.Errorf("%s: %s: %w; separate colours with \";\"", r.p.Location(), attr, err))
			return def
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		r.fail(fmt.Errorf("%s: %s=%q lists no colour; write them like \"yellow;cyan\"", r.p.Location(), attr, s))
		return def
	}
	return out
}

// floats reads n numbers separated by commas.
func (r *params) floats(attr string, def []float64) []float64 {
	s, ok := r.p.Lookup(attr)
	if !ok {
		return def
	}
	parts := strings.Split(s, ",")
	out := make([]float64, 0, len(parts))
	for _, part := range parts {
		var v float64
		if _, err := fmt.Sscan(strings.TrimSpace(part), &v); err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			out = nil
			break
		}
		out = append(out, v)
	}
	if len(out) != len(def) {
		r.fail(fmt.Errorf("%s: %s=%q: give %d numbers separated by commas", r.p.Location(), attr, s, len(def)))
		return def
	}
	return out
}

// require checks that the robot declares a device group.
func require(name string, r ci.Robot, b *behaviortk.Binding, group, xml string) error {
	if b.Has(group) {
		return nil
	}
	return fmt.Errorf("%s: robot %q: %w: declare %s", name, r.ID(), ci.ErrNotDeclared, xml)
}

// count counts the consecutive steps a condition held.
func count(n *int, holds bool) {
	if holds {
		*n++
	} else {
		*n = 0
	}
}
