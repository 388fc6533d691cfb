package sweep

import (
	"fmt"
	"sync"
	"time"

	"github.com/argosgo/argos/internal/progress"
)

// runsProgress is the sweep's one progress bar: on a terminal a line
// redrawn in place, elsewhere a line every interval.
type runsProgress struct {
	mu                  sync.Mutex
	line                *progress.Line
	every               time.Duration
	total, done, failed int
	skipped             int
	start               time.Time
	stop                chan struct{}
	stopped             chan struct{}
}

func newProgress(opt Options, total, skipped int) *runsProgress {
	if opt.Progress == nil || opt.ProgressMode == "off" {
		return nil
	}
	w := opt.Progress
	p := &runsProgress{every: opt.ProgressEvery, total: total, done: skipped, skipped: skipped,
		start: time.Now(), stop: make(chan struct{}), stopped: make(chan struct{})}
	p.line = progress.NewLine(w, progress.Terminal(opt.ProgressMode, w), func(s string) { fmt.Fprintf(w, "sweep: %s\n", s) })
	go p.loop()
	return p
}

func (p *runsProgress) loop() {
	defer close(p.stopped)
	tick := 200 * time.Millisecond
	if !p.line.Terminal() {
		tick = p.every
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.draw(false)
			p.mu.Unlock()
		}
	}
}

// add counts one more cell; ran is false for a cell left unfinished.
func (p *runsProgress) add(ran, failed bool) {
	if p == nil || !ran {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.failed++
	}
}

func (p *runsProgress) draw(final bool) {
	el := time.Since(p.start)
	ran := p.done - p.skipped
	rate := float64(ran) / max(el.Seconds(), 1e-9)
	text := fmt.Sprintf("%d/%d runs", p.done, p.total)
	if p.failed > 0 {
		text += fmt.Sprintf(", %d failed", p.failed)
	}
	if p.skipped > 0 {
		text += fmt.Sprintf(", %d done before", p.skipped)
	}
	text += fmt.Sprintf(", %.1f runs/s, %s elapsed", rate, progress.Clock(el))
	if !final {
		if eta := progress.ETA(float64(ran), float64(p.total-p.skipped), el); eta != "" {
			text += ", " + eta
		} else if ran == 0 {
			text += ", ETA ?"
		}
	}
	if p.line.Terminal() {
		frac := 0.0
		if p.total > 0 {
			frac = float64(p.done) / float64(p.total)
		}
		text = "sweep " + progress.Gauge(frac, 30) + text
	}
	p.line.Show(text)
}

func (p *runsProgress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw(true)
	p.line.End()
}
