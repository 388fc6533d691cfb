package gridrun

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/argosgo/argos/internal/progress"
	"github.com/sirupsen/logrus"
)

// roundProgress reports a long run: a bar with the rounds done, the
// rounds per second and the time left on a terminal, a log line every
// interval otherwise.
type roundProgress struct {
	line     *progress.Line
	start    time.Time
	last     time.Time
	interval time.Duration
}

func newProgress(out io.Writer, mode string, every time.Duration, log logrus.FieldLogger) *roundProgress {
	if mode == "off" {
		return nil
	}
	if every <= 0 {
		every = 10 * time.Second
	}
	tty := progress.Terminal(mode, out)
	p := &roundProgress{line: progress.NewLine(out, tty, func(s string) { log.Info("progress: " + s) }), start: time.Now(), interval: every}
	p.last = p.start
	if tty {
		p.interval = 150 * time.Millisecond
	}
	return p
}

// update reports round of limit (0: no limit); done ends the bar.
func (p *roundProgress) update(round, limit int, done bool) {
	now := time.Now()
	if !done && now.Sub(p.last) < p.interval {
		return
	}
	p.last = now
	if p.line.Terminal() || !done {
		p.line.Show(status(round, limit, now.Sub(p.start), p.line.Terminal()))
	}
	if done {
		p.line.End()
	}
}

// status is "[=====>     ]  42%  round 42/100  1.2e+03 rounds/s  ETA 0:05".
func status(round, limit int, elapsed time.Duration, bar bool) string {
	rate := float64(round) / max(elapsed.Seconds(), 1e-9)
	var b strings.Builder
	if limit > 0 {
		frac := min(1, float64(round)/float64(limit))
		if bar {
			b.WriteString(progress.Gauge(frac, 24))
		}
		fmt.Fprintf(&b, "%3.0f%%  round %d/%d  %.3g rounds/s", 100*frac, round, limit, rate)
		if eta := progress.ETA(float64(round), float64(limit), elapsed); eta != "" {
			b.WriteString("  " + eta)
		}
	} else {
		fmt.Fprintf(&b, "round %d  %.3g rounds/s", round, rate)
	}
	return b.String()
}
