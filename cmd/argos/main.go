// Command argos runs ARGoS experiments (argos -c FILE.argos) with every
// example controller and loop function of this repository; see package
// argoscli for its flags and subcommands.
package main

import (
	"github.com/argosgo/argos/argoscli"

	_ "github.com/argosgo/argos/controllers/examples"
	_ "github.com/argosgo/argos/loop_functions/examples"
)

func main() { argoscli.Main() }
