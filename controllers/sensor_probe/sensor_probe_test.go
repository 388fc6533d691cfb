package sensor_probe_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/sensor_probe"
)

// The probe lists every reading of every declared sensor, in its fixed
// order of sensors, with indices, values and angles, and counts its steps.
func TestProbeReadsEveryDeclaredSensor(t *testing.T) {
	prox := citest.NewEPuckProximity()
	prox.Set(7, 0.25)
	light := citest.NewFootBotLight()
	light.Set(3, 0.5)
	ground := citest.NewFootBotMotorGround()
	ground.Set(2, 0.125)
	rab := citest.NewRangeAndBearing(2)
	rab.Received = []ci.RABPacket{{Range: 42, HorizontalBearing: -1, VerticalBearing: 0.25, Data: []byte{7, 8}}}
	// added out of order: the probe's order does not follow the robot's
	robot := citest.NewRobot("r0", 1).
		AddSensor(ci.TagRangeAndBearing, rab).
		AddSensor(ci.TagFootBotMotorGround, ground).
		AddSensor(ci.TagFootBotLight, light).
		AddSensor(ci.TagEPuckProximity, prox)
	c := sensor_probe.New()
	if err := c.Init(robot, ci.NewParams()); err != nil {
		t.Fatal(err)
	}
	c.ControlStep()
	got := c.Readings()
	if want := 8 + 24 + 4 + 1; len(got) != want {
		t.Fatalf("%d readings, want %d", len(got), want)
	}
	check := func(k int, sensor string, index int, value, angle float64) {
		t.Helper()
		r := got[k]
		if r.Sensor != sensor || r.Index != index || r.Value != value || math.Abs(r.Angle-angle) > 1e-15 {
			t.Errorf("reading %d = %+v, want {%s %d %v %v}", k, r, sensor, index, value, angle)
		}
	}
	check(7, ci.TagEPuckProximity, 7, 0.25, prox.Readings()[7].Angle)
	check(8+3, ci.TagFootBotLight, 3, 0.5, light.Readings()[3].Angle)
	check(32+2, ci.TagFootBotMotorGround, 2, 0.125, math.Atan2(-0.0116, -0.063))
	check(36, ci.TagRangeAndBearing, 0, 42, -1)
	if p := c.Packets(); len(p) != 1 || p[0].VerticalBearing != 0.25 || !slices.Equal(p[0].Data, []byte{7, 8}) {
		t.Errorf("Packets() = %+v, want the packet received", p)
	}
	// the probe keeps its own copy of the payload
	rab.Received[0].Data[0] = 99
	if c.Packets()[0].Data[0] != 7 {
		t.Error("the probe's packet shares the sensor's payload")
	}
	rab.Received = nil
	c.ControlStep()
	if c.Steps() != 2 || len(c.Readings()) != 36 || len(c.Packets()) != 0 {
		t.Errorf("second step: %d steps, %d readings, %d packets; want 2, 36, 0", c.Steps(), len(c.Readings()), len(c.Packets()))
	}
	c.Reset()
	if c.Steps() != 0 || len(c.Readings()) != 0 {
		t.Errorf("after Reset: %d steps, %d readings; want 0, 0", c.Steps(), len(c.Readings()))
	}
}

// Declared with no sensors the probe is an idle robot; with send it
// broadcasts the bytes at every step.
func TestProbeIdleAndSend(t *testing.T) {
	c := sensor_probe.New()
	citest.TestController(t, func() ci.Controller { return sensor_probe.New() }, citest.NewRobot("idle", 1), ci.NewParams(), 3)
	if err := c.Init(citest.NewRobot("idle", 1), ci.NewParams()); err != nil {
		t.Fatal(err)
	}
	c.ControlStep()
	if len(c.Readings()) != 0 || c.Steps() != 1 {
		t.Errorf("idle probe: %d readings, %d steps", len(c.Readings()), c.Steps())
	}

	rab := citest.NewRangeAndBearing(4)
	robot := citest.NewRobot("tx", 1).AddActuator(ci.TagRangeAndBearing, rab)
	if err := c.Init(robot, ci.NewParams("send", "1, 2,255")); err != nil {
		t.Fatal(err)
	}
	if want := []byte{1, 2, 255, 0}; !slices.Equal(rab.Data, want) {
		t.Errorf("payload after Init = %v, want %v", rab.Data, want)
	}
	rab.ClearData()
	c.ControlStep()
	if want := []byte{1, 2, 255, 0}; !slices.Equal(rab.Data, want) {
		t.Errorf("payload after a step = %v, want %v", rab.Data, want)
	}
}

// Mistakes in send are errors that say what to write.
func TestProbeSendErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		robot *citest.Robot
		send  string
		want  string
	}{
		{"not a byte", citest.NewRobot("a", 1).AddActuator(ci.TagRangeAndBearing, citest.NewRangeAndBearing(10)), "1,256", `"256" is not a byte`},
		{"empty", citest.NewRobot("b", 1).AddActuator(ci.TagRangeAndBearing, citest.NewRangeAndBearing(10)), " , ", "no byte"},
		{"no actuator", citest.NewRobot("c", 1), "1", "range_and_bearing actuator"},
		{"payload too small", citest.NewRobot("d", 1).AddActuator(ci.TagRangeAndBearing, citest.NewRangeAndBearing(2)), "1,2,3", "at most rab_data_size bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := sensor_probe.New().Init(tc.robot, ci.NewParams("send", tc.send))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "sensor_probe: ") {
				t.Errorf("send=%q: error %v, want one starting with sensor_probe: and saying %q", tc.send, err, tc.want)
			}
		})
	}
}

// The probe registers under ARGoS's label.
func TestProbeRegistered(t *testing.T) {
	if _, err := ci.Controllers.Lookup(sensor_probe.Label); err != nil {
		t.Fatal(err)
	}
}

// Whatever send holds, Init neither panics nor accepts what is not a list
// of bytes; what it accepts is broadcast as written.
func FuzzProbeSend(f *testing.F) {
	for _, s := range []string{"1,2,3", " 7 , 9,11 ", "", ",", "256", "-1", "1,,2", "0x10", "1,2,3,4,5,6,7,8,9,10,11", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, send string) {
		rab := citest.NewRangeAndBearing(10)
		robot := citest.NewRobot("tx", 1).AddActuator(ci.TagRangeAndBearing, rab)
		c := sensor_probe.New()
		err := c.Init(robot, ci.NewParams("send", send))
		var want []byte
		valid := true
		for _, field := range strings.Split(send, ",") {
			field = strings.TrimSpace(field)
			if field == "" {
				continue
			}
			v, perr := strconv.ParseUint(field, 10, 8)
			if perr != nil {
				valid = false
				break
			}
			want = append(want, byte(v))
		}
		valid = valid && len(want) > 0 && len(want) <= 10
		if valid != (err == nil) {
			t.Fatalf("send=%q: error %v, want an error: %v", send, err, !valid)
		}
		if err == nil {
			c.ControlStep()
			if !slices.Equal(rab.Data[:len(want)], want) {
				t.Fatalf("send=%q: payload %v, want %v first", send, rab.Data, want)
			}
		}
	})
}
