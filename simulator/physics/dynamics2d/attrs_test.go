package dynamics2d_test

import (
	"errors"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/space"
)

func mustParse(t *testing.T, engine string) *config.Node {
	t.Helper()
	exp, err := config.Parse("x.argos", experiment(engine))
	if err != nil {
		t.Fatal(err)
	}
	return exp.PhysicsEngines[0]
}

func TestAttributeErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		engine string
		line   int
		want   []string
	}{
		{"iterations 0", `<dynamics2d id="d" iterations="0"/>`, engineLine, []string{"iterations=0", "positive"}},
		{"iterations negative", `<dynamics2d id="d" iterations="-3"/>`, engineLine, []string{"iterations"}},
		{"iterations huge", `<dynamics2d id="d" iterations="1000000000"/>`, engineLine, []string{"iterations=1000000000", "at most 10000"}},
		{"iterations x", `<dynamics2d id="d" iterations="x"/>`, engineLine, []string{`iterations="x"`, "integer"}},
		{"spatial index", `<dynamics2d id="d" spatial_index="foo"/>`, engineLine, []string{`"foo"`, "bbtree", "hash"}},
		{"cell size", `<dynamics2d id="d" spatial_index="hash" active_cell_size="0"/>`, engineLine, []string{"active_cell_size"}},
		{"cell size x", `<dynamics2d id="d" spatial_index="hash" active_cell_size="big"/>`, engineLine, []string{"active_cell_size"}},
		{"cells", `<dynamics2d id="d" spatial_index="hash" active_cells="-1"/>`, engineLine, []string{"active_cells"}},
		{"unknown attribute", `<dynamics2d id="d" iteration="10"/>`, engineLine, []string{`"iteration"`, "iterations"}},
		{"missing id", `<dynamics2d iterations="10"/>`, engineLine, []string{`"id"`}},
		{"unknown child", `<dynamics2d id="d">
      <boundary/>
    </dynamics2d>`, engineLine + 1, []string{"<boundary>", "<boundaries>"}},
		{"bad boundaries", `<dynamics2d id="d">
      <boundaries>
        <sides><vertex point="0,0"/><vertex point="0,1"/><vertex point="1,0"/></sides>
      </boundaries>
    </dynamics2d>`, engineLine + 1, []string{"counter-clockwise"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sp := space.New(ci.Vector3{}, ci.Vector3{X: 1, Y: 1, Z: 1})
			e, err := build(sp, tc.engine)
			if e != nil {
				t.Errorf("got an engine along with error %v", err)
			}
			wantErr(t, err, tc.line, tc.want...)
			var ce *config.Error
			if !errors.As(err, &ce) || ce.File != "x.argos" || ce.Line != tc.line {
				t.Errorf("error %v is not a *config.Error at x.argos:%d", err, tc.line)
			}
		})
	}
}

// TestAttributes checks that the accepted settings build working engines.
func TestAttributes(t *testing.T) {
	for _, engine := range []string{
		`<dynamics2d id="d"/>`,
		`<dynamics2d id="d" iterations="20" spatial_index="bbtree"/>`,
		`<dynamics2d id="d" spatial_index="hash"/>`,
		`<dynamics2d id="d" spatial_index="hash" active_cell_size="0.3" active_cells="100"/>`,
		// ARGoS attributes that have no effect here are accepted.
		`<dynamics2d id="d" static_cell_size="0.1" static_cells="10" elevation="0"/>`,
	} {
		w := newWorld(t, 4, engine)
		if w.eng.ID() != "d" {
			t.Errorf("%s: ID = %q", engine, w.eng.ID())
		}
		a := w.add(footBot, "a", -0.5, 0, 0)
		b := w.add(footBot, "b", 0.5, 0, 0)
		w.box("wall", 1, 0, 0.05, 1, 0, 0)
		w.sp.Reindex()
		w.drive(a, 0.1, 0)
		w.drive(b, 0.1, 0)
		w.ticks(60)
		if x := w.body(a).Pos.X; x < 0.09 || x > 0.11 {
			t.Errorf("%s: free robot at x = %.4f after 6 s at 0.1 m/s from -0.5, want about 0.1", engine, x)
		}
		if x := w.body(b).Pos.X; x > 1-0.05-footBot.Radius+0.01 || x < 0.85 {
			t.Errorf("%s: robot driving into the wall at x = %.4f", engine, x)
		}
	}
}
