package physics

import (
	"math"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// Prism is a region of space: a polygon (counter-clockwise vertices) in
// the XY plane extruded from Bottom to Top.
type Prism struct {
	Vertices    []ci.Vector2
	Bottom, Top float64
	// convex is set by ParseBoundaries when the polygon is convex, which
	// allows a faster Contains.
	convex bool
}

// ParseBoundaries reads an engine's <boundaries> element:
//
//	<boundaries>
//	  <top height="1.0"/>
//	  <bottom height="0.0"/>
//	  <sides>
//	    <vertex point="0,0"/> <vertex point="21,0"/> ...
//	  </sides>
//	</boundaries>
func ParseBoundaries(n *config.Node) (*Prism, error) {
	if err := n.CheckAttrs(); err != nil {
		return nil, err
	}
	p := &Prism{Bottom: math.Inf(-1), Top: math.Inf(1)}
	seen := map[string]*config.Node{}
	for _, c := range n.Children {
		switch c.Name {
		case "top", "bottom", "sides":
		default:
			return nil, c.Errorf("physics: unknown element <%s> in <boundaries>; use <top>, <bottom> and <sides>", c.Name)
		}
		if prev := seen[c.Name]; prev != nil {
			return nil, c.Errorf("physics: <%s> appears twice in <boundaries> (first at line %d); keep only one", c.Name, prev.Line)
		}
		seen[c.Name] = c
		switch c.Name {
		case "top", "bottom":
			if err := c.CheckAttrs("height"); err != nil {
				return nil, err
			}
			h, err := c.Float("height")
			if err != nil {
				return nil, err
			}
			if c.Name == "top" {
				p.Top = h
			} else {
				p.Bottom = h
			}
		case "sides":
			if err := c.CheckAttrs(); err != nil {
				return nil, err
			}
			for _, v := range c.Children {
				if v.Name != "vertex" {
					return nil, v.Errorf("physics: <sides> holds only <vertex point=\"x,y\"/> elements, not <%s>", v.Name)
				}
				if err := v.CheckAttrs("point"); err != nil {
					return nil, err
				}
				pt, err := v.Vector2("point")
				if err != nil {
					return nil, err
				}
				p.Vertices = append(p.Vertices, pt)
			}
		}
	}
	if len(p.Vertices) < 3 {
		return nil, n.Errorf("physics: <boundaries> needs a <sides> element with at least 3 <vertex point=\"x,y\"/>")
	}
	if p.Bottom >= p.Top {
		return nil, n.Errorf("physics: <boundaries>: bottom height %g must be below top height %g", p.Bottom, p.Top)
	}
	switch a := p.area(); {
	case a < 0:
		return nil, n.Errorf("physics: <boundaries>: the vertices go clockwise; list them counter-clockwise")
	case a == 0:
		return nil, n.Errorf("physics: <boundaries>: the vertices enclose no area; list the corners of the region counter-clockwise")
	}
	p.convex = p.isConvex()
	return p, nil
}

func (p *Prism) area() float64 {
	a := 0.0
	for i, v := range p.Vertices {
		w := p.Vertices[(i+1)%len(p.Vertices)]
		a += v.Cross(w)
	}
	return a / 2
}

// Contains reports whether pt lies in the prism. Points on the boundary
// belong to it, so a point on the border between two engines is claimed
// by the first engine that lists it.
func (p *Prism) Contains(pt ci.Vector3) bool {
	if pt.Z < p.Bottom || pt.Z > p.Top {
		return false
	}
	q := pt.XY()
	if p.convex {
		// inside or on the border of a counter-clockwise convex polygon:
		// on the left of (or on) every edge
		n := len(p.Vertices)
		for i, j := 0, n-1; i < n; j, i = i, i+1 {
			a, b := p.Vertices[j], p.Vertices[i]
			if b.Sub(a).Cross(q.Sub(a)) < -1e-12*math.Max(1, b.Sub(a).SquaredLength()) {
				return false
			}
		}
		return true
	}
	inside := false
	n := len(p.Vertices)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		a, b := p.Vertices[j], p.Vertices[i]
		if onSegment(q, a, b) {
			return true
		}
		if (a.Y > q.Y) != (b.Y > q.Y) {
			x := a.X + (q.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if q.X < x {
				inside = !inside
			}
		}
	}
	return inside
}

// isConvex reports whether the polygon is convex and counter-clockwise
// (every turn is to the left), the common case of engine regions.
func (p *Prism) isConvex() bool {
	n := len(p.Vertices)
	for i := 0; i < n; i++ {
		a, b, c := p.Vertices[i], p.Vertices[(i+1)%n], p.Vertices[(i+2)%n]
		if b.Sub(a).Cross(c.Sub(b)) < 0 {
			return false
		}
	}
	return true
}

func onSegment(q, a, b ci.Vector2) bool {
	ab, aq := b.Sub(a), q.Sub(a)
	if math.Abs(ab.Cross(aq)) > 1e-12*math.Max(1, ab.SquaredLength()) {
		return false
	}
	d := ab.Dot(aq)
	return d >= 0 && d <= ab.SquaredLength()
}

// Bounds returns the axis-aligned box of the base polygon.
func (p *Prism) Bounds() (lo, hi ci.Vector2) {
	lo = ci.Vector2{X: math.Inf(1), Y: math.Inf(1)}
	hi = ci.Vector2{X: math.Inf(-1), Y: math.Inf(-1)}
	for _, v := range p.Vertices {
		lo = ci.Vector2{X: math.Min(lo.X, v.X), Y: math.Min(lo.Y, v.Y)}
		hi = ci.Vector2{X: math.Max(hi.X, v.X), Y: math.Max(hi.Y, v.Y)}
	}
	return lo, hi
}
