package dynamics2d_test

import (
	"testing"

	"github.com/argosgo/argos/simulator/physics"
	"github.com/argosgo/argos/simulator/physics/dynamics2d"
	"github.com/argosgo/argos/simulator/physics/physicstest"
	"github.com/argosgo/argos/simulator/space"
)

func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name    string
		engine  string
		forceCP bool
	}{
		{"bbtree", `<dynamics2d id="dyn"/>`, false},
		{"hash", `<dynamics2d id="dyn" spatial_index="hash" active_cell_size="0.2" active_cells="500"/>`, false},
		{"two iterations", `<dynamics2d id="dyn" iterations="2"/>`, false},
		{"all in cp", `<dynamics2d id="dyn"/>`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			physicstest.TestEngine(t, func(sp *space.Space) physics.Engine {
				e := newEngine(t, sp, tc.engine)
				dynamics2d.ForceCP(e, tc.forceCP)
				return e
			})
		})
	}
}
