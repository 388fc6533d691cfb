package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/argosgo/argos/argoscli"

	_ "github.com/argosgo/argos/controllers/examples"
)

// TestArgosRunsTheFiles runs each experiment file of experiments/ascari as
// `argos -z -c file.argos` does, cut to two simulated seconds.
func TestArgosRunsTheFiles(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	files, err := filepath.Glob(filepath.Join(filepath.Dir(here), "..", "*.argos"))
	if err != nil || len(files) < 3 {
		t.Fatalf("experiment files %v, %v", files, err)
	}
	length := regexp.MustCompile(`length="[0-9]+"`)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			short := filepath.Join(t.TempDir(), filepath.Base(f))
			if err := os.WriteFile(short, length.ReplaceAll(data, []byte(`length="2"`)), 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if code := argoscli.Run([]string{"-z", "-c", short}, &out, &out); code != 0 {
				t.Fatalf("argos -z -c %s exited %d:\n%s", filepath.Base(f), code, out.String())
			}
		})
	}
}
