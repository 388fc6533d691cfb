package realrobot_test

import (
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/realrobot"
	"github.com/argosgo/argos/realrobot/realrobottest"
)

// paramsCtrl reads the parameter "speed".
type paramsCtrl struct {
	hookCtrl
	speed float64
}

func (c *paramsCtrl) Init(r ci.Robot, p ci.Params) (err error) {
	if c.speed, err = p.FloatOr("speed", 5); err != nil {
		return err
	}
	return c.hookCtrl.Init(r, p)
}

// A parameter the controller never reads is an error on the robot too,
// and the controller is destroyed.
func TestUnreadParamsAreErrors(t *testing.T) {
	p := ci.Params{Where: "exp.argos:9", Name: "params", Attrs: map[string]string{"sped": "3"}}
	c := &paramsCtrl{}
	_, err := realrobot.New(realrobottest.NewDriver(), realrobot.Spec{Label: "test", ID: "c", Controller: c, Params: p, Devices: declared},
		realrobot.Options{TicksPerSecond: tps})
	for _, w := range []string{`realrobot: controller "c" (test): ci: exp.argos:9: <params>: unknown attribute "sped" (did you mean "speed"?)`} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not mention %q", err, w)
		}
	}
	if !c.destroyed.Load() {
		t.Error("the controller was not destroyed")
	}
	p.Attrs = map[string]string{"speed": "3"}
	c = &paramsCtrl{}
	rt, err := realrobot.New(realrobottest.NewDriver(), realrobot.Spec{Label: "test", ID: "c", Controller: c, Params: p, Devices: declared},
		realrobot.Options{TicksPerSecond: tps})
	if err != nil || c.speed != 3 {
		t.Fatalf("a read parameter: %v, speed %g", err, c.speed)
	}
	rt.Close()
}
