// Package ascari_test runs ASCARI's applications (controllers/ascari) in
// the experiment files of this folder and checks what each promises:
// consensus reaches the average of the initial values, rendezvous brings
// the agents together, traffic control never puts two agents on one node.
package ascari_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/examples"
	_ "github.com/argosgo/argos/simulator/physics/custom"
)

// load reads an experiment file of this folder, with each pair of
// replacements applied to its text.
func load(t testing.TB, name string, replace ...string) *config.Experiment {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	file := filepath.Join(filepath.Dir(here), name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	xml := string(data)
	for i := 0; i+1 < len(replace); i += 2 {
		if !strings.Contains(xml, replace[i]) {
			t.Fatalf("%s has no %q to replace", name, replace[i])
		}
		xml = strings.ReplaceAll(xml, replace[i], replace[i+1])
	}
	exp, err := config.Parse(file, []byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	return exp
}

// start builds a headless simulator with threads worker threads.
func start(t testing.TB, exp *config.Experiment, threads int) *simulator.Simulator {
	t.Helper()
	sim, err := simulator.New(exp, simulator.Options{Headless: true, Threads: &threads, OutputDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := sim.Close(); err != nil {
			t.Error(err)
		}
	})
	return sim
}

func step(t testing.TB, sim *simulator.Simulator) {
	t.Helper()
	if err := sim.Step(); err != nil {
		t.Fatal(err)
	}
}
