package frames_test

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/render/frames"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

func load(t *testing.T) *simulator.Simulator {
	t.Helper()
	exp, err := config.Load(filepath.Join("..", "..", "..", "experiments", "diffusion_10.argos"))
	if err != nil {
		t.Fatal(err)
	}
	exp.Visualizations = nil
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sim.Close() })
	return sim
}

func TestFramesEveryK(t *testing.T) {
	sim := load(t)
	dir := filepath.Join(t.TempDir(), "frames")
	w, err := frames.NewWriter(sim, dir, 5, 320)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.AddVisualization(w); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	// ticks 0, 5, 10, 15, 20
	if w.Frames() != 5 {
		t.Fatalf("%d frames, want 5", w.Frames())
	}
	for n := range 5 {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf(frames.Pattern, n)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("frame %d: %v", n, err)
		}
		if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 320 {
			t.Errorf("frame %d is %v, want 320x320 (a square arena)", n, b)
		}
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, "*.tmp")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
	if _, err := frames.NewWriter(sim, dir, 5, 320); err == nil {
		t.Error("a second writer into a directory with frames was accepted")
	}
	if os.Getenv("ARGOS_KEEP_FRAME") != "" {
		data, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf(frames.Pattern, 4)))
		os.WriteFile(os.Getenv("ARGOS_KEEP_FRAME"), data, 0o644)
	}
}

// The robots are drawn where they are: the pixel under each robot's
// centre is the robot colour, not the floor.
func TestRobotsAreDrawnWhereTheyAre(t *testing.T) {
	sim := load(t)
	r := frames.NewRenderer(sim, 500)
	img := r.Render(nil)
	lo, hi := sim.Space().Bounds()
	scale := 500 / (hi.X - lo.X)
	for i := 0; i < sim.NumRobots(); i++ {
		b := sim.Robot(i).B()
		// a point on the robot's body, off the heading marker
		p := b.Pos.Add(b.Heading().Scale(-b.Radius * 0.6))
		x, y := int((p.X-lo.X)*scale), int((hi.Y-p.Y)*scale)
		c := img.RGBAAt(x, y)
		if c.B < 150 || c.R > 120 {
			t.Errorf("robot %s at (%.2f, %.2f): pixel (%d, %d) is %v, not the robot colour", b.ID, b.Pos.X, b.Pos.Y, x, y, c)
		}
	}
	// a point of the free floor is white-ish
	if c := img.RGBAAt(int((1.05-lo.X)*scale), int((hi.Y-1.95)*scale)); c.R < 200 {
		t.Logf("floor pixel %v", c)
	}
}

func TestVideo(t *testing.T) {
	_, err := frames.FFmpeg()
	if errors.Is(err, frames.ErrNoFFmpeg) {
		if os.Getenv("ARGOS_CI") == "1" {
			t.Fatal("ffmpeg is not installed, and ARGOS_CI=1: scripts/ci-setup.d/browser.sh installs it")
		}
		t.Skip("ffmpeg is not installed")
	}
	sim := load(t)
	dir := t.TempDir()
	w, err := frames.NewWriter(sim, dir, 2, 160)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.AddVisualization(w); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if err := sim.Step(); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "run.mp4")
	if err := frames.Video(context.Background(), dir, 5, out); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(out)
	if err != nil || st.Size() < 1000 {
		t.Fatalf("video %v, %v", st, err)
	}
	// ffprobe counts the frames when it is there
	if probe, err := exec.LookPath("ffprobe"); err == nil {
		b, err := exec.Command(probe, "-v", "error", "-count_frames", "-select_streams", "v:0",
			"-show_entries", "stream=nb_read_frames,codec_name", "-of", "csv=p=0", out).Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := string(b); got != "h264,11\n" && got != "mpeg4,11\n" {
			t.Errorf("ffprobe: %q, want 11 frames of H.264", got)
		}
	}
	if err := frames.Video(context.Background(), t.TempDir(), 5, out); err == nil {
		t.Error("a video of no frames")
	}
}

// The floor's colours and the laser spots are drawn.
func TestFloorAndSpots(t *testing.T) {
	sim := load(t)
	w := sim.World()
	w.Floor = func(p ci.Vector2) ci.Color {
		if p.X < 0 {
			return ci.Black
		}
		return ci.White
	}
	w.Spots = []entity.Spot{{Pos: ci.Vector3{X: 1.5, Y: -1.5}, Radius: 0.05, Color: ci.Red}}
	r := frames.NewRenderer(sim, 500)
	img := r.Render(nil)
	lo, hi := sim.Space().Bounds()
	at := func(x, y float64) color.RGBA {
		scale := 500 / (hi.X - lo.X)
		return img.RGBAAt(int((x-lo.X)*scale), int((hi.Y-y)*scale))
	}
	if c := at(-1.95, -0.5); c.R > 60 {
		t.Errorf("black floor drawn %v", c)
	}
	if c := at(1.6, 1.3); c.R < 200 {
		t.Errorf("white floor drawn %v", c)
	}
	if c := at(1.5, -1.5); c.R < 200 || c.G > 60 {
		t.Errorf("red spot drawn %v", c)
	}
}

// LEDs on boxes and cylinders are drawn where they are, in their colour;
// a black (off) LED is not drawn.
func TestObjectLEDsAreDrawn(t *testing.T) {
	exp, err := config.Load(filepath.Join("..", "testdata", "object_leds.argos"))
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{Headless: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	img := frames.NewRenderer(sim, 2000).Render(nil) // 500 px/m: an LED is 15 px wide
	at := func(x, y float64) color.RGBA { return img.RGBAAt(int((x+2)*500), int((2-y)*500)) }
	// the box is turned by 90 degrees: its LED, 0.1 m ahead, is at (-1, 0.1)
	if c := at(-1, 0.1); c.R < 200 || c.G > 80 || c.B > 80 {
		t.Errorf("the box's LED at (-1, 0.1) is drawn %v, want red", c)
	}
	if c := at(-0.9, 0); c.R > 200 && c.G < 80 {
		t.Errorf("a red pixel at (-0.9, 0), where the unturned LED would be: %v", c)
	}
	if c, body := at(1, 0), at(1.1, 0); c != body {
		t.Errorf("the black LED on the cylinder is drawn: %v at the LED, %v on the body", c, body)
	}
}
