package physics

import (
	"github.com/argosgo/argos/config"
)

// Header is what every engine element has: its id, the number of
// sub-steps per tick, and an optional region.
type Header struct {
	ID         string
	Iterations int
	Region     *Prism
}

// MaxIterations bounds an engine's sub-steps per tick: a tick cannot be
// interrupted, so a huge value would hang the run.
const MaxIterations = 10000

// ParseHeader reads an engine element's id, iterations (default def, 1 to
// MaxIterations) and <boundaries>, and checks that its other attributes are
// among extra and that it has no child but <boundaries> and <entity id>
// (the entities it owns, which the simulator assigns).
func ParseHeader(n *config.Node, def int, extra ...string) (Header, error) {
	var h Header
	if err := n.CheckAttrs(append([]string{"id", "iterations"}, extra...)...); err != nil {
		return h, err
	}
	var err error
	if h.ID, err = n.String("id"); err != nil {
		return h, err
	}
	if h.Iterations, err = n.IntOr("iterations", def); err != nil {
		return h, err
	}
	if h.Iterations < 1 || h.Iterations > MaxIterations {
		return h, n.Errorf("physics: iterations=%d: write a positive number of sub-steps per tick, at most %d (ARGoS uses 10)", h.Iterations, MaxIterations)
	}
	for _, c := range n.Children {
		if c.Name == "entity" {
			if err := c.CheckAttrs("id"); err != nil {
				return h, err
			}
			continue
		}
		if c.Name != "boundaries" {
			return h, c.Errorf("physics: unknown element <%s> in <%s>; only <boundaries> and <entity id=\"...\"> are allowed", c.Name, n.Name)
		}
		if h.Region, err = ParseBoundaries(c); err != nil {
			return h, err
		}
	}
	return h, nil
}

// ForChunks calls fn(k) for every k in [0, n), in chunks of the given size
// run as independent jobs.
func ForChunks(run Runner, n, chunk int, fn func(k int)) {
	run.Run((n+chunk-1)/chunk, func(c int) {
		for k := c * chunk; k < min((c+1)*chunk, n); k++ {
			fn(k)
		}
	})
}
