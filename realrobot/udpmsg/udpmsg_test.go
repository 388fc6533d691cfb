package udpmsg_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/realrobottest"
	"github.com/argosgo/argos/realrobot/udpmsg"
)

func freePort(t *testing.T) string {
	t.Helper()
	c, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().String()
}

// Two robot runtimes exchange typed messages over loopback UDP.
func TestTwoRuntimes(t *testing.T) {
	a, b := freePort(t), freePort(t)
	const token = "lan-secret"
	ids := []string{"r1", "r2"}
	cfgs := []udpmsg.Config{
		{ID: "r1", Listen: a, Peers: []string{b}, Token: token},
		{ID: "r2", Listen: b, Peers: []string{a}, Token: token},
	}
	ctrls := []*citest.Counter{{}, {}}
	devs := realrobot.Devices{Sensors: []string{ci.TagMessaging}, Actuators: []string{ci.TagMessaging}}
	var rts []*realrobot.Runtime
	for i, cfg := range cfgs {
		link, err := udpmsg.Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := realrobot.New(udpmsg.Wrap(realrobottest.NewDriver(), link), realrobot.Spec{Label: "counter", ID: "c", Controller: ctrls[i], Devices: devs},
			realrobot.Options{RobotID: ids[i], TicksPerSecond: 50, Ticks: 25})
		if err != nil {
			t.Fatal(err)
		}
		rts = append(rts, rt)
	}
	var wg sync.WaitGroup
	for _, rt := range rts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := rt.Run(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, rt := range rts {
		if err := rt.Close(); err != nil {
			t.Error(err)
		}
	}
	for i, c := range ctrls {
		other := ids[1-i]
		if n, _ := c.Heard(other); n < 15 {
			t.Errorf("%s heard %v; want the count of %s up to at least 15 of 25", ids[i], c.HeardAll(), other)
		}
		if _, self := c.Heard(ids[i]); self {
			t.Errorf("%s heard itself", ids[i])
		}
	}
}

// A datagram with another token, or a message for another robot, is
// dropped.
func TestTokenAndAddressee(t *testing.T) {
	a := freePort(t)
	l, err := udpmsg.Open(udpmsg.Config{ID: "r1", Listen: a, Peers: []string{"127.0.0.1:9"}, Token: "good"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := net.Dial("udp", a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write(udpmsg.Encode(nil, "bad", []ci.Message{{Topic: "t", From: "x", Payload: []byte{1}}}))
	c.Write(udpmsg.Encode(nil, "good", []ci.Message{{Topic: "t", From: "x", To: "r9", Payload: []byte{2}}}))
	c.Write(udpmsg.Encode(nil, "good", []ci.Message{{Topic: "t", From: "x", To: "r1", Payload: []byte{3}}}))
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		l.Receive()
		if in := l.Inbox(); len(in) > 0 {
			if len(in) != 1 || in[0].Payload[0] != 3 {
				t.Fatalf("inbox %+v; want only the message to r1 with the right token", in)
			}
			return
		}
	}
	t.Fatal("the message to r1 never arrived")
}

func FuzzDecode(f *testing.F) {
	f.Add(udpmsg.Encode(nil, "tok", []ci.Message{{Topic: "a", From: "r1", Payload: []byte("hi")}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		ms, err := udpmsg.Decode(data, "tok", nil)
		if err != nil {
			return
		}
		again, err := udpmsg.Decode(udpmsg.Encode(nil, "tok", ms), "tok", nil)
		if err != nil || len(again) != len(ms) {
			t.Fatalf("%d messages re-encode to %d, %v", len(ms), len(again), err)
		}
	})
}

// The wrapped driver passes the conformance test of drivers.
func TestDriverConformance(t *testing.T) {
	l, err := udpmsg.Open(udpmsg.Config{ID: "r1", Listen: freePort(t), Peers: []string{freePort(t)}, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	realrobottest.TestDriver(t, udpmsg.Wrap(realrobottest.NewDriver(), l),
		realrobot.Devices{Sensors: []string{ci.TagProximity, ci.TagMessaging}, Actuators: []string{ci.TagDifferentialSteering, ci.TagMessaging}})
}
