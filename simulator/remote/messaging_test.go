package remote_test

import (
	"math"
	"os"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/attach"
)

func init() {
	ci.Controllers.MustRegister("remote_test_counter", "Tests of simulator/remote: counts on topic count.", func() ci.Controller { return &citest.Counter{} })
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
	remote := &citest.Counter{}
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
	local := sim.Controller(1).(*citest.Counter)
	if h, _ := local.Heard("fb0"); h < 25 {
		t.Errorf("the simulated robot heard the attached one up to %d of 30", h)
	}
	if h, _ := remote.Heard("fb1"); h < 25 {
		t.Errorf("the attached robot heard the simulated one up to %d of 30", h)
	}
}

// Range and bearing through the link: the attached robot hears the
// simulated one at its distance.
func TestRangeAndBearingThroughTheLink(t *testing.T) {
	data, err := os.ReadFile("testdata/messaging.argos")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(
		`<messaging implementation="default" />
      </actuators>`, `<messaging implementation="default" />
        <range_and_bearing implementation="default" />
      </actuators>`,
		`<messaging implementation="default" />
      </sensors>`, `<messaging implementation="default" />
        <range_and_bearing implementation="medium" medium="rab" />
      </sensors>`,
		`<channel id="radio" />`, `<channel id="radio" /><range_and_bearing id="rab" />`).Replace(string(data))
	sim := newSim(t, loadText(t, "rab.argos", s))
	devs := realrobot.Devices{Sensors: []string{ci.TagRangeAndBearing}, Actuators: []string{ci.TagRangeAndBearing}}
	drv, err := attach.Dial(attach.Options{Addr: server(t, sim).Addr(), Token: token, RobotID: "fb0", Devices: devs})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	a, _ := drv.Actuator(ci.TagRangeAndBearing)
	a.(ci.RangeAndBearingActuator).SetData([]byte{42})
	var got []ci.RABPacket
	for range 3 {
		errc := make(chan error, 1)
		go func() { errc <- sim.Step() }()
		if err := drv.Sense(); err != nil {
			t.Fatal(err)
		}
		d, _ := drv.Sensor(ci.TagRangeAndBearing)
		got = d.(ci.RangeAndBearingSensor).Packets()
		if err := drv.Act(); err != nil {
			t.Fatal(err)
		}
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 || math.Abs(got[0].Range-100) > 5 {
		t.Errorf("the attached robot heard %+v; want fb1 at about 100 cm", got)
	}
}
