// Package progress draws the progress line of long runs (an experiment, a
// grid world's rounds, a sweep's runs): on a terminal one line redrawn in
// place, with a gauge; elsewhere (a cluster's log file, a pipe) a line
// now and then through the caller's logger, so that logs stay readable.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// IsTerminal reports whether w is a terminal that can redraw a line.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Terminal reports whether a progress mode ("auto", "bar", "log", "off")
// means a line redrawn on out: "bar" always, "auto" when out is a
// terminal.
func Terminal(mode string, out io.Writer) bool {
	return mode == "bar" || mode == "auto" && IsTerminal(out)
}

// Gauge returns "[=====>    ] " for frac (0 to 1) in width cells.
func Gauge(frac float64, width int) string {
	n := int(min(1, max(0, frac)) * float64(width))
	var b strings.Builder
	b.WriteString("[" + strings.Repeat("=", n))
	if n < width {
		b.WriteString(">" + strings.Repeat(" ", width-n-1))
	}
	b.WriteString("] ")
	return b.String()
}

// Clock formats a duration as m:ss, or h:mm:ss from an hour.
func Clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// ETA returns "ETA m:ss" for the work left, from the rate so far, or ""
// when nothing is done yet or nothing is left.
func ETA(done, total float64, elapsed time.Duration) string {
	rate := done / max(elapsed.Seconds(), 1e-9)
	if done <= 0 || done >= total || rate <= 0 {
		return ""
	}
	return "ETA " + Clock(time.Duration((total-done)/rate*float64(time.Second)))
}

// Line is the progress line. On a terminal, Show redraws it in place and
// log lines written through Writer clear it first and draw it again
// after; elsewhere Show hands the text to log. Its methods may be called
// from several goroutines.
type Line struct {
	out io.Writer
	tty bool
	log func(string)

	mu    sync.Mutex
	shown string // the line on screen, "" when none
	ended bool
}

// NewLine returns a line drawn on out when tty, else given to log.
func NewLine(out io.Writer, tty bool, log func(string)) *Line {
	return &Line{out: out, tty: tty, log: log}
}

// Terminal reports whether the line is redrawn in place.
func (l *Line) Terminal() bool { return l.tty }

// Show draws text as the line's new state.
func (l *Line) Show(text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ended {
		return
	}
	if !l.tty {
		l.log(text)
		return
	}
	l.shown = text
	io.WriteString(l.out, "\r\033[K"+text)
}

// End leaves the last line drawn on its own line; later Shows draw
// nothing.
func (l *Line) End() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tty && l.shown != "" && !l.ended {
		io.WriteString(l.out, "\n")
	}
	l.ended, l.shown = true, ""
}

// Writer wraps a log's output so that each log line first clears the
// progress line, which is drawn again after it.
func (l *Line) Writer(w io.Writer) io.Writer { return lineWriter{l, w} }

type lineWriter struct {
	l *Line
	w io.Writer
}

func (lw lineWriter) Write(data []byte) (int, error) {
	lw.l.mu.Lock()
	defer lw.l.mu.Unlock()
	if lw.l.shown != "" {
		io.WriteString(lw.l.out, "\r\033[K")
	}
	n, err := lw.w.Write(data)
	if lw.l.shown != "" {
		io.WriteString(lw.l.out, lw.l.shown)
	}
	return n, err
}
