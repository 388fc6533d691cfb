package config

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

// distribute builds a <distribute> element from its three children; the
// <distribute> tag is on line 2, position on 3, orientation on 4, entity
// on 5 and the template on 6.
func distribute(t *testing.T, position, orientation, entity, template string) *Node {
	t.Helper()
	lines := []string{"<distribute>"}
	for _, s := range []string{position, orientation, entity, template} {
		if s != "" {
			lines = append(lines, s)
		}
	}
	if entity != "" {
		lines = append(lines, "</entity>")
	}
	lines = append(lines, "</distribute>")
	return elem(t, strings.Join(lines, "\n"))
}

const (
	uniformPos  = `<position method="uniform" min="-1,-1,0" max="1,1,0"/>`
	constOrient = `<orientation method="constant" values="90,0,0"/>`
	entity10    = `<entity quantity="10" max_trials="100">`
	epuck       = `<e-puck id="ep"><controller config="c"/></e-puck>`
)

func TestParseDistribute(t *testing.T) {
	d, err := ParseDistribute(distribute(t, uniformPos, constOrient, `<entity quantity="10" max_trials="100" base_num="5">`, epuck))
	if err != nil {
		t.Fatal(err)
	}
	if d.Quantity != 10 || d.MaxTrials != 100 || d.BaseNum != 5 || d.BaseID != "ep" ||
		d.Template.Name != "e-puck" || d.Template.Line != 6 || d.Node.Line != 2 {
		t.Errorf("distribute = %+v", d)
	}
	if got := []string{d.ID(0), d.ID(9)}; !reflect.DeepEqual(got, []string{"ep5", "ep14"}) {
		t.Errorf("ids = %v", got)
	}
	if want := (UniformGenerator{Min: ci.Vector3{X: -1, Y: -1}, Max: ci.Vector3{X: 1, Y: 1}}); d.Position != want {
		t.Errorf("position = %#v, want %#v", d.Position, want)
	}
	if want := (ConstantGenerator{Value: ci.Vector3{X: 90}}); d.Orientation != want {
		t.Errorf("orientation = %#v, want %#v", d.Orientation, want)
	}
}

func TestParseGenerator(t *testing.T) {
	tests := []struct {
		src  string
		want Generator
	}{
		{`<position method="constant" values="1,2,3"/>`, ConstantGenerator{Value: ci.Vector3{X: 1, Y: 2, Z: 3}}},
		{`<position method="uniform" min="0,0,0" max="0,0,0"/>`, UniformGenerator{}},
		{`<position method="gaussian" mean="1,1,0" std_dev="0.5,0.5,0"/>`,
			GaussianGenerator{Mean: ci.Vector3{X: 1, Y: 1}, StdDev: ci.Vector3{X: 0.5, Y: 0.5}}},
		{`<position method="grid" center="0,0,0" distances="1,1,0" layout=" 3, 2 ,1"/>`,
			&GridGenerator{Distances: ci.Vector3{X: 1, Y: 1}, Layout: [3]int{3, 2, 1}}},
	}
	for _, tt := range tests {
		got, err := ParseGenerator(elem(t, tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

func TestParseDistributeErrors(t *testing.T) {
	const pos, ori, ent, tpl = "t.argos:3: <position>: ", "t.argos:4: <orientation>: ", "t.argos:5: <entity>: ", "t.argos:6: "
	tests := []struct {
		name                            string
		position, orientation, ent, tpl string
		wantErr                         []string
	}{
		{"missing position", "", constOrient, entity10, epuck,
			[]string{`t.argos:2: <distribute>: element <position> is missing; add one, like <position method="uniform"`}},
		{"missing orientation", uniformPos, "", entity10, epuck,
			[]string{`t.argos:2: <distribute>: element <orientation> is missing; add one, like <orientation method="constant"`}},
		{"missing entity", uniformPos, constOrient, "", "",
			[]string{`t.argos:2: <distribute>: element <entity> is missing; add <entity quantity="10" max_trials="100">`}},
		{"unknown child", uniformPos, constOrient + "\n<orientaton/>", entity10, epuck,
			[]string{`t.argos:5: <orientaton>: unknown element inside <distribute> (did you mean <orientation>?)`}},
		{"duplicate child", uniformPos, uniformPos, entity10, epuck,
			[]string{`t.argos:4: <position>: <position> appears twice in <distribute> (first at line 3)`}},

		{"method missing", `<position min="0,0,0" max="1,1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute "method" is missing; add method="..." with "constant", "uniform", "gaussian" or "grid"`}},
		{"method unknown", `<position method="uniformly"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute method="uniformly": unknown distribution method (did you mean "uniform"?); write "constant", "uniform", "gaussian" or "grid"`}},
		{"method empty", `<position method=""/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute method="": the method is empty`}},
		{"constant values missing", `<position method="constant" value="1,1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `unknown attribute "value" (did you mean "values"?); <position> accepts method and values`}},
		{"constant values bad", uniformPos, `<orientation method="constant" values="90"/>`, entity10, epuck,
			[]string{ori + `attribute values="90" has 1 value; write three numbers`}},
		{"uniform min missing", `<position method="uniform" max="1,1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute "min" is missing; add min="x,y,z"`}},
		{"uniform max bad", `<position method="uniform" min="0,0,0" max="1,1"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute max="1,1" has 2 comma-separated values`}},
		{"uniform min above max", `<position method="uniform" min="0,2,0" max="1,1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `min="0,2,0" is greater than max="1,1,0" in y; write min <= max for each of the three values (in metres)`}},
		{"uniform orientation min above max", uniformPos, `<orientation method="uniform" min="360,0,0" max="0,0,0"/>`, entity10, epuck,
			[]string{ori + `min="360,0,0" is greater than max="0,0,0" in the z angle`, "(in degrees)"}},
		{"gaussian std_dev negative", `<position method="gaussian" mean="0,0,0" std_dev="1,-1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute std_dev="1,-1,0": standard deviations must not be negative`}},
		{"gaussian mean missing", `<position method="gaussian" std_dev="1,1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute "mean" is missing`}},
		{"gaussian unknown attribute", `<position method="gaussian" mean="0,0,0" std_dev="1,1,0" stddev="1"/>`, constOrient, entity10, epuck,
			[]string{pos + `unknown attribute "stddev" (did you mean "std_dev"?)`}},
		{"grid layout missing", `<position method="grid" center="0,0,0" distances="1,1,0"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute "layout" is missing; add layout="nx,ny,nz"`}},
		{"grid layout zero", `<position method="grid" center="0,0,0" distances="1,1,0" layout="2,0,1"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute layout="2,0,1": "0" is not an integer >= 1`}},
		{"grid layout fraction", `<position method="grid" center="0,0,0" distances="1,1,0" layout="2.5,1,1"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute layout="2.5,1,1": "2.5" is not an integer >= 1`}},
		{"grid layout count", `<position method="grid" center="0,0,0" distances="1,1,0" layout="10,1"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute layout="10,1" has 2 comma-separated values; write three integers`}},
		{"grid center missing", `<position method="grid" distances="1,1,0" layout="10,1,1"/>`, constOrient, entity10, epuck,
			[]string{pos + `attribute "center" is missing`}},
		{"grid too small", `<position method="grid" center="0,0,0" distances="1,1,0" layout="3,3,1"/>`, constOrient, entity10, epuck,
			[]string{ent + `attribute quantity="10": the grid of <position> at line 3 (layout="3,3,1") has only 9 points; lower the quantity or enlarge the layout`}},
		{"orientation grid too small", uniformPos, `<orientation method="grid" center="0,0,0" distances="10,0,0" layout="2,1,1"/>`, entity10, epuck,
			[]string{ent + `attribute quantity="10": the grid of <orientation> at line 4`, "has only 2 points"}},

		{"entity quantity missing", uniformPos, constOrient, `<entity max_trials="100">`, epuck,
			[]string{ent + `attribute "quantity" is missing; add quantity="..." with an integer`}},
		{"entity quantity zero", uniformPos, constOrient, `<entity quantity="0" max_trials="100">`, epuck,
			[]string{ent + `attribute quantity="0": the quantity must be positive`}},
		{"entity quantity bad", uniformPos, constOrient, `<entity quantity="many" max_trials="100">`, epuck,
			[]string{ent + `attribute quantity="many" is not an integer`}},
		{"entity max_trials missing", uniformPos, constOrient, `<entity quantity="10">`, epuck,
			[]string{ent + `attribute "max_trials" is missing`}},
		{"entity max_trials zero", uniformPos, constOrient, `<entity quantity="10" max_trials="0">`, epuck,
			[]string{ent + `attribute max_trials="0": max_trials must be positive`}},
		{"entity base_num negative", uniformPos, constOrient, `<entity quantity="10" max_trials="1" base_num="-1">`, epuck,
			[]string{ent + `attribute base_num="-1": base_num must not be negative`}},
		{"entity unknown attribute", uniformPos, constOrient, `<entity quantity="10" max_trial="1">`, epuck,
			[]string{ent + `unknown attribute "max_trial" (did you mean "max_trials"?)`}},
		{"entity empty", uniformPos, constOrient, entity10, " ",
			[]string{ent + `no entity to distribute; put the entity to copy inside <entity>`}},
		{"entity two templates", uniformPos, constOrient, entity10, epuck + "\n<foot-bot id=\"fb\"/>",
			[]string{`t.argos:7: <foot-bot id="fb">: <entity> holds exactly one entity to copy, but <foot-bot> comes after <e-puck> (line 6); put it in a <distribute> of its own`}},
		{"template without id", uniformPos, constOrient, entity10, `<e-puck/>`,
			[]string{tpl + `<e-puck>: attribute "id" is missing; add id="..." with the prefix of the ids of the copies (id="ep" names them ep0, ep1, ...)`}},
		{"template empty id", uniformPos, constOrient, entity10, `<e-puck id=""/>`,
			[]string{tpl + `<e-puck id="">: attribute id="": the id is empty`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseDistribute(distribute(t, tt.position, tt.orientation, tt.ent, tt.tpl))
			checkErr(t, err, tt.wantErr...)
		})
	}
}

func TestParseDistributeWrongElement(t *testing.T) {
	_, err := ParseDistribute(elem(t, `<box id="b"/>`))
	checkErr(t, err, `t.argos:2: <box id="b">: ParseDistribute reads <distribute> elements, not <box>`)
	if _, err := ParseDistribute(nil); err == nil || !strings.HasPrefix(err.Error(), "config: ") {
		t.Errorf("ParseDistribute(nil) = %v", err)
	}
	_, err = ParseDistribute(elem(t, "<distribute x=\"1\"/>"))
	checkErr(t, err, `t.argos:2: <distribute>: unknown attribute "x"`)
}

func TestUniformGenerator(t *testing.T) {
	g := UniformGenerator{Min: ci.Vector3{X: -1, Y: 2, Z: 5}, Max: ci.Vector3{X: 1, Y: 3, Z: 5}}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		v := g.Next(r)
		if v.X < -1 || v.X >= 1 || v.Y < 2 || v.Y >= 3 || v.Z != 5 {
			t.Fatalf("sample %v outside [min, max)", v)
		}
	}
	a := g.Next(rand.New(rand.NewPCG(7, 7)))
	b := g.Next(rand.New(rand.NewPCG(7, 7)))
	if a != b {
		t.Errorf("same seed gave %v and %v", a, b)
	}
}

func TestGaussianGenerator(t *testing.T) {
	g := GaussianGenerator{Mean: ci.Vector3{X: 1, Y: -2, Z: 0}, StdDev: ci.Vector3{X: 0.5, Y: 2, Z: 0}}
	r := rand.New(rand.NewPCG(3, 4))
	const n = 20000
	var sx, sy, sxx float64
	for range n {
		v := g.Next(r)
		if v.Z != 0 {
			t.Fatalf("std_dev 0 must give the mean, got %v", v.Z)
		}
		sx += v.X
		sy += v.Y
		sxx += (v.X - 1) * (v.X - 1)
	}
	if mx, my, sdx := sx/n, sy/n, math.Sqrt(sxx/n); math.Abs(mx-1) > 0.02 || math.Abs(my+2) > 0.08 || math.Abs(sdx-0.5) > 0.02 {
		t.Errorf("mean x %v, mean y %v, std_dev x %v", mx, my, sdx)
	}
}

func TestConstantGenerator(t *testing.T) {
	g := ConstantGenerator{Value: ci.Vector3{X: 1, Y: 2, Z: 3}}
	if g.Next(nil) != g.Value {
		t.Error("constant generator changed its value")
	}
}

func TestGridGenerator(t *testing.T) {
	g, err := NewGridGenerator(ci.Vector3{X: 10, Y: 20, Z: 1}, ci.Vector3{X: 1, Y: 2, Z: 0.5}, [3]int{3, 2, 2})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 12 || g.Remaining() != 12 {
		t.Fatalf("Len %d Remaining %d", g.Len(), g.Remaining())
	}
	// As in ARGoS: x fastest, then y, then z, starting from the positive
	// corner and stepping by -distances, centred on center.
	want := []ci.Vector3{
		{X: 11, Y: 21, Z: 1.25}, {X: 10, Y: 21, Z: 1.25}, {X: 9, Y: 21, Z: 1.25},
		{X: 11, Y: 19, Z: 1.25}, {X: 10, Y: 19, Z: 1.25}, {X: 9, Y: 19, Z: 1.25},
		{X: 11, Y: 21, Z: 0.75}, {X: 10, Y: 21, Z: 0.75}, {X: 9, Y: 21, Z: 0.75},
		{X: 11, Y: 19, Z: 0.75}, {X: 10, Y: 19, Z: 0.75}, {X: 9, Y: 19, Z: 0.75},
	}
	var sum ci.Vector3
	for i, w := range want {
		got := g.Next(nil)
		if got != w {
			t.Errorf("point %d = %v, want %v", i, got, w)
		}
		sum = sum.Add(got)
		if g.Remaining() != len(want)-i-1 {
			t.Errorf("Remaining after %d points = %d", i+1, g.Remaining())
		}
	}
	if c := (ci.Vector3{X: sum.X / 12, Y: sum.Y / 12, Z: sum.Z / 12}); c != g.Center {
		t.Errorf("grid centred on %v, want %v", c, g.Center)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "Remaining") {
				t.Errorf("Next past the end: recover() = %v", r)
			}
		}()
		g.Next(nil)
	}()
	g.Reset()
	if g.Remaining() != 12 || g.Next(nil) != want[0] {
		t.Error("Reset must start from the first point again")
	}

	for _, layout := range [][3]int{{0, 1, 1}, {1, -1, 1}, {1, 1, 0}} {
		if _, err := NewGridGenerator(ci.Vector3{}, ci.Vector3{}, layout); err == nil || !strings.HasPrefix(err.Error(), "config: ") {
			t.Errorf("layout %v: err = %v", layout, err)
		}
	}
	big := &GridGenerator{Layout: [3]int{math.MaxInt / 2, 3, 1}}
	if big.Len() != math.MaxInt {
		t.Errorf("Len must saturate, got %d", big.Len())
	}
}

func TestDistributeSample(t *testing.T) {
	d, err := ParseDistribute(distribute(t, uniformPos,
		`<orientation method="uniform" min="0,0,0" max="360,0,0"/>`, entity10, epuck))
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 1))
	for i := range 50 {
		p1, o1, err1 := d.Sample(r1, i%2 == 1)
		p2, o2, err2 := d.Sample(r2, i%2 == 1)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if p1 != p2 || o1 != o2 {
			t.Fatal("same seed must give the same samples")
		}
		if p1.X < -1 || p1.X >= 1 || p1.Z != 0 || o1.Z < 0 || o1.Z >= 360 || o1.Y != 0 || o1.X != 0 {
			t.Fatalf("sample %v %+v out of range", p1, o1)
		}
	}

	// Orientation samples map X,Y,Z to the Euler angles z,y,x.
	d, err = ParseDistribute(distribute(t, uniformPos, `<orientation method="constant" values="90,10,5"/>`, entity10, epuck))
	if err != nil {
		t.Fatal(err)
	}
	if _, o, err := d.Sample(r1, false); err != nil || o != (EulerDeg{Z: 90, Y: 10, X: 5}) {
		t.Errorf("orientation = %+v, %v", o, err)
	}
}

func TestDistributeSampleGrid(t *testing.T) {
	d, err := ParseDistribute(distribute(t,
		`<position method="grid" center="0,0,0" distances="1,1,0" layout="2,1,1"/>`, constOrient,
		`<entity quantity="2" max_trials="5">`, epuck))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	p, _, err := d.Sample(r, false)
	if err != nil || p != (ci.Vector3{X: 0.5}) {
		t.Fatalf("first point %v, %v", p, err)
	}
	_, _, err = d.Sample(r, true)
	checkErr(t, err, `t.argos:3: <position>: entity "ep0" collides with something at grid point 0, and a grid cannot try another point`)
	if p, _, err = d.Sample(r, false); err != nil || p != (ci.Vector3{X: -0.5}) {
		t.Fatalf("second point %v, %v", p, err)
	}
	_, _, err = d.Sample(r, false)
	checkErr(t, err, `t.argos:3: <position>: all 2 points of the grid are used`)
}

// A trial draws the position, then the orientation, from the stream, and
// allocates nothing: a million robots take over a million trials.
func TestDistributeSampleOrderAndAllocs(t *testing.T) {
	d, err := ParseDistribute(distribute(t, uniformPos,
		`<orientation method="uniform" min="0,0,0" max="360,0,0"/>`, entity10, epuck))
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := rand.New(rand.NewPCG(3, 4)), rand.New(rand.NewPCG(3, 4))
	for range 20 {
		p, o, err := d.Sample(r1, false)
		wp, wo := d.Position.Next(r2), d.Orientation.Next(r2)
		if err != nil || p != wp || o != (EulerDeg{Z: wo.X, Y: wo.Y, X: wo.Z}) {
			t.Fatalf("Sample gave %v %+v (%v), want the position %v drawn before the orientation %v", p, o, err, wp, wo)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _, _, _ = d.Sample(r1, true) }); n != 0 {
		t.Errorf("Sample allocates %g times per trial, want 0", n)
	}
}
