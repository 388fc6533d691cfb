// Package examples links every example controller of this repository
// (ports of ARGoS's examples and the project's own) into a binary with
// one blank import, in the simulator as on a robot:
//
//	import _ "github.com/argosgo/argos/controllers/examples"
//
// A binary links only the controllers it imports: without this import
// none of them is registered, so a project may register its own
// controllers under the same ARGoS labels (footbot_diffusion_controller,
// ...). Importing both is reported at start-up as a clash naming the two
// packages.
package examples

import (
	_ "github.com/argosgo/argos/controllers/ascari/consensus"
	_ "github.com/argosgo/argos/controllers/ascari/rendezvous"
	_ "github.com/argosgo/argos/controllers/ascari/traffic"
	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/controllers/epuck_obstacleavoidance"
	_ "github.com/argosgo/argos/controllers/eyebot_circle"
	_ "github.com/argosgo/argos/controllers/eyebot_flocking"
	_ "github.com/argosgo/argos/controllers/eyebot_hover"
	_ "github.com/argosgo/argos/controllers/fixed_wheels"
	_ "github.com/argosgo/argos/controllers/flocking"
	_ "github.com/argosgo/argos/controllers/footbot_manualcontrol"
	_ "github.com/argosgo/argos/controllers/footbot_nn"
	_ "github.com/argosgo/argos/controllers/foraging"
	_ "github.com/argosgo/argos/controllers/gripping"
	_ "github.com/argosgo/argos/controllers/prey_retrieval"
	_ "github.com/argosgo/argos/controllers/sensor_probe"
	_ "github.com/argosgo/argos/controllers/synchronization"
)
