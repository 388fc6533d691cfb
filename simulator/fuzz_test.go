package simulator_test

import (
	"os"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

// FuzzNew builds and steps whatever experiment the parser accepts: bad
// content must come back as an error, never as a panic.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		exp, err := config.Parse("fuzz.argos", data)
		if err != nil {
			return
		}
		// Keep runs small and keep the fuzzer from writing files.
		if tooBig(exp.Arena) {
			return
		}
		exp.Visualizations, exp.LoopFunctions = nil, nil
		sim, err := simulator.New(exp, simulator.Options{Threads: intp(0)})
		if err != nil {
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

func tooBig(n *config.Node) bool {
	if q, ok := n.Attr("quantity"); ok && len(q) > 3 {
		return true
	}
	count := 0
	var walk func(*config.Node)
	walk = func(n *config.Node) {
		count++
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(n)
	if count > 200 {
		return true
	}
	for _, c := range n.Children {
		if tooBig(c) {
			return true
		}
	}
	return false
}
