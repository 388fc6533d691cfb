package argoscli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/argosgo/argos/internal/progress"
	"github.com/argosgo/argos/simulator"
	"github.com/sirupsen/logrus"
)

// runProgress reports a long run: a bar with simulated time, real-time
// factor and ETA on a terminal, a log line every interval otherwise
// (clusters write stderr to files). It is a simulator.Visualization.
type runProgress struct {
	*progress.Line
	interval time.Duration

	start   time.Time
	startTk int
	last    time.Time
	now     func() time.Time
}

func newProgress(out io.Writer, tty bool, interval time.Duration, log logrus.FieldLogger) *runProgress {
	if interval <= 0 {
		interval = 10 * time.Second
	}
	return &runProgress{
		Line:     progress.NewLine(out, tty, func(s string) { log.Info("progress: " + s) }),
		interval: interval, now: time.Now, startTk: -1,
	}
}

// Draw implements simulator.Visualization.
func (p *runProgress) Draw(sim *simulator.Simulator) error {
	now := p.now()
	if p.startTk < 0 {
		p.start, p.startTk, p.last = now, sim.Tick(), now
		return nil
	}
	every := p.interval
	if p.Terminal() {
		every = 150 * time.Millisecond
	}
	if now.Sub(p.last) < every && !sim.Finished() {
		return nil
	}
	p.last = now
	if p.Terminal() || !sim.Finished() {
		p.Show(p.status(sim, now))
	}
	return nil
}

// status is "[=====>    ]  42%  t 251.3/600.0 s  12.3x real time  ETA 0:28".
func (p *runProgress) status(sim *simulator.Simulator, now time.Time) string {
	tick, maxT := sim.Tick(), sim.MaxTicks()
	dt := sim.TickLength()
	wall := now.Sub(p.start)
	rtf := float64(tick-p.startTk) * dt / max(wall.Seconds(), 1e-9)
	var b strings.Builder
	if maxT > 0 {
		frac := min(1, float64(tick)/float64(maxT))
		if p.Terminal() {
			b.WriteString(progress.Gauge(frac, 24))
		}
		fmt.Fprintf(&b, "%3.0f%%  t %.1f/%.1f s  tick %d/%d  %.1fx real time", 100*frac, float64(tick)*dt, float64(maxT)*dt, tick, maxT, rtf)
		if eta := progress.ETA(float64(tick-p.startTk), float64(maxT-p.startTk), wall); eta != "" {
			b.WriteString("  " + eta)
		}
	} else {
		fmt.Fprintf(&b, "t %.1f s  tick %d  %.1fx real time", float64(tick)*dt, tick, rtf)
	}
	return b.String()
}

// Close implements simulator.Visualization: it leaves the last bar on its
// own line.
func (p *runProgress) Close() error {
	p.End()
	return nil
}
