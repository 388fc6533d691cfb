package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/render/web"
	"github.com/coder/websocket"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

type still struct{}

func (still) Init(ci.Robot, ci.Params) error { return nil }
func (still) ControlStep()                   {}
func (still) Reset()                         {}
func (still) Destroy() error                 { return nil }

func init() {
	ci.Controllers.MustRegister("web_test_still", "test: does nothing", func() ci.Controller { return still{} })
}

// diffusion10 loads experiments/diffusion_10.argos with a web viewer on a
// free loopback port instead of its text visualization.
func diffusion10(t testing.TB, attrs ...config.Attr) *config.Experiment {
	t.Helper()
	exp, err := config.Load(filepath.Join("..", "..", "..", "experiments", "diffusion_10.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.Visualizations = []*config.Node{{Name: "web", Attrs: append([]config.Attr{{Name: "port", Value: "0"}}, attrs...)}}
	return exp
}

// start builds the simulator and runs it through its viewer until the
// test ends.
func start(t testing.TB, exp *config.Experiment, opts ...simulator.Options) (*simulator.Simulator, *web.Viewer) {
	t.Helper()
	var opt simulator.Options
	if len(opts) > 0 {
		opt = opts[0]
	}
	sim, err := simulator.New(exp, opt)
	if err != nil {
		t.Fatal(err)
	}
	v := sim.Visualizations()[0].(*web.Viewer)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- sim.Execute(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Execute: %v", err)
		}
		if err := sim.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return sim, v
}

// do runs fn on the simulator's goroutine.
func do(t testing.TB, v *web.Viewer, fn func(sim *simulator.Simulator)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		err := v.Do(ctx, fn)
		if err == nil {
			return
		}
		if ctx.Err() != nil || !strings.Contains(err.Error(), "does not drive") {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // Execute has not started yet
	}
}

type browser struct {
	t    testing.TB
	conn *websocket.Conn
	msgs chan map[string]any
	seq  int // of the checks synced sends
}

// dial connects a WebSocket client that decodes every message.
func dial(t testing.TB, v *web.Viewer) *browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(v.URL(), "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(1 << 24)
	b := &browser{t: t, conn: conn, msgs: make(chan map[string]any, 4096)}
	go func() {
		defer close(b.msgs)
		var st web.FrameState
		for {
			typ, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			var m map[string]any
			if typ == websocket.MessageBinary {
				// a frame: what the page would hold after it
				if err := st.Apply(data); err != nil {
					m = map[string]any{"t": "bad frame", "error": err.Error()}
				} else {
					cp := st
					m = map[string]any{"t": "frame", "tick": float64(st.Tick), "playing": st.Playing, "finished": st.Finished,
						"driven": st.Driven, "message": st.Message, "bytes": len(data), "state": &cp}
				}
			} else if json.Unmarshal(data, &m) != nil {
				continue
			}
			if m["t"] == "scene" {
				st = web.FrameState{} // the next frame is a full one
			}
			b.msgs <- m
		}
	}()
	t.Cleanup(func() { conn.CloseNow() })
	return b
}

func (b *browser) send(cmd map[string]any) {
	b.t.Helper()
	data, _ := json.Marshal(cmd)
	if err := b.conn.Write(context.Background(), websocket.MessageText, data); err != nil {
		b.t.Fatal(err)
	}
}

// wait returns the first message for which ok is true.
func (b *browser) wait(what string, ok func(m map[string]any) bool) map[string]any {
	b.t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case m, open := <-b.msgs:
			if !open {
				b.t.Fatalf("connection closed while waiting for %s", what)
			}
			if m["t"] == "bad frame" {
				b.t.Fatalf("waiting for %s: %v", what, m["error"])
			}
			if ok(m) {
				return m
			}
		case <-deadline:
			b.t.Fatalf("no %s in 10 s", what)
		}
	}
}

// synced returns once the viewer has served every command this browser
// sent before it: a check is answered in the order commands are served.
// v.Do does not wait for them (they come through the browser's socket),
// so a test reading the simulator after commands calls this first.
func (b *browser) synced(id string) {
	b.t.Helper()
	b.seq++
	seq := float64(1000 + b.seq)
	b.send(map[string]any{"cmd": "check", "id": id, "x": 0, "y": 0, "seq": seq})
	b.wait("the check answered after the commands", func(m map[string]any) bool { return m["t"] == "check" && m["seq"] == seq })
}

func isFrame(m map[string]any) bool { return m["t"] == "frame" }

func TestProtocol(t *testing.T) {
	sim, v := start(t, diffusion10(t))
	a, b := dial(t, v), dial(t, v)
	var scene map[string]any
	for _, br := range []*browser{a, b} {
		scene = br.wait("scene", func(m map[string]any) bool { return m["t"] == "scene" })
		br.wait("frame", isFrame)
	}
	if n := len(scene["robots"].([]any)); n != 10 {
		t.Fatalf("the scene has %d robots, want 10", n)
	}
	if n := len(scene["bodies"].([]any)); n != 24 {
		t.Fatalf("the scene has %d bodies, want 24 (4 walls, 5 boxes, 5 cylinders, 10 robots)", n)
	}
	// it starts paused; one step is one tick, seen by both browsers
	a.send(map[string]any{"cmd": "step"})
	for _, br := range []*browser{a, b} {
		f := br.wait("frame of tick 1", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) == 1 })
		if f["playing"] != false || f["driven"] != true {
			t.Errorf("after step: %v", f)
		}
	}
	// play runs, pause stops
	a.send(map[string]any{"cmd": "speed", "value": 0})
	a.send(map[string]any{"cmd": "play"})
	a.wait("frame past tick 20", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) > 20 })
	a.send(map[string]any{"cmd": "pause"})
	f := a.wait("paused frame", func(m map[string]any) bool { return isFrame(m) && m["playing"] == false })
	var tick int
	do(t, v, func(s *simulator.Simulator) { tick = s.Tick() })
	if float64(tick) != f["tick"].(float64) {
		t.Errorf("paused at tick %v, simulator at %d", f["tick"], tick)
	}
	// select: the inspector lists the devices with their values
	a.send(map[string]any{"cmd": "select", "id": "fb3"})
	in := a.wait("inspect", func(m map[string]any) bool { return m["t"] == "inspect" })
	if in["found"] != true || in["controller"] != "fdc" {
		t.Fatalf("inspect: %v", in)
	}
	var prox []any
	for _, d := range in["devices"].([]any) {
		d := d.(map[string]any)
		if d["tag"] == "footbot_proximity" {
			prox = d["value"].(map[string]any)["values"].([]any)
		}
	}
	if len(prox) != 24 {
		t.Fatalf("inspect shows %d proximity values, want 24: %v", len(prox), in)
	}
	// move a robot, then a static wall (refused with a message)
	a.send(map[string]any{"cmd": "move", "id": "fb3", "x": 1.25, "y": -1.3})
	a.synced("fb3")
	do(t, v, func(s *simulator.Simulator) {
		h, _ := s.Body("fb3")
		p := s.Space().Bodies[h].Pos
		if math.Abs(p.X-1.25) > 1e-9 || math.Abs(p.Y+1.3) > 1e-9 {
			t.Errorf("fb3 is at %v after the move", p)
		}
	})
	a.send(map[string]any{"cmd": "move", "id": "wall_north", "x": 0, "y": 0})
	e := a.wait("error", func(m map[string]any) bool { return m["t"] == "error" })
	if !strings.Contains(e["message"].(string), "static") {
		t.Errorf("moving a wall: %v", e)
	}
	// reset goes back to tick 0
	a.send(map[string]any{"cmd": "reset"})
	a.wait("frame of tick 0", func(m map[string]any) bool { return isFrame(m) && m["tick"].(float64) == 0 })
	// overlays: rays of 24 sensors per robot
	a.send(map[string]any{"cmd": "overlay", "rays": true})
	o := a.wait("overlay", func(m map[string]any) bool { return m["t"] == "overlay" })
	if n := len(o["rays"].([]any)); n != 10*(2+2*24) {
		t.Errorf("overlay has %d numbers, want %d", n, 10*(2+2*24))
	}
	_ = sim
}

// The viewer serves its page and assets, and nothing else: request paths
// never reach the file system.
func TestServesOnlyItsAssets(t *testing.T) {
	_, v := start(t, diffusion10(t))
	addr := v.Addr().String()
	get := func(path string) (int, string, string) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", path, addr)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
	}
	for _, p := range []string{"/", "/index.html", "/assets/viewer.js", "/assets/style.css"} {
		code, typ, body := get(p)
		if code != 200 || body == "" {
			t.Errorf("GET %s: %d", p, code)
		}
		if strings.HasSuffix(p, ".js") && !strings.Contains(typ, "javascript") {
			t.Errorf("GET %s: Content-Type %q", p, typ)
		}
	}
	for _, p := range []string{
		"/assets/../web.go", "/assets/../../../go.mod", "/../../../../../../etc/passwd",
		"/assets/..%2f..%2f..%2fgo.mod", "/assets/%2e%2e/%2e%2e/%2e%2e/go.mod", "/assets/%2e%2e%2fweb.go",
		"/assets/", "/assets", "/static/index.html", "/assets/static/viewer.js", "/web.go", "/server.go",
		"//etc/passwd", "/assets//etc/passwd", "/assets/viewer.js/..", "/assets/./viewer.js", "/assets/..\\web.go",
		"/assets/%00", "/favicon.ico", "/etc/passwd",
	} {
		if code, _, body := get(p); code != 404 {
			t.Errorf("GET %s: status %d, want 404; body %.80q", p, code, body)
		}
	}
}

// By default the viewer listens on loopback only and refuses requests
// from elsewhere, and for host names that are not this machine's (DNS
// rebinding).
func TestLoopbackOnly(t *testing.T) {
	_, v := start(t, diffusion10(t))
	if ip := v.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		t.Fatalf("listens on %v, not loopback", ip)
	}
	cases := []struct {
		remote, host string
		want         int
	}{
		{"127.0.0.1:40000", "127.0.0.1:8080", 200},
		{"[::1]:40000", "localhost:8080", 200},
		{"127.0.0.1:40000", "[::1]:8080", 200},
		{"203.0.113.7:40000", "127.0.0.1:8080", 403},
		{"192.168.1.20:40000", "127.0.0.1:8080", 403},
		{"10.0.0.1:40000", "localhost", 403},
		{"127.0.0.1:40000", "attacker.example:8080", 403},
		{"127.0.0.1:40000", "127.0.0.1.nip.io", 403},
	}
	for _, c := range cases {
		for _, path := range []string{"/", "/ws", "/assets/viewer.js"} {
			req := httptest.NewRequest("GET", "http://"+c.host+path, nil)
			req.RemoteAddr, req.Host = c.remote, c.host
			rec := httptest.NewRecorder()
			v.ServeHTTP(rec, req)
			got := rec.Code
			if path == "/ws" && c.want == 200 {
				continue // not a WebSocket handshake: covered by TestProtocol
			}
			if got != c.want {
				t.Errorf("%s from %s for host %s: %d, want %d", path, c.remote, c.host, got, c.want)
			}
		}
	}
	// a page of another site may not open the WebSocket (the browser
	// sends its origin)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(v.URL(), "http") + "ws"
	if c, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://attacker.example"}}}); err == nil {
		c.CloseNow()
		t.Error("a WebSocket from another origin was accepted")
	}
	// a real connection from this machine but through another interface
	// name would be refused too; an explicit address opens the viewer
	sim, err := simulator.New(diffusion10(t, config.Attr{Name: "address", Value: "0.0.0.0"}), simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	open := sim.Visualizations()[0].(*web.Viewer)
	req := httptest.NewRequest("GET", "/", nil)
	req.RemoteAddr = "203.0.113.7:40000"
	rec := httptest.NewRecorder()
	open.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("address=\"0.0.0.0\" asked for remote access, still %d", rec.Code)
	}
}

// A viewer of a run that a program steps itself shows it but refuses to
// drive it.
func TestWatchOnly(t *testing.T) {
	sim, err := simulator.New(diffusion10(t), simulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	v := sim.Visualizations()[0].(*web.Viewer)
	b := dial(t, v)
	b.send(map[string]any{"cmd": "play"})
	for sim.Tick() < 3 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(40 * time.Millisecond)
	}
	b.wait("refusal", func(m map[string]any) bool {
		return m["t"] == "error" && strings.Contains(m["message"].(string), "not driven")
	})
	b.wait("frame", func(m map[string]any) bool { return isFrame(m) && m["driven"] == false && m["tick"].(float64) >= 1 })
}

// Frames carry the lit LEDs of boxes and cylinders, where they sit on the
// turned object; an off (black) LED is left out.
func TestObjectLEDsInFrames(t *testing.T) {
	exp, err := config.Load(filepath.Join("..", "testdata", "object_leds.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.Visualizations = []*config.Node{{Name: "web", Attrs: []config.Attr{{Name: "port", Value: "0"}}}}
	_, v := start(t, exp)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(v.URL(), "http")+"ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 24)
	var st web.FrameState
	for {
		typ, data, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if typ != websocket.MessageBinary {
			continue
		}
		if err := st.Apply(data); err != nil {
			t.Fatal(err)
		}
		// the box is turned by 90 degrees: its LED, 0.1 m ahead, is at (-1, 0.1)
		want := web.ObjectLED{Pos: ci.Vector3{X: -1, Y: 0.1, Z: 0.2}, Color: 0xff0000}
		if len(st.ObjectLEDs) != 1 {
			t.Fatalf("object LEDs %v, want %v", st.ObjectLEDs, want)
		}
		got := st.ObjectLEDs[0]
		if got.Pos.Sub(want.Pos).Length() > 1e-3 || got.Color != want.Color {
			t.Fatalf("object LEDs %v, want %v", st.ObjectLEDs, want)
		}
		return
	}
}
