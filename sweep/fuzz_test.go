package sweep_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/argosgo/argos/sweep"
)

// FuzzParse feeds the sweep file parser arbitrary text: it must return a
// spec or an error with the file's name, never panic, and a spec it
// returns must be usable (seeds, values, a bounded number of runs).
// Seeds: testdata/fuzz/FuzzParse and the sweep files of testdata.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, file := range files {
		if b, err := os.ReadFile(file); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := sweep.Parse("f.yaml", data)
		if err != nil {
			if len(err.Error()) > 4000 {
				t.Errorf("an error of %d bytes", len(err.Error()))
			}
			return
		}
		if len(s.Seeds) == 0 {
			t.Error("a spec without seeds")
		}
		n := len(s.Seeds)
		for _, p := range s.Parameters {
			if p.Kind == "categorical" && len(p.Values) == 0 {
				t.Errorf("parameter %q without values", p.Name)
			}
			if p.Min > p.Max {
				t.Errorf("parameter %q: min %g > max %g", p.Name, p.Min, p.Max)
			}
			if s.Design == "grid" && len(p.Values) > 0 {
				n *= len(p.Values)
			}
		}
		if s.Design == "random" {
			n = s.Samples * len(s.Seeds)
		}
		if n > sweep.MaxCells {
			t.Errorf("a spec of %d runs", n)
		}
		_ = sweep.IraceParametersText(s)
	})
}
