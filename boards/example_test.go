package boards_test

import (
	"fmt"

	"github.com/argosgo/argos/boards"
)

// A board definition says which link, bus or port, and devices a robot
// has; the robot command looks one up by name (-b) and may retarget its
// link for emulated hardware.
func Example() {
	b, err := boards.Lookup("pipuck")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Model, b.Protocol, b.I2C.Bus, fmt.Sprintf("%#x", b.I2C.Addr))
	fmt.Println(b.Target.GOARCH, "GOARM="+b.Target.GOARM)
	fmt.Println(b.HasSensor("epuck_proximity"), b.HasSensor("footbot_proximity"))
	// Output:
	// e-puck epuck2-i2c /dev/i2c-12 0x1f
	// arm GOARM=6
	// true false
}
