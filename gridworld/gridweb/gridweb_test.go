package gridweb

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/density"
	"github.com/argosgo/argos/gridworld/taskalloc"
)

func TestSnapshotAgentsOnSmallGrids(t *testing.T) {
	g := gridworld.Grid2D(10, 8, true)
	start := []int32{g.Vertex(1, 1, 0), g.Vertex(1, 1, 0), g.Vertex(9, 7, 0)}
	p, err := taskalloc.NewWorld(gridworld.Config{Grid: g, Agents: 3, Radius: 1, Positions: start}, []taskalloc.Task{{At: g.Vertex(5, 5, 0), Demand: 4}})
	if err != nil {
		t.Fatal(err)
	}
	f := newServer(p, Options{}).Snapshot()
	if f.Mode != "agents" || f.W != 10 || f.H != 8 || f.Agents != 3 {
		t.Fatalf("frame %+v", f)
	}
	if f.Counts[g.Vertex(1, 1, 0)] != 2 || f.Counts[g.Vertex(9, 7, 0)] != 1 || f.Max != 2 {
		t.Errorf("counts at (1,1) %g, at (9,7) %g, max %g", f.Counts[g.Vertex(1, 1, 0)], f.Counts[g.Vertex(9, 7, 0)], f.Max)
	}
	if f.ValueName != "residual demand" || f.Values[g.Vertex(5, 5, 0)] != 4 || f.Values[0] != 0 {
		t.Errorf("values %q: %g at the task, %g elsewhere", f.ValueName, f.Values[g.Vertex(5, 5, 0)], f.Values[0])
	}
}

func TestSnapshot3DFromAbove(t *testing.T) {
	g := gridworld.Grid3D(4, 4, 3, true)
	start := []int32{g.Vertex(2, 3, 0), g.Vertex(2, 3, 2), g.Vertex(0, 0, 1)}
	p, err := density.NewWorld(gridworld.Config{Grid: g, Agents: 3, Positions: start}, 5)
	if err != nil {
		t.Fatal(err)
	}
	f := newServer(p, Options{}).Snapshot()
	if f.W != 4 || f.H != 4 || f.Counts[2+4*3] != 2 || f.Counts[0] != 1 {
		t.Errorf("3D from above: %dx%d, column (2,3) %g, column (0,0) %g", f.W, f.H, f.Counts[2+4*3], f.Counts[0])
	}
}

// A large grid is a density map: mean agents per vertex over blocks.
func TestSnapshotDensityOnLargeGrids(t *testing.T) {
	g := gridworld.Grid2D(1000, 600, true)
	p, err := density.NewWorld(gridworld.Config{Grid: g, Agents: 60000, Seed: 1}, 5)
	if err != nil {
		t.Fatal(err)
	}
	f := newServer(p, Options{}).Snapshot()
	if f.Mode != "density" || f.Cell != 4 || f.W != 250 || f.H != 150 {
		t.Fatalf("density map %s, cell %d, %dx%d", f.Mode, f.Cell, f.W, f.H)
	}
	var sum float64
	for _, c := range f.Counts {
		sum += c
	}
	if mean := sum / float64(len(f.Counts)); mean < 0.099 || mean > 0.101 {
		t.Errorf("mean density over the map %g, want 0.1", mean)
	}
}

// run is a run's loop as gridrun drives it.
func run(ctx context.Context, s *Server, inst gridworld.Instance, rounds int) {
	for inst.Round() < rounds {
		if s.Wait(ctx) != nil {
			return
		}
		inst.Step()
		s.Publish()
	}
	s.Finish(ctx)
}

func frame(t *testing.T, base string, after int) Frame {
	t.Helper()
	r, err := http.Get(base + "/frame?after=" + strconv.Itoa(after))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var f Frame
	if err := json.NewDecoder(r.Body).Decode(&f); err != nil {
		t.Fatal(err)
	}
	return f
}

func post(t *testing.T, base, cmd string) {
	t.Helper()
	r, err := http.Post(base+"/control?cmd="+cmd, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusNoContent {
		t.Fatalf("%s: status %d", cmd, r.StatusCode)
	}
}

// The run starts paused; step runs one round, play runs on, pause stops.
func TestPausePlayStep(t *testing.T) {
	p, err := density.NewWorld(gridworld.Config{Grid: gridworld.Grid2D(20, 20, true), Agents: 30, Seed: 1}, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(p, Options{Title: "test"})
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		run(ctx, s, p, 1<<30)
	}()
	defer func() { cancel(); wg.Wait() }()

	f := frame(t, hs.URL, -1)
	if f.Round != 0 || !f.Paused || f.Title != "test" {
		t.Fatalf("first frame: round %d paused %v title %q", f.Round, f.Paused, f.Title)
	}
	// paused: nothing new comes within the second the server waits
	if g := frame(t, hs.URL, f.Seq); g.Round != 0 {
		t.Fatalf("paused run moved to round %d", g.Round)
	}
	post(t, hs.URL, "step")
	deadline := time.Now().Add(5 * time.Second)
	for f.Round != 1 && time.Now().Before(deadline) {
		f = frame(t, hs.URL, f.Seq)
	}
	if f.Round != 1 {
		t.Fatalf("after a step: round %d, want 1", f.Round)
	}
	post(t, hs.URL, "play")
	for f.Round < 5 && time.Now().Before(deadline) {
		f = frame(t, hs.URL, f.Seq)
	}
	if f.Round < 5 {
		t.Fatalf("playing: still at round %d", f.Round)
	}
	post(t, hs.URL, "pause")
	time.Sleep(100 * time.Millisecond)
	a := frame(t, hs.URL, f.Seq)
	time.Sleep(300 * time.Millisecond)
	if b := frame(t, hs.URL, a.Seq); b.Round != a.Round || !b.Paused {
		t.Errorf("paused at round %d, then round %d (paused %v)", a.Round, b.Round, b.Paused)
	}
	r, err := http.Get(hs.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !strings.Contains(string(body), "<canvas") {
		t.Error("the page has no canvas")
	}
	if r, _ := http.Post(hs.URL+"/control?cmd=jump", "", nil); r == nil || r.StatusCode != http.StatusBadRequest {
		t.Error("an unknown command is not refused")
	}
}

// Nobody watching: rounds build no frames.
func TestNoFrameWithoutABrowser(t *testing.T) {
	p, err := density.NewWorld(gridworld.Config{Grid: gridworld.Grid2D(20, 20, true), Agents: 30, Seed: 1}, 100)
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(p, Options{Autoplay: true})
	// a cancelled context ends Wait only when paused; playing, the run goes on
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run(ctx, s, p, 50)
	if s.seq != 1 { // the final frame only
		t.Errorf("%d frames built with no browser", s.seq)
	}
}

func TestStartListensOnLoopback(t *testing.T) {
	p, err := density.NewWorld(gridworld.Config{Grid: gridworld.Grid2D(20, 20, true), Agents: 30, Seed: 1}, 100)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(p, Options{Port: 0})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Errorf("URL %s", s.URL())
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}
