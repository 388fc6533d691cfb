package config

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/argosgo/argos/ci"
)

// Distribute is a <distribute> element of the arena: Quantity copies of
// Template, placed by sampling Position and Orientation until the copy
// collides with nothing, at most MaxTrials times per copy.
//
//	<distribute>
//	  <position method="uniform" min="-1,-1,0" max="1,1,0"/>
//	  <orientation method="uniform" min="0,0,0" max="360,0,0"/>
//	  <entity quantity="10" max_trials="100">
//	    <e-puck id="ep"><controller config="edc"/></e-puck>
//	  </entity>
//	</distribute>
//
// The copies are named BaseID followed by BaseNum, BaseNum+1, ... (see
// [Distribute.ID]), as in ARGoS.
type Distribute struct {
	Position    Generator // from <position method=...>, in metres
	Orientation Generator // from <orientation method=...>: Euler degrees z,y,x in the X,Y,Z of each sample
	Quantity    int       // <entity quantity>, 1 to MaxEntities
	MaxTrials   int       // <entity max_trials>, required, 1 to MaxTrials
	BaseNum     int       // <entity base_num>, default 0, >= 0
	BaseID      string    // the id attribute of Template, the prefix of the ids of the copies
	Template    *Node     // the single child of <entity>, e.g. <e-puck id="ep">
	Node        *Node     // the <distribute> element
}

// Generator produces the successive samples of a <position> or
// <orientation> element. Stateless generators may be shared; a
// [*GridGenerator] counts the points it has handed out.
type Generator interface {
	Next(r *rand.Rand) ci.Vector3
}

// ConstantGenerator always returns Value (method="constant", values="x,y,z").
type ConstantGenerator struct{ Value ci.Vector3 }

// Next returns g.Value.
func (g ConstantGenerator) Next(*rand.Rand) ci.Vector3 { return g.Value }

// UniformGenerator draws each component uniformly in [Min, Max)
// (method="uniform", min="x,y,z", max="x,y,z"). As in ARGoS, a component
// with Min == Max is Max and draws no random number.
type UniformGenerator struct{ Min, Max ci.Vector3 }

// Next draws X, then Y, then Z from r.
func (g UniformGenerator) Next(r *rand.Rand) ci.Vector3 {
	u := func(lo, hi float64) float64 {
		if hi > lo {
			return lo + r.Float64()*(hi-lo)
		}
		return hi
	}
	return ci.Vector3{X: u(g.Min.X, g.Max.X), Y: u(g.Min.Y, g.Max.Y), Z: u(g.Min.Z, g.Max.Z)}
}

// GaussianGenerator draws each component from a normal distribution
// (method="gaussian", mean="x,y,z", std_dev="x,y,z").
type GaussianGenerator struct{ Mean, StdDev ci.Vector3 }

// Next draws X, then Y, then Z from r.
func (g GaussianGenerator) Next(r *rand.Rand) ci.Vector3 {
	return ci.Vector3{
		X: g.Mean.X + g.StdDev.X*r.NormFloat64(),
		Y: g.Mean.Y + g.StdDev.Y*r.NormFloat64(),
		Z: g.Mean.Z + g.StdDev.Z*r.NormFloat64(),
	}
}

// GridGenerator hands out the points of a regular grid (method="grid",
// center="x,y,z", distances="x,y,z", layout="nx,ny,nz"), X fastest, then Y,
// then Z, centred on Center. As in ARGoS, point i is
//
//	Center + (Layout-1)*Distances/2 - (i mod nx, i/nx mod ny, i/(nx*ny)) * Distances
//
// so the first point is the corner on the positive side of each axis.
// Use [NewGridGenerator] to build one.
type GridGenerator struct {
	Center, Distances ci.Vector3
	Layout            [3]int
	next              int
}

// NewGridGenerator returns a grid generator; each layout count must be at
// least 1.
func NewGridGenerator(center, distances ci.Vector3, layout [3]int) (*GridGenerator, error) {
	for i, v := range layout {
		if v < 1 {
			return nil, fmt.Errorf("config: grid layout %v: count %d is %d; give at least 1 point along each axis", layout, i+1, v)
		}
	}
	return &GridGenerator{Center: center, Distances: distances, Layout: layout}, nil
}

// Len returns the number of points of the grid, nx*ny*nz (saturating at
// the largest int).
func (g *GridGenerator) Len() int {
	n := 1
	for _, v := range g.Layout {
		if v <= 0 {
			return 0
		}
		if n > math.MaxInt/v {
			return math.MaxInt
		}
		n *= v
	}
	return n
}

// Remaining returns how many points Next can still hand out.
func (g *GridGenerator) Remaining() int { return g.Len() - g.next }

// Reset starts again from the first point.
func (g *GridGenerator) Reset() { g.next = 0 }

// Next returns the next point of the grid; r is not used. It panics when
// no point remains: check [GridGenerator.Remaining] first (or use
// [Distribute.Sample], which returns an error instead).
func (g *GridGenerator) Next(*rand.Rand) ci.Vector3 {
	if g.Remaining() <= 0 {
		panic(fmt.Sprintf("config: GridGenerator.Next called after all %d points of the grid were used; check Remaining first", g.Len()))
	}
	i := g.next
	g.next++
	nx, ny, nz := g.Layout[0], g.Layout[1], g.Layout[2]
	ix, iy, iz := i%nx, (i/nx)%ny, i/(nx*ny)
	return ci.Vector3{
		X: g.Center.X + float64(nx-1)*g.Distances.X*0.5 - float64(ix)*g.Distances.X,
		Y: g.Center.Y + float64(ny-1)*g.Distances.Y*0.5 - float64(iy)*g.Distances.Y,
		Z: g.Center.Z + float64(nz-1)*g.Distances.Z*0.5 - float64(iz)*g.Distances.Z,
	}
}

// generatorMethods are the values of the method attribute.
func generatorMethods() []string { return []string{"constant", "uniform", "gaussian", "grid"} }

// ParseGenerator reads a <position> or <orientation> element of a
// <distribute>. Values of an <orientation> are angles in degrees, of any
// other element lengths in metres (only the error messages differ).
func ParseGenerator(n *Node) (Generator, error) {
	unit, axes := "in metres", [3]string{"x", "y", "z"}
	if n.Name == "orientation" {
		unit, axes = "in degrees", [3]string{"the z angle", "the y angle", "the x angle"}
	}
	method, err := n.String("method")
	if err != nil {
		return nil, n.Errorf(`attribute "method" is missing; add method="..." with %s`, orList(generatorMethods(), "%q"))
	}
	switch method {
	case "constant":
		if err := n.CheckAttrs("method", "values"); err != nil {
			return nil, err
		}
		v, err := n.Vector3("values")
		if err != nil {
			return nil, err
		}
		return ConstantGenerator{Value: v}, nil
	case "uniform":
		if err := n.CheckAttrs("method", "min", "max"); err != nil {
			return nil, err
		}
		lo, err := n.Vector3("min")
		if err != nil {
			return nil, err
		}
		hi, err := n.Vector3("max")
		if err != nil {
			return nil, err
		}
		for i, c := range [...][2]float64{{lo.X, hi.X}, {lo.Y, hi.Y}, {lo.Z, hi.Z}} {
			if c[0] > c[1] {
				return nil, n.Errorf("min=%q is greater than max=%q in %s; write min <= max for each of the three values (%s)",
					n.StringOr("min", ""), n.StringOr("max", ""), axes[i], unit)
			}
		}
		return UniformGenerator{Min: lo, Max: hi}, nil
	case "gaussian":
		if err := n.CheckAttrs("method", "mean", "std_dev"); err != nil {
			return nil, err
		}
		mean, err := n.Vector3("mean")
		if err != nil {
			return nil, err
		}
		sd, err := n.Vector3("std_dev")
		if err != nil {
			return nil, err
		}
		if sd.X < 0 || sd.Y < 0 || sd.Z < 0 {
			return nil, n.AttrErrorf("std_dev", "standard deviations must not be negative; write three numbers >= 0 %s", unit)
		}
		return GaussianGenerator{Mean: mean, StdDev: sd}, nil
	case "grid":
		if err := n.CheckAttrs("method", "center", "distances", "layout"); err != nil {
			return nil, err
		}
		center, err := n.Vector3("center")
		if err != nil {
			return nil, err
		}
		dist, err := n.Vector3("distances")
		if err != nil {
			return nil, err
		}
		layout, err := parseLayout(n)
		if err != nil {
			return nil, err
		}
		return &GridGenerator{Center: center, Distances: dist, Layout: layout}, nil
	}
	if method == "" {
		return nil, n.AttrErrorf("method", "the method is empty; write %s", orList(generatorMethods(), "%q"))
	}
	return nil, n.AttrErrorf("method", "unknown distribution method%s; write %s",
		ci.DidYouMean(method, generatorMethods(), "%q"), orList(generatorMethods(), "%q"))
}

// parseLayout reads layout="nx,ny,nz", each an integer >= 1.
func parseLayout(n *Node) ([3]int, error) {
	var out [3]int
	v, ok := n.Attr("layout")
	if !ok {
		return out, n.Errorf(`attribute "layout" is missing; add layout="nx,ny,nz" with the number of points along x, y and z, like "4,3,1"`)
	}
	if k := strings.Count(v, ",") + 1; k != 3 {
		return out, n.Errorf(`attribute layout=%q has %s; write three integers "nx,ny,nz" >= 1, like "4,3,1"`, quoted(v), countValues(k))
	}
	for i, p := range strings.Split(v, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || k < 1 {
			return out, n.AttrErrorf("layout", `%q is not an integer >= 1; write three integers "nx,ny,nz" >= 1, like "4,3,1"`, quoted(strings.TrimSpace(p)))
		}
		out[i] = k
	}
	return out, nil
}

// ParseDistribute reads a <distribute> element of the arena.
func ParseDistribute(n *Node) (*Distribute, error) {
	if n == nil {
		return nil, fmt.Errorf("config: ParseDistribute needs a <distribute> element, got nil")
	}
	if n.Name != "distribute" {
		return nil, n.Errorf("ParseDistribute reads <distribute> elements, not <%s>", n.Name)
	}
	if err := n.CheckAttrs(); err != nil {
		return nil, err
	}
	ch, err := uniqueChildren(n, "position", "orientation", "entity")
	if err != nil {
		return nil, err
	}
	d := &Distribute{Node: n}
	for _, s := range [...]struct {
		tag     string
		gen     *Generator
		example string
	}{
		{"position", &d.Position, `<position method="uniform" min="-1,-1,0" max="1,1,0"/>`},
		{"orientation", &d.Orientation, `<orientation method="constant" values="0,0,0"/>`},
	} {
		c := ch[s.tag]
		if c == nil {
			return nil, n.Errorf("element <%s> is missing; add one, like %s", s.tag, s.example)
		}
		if *s.gen, err = ParseGenerator(c); err != nil {
			return nil, err
		}
	}
	e := ch["entity"]
	if e == nil {
		return nil, n.Errorf(`element <entity> is missing; add <entity quantity="10" max_trials="100"> holding the entity to copy, like <e-puck id="ep"/>`)
	}
	if err := e.CheckAttrs("quantity", "max_trials", "base_num"); err != nil {
		return nil, err
	}
	if d.Quantity, err = e.Int("quantity"); err != nil {
		return nil, err
	}
	if d.Quantity <= 0 {
		return nil, e.AttrErrorf("quantity", "the quantity must be positive; write how many entities to place, like 10")
	}
	if d.Quantity > MaxEntities {
		return nil, e.AttrErrorf("quantity", "at most %d entities may be placed (and held by an arena); lower the quantity", MaxEntities)
	}
	if d.MaxTrials, err = e.Int("max_trials"); err != nil {
		return nil, err
	}
	if d.MaxTrials <= 0 {
		return nil, e.AttrErrorf("max_trials", "max_trials must be positive; write how many positions to try per entity before giving up, like 100")
	}
	if d.MaxTrials > MaxTrials {
		return nil, e.AttrErrorf("max_trials", "at most %d trials per entity are allowed; write how many positions to try per entity before giving up, like 100", MaxTrials)
	}
	if d.BaseNum, err = e.IntOr("base_num", 0); err != nil {
		return nil, err
	}
	if d.BaseNum < 0 {
		return nil, e.AttrErrorf("base_num", "base_num must not be negative; write the number of the first copy, like 0")
	}
	switch len(e.Children) {
	case 0:
		return nil, e.Errorf(`no entity to distribute; put the entity to copy inside <entity>, like <e-puck id="ep"><controller config="ctrl"/></e-puck>`)
	case 1:
	default:
		return nil, e.Children[1].Errorf("<entity> holds exactly one entity to copy, but <%s> comes after <%s> (line %d); put it in a <distribute> of its own",
			e.Children[1].Name, e.Children[0].Name, e.Children[0].Line)
	}
	d.Template = e.Children[0]
	if d.BaseID, err = d.Template.String("id"); err != nil {
		return nil, d.Template.Errorf(`attribute "id" is missing; add id="..." with the prefix of the ids of the copies (id="ep" names them ep0, ep1, ...)`)
	}
	if d.BaseID == "" {
		return nil, d.Template.AttrErrorf("id", `the id is empty; write the prefix of the ids of the copies, like id="ep" for ep0, ep1, ...`)
	}
	for _, s := range [...]struct {
		gen Generator
		tag string
	}{{d.Position, "position"}, {d.Orientation, "orientation"}} {
		if g, ok := s.gen.(*GridGenerator); ok && d.Quantity > g.Len() {
			return nil, e.AttrErrorf("quantity", "the grid of <%s> at line %d (layout=%q) has only %d points; lower the quantity or enlarge the layout",
				s.tag, ch[s.tag].Line, ch[s.tag].StringOr("layout", ""), g.Len())
		}
	}
	return d, nil
}

// ID returns the id of copy i (0-based): BaseID followed by BaseNum+i.
func (d *Distribute) ID(i int) string { return d.BaseID + strconv.Itoa(d.BaseNum+i) }

// IDs makes the ids of the copies, in order, the same strings as ID's, in
// blocks: a block's ids are parts of one string, so that a million ids
// are a few hundred allocations instead of a million.
type IDs struct {
	d     *Distribute
	next  int    // the copy whose id Next returns
	block string // the ids of copies from..from+len(ends)-1, one after the other
	from  int
	ends  []int // where each id of block ends
	buf   []byte
}

// idBlock is how many ids IDs makes at once.
const idBlock = 4096

// IDs returns the maker of the copies' ids, from copy 0 on.
func (d *Distribute) IDs() *IDs { return &IDs{d: d} }

// Next returns the id of the next copy: ID(0), then ID(1), and so on.
func (x *IDs) Next() string {
	k := x.next - x.from
	if k >= len(x.ends) {
		x.fill()
		k = 0
	}
	x.next++
	start := 0
	if k > 0 {
		start = x.ends[k-1]
	}
	return x.block[start:x.ends[k]]
}

// fill makes the block of ids from copy x.next on.
func (x *IDs) fill() {
	x.from = x.next
	n := idBlock
	if q := x.d.Quantity - x.next; q > 0 && q < n {
		n = q
	}
	x.buf, x.ends = x.buf[:0], x.ends[:0]
	for i := range n {
		x.buf = append(x.buf, x.d.BaseID...)
		x.buf = strconv.AppendInt(x.buf, int64(x.d.BaseNum+x.from+i), 10)
		x.ends = append(x.ends, len(x.buf))
	}
	x.block = string(x.buf)
}

// Sample returns the position and orientation of one placement trial,
// drawn from r. retry tells whether the previous trial for the same entity
// collided. As in ARGoS, a grid cannot retry: an entity that collides at
// its grid point is an error, and so is asking more points than the grid
// has. The errors are [*Error]s at the generator's element.
func (d *Distribute) Sample(r *rand.Rand, retry bool) (ci.Vector3, EulerDeg, error) {
	// one generator after the other, without pointers to the results (a
	// loop over them made both escape: two allocations per trial)
	pos, err := d.sample(d.Position, "position", r, retry)
	if err != nil {
		return pos, EulerDeg{}, err
	}
	o, err := d.sample(d.Orientation, "orientation", r, retry)
	if err != nil {
		return pos, EulerDeg{}, err
	}
	return pos, EulerDeg{Z: o.X, Y: o.Y, X: o.Z}, nil
}

// sample draws from gen, the generator of element tag, for Sample.
func (d *Distribute) sample(gen Generator, tag string, r *rand.Rand, retry bool) (ci.Vector3, error) {
	if g, ok := gen.(*GridGenerator); ok {
		n := d.Node.FirstChild(tag)
		if retry {
			i := max(g.next-1, 0)
			return ci.Vector3{}, n.Errorf("entity %q collides with something at grid point %d, and a grid cannot try another point; move the grid or the obstacle, or space the points further apart (distances)",
				d.ID(i), i)
		}
		if g.Remaining() <= 0 {
			return ci.Vector3{}, n.Errorf("all %d points of the grid are used; enlarge the layout or lower the quantity", g.Len())
		}
	}
	return gen.Next(r), nil
}
