package web_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/render/web"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"

	_ "github.com/argosgo/argos/simulator/loop"
)

// swarm10k loads the scalability benchmark's 10,000 e-pucks with a web
// viewer.
func swarm10k(t testing.TB) *config.Experiment {
	t.Helper()
	exp, err := config.Load(filepath.Join("..", "..", "..", "experiments", "scalability", "scalability_10000_e1.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.LoopFunctions = nil // it writes a file
	exp.Visualizations = []*config.Node{{Name: "web", Attrs: []config.Attr{{Name: "port", Value: "0"}, {Name: "speed", Value: "0"}}}}
	return exp
}

// maxFrameBytes is the most a frame of 10,000 moving robots may take.
const maxFrameBytes = 100 << 10

// The frames of 10,000 e-pucks diffusing stay under 100 KB: the first,
// full one, and those that follow while every robot moves.
func TestFramesOf10000Robots(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 robots")
	}
	_, v := start(t, swarm10k(t))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(v.URL(), "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 24)
	var st web.FrameState
	frames, seen, play := 0, 0, []byte(`{"cmd":"play"}`)
	for frames < 6 {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if typ != websocket.MessageBinary {
			var m map[string]any
			json.Unmarshal(data, &m)
			if m["t"] == "scene" {
				if n := len(m["robots"].([]any)); n != 10000 {
					t.Fatalf("%d robots in the scene", n)
				}
			}
			continue
		}
		if err := st.Apply(data); err != nil {
			t.Fatal(err)
		}
		full := data[2]&(1<<3) != 0
		t.Logf("frame of tick %d: %d bytes (full: %v)", st.Tick, len(data), full)
		if len(data) > maxFrameBytes {
			t.Errorf("a frame of tick %d takes %d bytes, more than %d", st.Tick, len(data), maxFrameBytes)
		}
		seen++
		if seen == 1 {
			if !full {
				t.Fatal("the first frame is not a full one")
			}
			if err := conn.Write(ctx, websocket.MessageText, play); err != nil {
				t.Fatal(err)
			}
		}
		if st.Tick > 0 {
			frames++
		}
	}
}

// BenchmarkTopView10k measures the page in headless Chromium (software
// rendering) with 10,000 e-pucks: decoding a full frame and drawing the
// top view, pixels included. It reports the milliseconds of JavaScript
// per frame, the frames per second that makes, and the size of a full
// frame.
//
//	go test -run XXX -bench TopView10k ./simulator/render/web/
func BenchmarkTopView10k(b *testing.B) { benchView(b, "top") }

// BenchmarkView3D10k is BenchmarkTopView10k for the 3D view.
func BenchmarkView3D10k(b *testing.B) { benchView(b, "3d") }

func benchView(b *testing.B, view string) {
	exe := chromium(b)
	_, v := start(b, swarm10k(b))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(b.TempDir()),
		chromedp.WindowSize(1280, 800))
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(bctx, chromedp.Navigate(v.URL())); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bctx, 5*time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.argosViewer && argosViewer.robotsDrawn() === 10000`,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
		b.Fatal(err)
	}
	if view == "3d" {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#view-3d"))); err != nil {
			b.Fatal(err)
		}
	}
	type result struct {
		Decode float64 `json:"decode_ms"`
		Draw   float64 `json:"draw_ms"`
		Bytes  float64 `json:"frame_bytes"`
		Robots float64 `json:"robots"`
	}
	// once to warm up
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[result](`argosViewer.bench(3)`)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	r, err := chromedp.Run(ctx, chromedp.Evaluate[result](`argosViewer.bench(`+itoa(b.N)+`)`))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if r.Robots != 10000 {
		b.Fatalf("%v robots drawn", r.Robots)
	}
	ms := r.Decode + r.Draw
	b.ReportMetric(r.Decode, "decode-ms/frame")
	b.ReportMetric(r.Draw, "draw-ms/frame")
	b.ReportMetric(1000/ms, "frames/s")
	b.ReportMetric(r.Bytes/1024, "KB/full-frame")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// The page shows 10,000 robots: every one drawn from above, each a dot of
// the e-puck's green where it is, on a grid spaced for a 41 m arena; in 3D
// too.
func TestBrowserSwarm(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 robots")
	}
	_, v := start(t, swarm10k(t))
	p := openPage(t, v, "web_swarm")
	p.poll("10,000 robots drawn", `argosViewer.robotsDrawn() === 10000`)
	if s := p.eval(`argosViewer.gridStep()`); s < 5 {
		t.Errorf("the grid of a 41 m arena is %g m", s)
	}
	time.Sleep(300 * time.Millisecond)
	img := p.screenshot("web_swarm_top.png")
	// a robot away from the others: its pixel is green
	green := 0
	for _, id := range []string{"ep0", "ep1", "ep2", "ep3", "ep4", "ep5", "ep6", "ep7", "ep8", "ep9"} {
		pose := p.str(`JSON.stringify(argosViewer.pose("` + id + `"))`)
		var xy []float64
		if err := json.Unmarshal([]byte(pose), &xy); err != nil || len(xy) < 2 {
			t.Fatalf("pose of %s: %q", id, pose)
		}
		x, y := p.at(xy[0], xy[1])
		if r, g, b := rgbAt(img, x, y); near(r, g, b, [3]int{0x3a, 0xa3, 0x65}, 20) {
			green++
		}
	}
	if green < 8 {
		t.Errorf("%d of 10 robots show green where they are", green)
	}
	p.run("3D", chromedp.Click(chromedp.CSS("#view-3d")), chromedp.Click(chromedp.CSS("#cam-iso")))
	p.poll("10,000 robots drawn in 3D", `argosViewer.robotsDrawn() === 10000 && argosViewer.gridStep() >= 2`)
	time.Sleep(300 * time.Millisecond)
	p.screenshot("web_swarm_3d.png")
}
