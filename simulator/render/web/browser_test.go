package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/render/web"
	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium (scripts/ci-setup.d/browser.sh
// installs it). Without it the test fails under ARGOS_CI=1 and is skipped
// elsewhere.
func chromium(t testing.TB) string {
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("ARGOS_CI") == "1" {
		t.Fatal("chromium is not installed, and ARGOS_CI=1 requires the browser test: scripts/ci-setup.d/browser.sh installs it")
	}
	t.Skip("chromium is not installed (scripts/ci-setup.d/browser.sh installs it)")
	return ""
}

// artifact is where the test keeps its screenshots: build/test-artifacts
// at the repository root.
func artifact(t *testing.T, name string, data []byte) {
	dir := filepath.Join("..", "..", "..", "build", "test-artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", filepath.Join(dir, name))
}

// page is a headless Chromium showing a viewer.
type page struct {
	t       *testing.T
	v       *web.Viewer
	browser context.Context
	ctx     context.Context
	shot    string // the screenshot's name on failure
}

// openPage starts Chromium on the viewer's page; it closes with the test.
func openPage(t *testing.T, v *web.Viewer, name string) *page {
	t.Helper()
	exe := chromium(t)
	if testing.Short() {
		t.Skip("starts a browser")
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	// the first Run starts the browser; later actions get their own limits
	if err := chromedp.Do(browserCtx, chromedp.Navigate(v.URL())); err != nil {
		t.Fatalf("loading %s: %v", v.URL(), err)
	}
	ctx, cancel := context.WithTimeout(browserCtx, 5*time.Minute)
	t.Cleanup(cancel)
	p := &page{t: t, v: v, browser: browserCtx, ctx: ctx, shot: name}
	p.poll("the viewer is connected", `document.getElementById("conn").textContent === "connected" && !!argosViewer.state.F`)
	return p
}

func (p *page) fail(format string, args ...any) {
	p.t.Helper()
	shot, _ := chromedp.Run(p.browser, chromedp.CaptureScreenshot())
	if len(shot) > 0 {
		artifact(p.t, p.shot+"_failure.png", shot)
	}
	p.t.Fatalf(format, args...)
}

func (p *page) run(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, steps...); err != nil {
		p.fail("%s: %v", what, err)
	}
}

func (p *page) eval(js string) float64 {
	p.t.Helper()
	f, err := chromedp.Run(p.ctx, chromedp.Evaluate[float64](js))
	if err != nil {
		p.fail("%s: %v", js, err)
	}
	return f
}

func (p *page) str(js string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		p.fail("%s: %v", js, err)
	}
	return s
}

func (p *page) poll(what, js string) {
	p.t.Helper()
	// polled on a timer: animation frames may pause in a headless page,
	// and a poll on them would then wait past its timeout
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(20*time.Millisecond),
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		p.fail("waiting until %s (%s): %v", what, js, err)
	}
}

// at returns where a point of the arena is on the page.
func (p *page) at(x, y float64) (float64, float64) {
	p.t.Helper()
	js := fmt.Sprintf("argosViewer.worldToPage(%g, %g)", x, y)
	return p.eval(js + ".x"), p.eval(js + ".y")
}

func (p *page) screenshot(name string) image.Image {
	p.t.Helper()
	shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.fail("screenshot: %v", err)
	}
	artifact(p.t, name, shot)
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		p.fail("screenshot: %v", err)
	}
	return img
}

// text returns the text of the first element a CSS selector finds.
func (p *page) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		p.fail("%s: %v", sel, err)
	}
	return s
}

// The viewer in a real browser: the robots are drawn, pause and step move
// the run by exactly one tick, clicking a robot shows its proximity
// readings, and dragging it moves it in the simulator.
func TestBrowser(t *testing.T) {
	_, v := start(t, diffusion10(t))
	p := openPage(t, v, "web_viewer")
	ctx, run, eval, poll := p.ctx, p.run, p.eval, p.poll
	tick := func() int {
		t.Helper()
		s := p.text("#tick")
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("#tick shows %q", s)
		}
		return n
	}
	simTick := func() (n int) {
		do(t, v, func(s *simulator.Simulator) { n = s.Tick() })
		return n
	}

	// the robots are drawn
	poll("the ten robots are drawn", `window.argosViewer && argosViewer.robotsDrawn() === 10`)

	// play, pause, then one step is one tick
	run("play", chromedp.Click(chromedp.CSS("#play")))
	poll("the run plays", `+document.getElementById("tick").textContent >= 5`)
	run("pause", chromedp.Click(chromedp.CSS("#pause")))
	poll("the run is paused", `document.getElementById("status").textContent === "paused"`)
	time.Sleep(300 * time.Millisecond) // no frame of the running loop is in flight
	before := tick()
	if s := simTick(); s != before {
		t.Fatalf("paused: the page shows tick %d, the simulator is at %d", before, s)
	}
	run("step", chromedp.Click(chromedp.CSS("#step")))
	poll("the step shows", `+document.getElementById("tick").textContent === `+strconv.Itoa(before+1))
	time.Sleep(300 * time.Millisecond)
	if after, s := tick(), simTick(); after != before+1 || s != before+1 {
		t.Fatalf("step from tick %d: the page shows %d, the simulator is at %d; want %d", before, after, s, before+1)
	}

	// put fb3 in front of the east wall and let it sense once, so that its
	// proximity sensors read something
	var fb3 int
	do(t, v, func(s *simulator.Simulator) {
		h, _ := s.Body("fb3")
		if err := s.MoveBody(h, ci.Vector3{X: 1.85, Y: 0.0}, 0); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < s.NumRobots(); i++ {
			if s.Robot(i).ID == "fb3" {
				fb3 = i
			}
		}
	})
	run("step", chromedp.Click(chromedp.CSS("#step")))
	poll("fb3 is drawn at the wall", `argosViewer.state.F && argosViewer.state.F.tick === `+strconv.Itoa(before+2))

	// click fb3: the panel shows its proximity readings, as the simulator
	// has them
	x, y := eval(`argosViewer.worldToPage(1.85, 0).x`), eval(`argosViewer.worldToPage(1.85, 0).y`)
	run("click fb3", chromedp.MouseClickXY(x, y))
	poll("the inspector shows fb3's proximity sensors",
		`!!document.querySelector('#inspect [data-tag="footbot_proximity"] .values') && document.querySelector('#inspect h3').textContent.startsWith("fb3")`)
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#inspect [data-tag="footbot_proximity"] .values`)))
	if err != nil {
		t.Fatal(err)
	}
	shown := strings.Fields(text)
	var want []ci.ProximityReading
	do(t, v, func(s *simulator.Simulator) {
		for _, d := range s.RobotDevices(fb3) {
			if p, ok := d.Impl.(ci.Proximity); ok {
				want = append(want, p.Readings()...)
			}
		}
	})
	if len(shown) != 24 || len(want) != 24 {
		t.Fatalf("the inspector shows %d proximity values (%q); the simulator has %d", len(shown), text, len(want))
	}
	seen := 0.0
	for i, s := range shown {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Abs(f-want[i].Value) > 6e-4 {
			t.Errorf("proximity %d: the page shows %q, the simulator reads %.4f", i, s, want[i].Value)
		}
		seen = math.Max(seen, f)
	}
	if seen == 0 {
		t.Errorf("fb3 at the wall reads nothing: %q", text)
	}
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	artifact(t, "web_viewer.png", shot)

	// drag fb3 to (-1.2, -1.3): the simulator has it there
	tx, ty := eval(`argosViewer.worldToPage(-1.2, -1.3).x`), eval(`argosViewer.worldToPage(-1.2, -1.3).y`)
	run("drag fb3", chromedp.DragAndDropXY(x, y, tx, ty, 12))
	poll("the drag is done", `!argosViewer.state.drag`)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got ci.Vector2
		do(t, v, func(s *simulator.Simulator) { got = s.Robot(fb3).B().Pos })
		if math.Hypot(got.X+1.2, got.Y+1.3) < 0.02 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the drag fb3 is at (%.3f, %.3f), want (-1.2, -1.3)", got.X, got.Y)
		}
		time.Sleep(20 * time.Millisecond)
	}
	poll("the panel shows the new position", `document.querySelector('#inspect table').textContent.includes("-1.2")`)

	// the 3D view draws with WebGL 2
	run("3D view", chromedp.Click(chromedp.CSS("#view-3d")), chromedp.Click(chromedp.CSS("#cam-iso")))
	poll("the 3D view is drawn", `argosViewer.glReady() && argosViewer.robotsDrawn() === 10`)
	time.Sleep(200 * time.Millisecond)
	shot, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	artifact(t, "web_viewer_3d.png", shot)
}
