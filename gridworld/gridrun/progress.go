package gridrun

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sirupsen/logrus"
)

// progress reports a long run: a bar with the rounds done, the rounds per
// second and the time left on a terminal, a log line every interval
// otherwise.
type progress struct {
	out      io.Writer
	tty      bool
	every    time.Duration
	log      logrus.FieldLogger
	start    time.Time
	last     time.Time
	drawn    bool
	interval time.Duration
}

func newProgress(out io.Writer, mode string, every time.Duration, log logrus.FieldLogger) *progress {
	if mode == "off" {
		return nil
	}
	if every <= 0 {
		every = 10 * time.Second
	}
	tty := mode == "bar" || mode == "auto" && isTerminal(out)
	p := &progress{out: out, tty: tty, every: every, log: log, start: time.Now()}
	p.last = p.start
	p.interval = every
	if tty {
		p.interval = 150 * time.Millisecond
	}
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// update reports round of limit (0: no limit); done ends the bar.
func (p *progress) update(round, limit int, done bool) {
	now := time.Now()
	if !done && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	s := status(round, limit, now.Sub(p.start), p.tty)
	switch {
	case p.tty:
		fmt.Fprint(p.out, "\r\033[K"+s)
		p.drawn = true
		if done {
			fmt.Fprintln(p.out)
		}
	case !done:
		p.log.Info("progress: " + s)
	}
}

// status is "[=====>     ]  42%  round 42/100  1.2e+03 rounds/s  ETA 0:05".
func status(round, limit int, elapsed time.Duration, bar bool) string {
	rate := float64(round) / max(elapsed.Seconds(), 1e-9)
	var b strings.Builder
	if limit > 0 {
		frac := min(1, float64(round)/float64(limit))
		if bar {
			const width = 24
			n := int(frac * width)
			b.WriteString("[" + strings.Repeat("=", n))
			if n < width {
				b.WriteString(">" + strings.Repeat(" ", width-n-1))
			}
			b.WriteString("] ")
		}
		fmt.Fprintf(&b, "%3.0f%%  round %d/%d  %.3g rounds/s", 100*frac, round, limit, rate)
		if round < limit && rate > 0 {
			s := int(float64(limit-round) / rate)
			fmt.Fprintf(&b, "  ETA %d:%02d", s/60, s%60)
		}
	} else {
		fmt.Fprintf(&b, "round %d  %.3g rounds/s", round, rate)
	}
	return b.String()
}
