// Command robot runs a controller on a real robot (robot -c FILE.argos
// -i CONTROLLER_ID); see package robotcli for its flags. This build links
// every example controller of this repository.
package main

import (
	"github.com/argosgo/argos/robotcli"

	_ "github.com/argosgo/argos/controllers/examples"
)

func main() { robotcli.Main() }
