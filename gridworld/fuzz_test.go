package gridworld_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argosgo/argos/gridworld"
)

// FuzzParse feeds the grid-world parser arbitrary files: it must never
// panic, every error must say which file, and what it accepts must be a
// world the engine takes (a usable grid, a local mapping that fits). The
// seeds are the files of testdata/ and the corpus in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.argos"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := gridworld.Parse("fuzz.argos", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.argos") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if err := x.Grid.Check(); err != nil {
			t.Fatalf("accepted an unusable grid %+v: %v", x.Grid, err)
		}
		cfg := gridworld.Config{Grid: x.Grid, Agents: x.Agents, Radius: x.Radius}
		if err := cfg.Check(); err != nil {
			t.Fatalf("accepted a world the engine refuses: %v", err)
		}
		if x.Program == "" || x.GridNode == nil || x.AgentsNode == nil || x.Framework.TicksPerSecond <= 0 || x.Rounds() < 0 {
			t.Fatalf("accepted an incomplete experiment: %+v", x)
		}
	})
}
