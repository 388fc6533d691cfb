package diffusion_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/ci/citest"
	"github.com/argosgo/argos/controllers/diffusion"
)

// The controller promises concurrent Init (ci.ConcurrentInit): robots
// sharing one tracked params, each with its own devices, set up at once
// (the race detector watches), behave as one set up alone.
func TestConcurrentInit(t *testing.T) {
	var c ci.Controller = diffusion.New()
	if _, ok := c.(ci.ConcurrentInit); !ok {
		t.Fatal("the diffusion controller is not ci.ConcurrentInit")
	}
	params := ci.NewParams("alpha", "7.5", "delta", "0.1", "velocity", "4").Track()
	const n = 64
	ctrls := make([]*diffusion.Controller, n)
	wheels := make([]*citest.Wheels, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wheels[i], ctrls[i] = &citest.Wheels{}, diffusion.New()
		prox := citest.NewEPuckProximity()
		prox.Set(i%8, 1) // an obstacle on one side or the other
		r := citest.NewRobot(fmt.Sprintf("ep%d", i), uint64(i)).
			AddActuator(ci.TagDifferentialSteering, wheels[i]).
			AddSensor(ci.TagEPuckProximity, prox)
		wg.Go(func() { errs[i] = ctrls[i].Init(r, params) })
	}
	wg.Wait()
	if err := params.CheckUnread(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("robot %d: Init: %v", i, errs[i])
		}
		prox := citest.NewEPuckProximity()
		prox.Set(i%8, 1)
		alone, w := setup(t, ci.TagEPuckProximity, prox, ci.NewParams("alpha", "7.5", "delta", "0.1", "velocity", "4"))
		alone.ControlStep()
		ctrls[i].ControlStep()
		if *wheels[i] != *w {
			t.Errorf("robot %d: wheels %+v after a concurrent Init, %+v after one alone", i, *wheels[i], *w)
		}
	}
}
