package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

func init() {
	simulator.Visualizations.MustRegister("web",
		"Web viewer: serves a page on http://127.0.0.1:PORT that shows the arena from above and in 3D, plays, pauses, steps, resets, "+
			"inspects, moves and turns robots, shows what user functions draw and passes them the selection and keys. "+
			"Attributes: port (default 8080, 0 for any free port), address (default 127.0.0.1; "+
			"another interface only when named explicitly), fps (default 30), autoplay (default false), speed (1 real time, 0 fastest; default 1). "+
			"Children: <camera><placements><placement index position look_at up lens_focal_length/></placements></camera> as in qt-opengl, <user_functions label>.",
		simulator.VisualizationType{Interactive: true, New: newFromXML})
}

// Options configure a viewer.
type Options struct {
	// Address is the interface to listen on; "" is 127.0.0.1. Any other
	// than a loopback address lets other machines connect.
	Address string
	// Port to listen on; 0 picks a free port.
	Port int
	// FPS is the most frames per second sent to a browser (default 30).
	FPS int
	// Autoplay starts the run playing instead of paused.
	Autoplay bool
	// Speed is the run's speed relative to real time (1); 0 runs as fast
	// as possible.
	Speed float64
	// Cameras are presets of the 3D view the page offers besides its
	// own (<qt-opengl><camera>).
	Cameras []Camera
	// View3D opens the page in the 3D view, from the first camera.
	View3D bool
	// Title names the run in the page's header.
	Title string
}

// Viewer is the web viewer of one simulator. It implements
// simulator.Visualization and simulator.Driver.
type Viewer struct {
	opt    Options
	remote bool // accept requests from other machines
	ln     net.Listener
	srv    *http.Server
	served chan struct{}
	url    string

	cmds   chan command // browsers -> the loop goroutine
	assets map[string]asset

	writeTimeout time.Duration
	maxQueue     int

	mu        sync.Mutex
	clients   map[*client]struct{}
	closed    bool
	lastScene []byte // for browsers that connect later
	lastFrame *snapshot

	driving    atomic.Bool
	dropped    atomic.Int64 // frames replaced before a browser took them
	sent       atomic.Int64 // messages sent
	sentBytes  atomic.Int64
	frames     atomic.Int64 // frames sent
	frameBytes atomic.Int64

	// owned by the loop goroutine
	loop loopState
}

func newFromXML(n *config.Node, sim *simulator.Simulator) (simulator.Visualization, error) {
	if err := n.CheckAttrs("port", "address", "fps", "autoplay", "speed"); err != nil {
		return nil, err
	}
	opt, err := options(n)
	if err != nil {
		return nil, err
	}
	for _, c := range n.Children {
		switch c.Name {
		case "user_functions": // bound by the simulator
		case "camera":
			cams, err := cameras(c, sim)
			if err != nil {
				return nil, err
			}
			opt.Cameras = append(opt.Cameras, cams...)
		default:
			return nil, c.Errorf("web: <web> has no <%s>; it may hold <camera> and <user_functions>", c.Name)
		}
	}
	return start(n, sim, opt, "web")
}

// options reads the attributes <web> and <qt-opengl> share.
func options(n *config.Node) (Options, error) {
	var opt Options
	var err error
	if opt.Port, err = n.IntOr("port", 8080); err != nil {
		return opt, err
	}
	opt.Address = n.StringOr("address", "")
	if opt.FPS, err = n.IntOr("fps", 30); err != nil {
		return opt, err
	}
	if opt.Autoplay, err = n.BoolOr("autoplay", false); err != nil {
		return opt, err
	}
	if opt.Speed, err = n.FloatOr("speed", 1); err != nil {
		return opt, err
	}
	return opt, nil
}

// start opens the viewer of an experiment's element and logs its address.
func start(n *config.Node, sim *simulator.Simulator, opt Options, tag string) (*Viewer, error) {
	v, err := New(sim, opt)
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	sim.Logger().Infof("web viewer (<%s>): open %s in a browser", tag, v.URL())
	return v, nil
}

// New starts a viewer of sim: it listens at once and serves until Close.
func New(sim *simulator.Simulator, opt Options) (*Viewer, error) {
	if opt.Port < 0 || opt.Port > 65535 {
		return nil, fmt.Errorf("web: port=%d: use 0 to 65535", opt.Port)
	}
	if opt.FPS == 0 {
		opt.FPS = 30
	}
	if opt.FPS < 1 || opt.FPS > 240 {
		return nil, fmt.Errorf("web: fps=%d: use 1 to 240", opt.FPS)
	}
	if opt.Speed < 0 || opt.Speed > 1e6 {
		return nil, fmt.Errorf("web: speed=%g: use 0 (as fast as possible) or a factor of real time such as 1 or 10", opt.Speed)
	}
	addr := opt.Address
	if addr == "" {
		addr = "127.0.0.1"
	}
	ip := net.ParseIP(addr)
	if addr != "localhost" && ip == nil {
		return nil, fmt.Errorf("web: address=%q: give an IP address such as 127.0.0.1 (the default), ::1, or 0.0.0.0 for every interface", addr)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, strconv.Itoa(opt.Port)))
	if err != nil {
		return nil, fmt.Errorf("web: cannot listen on %s port %d: %w; choose another port (port=\"0\" takes any free one)", addr, opt.Port, err)
	}
	v := &Viewer{
		opt:     opt,
		remote:  addr != "localhost" && !ip.IsLoopback(),
		ln:      ln,
		served:  make(chan struct{}),
		cmds:    make(chan command, 256),
		clients: map[*client]struct{}{},
		assets:  loadAssets(),

		writeTimeout: 5 * time.Second,
		maxQueue:     64,
	}
	v.loop.init(sim, opt)
	host := addr
	if ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	v.url = "http://" + net.JoinHostPort(host, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)) + "/"
	v.srv = &http.Server{
		Handler:           v,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       60 * time.Second,
		ErrorLog:          nil,
	}
	go func() {
		defer close(v.served)
		if err := v.srv.Serve(boundedListener{ln}); err != nil && !errors.Is(err, http.ErrServerClosed) {
			sim.Logger().Warnf("web viewer stopped serving: %v", err)
		}
	}()
	return v, nil
}

// URL returns the address of the page, such as http://127.0.0.1:8080/.
func (v *Viewer) URL() string { return v.url }

// Addr returns the address the viewer listens on.
func (v *Viewer) Addr() net.Addr { return v.ln.Addr() }

// Draw implements simulator.Visualization: it sends the state to the
// browsers, at most FPS times a second while the run plays.
func (v *Viewer) Draw(sim *simulator.Simulator) error {
	if !v.driving.Load() {
		v.drainReadOnly(sim)
	}
	v.publish(sim, false)
	return nil
}

// Close implements simulator.Visualization: it disconnects the browsers
// and stops serving.
func (v *Viewer) Close() error {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return nil
	}
	v.closed = true
	clients := make([]*client, 0, len(v.clients))
	for c := range v.clients {
		clients = append(clients, c)
	}
	v.mu.Unlock()
	for _, c := range clients {
		c.close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := v.srv.Shutdown(ctx)
	if err != nil {
		err = v.srv.Close()
	}
	<-v.served
	for _, c := range clients {
		c.wait()
	}
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	return nil
}

// Do runs fn on the goroutine that drives the simulator, between two
// ticks, and waits for it: the way for another goroutine to read or change
// the simulator while the viewer drives it (Execute). It fails when ctx
// ends first or nothing drives the run.
func (v *Viewer) Do(ctx context.Context, fn func(sim *simulator.Simulator)) error {
	if !v.driving.Load() {
		return errors.New("web: the viewer does not drive the run; call Simulator.Execute")
	}
	done := make(chan struct{})
	select {
	case v.cmds <- command{Cmd: "do", fn: fn, done: done}:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// clientsSnapshot returns the connected browsers.
func (v *Viewer) clientsSnapshot(dst []*client) []*client {
	v.mu.Lock()
	defer v.mu.Unlock()
	for c := range v.clients {
		dst = append(dst, c)
	}
	return dst
}

var _ simulator.Driver = (*Viewer)(nil)

// boundedListener gives every connection a bounded kernel send buffer, so
// that a browser that stops reading is noticed (its writes time out)
// after a few frames rather than after megabytes.
type boundedListener struct{ net.Listener }

// sendBuffer is the kernel send buffer of a browser's connection: a
// second of frames of a large swarm.
const sendBuffer = 256 << 10

func (l boundedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(sendBuffer)
	}
	return c, err
}
