package sweep_test

import (
	"os"
	"testing"

	"github.com/argosgo/argos/argoscli"

	_ "github.com/argosgo/argos/controllers/examples"
	_ "github.com/argosgo/argos/loop_functions/examples"
)

// asArgos makes the test binary the argos program of the runs it starts:
// a child started with it in its environment runs argoscli.Run.
const asArgos = "ARGOS_SWEEP_TEST_AS_ARGOS=1"

func TestMain(m *testing.M) {
	if os.Getenv("ARGOS_SWEEP_TEST_AS_ARGOS") == "1" {
		os.Exit(argoscli.Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
