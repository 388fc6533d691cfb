package simulator_test

import (
	"context"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// FuzzNew builds and steps whatever experiment the parser accepts: bad
// content must come back as an error, never as a panic, and in bounded
// memory. The seeds in testdata/fuzz/FuzzNew hold the hostile shapes
// (a quantity of 1e11, more robots than the area holds, a million
// threads, a floor image whose header claims 150000 x 150000 pixels, a
// floor at /dev/zero, long ids and values, misspelled params, a panicking
// controller); the seeds below add values past config.MaxTagLen, too
// large for testdata.
func FuzzNew(f *testing.F) {
	for _, name := range []string{"diffusion_1.argos", "diffusion_10.argos"} {
		data, err := os.ReadFile(repoFile("experiments", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(experiment("1", constantController, `<foot-bot id="fb"><body position="0,0,0"/><controller config="tc"/></foot-bot>
    <box id="b" size="0.2,0.2,0.2" movable="true" mass="1"><body position="0.5,0,0" orientation="30,0,0"/></box>
    <cylinder id="c" radius="0.1" height="0.2" movable="true" mass="1"><body position="-0.5,0,0"/></cylinder>`, "")))
	huge := strings.Repeat("7", config.MaxTagLen+1)
	f.Add([]byte(experiment("1", constantController, `<box id="b" size="`+huge+`"/>`, "")))
	f.Add([]byte(experiment("1", constantController, `<foot-bot id="`+huge+`"><controller config="tc"/></foot-bot>`, "")))

	// A soft limit: the garbage collector works harder as the heap nears
	// it; the check below fails an input that needs more.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sim *simulator.Simulator
		alloc := allocated(func() {
			exp, err := config.Parse("fuzz.argos", data)
			if err != nil {
				return
			}
			// Keep runs small: legitimate large arenas are slow to build
			// (quantities over config.MaxEntities are refused at once, and
			// go through), and keep the fuzzer from writing files.
			if n := entities(exp.Arena); n > 2000 && n <= config.MaxEntities || tooBig(exp.Arena) {
				return
			}
			exp.Visualizations, exp.LoopFunctions = nil, nil
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			sim, err = simulator.NewContext(ctx, exp, simulator.Options{Threads: intp(0)})
		})
		if alloc > 512<<20 {
			t.Errorf("parsing and building this experiment allocated %d MB", alloc>>20)
		}
		if sim == nil {
			return
		}
		defer sim.Close()
		for i := 0; i < 3 && !sim.Finished(); i++ {
			if err := sim.Step(); err != nil {
				return
			}
		}
	})
}

// entities returns how many entities the arena asks for: its elements
// plus the quantities of its <distribute>s (saturating).
func entities(arena *config.Node) int {
	n := 0
	for _, c := range arena.Children {
		k := 1
		if c.Name == "distribute" {
			if d, err := config.ParseDistribute(c); err == nil {
				k = d.Quantity
			}
		}
		n = min(n+k, config.MaxEntities+1)
	}
	return n
}

func tooBig(n *config.Node) bool {
	count := 0
	var walk func(*config.Node)
	walk = func(n *config.Node) {
		count++
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	return count > 200
}
