package remote_test

import (
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/attach"
)

// counter broadcasts its step count on topic "count" and keeps the
// highest count heard from each robot.
type counter struct {
	topic *ci.Topic[uint32]
	n     uint32
	mu    sync.Mutex
	got   map[string]uint32
}

func (c *counter) Init(r ci.Robot, _ ci.Params) (err error) {
	c.got = map[string]uint32{}
	c.topic, err = ci.NewTopic[uint32](r, "count")
	return err
}

func (c *counter) ControlStep() {
	c.mu.Lock()
	for _, m := range c.topic.Received() {
		c.got[m.From] = max(c.got[m.From], m.Value)
	}
	c.mu.Unlock()
	c.n++
	c.topic.Broadcast(c.n)
}
func (c *counter) Reset()         {}
func (c *counter) Destroy() error { return nil }

func (c *counter) heard(id string) uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.got[id]
}

func init() {
	ci.Controllers.MustRegister("remote_test_counter", "Tests of simulator/remote: counts on topic count.", func() ci.Controller { return &counter{} })
}

// An attached controller's messages go through the simulation's channel
// to simulated robots, and theirs come back to it.
func TestMessagingThroughTheLink(t *testing.T) {
	exp, err := config.Load("testdata/messaging.argos")
	if err != nil {
		t.Fatal(err)
	}
	sim := newSim(t, exp)
	devs := realrobot.Devices{Sensors: []string{ci.TagMessaging}, Actuators: []string{ci.TagDifferentialSteering, ci.TagMessaging}}
	drv, err := attach.Dial(attach.Options{Addr: server(t, sim).Addr(), Token: token, RobotID: "fb0", Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	remote := &counter{}
	if err := remote.Init(realrobot.NewRobot("fb0", 3, drv, devs), ci.Params{}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for drv.Sense() == nil {
			remote.ControlStep()
			if drv.Act() != nil {
				return
			}
		}
	}()
	for range 30 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	sim.Close()
	<-done
	drv.Close()
	local := sim.Controller(1).(*counter)
	if h := local.heard("fb0"); h < 25 {
		t.Errorf("the simulated robot heard the attached one up to %d of 30", h)
	}
	if h := remote.heard("fb1"); h < 25 {
		t.Errorf("the attached robot heard the simulated one up to %d of 30", h)
	}
}
