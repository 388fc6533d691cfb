package realrobot_test

import (
	"context"
	"fmt"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/controllers/diffusion"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/realrobottest"
)

// A runtime runs a controller on a driver: here the diffusion
// controller on the fake driver of realrobottest, for five ticks at
// 100 Hz. The robot command does the same with realrobot.Open, which
// finds the driver of the board's protocol.
func Example() {
	drv := realrobottest.NewDriver()
	rt, err := realrobot.New(drv, realrobot.Spec{
		Label: diffusion.EPuckLabel, ID: "edc", Controller: diffusion.New(), Params: ci.NewParams("velocity", "8"),
		Devices: realrobot.Devices{Sensors: []string{ci.TagEPuckProximity}, Actuators: []string{ci.TagDifferentialSteering}},
	}, realrobot.Options{RobotID: "ep0", TicksPerSecond: 100, Ticks: 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = rt.Run(context.Background())
	fmt.Println("run:", err, "ticks:", rt.Ticks())
	for _, e := range drv.Events()[:2] {
		fmt.Println(e.Call, e.Motors)
	}
	fmt.Println("after the run:", drv.Motors())
	fmt.Println("close:", rt.Close())
	// Output:
	// run: <nil> ticks: 5
	// sense [0 0]
	// act [8 8]
	// after the run: [0 0]
	// close: <nil>
}
