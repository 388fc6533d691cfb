package simulator_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/sirupsen/logrus"
)

// Hostile inputs end in an error at their file:line before anything
// large is allocated.

func distributeArena(quantity string) string {
	return `<distribute>
        <position method="uniform" min="-1,-1,0" max="1,1,0"/>
        <orientation method="constant" values="0,0,0"/>
        <entity quantity="` + quantity + `" max_trials="100"><foot-bot id="fb"><controller config="tc"/></foot-bot></entity>
      </distribute>`
}

// allocated returns the bytes allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestQuantityLimits(t *testing.T) {
	for _, c := range []struct {
		name, quantity string
		want           []string
	}{
		{"above the stated limit", "100000000000", []string{"test.argos:16: <entity>: attribute quantity=\"100000000000\": at most 1000000 entities"}},
		{"more than the area holds", "500000", []string{"test.argos:16: <entity>: attribute quantity=\"500000\": at most 207 foot-bots fit in the 4.709 m² of the arena where <position> at line 14 places them"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if alloc := allocated(func() { err = buildErr(t, experiment("1", constantController, distributeArena(c.quantity), "")) }); alloc > 32<<20 {
				t.Errorf("refusing the quantity allocated %d MB", alloc>>20)
			}
			contains(t, err, c.want...)
		})
	}
	// The <distribute>s of an arena place at most MaxEntities in all.
	var many strings.Builder
	for i := range 3 {
		many.WriteString(`<distribute><position method="uniform" min="-2000,-2000,0" max="2000,2000,0"/><orientation method="constant" values="0,0,0"/>
        <entity quantity="400000" max_trials="1"><light id="l` + strconv.Itoa(i) + `_" color="red" intensity="1"/></entity></distribute>`)
	}
	xml := strings.Replace(experiment("1", "", many.String(), ""), `size="4,4,1"`, `size="4001,4001,1"`, 1)
	var err error
	if alloc := allocated(func() { err = buildErr(t, xml) }); alloc > 32<<20 {
		t.Errorf("refusing 1,200,000 lights allocated %d MB", alloc>>20)
	}
	contains(t, err, "test.argos:11: <entity>: attribute quantity=\"400000\": with it the <distribute>s of the arena would place 1200000 entities, more than the 1000000")
}

func TestThreadsLimit(t *testing.T) {
	exp, err := config.Parse("test.argos", []byte(experiment("1", constantController, "", "")))
	if err != nil {
		t.Fatal(err)
	}
	_, err = simulator.New(exp, simulator.Options{Threads: intp(1000000)})
	contains(t, err, "simulator: threads=1000000", "up to 1024")
	contains(t, buildErr(t, strings.Replace(experiment("1", constantController, "", ""), `threads="0"`, `threads="1000000"`, 1)),
		`test.argos:4: <system>: attribute threads="1000000": at most 1024 threads`)
}

// A cancelled context stops the set-up, which leaves nothing running.
func TestSetUpIsInterruptible(t *testing.T) {
	exp, err := config.Parse("test.argos", []byte(experiment("1", constantController, distributeArena("50"), "")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sim, err := simulator.NewContext(ctx, exp, simulator.Options{})
	if sim != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("NewContext with a cancelled context: %v, %v", sim, err)
	}
	contains(t, err, "simulator: set-up interrupted")
	sim, err = simulator.NewContext(context.Background(), exp, simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sim.Close()
}

// crasher writes to a nil map, in Init or in its first ControlStep.
type crasher struct {
	m      map[string]int
	inInit bool
}

func (c *crasher) Init(_ ci.Robot, p ci.Params) (err error) {
	if c.inInit, err = p.BoolOr("in_init", false); err != nil || !c.inInit {
		return err
	}
	c.m["x"] = 1
	return nil
}
func (c *crasher) ControlStep() {
	c.m["x"]++
}
func (c *crasher) Reset()         {}
func (c *crasher) Destroy() error { return nil }

// free takes any parameter: it reads them as a table.
type free struct{ table map[string]string }

func (c *free) Init(_ ci.Robot, p ci.Params) error {
	p.FreeForm()
	c.table = p.Attrs
	return nil
}
func (c *free) ControlStep()   {}
func (c *free) Reset()         {}
func (c *free) Destroy() error { return nil }

func init() {
	ci.Controllers.MustRegister("test_crasher", "test: writes to a nil map in Init (in_init) or ControlStep", func() ci.Controller { return &crasher{} })
	ci.Controllers.MustRegister("test_free", "test: takes free-form params", func() ci.Controller { return &free{} })
}

// A controller's panic names the controller's own line, and the stack is
// logged at debug level.
func TestControllerPanicNamesItsLine(t *testing.T) {
	for _, inInit := range []bool{false, true} {
		t.Run("in_init="+strconv.FormatBool(inInit), func(t *testing.T) {
			xml := experiment("2", `<test_crasher id="tc"><actuators/><sensors/><params in_init="`+strconv.FormatBool(inInit)+`"/></test_crasher>`,
				`<foot-bot id="fb"><body position="0,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`, "")
			exp, err := config.Parse("test.argos", []byte(xml))
			if err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			l := logrus.New()
			l.SetOutput(&log)
			l.SetLevel(logrus.DebugLevel)
			sim, err := simulator.New(exp, simulator.Options{Logger: l})
			if err == nil {
				defer sim.Close()
				err = sim.Run(context.Background())
			}
			var want string
			if inInit {
				want = "inputs_test.go:" + strconv.Itoa(initPanicLine) + " in github.com/argosgo/argos/simulator_test.(*crasher).Init)"
			} else {
				want = "inputs_test.go:" + strconv.Itoa(stepPanicLine) + " in github.com/argosgo/argos/simulator_test.(*crasher).ControlStep)"
			}
			contains(t, err, "assignment to entry in nil map (at ", want)
			if !strings.Contains(log.String(), "goroutine ") || !strings.Contains(log.String(), "level=debug") {
				t.Errorf("the stack is not in the debug log:\n%s", log.String())
			}
		})
	}
}

// The lines of the crasher's writes to its nil map.
var initPanicLine, stepPanicLine = lineOf(`c.m["x"] = 1`), lineOf(`c.m["x"]++`)

// lineOf returns the line of this file that holds code alone, or -1.
func lineOf(code string) int {
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(file)
	if err != nil {
		return -1
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == code {
			return i + 1
		}
	}
	return -1
}

// Controller parameters nobody reads are errors with a suggestion.
func TestMisspelledParams(t *testing.T) {
	ctrl := func(params string) string {
		return `
    <test_constant id="tc">
      <actuators><differential_steering implementation="default"/></actuators>
      <sensors/>
      ` + params + `
    </test_constant>`
	}
	robot := `<foot-bot id="fb"><body position="0,0,0" orientation="0,0,0"/><controller config="tc"/></foot-bot>`
	for _, c := range []struct {
		params string
		want   []string
	}{
		{`<params left="10" rigth="10"/>`, []string{`test.argos:`, `simulator: controller "tc" (test_constant): ci: test.argos:11: <params>: unknown attribute "rigth" (did you mean "right"?); the controller reads left and right`}},
		{`<params left="10"><wheels right="3"/></params>`, []string{`ci: test.argos:11: <wheels>: unknown element inside <params>; the controller reads no element there: remove it`}},
	} {
		contains(t, buildErr(t, experiment("1", ctrl(c.params), robot, "")), c.want...)
	}
	// read by the controller: fine
	build(t, experiment("1", ctrl(`<params left="1" right="2"/>`), robot, ""), simulator.Options{})
	// a controller that takes free-form params accepts anything
	build(t, experiment("1", `<test_free id="tc"><actuators/><sensors/><params anything="1"><goes y="2"/></params></test_free>`, robot, ""), simulator.Options{})
}

// Errors come in file order, whatever the check that finds them.
func TestArenaErrorsInFileOrder(t *testing.T) {
	arena := `<box id="b" size="1,-1,1"><body position="0,0,0"/></box>
      ` + distributeArena("100000000000")
	contains(t, buildErr(t, experiment("1", constantController, arena, "")), "test.argos:13: <box id=\"b\">")
}
