package eyebot_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/eyebot"
)

func unhex(s string) []byte {
	var b []byte
	for _, f := range strings.Fields(s) {
		var x byte
		fmt.Sscanf(f, "%02x", &x)
		b = append(b, x)
	}
	return b
}

// TestFrames checks the exact Aseba messages of the eye-bot driver
// against a scripted switch.
func TestFrames(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	b, _ := boards.Lookup("eyebot")
	b.Aseba.Address = ln.Addr().String()
	devs := realrobot.Devices{Sensors: []string{ci.TagAltitude, ci.TagPositioning}, Actuators: []string{ci.TagQuadrotorPosition}}
	done := make(chan error, 1)
	var drv *eyebot.Driver
	go func() {
		var err error
		drv, err = eyebot.Open(b, devs, nil)
		done <- err
	}()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	expect := func(hexs string) {
		t.Helper()
		want := unhex(hexs)
		got := make([]byte, len(want))
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("driver sent\n% x (%v)\nwant\n% x", got, err, want)
		}
	}
	reply := func(hexs string) { c.Write(unhex(hexs)) }
	// Open: ask nodes 1-3 for their descriptions (no answer: the
	// board's fixed addresses), hover (mode 0, zero speed target), read
	// the mode back, then the pose and the altitude.
	expect("04 00 e8 03 10 a0 01 00 05 00  04 00 e8 03 10 a0 02 00 05 00  04 00 e8 03 10 a0 03 00 05 00")
	expect("06 00 e8 03 0c a0 01 00 00 00 00 00  0c 00 e8 03 0c a0 01 00 05 00 00 00 00 00 00 00 00 00")
	expect("06 00 e8 03 0b a0 01 00 00 00 01 00")
	reply("04 00 01 00 05 90 00 00 00 00")
	expect("06 00 e8 03 0b a0 01 00 09 00 04 00  06 00 e8 03 0b a0 01 00 0d 00 01 00")
	reply("0a 00 01 00 05 90 09 00 e8 03 0c fe dc 05 23 06  04 00 01 00 05 90 0d 00 dc 05")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	pos, _ := drv.Sensor(ci.TagPositioning)
	p := pos.(ci.Positioning).Reading()
	if p.Position != (ci.Vector3{X: 1, Y: -0.5, Z: 1.5}) || math.Abs(p.Orientation.Yaw()-1.571) > 1e-9 {
		t.Errorf("pose %+v", p)
	}
	// Act: the position target (mm, mrad), then mode 1.
	fly, _ := drv.Actuator(ci.TagQuadrotorPosition)
	fly.(ci.QuadrotorPosition).SetAbsolutePosition(ci.Vector3{X: 1, Y: 2, Z: 1.5})
	go func() { done <- drv.Act() }()
	expect("0c 00 e8 03 0c a0 01 00 01 00 e8 03 d0 07 dc 05 23 06  06 00 e8 03 0c a0 01 00 00 00 01 00")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
