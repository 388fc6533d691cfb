package frames

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"
)

func init() {
	simulator.Visualizations.MustRegister("frames",
		"Writes a PNG top view of the arena every few ticks (frame_000000.png, ...), for videos (argos --video). "+
			"Attributes: directory (default frames, created if missing), every (ticks between frames, default 1), width (pixels, default 800).",
		simulator.VisualizationType{New: newFromXML})
}

// Pattern is the printf pattern of frame file names: frame n shows tick
// n*every.
const Pattern = "frame_%06d.png"

// Writer writes PNG frames every few ticks. It is a
// simulator.Visualization.
type Writer struct {
	dir   string
	every int
	r     *Renderer
	img   *image.RGBA
	n     int
	enc   png.Encoder
	buf   *bufio.Writer
}

// NewWriter writes frames of width pixels into dir (created if missing)
// every k ticks, from tick 0 on.
func NewWriter(sim *simulator.Simulator, dir string, every, width int) (*Writer, error) {
	if every < 1 {
		return nil, fmt.Errorf("frames: every=%d: write a frame every 1 or more ticks", every)
	}
	if width < 16 || width > 8192 {
		return nil, fmt.Errorf("frames: width=%d: use 16 to 8192 pixels", width)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("frames: cannot create the frames directory: %w", err)
	}
	if old, _ := filepath.Glob(filepath.Join(dir, "frame_*.png")); len(old) > 0 {
		return nil, fmt.Errorf("frames: %s already holds frames (%s...); choose an empty directory so that runs do not mix", dir, filepath.Base(old[0]))
	}
	return &Writer{dir: dir, every: every, r: NewRenderer(sim, width), enc: png.Encoder{CompressionLevel: png.BestSpeed}}, nil
}

func newFromXML(n *config.Node, sim *simulator.Simulator) (simulator.Visualization, error) {
	if err := n.CheckAttrs("directory", "every", "width"); err != nil {
		return nil, err
	}
	every, err := n.IntOr("every", 1)
	if err != nil {
		return nil, err
	}
	width, err := n.IntOr("width", 800)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(sim, sim.OutputPath(n.StringOr("directory", "frames")), every, width)
	if err != nil {
		return nil, n.Errorf("%v", err)
	}
	return w, nil
}

// Dir returns the directory of the frames.
func (w *Writer) Dir() string { return w.dir }

// Frames returns how many frames were written.
func (w *Writer) Frames() int { return w.n }

// Every returns the number of ticks between frames.
func (w *Writer) Every() int { return w.every }

// Draw implements simulator.Visualization.
func (w *Writer) Draw(sim *simulator.Simulator) error {
	if sim.Tick()%w.every != 0 {
		return nil
	}
	w.img = w.r.Render(w.img)
	name := filepath.Join(w.dir, fmt.Sprintf(Pattern, w.n))
	if err := w.write(name); err != nil {
		return err
	}
	w.n++
	return nil
}

func (w *Writer) write(name string) error {
	// write to a temporary name and rename, so that an interrupted run
	// never leaves a truncated frame
	tmp := name + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("frames: %w", err)
	}
	if w.buf == nil {
		w.buf = bufio.NewWriterSize(f, 1<<16)
	} else {
		w.buf.Reset(f)
	}
	err = w.enc.Encode(w.buf, w.img)
	if err == nil {
		err = w.buf.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("frames: writing %s: %w", name, err)
	}
	return nil
}

// Close implements simulator.Visualization.
func (w *Writer) Close() error { return nil }

// ErrNoFFmpeg is returned by Video when ffmpeg is not installed.
var ErrNoFFmpeg = errors.New("frames: ffmpeg is not installed; install it (apt-get install ffmpeg) to make videos, or keep the PNG frames with --frames DIR")

// FFmpeg returns the path of the ffmpeg program, or ErrNoFFmpeg.
func FFmpeg() (string, error) {
	p, err := exec.LookPath("ffmpeg")
	if err != nil {
		return "", ErrNoFFmpeg
	}
	return p, nil
}

// Video assembles the frames of dir (named after Pattern) into an H.264
// MP4 video (MPEG-4 part 2 when ffmpeg has no H.264 encoder) at fps frames
// per second.
func Video(ctx context.Context, dir string, fps float64, out string) error {
	ff, err := FFmpeg()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprintf(Pattern, 0))); err != nil {
		return fmt.Errorf("frames: no frames in %s to make a video of", dir)
	}
	if fps <= 0 {
		fps = 10
	}
	rate := strconv.FormatFloat(fps, 'g', 6, 64)
	var last []byte
	for _, codec := range [][]string{{"-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "23"}, {"-c:v", "mpeg4", "-q:v", "4"}} {
		args := []string{"-y", "-hide_banner", "-loglevel", "error", "-framerate", rate, "-i", filepath.Join(dir, Pattern)}
		args = append(args, codec...)
		args = append(args, "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-movflags", "+faststart", out)
		cmd := exec.CommandContext(ctx, ff, args...)
		if last, err = cmd.CombinedOutput(); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("frames: ffmpeg: %w", ctx.Err())
		}
	}
	return fmt.Errorf("frames: ffmpeg could not make %s: %v: %s", out, err, last)
}
