// Package examples links every example loop function of this repository
// into a simulator binary with one blank import:
//
//	import _ "github.com/argosgo/argos/loop_functions/examples"
//
// Loop functions live in the simulator only: never import this package
// from a robot binary (use github.com/argosgo/argos/controllers/examples
// there).
package examples

import (
	_ "github.com/argosgo/argos/loop_functions/coverage"
	_ "github.com/argosgo/argos/loop_functions/custom_distributions"
	_ "github.com/argosgo/argos/loop_functions/foraging"
	_ "github.com/argosgo/argos/loop_functions/id"
	_ "github.com/argosgo/argos/loop_functions/manualcontrol"
	_ "github.com/argosgo/argos/loop_functions/phototaxis"
	_ "github.com/argosgo/argos/loop_functions/pose_sweep"
	_ "github.com/argosgo/argos/loop_functions/prey_retrieval"
	_ "github.com/argosgo/argos/loop_functions/trace"
	_ "github.com/argosgo/argos/loop_functions/trajectory"
)
