package argoscli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/physics"
)

type section struct {
	title   string
	entries []entry
	// err reports names that two imported packages registered.
	err error
}

type entry struct{ name, desc, pkg string }

func sectionOf[T any](title string, r *ci.Registry[T]) section {
	s := section{title: title, err: r.Err()}
	for _, e := range r.Entries() {
		s.entries = append(s.entries, entry{e.Name, e.Description, e.Package})
	}
	return s
}

func sections() []section {
	return []section{
		sectionOf("controllers", ci.Controllers),
		sectionOf("sensors", devices.Sensors),
		sectionOf("actuators", devices.Actuators),
		sectionOf("entities", entity.Types),
		sectionOf("physics engines", physics.Engines),
		sectionOf("loop functions", simulator.LoopFunctionsTypes),
		sectionOf("media", simulator.Media),
		sectionOf("visualizations", simulator.Visualizations),
		sectionOf("user functions", simulator.UserFunctionsTypes),
		sectionOf("grid programs", gridworld.Programs),
	}
}

// registryErr reports every name two imported packages registered (a
// project's controller under the label of an example it also imports,
// say): the binary refuses to run until the imports are fixed.
func registryErr() error {
	var errs []error
	for _, s := range sections() {
		if s.err != nil {
			errs = append(errs, s.err)
		}
	}
	return errors.Join(errs...)
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
			fmt.Fprintf(w, "%s  (%s)\n%s\n\n", e.name, e.pkg, indent(e.desc))
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
