package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		frac float64
		want string
	}{{0, "[>         ] "}, {0.5, "[=====>    ] "}, {1, "[==========] "}, {7, "[==========] "}, {-1, "[>         ] "}} {
		if got := Gauge(c.frac, 10); got != c.want {
			t.Errorf("Gauge(%g) = %q, want %q", c.frac, got, c.want)
		}
	}
	if got := Clock(65 * time.Second); got != "1:05" {
		t.Errorf("Clock(65s) = %q", got)
	}
	if got := Clock(3723 * time.Second); got != "1:02:03" {
		t.Errorf("Clock(1h2m3s) = %q", got)
	}
	// 10 of 40 done in 5 s: 30 left at 2 per second
	if got := ETA(10, 40, 5*time.Second); got != "ETA 0:15" {
		t.Errorf("ETA = %q", got)
	}
	if ETA(0, 40, time.Second) != "" || ETA(40, 40, time.Second) != "" {
		t.Error("an ETA with nothing done or nothing left")
	}
	if IsTerminal(&bytes.Buffer{}) || Terminal("auto", &bytes.Buffer{}) || !Terminal("bar", &bytes.Buffer{}) || Terminal("log", &bytes.Buffer{}) {
		t.Error("terminal detection")
	}
}

// On a terminal the line is redrawn in place, log lines clear it and draw
// it again; End leaves it on its own line and later Shows draw nothing.
func TestLineTerminal(t *testing.T) {
	var out bytes.Buffer
	l := NewLine(&out, true, func(string) { t.Error("a terminal line was logged") })
	l.Show("a")
	l.Show("b")
	w := l.Writer(&out)
	w.Write([]byte("log line\n"))
	l.End()
	l.Show("c")
	want := "\r\033[Ka\r\033[Kb\r\033[Klog line\nb\n"
	if out.String() != want {
		t.Errorf("terminal:\n%q\nwant\n%q", out.String(), want)
	}
}

// Elsewhere every Show is a log line and nothing is drawn.
func TestLineLog(t *testing.T) {
	var out bytes.Buffer
	var mu sync.Mutex
	var logged []string
	l := NewLine(&out, false, func(s string) { mu.Lock(); logged = append(logged, s); mu.Unlock() })
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); l.Show("x") }()
	}
	wg.Wait()
	l.Writer(&out).Write([]byte("log\n"))
	l.End()
	if out.String() != "log\n" || strings.Join(logged, "") != "xxxx" {
		t.Errorf("out %q, logged %q", out.String(), logged)
	}
}
