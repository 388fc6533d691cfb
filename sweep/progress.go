package sweep

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress is the sweep's one progress bar: on a terminal a line redrawn
// in place, elsewhere a line every interval.
type progress struct {
	mu                  sync.Mutex
	w                   io.Writer
	tty                 bool
	every               time.Duration
	total, done, failed int
	skipped             int
	start               time.Time
	stop                chan struct{}
	stopped             chan struct{}
}

func newProgress(opt Options, total, skipped int) *progress {
	if opt.Progress == nil || opt.ProgressMode == "off" {
		return nil
	}
	p := &progress{w: opt.Progress, every: opt.ProgressEvery, total: total, done: skipped, skipped: skipped,
		start: time.Now(), stop: make(chan struct{}), stopped: make(chan struct{})}
	switch opt.ProgressMode {
	case "bar":
		p.tty = true
	case "auto":
		p.tty = isTerminal(opt.Progress)
	}
	go p.loop()
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) loop() {
	defer close(p.stopped)
	tick := 200 * time.Millisecond
	if !p.tty {
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
func (p *progress) add(ran, failed bool) {
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

func (p *progress) draw(final bool) {
	el := time.Since(p.start)
	ran := p.done - p.skipped
	rate := float64(ran) / max(el.Seconds(), 1e-9)
	eta := "?"
	if ran > 0 {
		eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	text := fmt.Sprintf("%d/%d runs", p.done, p.total)
	if p.failed > 0 {
		text += fmt.Sprintf(", %d failed", p.failed)
	}
	if p.skipped > 0 {
		text += fmt.Sprintf(", %d done before", p.skipped)
	}
	text += fmt.Sprintf(", %.1f runs/s, %s elapsed", rate, el.Round(time.Second))
	if !final {
		text += ", ETA " + eta
	}
	if p.tty {
		const width = 30
		fill := 0
		if p.total > 0 {
			fill = width * p.done / p.total
		}
		fmt.Fprintf(p.w, "\r\x1b[2Ksweep [%s%s] %s", strings.Repeat("#", fill), strings.Repeat(".", width-fill), text)
		if final {
			fmt.Fprintln(p.w)
		}
		return
	}
	fmt.Fprintf(p.w, "sweep: %s\n", text)
}

func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	p.draw(true)
}
