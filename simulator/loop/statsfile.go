package loop

import (
	"bufio"
	"errors"
	"fmt"
	"os"

	"github.com/argosgo/argos/simulator"
)

// statsFile is the per-tick statistics file of ARGoS-style loop functions
// (their output attribute): a header line, then one line per tick. Write
// errors are kept and reported once, on flush or close.
type statsFile struct {
	label  string // the loop functions' label, for errors
	output string // "" writes nothing
	header string
	file   *os.File
	w      *bufio.Writer
	err    error
}

// open (re)creates the file (relative paths land in the run folder) and
// writes the header.
func (s *statsFile) open(sim *simulator.Simulator) error {
	if s.output == "" {
		return nil
	}
	file, err := os.Create(sim.OutputPath(s.output))
	if err != nil {
		return err
	}
	s.file, s.w, s.err = file, bufio.NewWriter(file), nil
	_, s.err = fmt.Fprintln(s.w, s.header)
	return nil
}

// printf writes to the file, if it is open and has not failed.
func (s *statsFile) printf(format string, args ...any) {
	if s.w != nil && s.err == nil {
		_, s.err = fmt.Fprintf(s.w, format, args...)
	}
}

// flush writes out what is buffered, logging a failure.
func (s *statsFile) flush(sim *simulator.Simulator) {
	if s.w == nil {
		return
	}
	if err := errors.Join(s.err, s.w.Flush()); err != nil {
		sim.Logger().Errorf("%s: writing %s: %v", s.label, s.output, err)
	}
}

// close flushes and closes the file.
func (s *statsFile) close() error {
	if s.file == nil {
		return nil
	}
	err := errors.Join(s.err, s.w.Flush(), s.file.Close())
	s.file, s.w = nil, nil
	if err != nil {
		return fmt.Errorf("loop: %s: writing %s: %w", s.label, s.output, err)
	}
	return nil
}
