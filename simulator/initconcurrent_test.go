package simulator

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
)

// initProbe is what the test controllers of this file report to the test
// running them.
type initProbe struct {
	active, overlapped, first atomic.Bool
	running                   atomic.Int32
	inits                     atomic.Int32
	destroyedIdle             atomic.Int32 // Destroy of a controller whose Init did not run
	waitFirst                 bool         // the first concurrent Init waits for another to start
	serialOrder               []string     // the serial controllers' Init, in call order
}

// probe is the current test's initProbe: tests of this file do not run in
// parallel.
var probe atomic.Pointer[initProbe]

// probed is a controller that fails in Init for the robot ids of its
// params' fail attribute; concurrent is its ci.ConcurrentInit kind.
type probed struct {
	inited bool
	wait   bool // concurrent: the first Init may wait for another to start
}

func (c *probed) Init(r ci.Robot, p ci.Params) error {
	pr := probe.Load()
	pr.inits.Add(1)
	if pr.running.Add(1) > 1 {
		pr.overlapped.Store(true)
	}
	defer pr.running.Add(-1)
	if c.wait && pr.waitFirst && pr.first.CompareAndSwap(false, true) {
		for deadline := time.Now().Add(10 * time.Second); !pr.overlapped.Load() && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	fail := p.StringOr("fail", "")
	if !c.wait {
		pr.serialOrder = append(pr.serialOrder, r.ID())
	}
	for _, id := range strings.Split(fail, ",") {
		if id == r.ID() {
			return fmt.Errorf("robot %s fails", id)
		}
	}
	c.inited = true
	return nil
}
func (c *probed) ControlStep() {}
func (c *probed) Reset()       {}
func (c *probed) Destroy() error {
	if !c.inited {
		probe.Load().destroyedIdle.Add(1)
	}
	return nil
}

type concurrent struct{ probed }

func (*concurrent) ConcurrentInit() {}

func init() {
	ci.Controllers.MustRegister("test_probed_serial", "test: Init fails for the robots of param fail", func() ci.Controller { return &probed{} })
	ci.Controllers.MustRegister("test_probed_concurrent", "test: as test_probed_serial, with ci.ConcurrentInit", func() ci.Controller { return &concurrent{probed{wait: true}} })
}

// probedExperiment has n e-pucks e0, e1, ... in file order; those whose
// index serial says use the serial controller, the others the concurrent
// one. The controllers fail for the ids of fail.
func probedExperiment(t *testing.T, n, threads int, serial func(i int) bool, fail string, waitFirst bool) (*Simulator, error) {
	t.Helper()
	var b strings.Builder
	for i := range n {
		ctrl := "conc"
		if serial(i) {
			ctrl = "ser"
		}
		fmt.Fprintf(&b, `<e-puck id="e%d"><body position="%g,%g,0" orientation="0,0,0"/><controller config="%s"/></e-puck>`,
			i, -24+float64(i%100)*0.45, -24+float64(i/100)*0.45, ctrl)
	}
	exp, err := config.Parse("test.argos", []byte(fmt.Sprintf(`<?xml version="1.0"?>
<argos-configuration>
  <framework><system threads="%d"/><experiment length="1" ticks_per_second="10" random_seed="7"/></framework>
  <controllers>
    <test_probed_serial id="ser"><params fail="%s"/></test_probed_serial>
    <test_probed_concurrent id="conc"><params fail="%s"/></test_probed_concurrent>
  </controllers>
  <arena size="50,50,1" center="0,0,0.5">%s</arena>
  <physics_engines><kinematics2d id="k"/></physics_engines>
</argos-configuration>`, threads, fail, fail, b.String())))
	if err != nil {
		t.Fatal(err)
	}
	probe.Store(&initProbe{waitFirst: waitFirst})
	return New(exp, Options{})
}

// The Init of controllers that are ci.ConcurrentInit runs on the run's
// threads at once; the others' one after the other, in robot order.
func TestConcurrentInitRunsInParallel(t *testing.T) {
	const n = 3000
	s, err := probedExperiment(t, n, 2, func(i int) bool { return i%7 == 3 }, "", true)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pr := probe.Load()
	if !pr.overlapped.Load() {
		t.Error("no two concurrent Inits ran at once on 2 threads")
	}
	if got := pr.inits.Load(); got != n {
		t.Errorf("%d Inits, want %d", got, n)
	}
	var want []string
	for i := 3; i < n; i += 7 {
		want = append(want, fmt.Sprintf("e%d", i))
	}
	if strings.Join(pr.serialOrder, " ") != strings.Join(want, " ") {
		t.Errorf("serial Inits in order %v..., want %v...", pr.serialOrder[:min(5, len(pr.serialOrder))], want[:5])
	}
	for i, r := range s.robots {
		var c *probed
		switch ctrl := r.ctrl.(type) {
		case *concurrent:
			c = &ctrl.probed
		case *probed:
			c = ctrl
		}
		if c == nil || !c.inited {
			t.Fatalf("robot %d: controller %T not set up", i, r.ctrl)
		}
	}
}

// Whatever kind of controller fails, and wherever, the error is the first
// failing robot's in robot order, and no controller whose Init did not run
// is destroyed.
func TestConcurrentInitFirstError(t *testing.T) {
	serial := func(i int) bool { return i%7 == 3 }
	for _, threads := range []int{0, 2} {
		for _, c := range []struct{ fail, want string }{
			{"e1500,e2003", "e1500"},       // concurrent before serial
			{"e2003,e1500,e302", "e302"},   // serial first
			{"e2100,e1100,e2999", "e1100"}, // concurrent ones in several chunks
			{"e2999", "e2999"},             // the last robot
		} {
			s, err := probedExperiment(t, 3000, threads, serial, c.fail, false)
			if err == nil {
				s.Close()
				t.Fatalf("threads %d, fail %s: no error", threads, c.fail)
			}
			if !strings.Contains(err.Error(), "robot "+c.want+" fails") || !strings.Contains(err.Error(), "test.argos:") {
				t.Errorf("threads %d, fail %s: error %q; want robot %s's, with where", threads, c.fail, err, c.want)
			}
			if n := probe.Load().destroyedIdle.Load(); n != 0 {
				t.Errorf("threads %d, fail %s: %d controllers destroyed without their Init", threads, c.fail, n)
			}
		}
	}
}
