package argoscli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/internal/progress"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/simulator/render/frames"
	"github.com/sirupsen/logrus"
)

// outputs are the flags that choose what a run shows and writes besides
// the experiment file's own visualizations.
type outputs struct {
	viz, vizAddr       string
	out                string
	parquet            bool
	frames, video      string
	framesEvery, width int
	videoFPS           float64
	progress           string
	progressEvery      time.Duration
	length             *float64 // --length, when given
	memoryLimit        string   // --memory-limit: auto, off or a size
	vizAddrSet         bool     // --viz-addr was given
	args               []string // the command line, for the run folder
	stderr             io.Writer
	logFile            io.Writer // -l FILE, or nil for stderr
}

func (o *outputs) register(fs *flag.FlagSet) {
	fs.StringVar(&o.viz, "viz", "", "add an interactive `visualization`: web (a viewer in the browser)")
	fs.StringVar(&o.vizAddr, "viz-addr", "127.0.0.1:8080", "`address:port` of the web viewer (port 0: any free port; another address than loopback lets other machines connect)")
	fs.StringVar(&o.out, "out", "", "write a run folder `DIR`: the experiment as run, command line, version, log, metrics.csv")
	fs.BoolVar(&o.parquet, "parquet", false, "also write the metrics as metrics.parquet (with --out)")
	fs.StringVar(&o.frames, "frames", "", "write a PNG top view into `DIR` every --frames-every ticks")
	fs.IntVar(&o.framesEvery, "frames-every", 1, "ticks between frames")
	fs.IntVar(&o.width, "frames-width", 800, "width of the frames in pixels")
	fs.StringVar(&o.video, "video", "", "assemble the frames into `FILE.mp4` with ffmpeg at the end of the run")
	fs.Float64Var(&o.videoFPS, "video-fps", 0, "frames per second of the video (default: real time)")
	fs.StringVar(&o.progress, "progress", "auto", "progress report: auto (a bar on a terminal, log lines otherwise), bar, log, off")
	fs.DurationVar(&o.progressEvery, "progress-every", 10*time.Second, "interval of the progress log lines")
}

// check validates the combination of flags before anything runs.
func (o *outputs) check(headless bool) error {
	switch o.viz {
	case "", "web":
	default:
		return fmt.Errorf("--viz %q: the only interactive visualization is web", o.viz)
	}
	if o.viz != "" && headless {
		return errors.New("--viz web and -z contradict each other: drop one")
	}
	switch o.progress {
	case "auto", "bar", "log", "off":
	default:
		return fmt.Errorf("--progress %q: use auto, bar, log or off", o.progress)
	}
	if o.parquet && o.out == "" {
		return errors.New("--parquet writes into the run folder: add --out DIR")
	}
	if o.framesEvery < 1 {
		return fmt.Errorf("--frames-every %d: give 1 or more ticks", o.framesEvery)
	}
	if (o.frames != "" || o.video != "") && (o.width < 16 || o.width > 8192) {
		return fmt.Errorf("--frames-width %d: give 16 to 8192 pixels", o.width)
	}
	if o.videoFPS < 0 || math.IsNaN(o.videoFPS) || math.IsInf(o.videoFPS, 0) {
		return fmt.Errorf("--video-fps %g: give a positive number of frames per second, or leave the flag out to play at real speed", o.videoFPS)
	}
	if o.videoFPS != 0 && o.video == "" {
		return errors.New("--video-fps sets the speed of the video: add --video FILE.mp4")
	}
	if o.progressEvery <= 0 {
		return fmt.Errorf("--progress-every %v: give a positive interval, like 10s", o.progressEvery)
	}
	if o.video != "" {
		if _, err := frames.FFmpeg(); err != nil {
			return err
		}
	}
	return nil
}

// webNode is the <web> element --viz web adds to the experiment.
func (o *outputs) webNode() (*config.Node, error) {
	host, port, err := splitHostPort(o.vizAddr)
	if err != nil {
		return nil, err
	}
	return &config.Node{Name: "web", File: "--viz-addr", Attrs: []config.Attr{{Name: "address", Value: host}, {Name: "port", Value: port}}}, nil
}

// setAttr sets attribute name of n to value, adding it if missing.
func setAttr(n *config.Node, name, value string) {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			n.Attrs[i].Value = value
			return
		}
	}
	n.Attrs = append(n.Attrs, config.Attr{Name: name, Value: value})
}

func splitHostPort(s string) (host, port string, err error) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ':' {
			host, port = s[:i], s[i+1:]
			if len(host) > 1 && host[0] == '[' && host[len(host)-1] == ']' {
				host = host[1 : len(host)-1]
			}
			if _, err := strconv.Atoi(port); err != nil || host == "" {
				break
			}
			return host, port, nil
		}
	}
	return "", "", fmt.Errorf("--viz-addr %q: write address:port, like 127.0.0.1:8080", s)
}

// run is one experiment run with its outputs attached.
type runOutputs struct {
	folder  *record.Folder
	logF    *os.File
	frames  *frames.Writer
	tmpDir  string
	prog    *runProgress
	started time.Time
}

// prepare sets up what must exist before the simulator is built: the run
// folder (its log, the metrics switch, the output directory of recorders).
func (o *outputs) prepare(exp *config.Experiment, opt *simulator.Options, log *logrus.Logger) (*runOutputs, error) {
	ro := &runOutputs{started: time.Now()}
	// A file's own viewer (<web>, or ARGoS's <qt-opengl>, which opens the
	// web viewer) listens where --viz-addr says when it is given; --viz
	// web adds a viewer to a file that has none.
	has := false
	for _, n := range exp.Visualizations {
		if n.Name != "web" && n.Name != "qt-opengl" {
			continue
		}
		has = true
		if o.vizAddrSet {
			host, port, err := splitHostPort(o.vizAddr)
			if err != nil {
				return nil, err
			}
			setAttr(n, "address", host)
			setAttr(n, "port", port)
		}
	}
	if o.viz == "web" && !has {
		n, err := o.webNode()
		if err != nil {
			return nil, err
		}
		exp.Visualizations = append(exp.Visualizations, n)
	}
	logOut := log.Out
	if o.out != "" {
		f, err := record.Create(o.out)
		if err != nil {
			return nil, err
		}
		ro.folder = f
		if ro.logF, err = os.Create(f.Path(record.LogFile)); err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		opt.Metrics = true
		opt.OutputDir = f.Dir()
	}
	// progress bars share stderr with the log
	if o.progress != "off" {
		tty := progress.Terminal(o.progress, o.stderr)
		ro.prog = newProgress(o.stderr, tty, o.progressEvery, log)
		if o.logFile == nil && tty {
			logOut = ro.prog.Writer(logOut)
		}
	}
	if ro.logF != nil {
		logOut = io.MultiWriter(logOut, ro.logF)
	}
	log.SetOutput(logOut)
	return ro, nil
}

// attach adds the recorders to the built simulator.
func (o *outputs) attach(ro *runOutputs, sim *simulator.Simulator, file string, data []byte, over record.Overrides) error {
	if ro.folder != nil {
		if err := ro.folder.WriteExperiment(sim.Experiment(), data, sim.Seed(), over); err != nil {
			return err
		}
		abs, _ := filepath.Abs(file)
		if err := ro.folder.WriteCommand(record.Info{Command: o.args, Experiment: abs, Seed: sim.Seed(), Threads: sim.Threads(),
			Started: ro.started.UTC().Round(time.Millisecond)}); err != nil {
			return err
		}
		m, err := ro.folder.NewMetrics(sim, o.parquet)
		if err != nil {
			return err
		}
		if err := sim.AddVisualization(m); err != nil {
			return err
		}
	}
	dir := o.frames
	if dir == "" && o.video != "" {
		if ro.folder != nil {
			dir = ro.folder.Path("frames")
		} else {
			tmp, err := os.MkdirTemp("", "argos-frames-")
			if err != nil {
				return err
			}
			ro.tmpDir, dir = tmp, tmp
		}
	}
	if dir != "" {
		w, err := frames.NewWriter(sim, dir, o.framesEvery, o.width)
		if err != nil {
			return err
		}
		ro.frames = w
		if err := sim.AddVisualization(w); err != nil {
			return err
		}
	}
	if ro.prog != nil && !driven(sim) {
		if err := sim.AddVisualization(ro.prog); err != nil {
			return err
		}
	}
	return nil
}

func driven(sim *simulator.Simulator) bool {
	for _, v := range sim.Visualizations() {
		if _, ok := v.(simulator.Driver); ok {
			return true
		}
	}
	return false
}

// finish makes the video and completes the run folder, after the
// simulator is closed (every frame and row is on disk).
func (o *outputs) finish(ro *runOutputs, sim *simulator.Simulator, runErr error, stopped bool, log *logrus.Logger) error {
	var errs []error
	if o.video != "" && ro.frames != nil {
		if ro.frames.Frames() == 0 {
			errs = append(errs, errors.New("no frames were written, so there is no video"))
		} else {
			fps := o.videoFPS
			if fps <= 0 {
				fps = 1 / (sim.TickLength() * float64(ro.frames.Every()))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			err := frames.Video(ctx, ro.frames.Dir(), fps, o.video)
			cancel()
			if err != nil {
				errs = append(errs, err)
			} else {
				log.Infof("video written to %s (%d frames)", o.video, ro.frames.Frames())
			}
		}
	}
	if ro.tmpDir != "" {
		os.RemoveAll(ro.tmpDir)
	}
	if ro.folder != nil {
		status := "finished"
		switch {
		case errors.Is(runErr, errInterrupted), runErr == nil && stopped:
			status = "interrupted"
		case runErr != nil:
			status = "error: " + runErr.Error()
			log.Error(runErr)
		}
		errs = append(errs, ro.folder.Finish(sim.Tick(), float64(sim.Tick())*sim.TickLength(), status))
		log.Infof("run folder: %s", ro.folder.Dir())
	}
	if ro.logF != nil {
		log.SetOutput(io.Discard)
		errs = append(errs, ro.logF.Close())
	}
	return errors.Join(errs...)
}
