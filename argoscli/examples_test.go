package argoscli

// The tests run the shipped experiments, as cmd/argos does.
import (
	_ "github.com/argosgo/argos/controllers/examples"
	_ "github.com/argosgo/argos/loop_functions/examples"
)
