// Package gridweb is the web view of a grid world: a small page that
// shows the agents on their vertices on small grids (shading the vertices
// by what the program says, such as a task's residual demand) and a heat
// map of the agents' density on large ones, and plays, pauses and steps
// the run. It is separate from the robot viewer (simulator/render/web),
// whose arena, robots and devices a grid world does not have.
//
// The run's goroutine calls Wait before every round (it blocks while the
// page has the run paused) and Publish after it; a frame is built on that
// goroutine, between rounds, only when a browser asks for one and at most
// four times a second, so that a slow or closed browser never slows the
// run down. A 3D grid is shown from above: a vertex column's agents are
// added up, its shade is the largest of its vertices'.
package gridweb

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/argosgo/argos/gridworld"
)

//go:embed page.html
var page []byte

// Limits of what a frame shows: grids of at most AgentCells vertices
// (projected on x and y) are drawn vertex by vertex with their agents;
// larger ones as a density map of at most MapCells by MapCells cells.
const (
	AgentCells = 128 * 128
	MapCells   = 256
)

// Options configure the view.
type Options struct {
	// Address to listen on, "127.0.0.1" when empty; another than a
	// loopback address lets other machines connect.
	Address string
	// Port to listen on; 0 picks a free one.
	Port int
	// Autoplay starts the run playing instead of paused.
	Autoplay bool
	// Title names the run on the page.
	Title string
}

// Server serves the page of one world.
type Server struct {
	inst   gridworld.Instance
	opt    Options
	ln     net.Listener
	srv    *http.Server
	served chan struct{}

	cmds chan string   // play, pause, step
	want chan struct{} // a browser waits for a frame

	mu      sync.Mutex
	frame   []byte
	seq     int           // frames built
	round   int           // the round of the latest frame
	fpaused bool          // the pause state the latest frame shows
	fresh   chan struct{} // closed when a new frame is out
	paused  bool
	steps   int // rounds to run before pausing again
	lastAt  time.Time
	closing bool

	occ    []int32
	values []float64
}

// Start listens and serves the page of inst.
func Start(inst gridworld.Instance, opt Options) (*Server, error) {
	addr := opt.Address
	if addr == "" {
		addr = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, strconv.Itoa(opt.Port)))
	if err != nil {
		return nil, fmt.Errorf("gridweb: cannot listen on %s port %d: %w; choose another port (0 for any free one)", addr, opt.Port, err)
	}
	s := newServer(inst, opt)
	s.ln = ln
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.served)
		s.srv.Serve(ln)
	}()
	return s, nil
}

func newServer(inst gridworld.Instance, opt Options) *Server {
	return &Server{inst: inst, opt: opt, served: make(chan struct{}), cmds: make(chan string, 16), want: make(chan struct{}, 1),
		fresh: make(chan struct{}), paused: !opt.Autoplay, round: -1}
}

// URL returns the page's address.
func (s *Server) URL() string {
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String() + "/"
}

// Close stops serving.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	if s.srv == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.served
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	return err
}

// Handler returns the page's handler: / (the page), /frame?after=SEQ
// (the frame after frame SEQ, as JSON) and /control?cmd=play|pause|step
// (POST).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("/frame", s.serveFrame)
	mux.HandleFunc("/control", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "use POST", http.StatusMethodNotAllowed)
			return
		}
		cmd := r.URL.Query().Get("cmd")
		switch cmd {
		case "play", "pause", "step":
		default:
			http.Error(w, "cmd is play, pause or step", http.StatusBadRequest)
			return
		}
		select {
		case s.cmds <- cmd:
		default: // the run has commands enough waiting
		}
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

// serveFrame answers with a frame newer than ?after= (a frame's seq),
// waiting up to a second for the run to make one, else with the latest.
func (s *Server) serveFrame(w http.ResponseWriter, r *http.Request) {
	after, err := strconv.Atoi(r.URL.Query().Get("after"))
	if err != nil {
		after = -1
	}
	deadline := time.NewTimer(time.Second)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		frame, seq, fresh := s.frame, s.seq, s.fresh
		s.mu.Unlock()
		if frame != nil && seq > after {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "no-store")
			w.Write(frame)
			return
		}
		select {
		case s.want <- struct{}{}:
		default:
		}
		select {
		case <-fresh:
		case <-deadline.C:
			if frame == nil {
				http.Error(w, "no frame yet", http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(frame)
			return
		case <-r.Context().Done():
			return
		}
	}
}

// Wait is called by the run before every round: it returns at once while
// the run plays, and blocks while it is paused, serving frames and
// commands, until the page plays or steps or ctx ends.
func (s *Server) Wait(ctx context.Context) error {
	for {
		s.mu.Lock()
		if s.steps > 0 {
			s.steps--
			s.mu.Unlock()
			return nil
		}
		paused := s.paused
		s.mu.Unlock()
		if !paused {
			select {
			case c := <-s.cmds:
				s.command(c)
				continue
			default:
				return nil
			}
		}
		select {
		case c := <-s.cmds:
			s.command(c)
		case <-s.want:
			// paused: a new frame only when there is something new to show
			s.mu.Lock()
			stale := s.frame == nil || s.round != s.inst.Round() || !s.fpaused
			s.mu.Unlock()
			if stale {
				s.build()
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (s *Server) command(c string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch c {
	case "play":
		s.paused = false
	case "pause":
		s.paused = true
	case "step":
		s.paused = true
		s.steps++
	}
}

// Publish is called by the run after every round: it builds a frame when
// a browser waits for one (at most four a second while playing).
func (s *Server) Publish() {
	select {
	case <-s.want:
	default:
		return
	}
	s.mu.Lock()
	recent := time.Since(s.lastAt) < 250*time.Millisecond
	s.mu.Unlock()
	if recent {
		// keep the wish for the next round
		select {
		case s.want <- struct{}{}:
		default:
		}
		return
	}
	s.build()
}

// Finish shows the world as the run left it until ctx ends: the page
// keeps its last frame, as ARGoS keeps its window open.
func (s *Server) Finish(ctx context.Context) {
	s.build()
	for {
		select {
		case <-s.want:
		case c := <-s.cmds:
			s.command(c)
		case <-ctx.Done():
			return
		}
	}
}

// Frame is what the page draws.
type Frame struct {
	Title    string `json:"title"`
	Seq      int    `json:"seq"`
	Round    int    `json:"round"`
	Finished bool   `json:"finished"`
	Paused   bool   `json:"paused"`
	Size     [3]int `json:"size"`
	Dims     int    `json:"dims"`
	Torus    bool   `json:"torus"`
	Agents   int    `json:"agents"`
	// Mode is "agents" (Counts per vertex, Values the program's shade)
	// or "density" (Counts is the mean number of agents per vertex of a
	// cell of Cell x Cell vertices).
	Mode      string    `json:"mode"`
	W         int       `json:"w"`
	H         int       `json:"h"`
	Cell      int       `json:"cell"`
	Counts    []float64 `json:"counts"`
	Values    []float64 `json:"values,omitempty"`
	ValueName string    `json:"value_name,omitempty"`
	Max       float64   `json:"max"`
}

// build makes a frame of the world as it is and publishes it.
func (s *Server) build() {
	f := s.Snapshot()
	s.mu.Lock()
	f.Paused = s.paused && s.steps == 0
	s.seq++
	f.Seq = s.seq
	s.mu.Unlock()
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.frame, s.round, s.fpaused, s.lastAt = b, f.Round, f.Paused, time.Now()
	close(s.fresh)
	s.fresh = make(chan struct{})
	s.mu.Unlock()
}

// Snapshot returns the frame of the world as it is; call it between
// rounds.
func (s *Server) Snapshot() Frame {
	cfg := s.inst.Config()
	g := cfg.Grid
	f := Frame{Title: s.opt.Title, Round: s.inst.Round(), Finished: s.inst.Finished(), Size: g.Size, Dims: g.Dims, Torus: g.Torus, Agents: cfg.Agents}
	s.occ = s.inst.Occupancy(s.occ)
	sx, sy := g.Size[0], g.Size[1]
	plane := sx * sy
	if plane <= AgentCells {
		f.Mode, f.W, f.H, f.Cell = "agents", sx, sy, 1
		f.Counts = make([]float64, plane)
		for v, n := range s.occ {
			f.Counts[v%plane] += float64(n)
		}
		if sh, ok := s.inst.(gridworld.Shader); ok {
			if cap(s.values) < len(s.occ) {
				s.values = make([]float64, len(s.occ))
			}
			s.values = s.values[:len(s.occ)]
			f.ValueName = sh.VertexValues(s.values)
			f.Values = make([]float64, plane)
			for i := range f.Values {
				f.Values[i] = math.Inf(-1)
			}
			for v, x := range s.values {
				f.Values[v%plane] = math.Max(f.Values[v%plane], x)
			}
		}
	} else {
		cell := (max(sx, sy) + MapCells - 1) / MapCells
		f.Mode, f.Cell = "density", cell
		f.W, f.H = (sx+cell-1)/cell, (sy+cell-1)/cell
		f.Counts = make([]float64, f.W*f.H)
		area := make([]float64, f.W*f.H)
		for v, n := range s.occ {
			r := v % plane
			i := (r/sx/cell)*f.W + (r%sx)/cell
			f.Counts[i] += float64(n)
			area[i]++
		}
		for i := range f.Counts {
			f.Counts[i] = math.Round(f.Counts[i]/area[i]*1000) / 1000
		}
	}
	for _, c := range f.Counts {
		f.Max = math.Max(f.Max, c)
	}
	for i, v := range f.Values {
		if math.IsInf(v, 0) {
			f.Values[i] = 0
		}
	}
	return f
}
