package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
)

type section struct {
	title   string
	entries []entry
}

type entry struct{ name, desc string }

func entriesOf[T any](r *ci.Registry[T]) []entry {
	var out []entry
	for _, e := range r.Entries() {
		out = append(out, entry{e.Name, e.Description})
	}
	return out
}

func sections() []section {
	return []section{
		{"controllers", entriesOf(ci.Controllers)},
		{"sensors", entriesOf(devices.Sensors)},
		{"actuators", entriesOf(devices.Actuators)},
		{"entities", entriesOf(entity.Types)},
		{"physics engines", entriesOf(physics.Engines)},
		{"loop functions", entriesOf(simulator.LoopFunctionsTypes)},
		{"media", entriesOf(simulator.Media)},
		{"visualizations", entriesOf(simulator.Visualizations)},
	}
}

// describe prints what -q asks for: every registered thing ("all") or the
// ones with the given name.
func describe(w io.Writer, name string) error {
	found := false
	for _, s := range sections() {
		printed := false
		for _, e := range s.entries {
			if name != "all" && e.name != name {
				continue
			}
			if !printed {
				fmt.Fprintf(w, "== %s ==\n", s.title)
				printed = true
			}
			found = true
			fmt.Fprintf(w, "%s\n%s\n\n", e.name, indent(e.desc))
		}
	}
	if !found {
		return fmt.Errorf("-q %s: nothing is registered under that name; run argos -q all to list everything", name)
	}
	return nil
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(wrap(s, 76), "\n", "\n    ")
}

func wrap(s string, width int) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(s) {
		if i > 0 {
			if line+1+len(w) > width {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}
