package argoscli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/argosgo/argos/simulator"
	"github.com/sirupsen/logrus"
)

// progress reports a long run: a bar with simulated time, real-time factor
// and ETA on a terminal, a log line every interval otherwise (clusters
// write stderr to files). It is a simulator.Visualization.
type progress struct {
	out      io.Writer
	tty      bool
	interval time.Duration
	log      logrus.FieldLogger

	mu       sync.Mutex // the bar and log lines share the terminal
	line     string     // the bar on screen, "" when none
	start    time.Time
	startTk  int
	last     time.Time
	now      func() time.Time
	finished bool
}

func newProgress(out io.Writer, tty bool, interval time.Duration, log logrus.FieldLogger) *progress {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	return &progress{out: out, tty: tty, interval: interval, log: log, now: time.Now, startTk: -1}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Draw implements simulator.Visualization.
func (p *progress) Draw(sim *simulator.Simulator) error {
	now := p.now()
	if p.startTk < 0 {
		p.start, p.startTk, p.last = now, sim.Tick(), now
		return nil
	}
	every := p.interval
	if p.tty {
		every = 150 * time.Millisecond
	}
	if now.Sub(p.last) < every && !sim.Finished() {
		return nil
	}
	p.last = now
	s := p.status(sim, now)
	if p.tty {
		p.mu.Lock()
		p.line = s
		fmt.Fprint(p.out, "\r\033[K"+s)
		p.mu.Unlock()
	} else if !sim.Finished() {
		p.log.Info("progress: " + s)
	}
	return nil
}

// status is "[=====>    ]  42%  t 251.3/600.0 s  12.3x real time  ETA 0:28".
func (p *progress) status(sim *simulator.Simulator, now time.Time) string {
	tick, maxT := sim.Tick(), sim.MaxTicks()
	dt := sim.TickLength()
	wall := now.Sub(p.start).Seconds()
	rtf := float64(tick-p.startTk) * dt / max(wall, 1e-9)
	var b strings.Builder
	if maxT > 0 {
		frac := min(1, float64(tick)/float64(maxT))
		if p.tty {
			const width = 24
			n := int(frac * width)
			b.WriteString("[" + strings.Repeat("=", n))
			if n < width {
				b.WriteString(">" + strings.Repeat(" ", width-n-1))
			}
			b.WriteString("] ")
		}
		fmt.Fprintf(&b, "%3.0f%%  t %.1f/%.1f s  tick %d/%d  %.1fx real time", 100*frac, float64(tick)*dt, float64(maxT)*dt, tick, maxT, rtf)
		if rate := float64(tick-p.startTk) / max(wall, 1e-9); tick < maxT && rate > 0 {
			b.WriteString("  ETA " + clock(time.Duration(float64(maxT-tick)/rate*float64(time.Second))))
		}
	} else {
		fmt.Fprintf(&b, "t %.1f s  tick %d  %.1fx real time", float64(tick)*dt, tick, rtf)
	}
	return b.String()
}

func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// Close implements simulator.Visualization: it leaves the last bar on its
// own line.
func (p *progress) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.line != "" && !p.finished {
		fmt.Fprintln(p.out)
	}
	p.finished, p.line = true, ""
	return nil
}

// Writer wraps the log's output so that a log line first clears the bar,
// which is drawn again after it.
func (p *progress) Writer(w io.Writer) io.Writer { return barWriter{p, w} }

type barWriter struct {
	p *progress
	w io.Writer
}

func (b barWriter) Write(data []byte) (int, error) {
	b.p.mu.Lock()
	defer b.p.mu.Unlock()
	if b.p.line != "" {
		io.WriteString(b.p.out, "\r\033[K")
	}
	n, err := b.w.Write(data)
	if b.p.line != "" {
		io.WriteString(b.p.out, b.p.line)
	}
	return n, err
}
