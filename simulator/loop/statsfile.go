package loop

import (
	"bufio"
	"errors"
	"fmt"
	"os"

	"github.com/argosgo/argos/simulator"
)

// StatsFile is the per-tick statistics file of ARGoS-style loop functions
// (their output attribute): a header line, then one line per tick. Write
// errors are kept and reported once, on flush or close. Set the exported
// fields, call Open in Init (and again in Reset, after Close), Printf in
// PostStep, Flush in PostExperiment and Close in Destroy.
type StatsFile struct {
	Label  string // the loop functions' label, for errors
	Output string // the file; "" writes nothing; relative paths land in the run folder
	Header string // the first line
	file   *os.File
	w      *bufio.Writer
	err    error
}

// Open (re)creates the file (relative paths land in the run folder) and
// writes the header.
func (s *StatsFile) Open(sim *simulator.Simulator) error {
	if s.Output == "" {
		return nil
	}
	file, err := os.Create(sim.OutputPath(s.Output))
	if err != nil {
		return err
	}
	s.file, s.w, s.err = file, bufio.NewWriter(file), nil
	_, s.err = fmt.Fprintln(s.w, s.Header)
	return nil
}

// Printf writes to the file, if it is open and has not failed.
func (s *StatsFile) Printf(format string, args ...any) {
	if s.w != nil && s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// Flush writes out what is buffered, logging a failure.
func (s *StatsFile) Flush(sim *simulator.Simulator) {
	if s.w == nil {
		return
	}
	if err := errors.Join(s.err, s.w.Flush()); err != nil {
		sim.Logger().Errorf("%s: writing %s: %v", s.Label, s.Output, err)
	}
}

// Close flushes and closes the file.
func (s *StatsFile) Close() error {
	if s.file == nil {
		return nil
	}
	err := errors.Join(s.err, s.w.Flush(), s.file.Close())
	s.file, s.w = nil, nil
	if err != nil {
		return fmt.Errorf("loop: %s: writing %s: %w", s.Label, s.Output, err)
	}
	return nil
}
