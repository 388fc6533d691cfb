package argoscli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/internal/progress"
	"github.com/argosgo/argos/simulator"
	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/simulator/render/frames"
	"github.com/parquet-go/parquet-go"
	"github.com/sirupsen/logrus"
)

// TestMain lets the test binary stand in for argos (with the test
// controllers and loop functions below), for tests that signal a real
// process.
func TestMain(m *testing.M) {
	if os.Getenv("ARGOS_TEST_AS_ARGOS") == "1" {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// argosProcess starts the test binary as argos.
func argosProcess(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "ARGOS_TEST_AS_ARGOS=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	return cmd, &stderr
}

// metricsController records, per robot and tick, how many steps it made,
// and a metric whose name needs quoting in CSV.
type metricsController struct {
	rec   ci.Recorder
	steps int
}

func (c *metricsController) Init(r ci.Robot, _ ci.Params) error {
	c.rec = ci.Metrics(r)
	return nil
}
func (c *metricsController) ControlStep() {
	c.steps++
	c.rec.Record("steps", float64(c.steps))
	c.rec.Record(`odd, "quoted"`, float64(c.steps%2))
}
func (c *metricsController) Reset()         { c.steps = 0 }
func (c *metricsController) Destroy() error { return nil }

// metricsLoop records per tick the number of robots and robot 0's x, and
// once at the end a summary.
type metricsLoop struct {
	simulator.LoopFunctionsBase
	sim *simulator.Simulator
}

func (l *metricsLoop) Init(sim *simulator.Simulator, _ *config.Node) error {
	l.sim = sim
	return nil
}
func (l *metricsLoop) PostStep() {
	l.sim.Metrics().Record("robots", float64(l.sim.NumRobots()))
	l.sim.RobotMetrics(0).Record("x", l.sim.Robot(0).B().Pos.X)
}
func (l *metricsLoop) PostExperiment() { l.sim.Metrics().Record("final", 1) }

func init() {
	ci.Controllers.MustRegister("metrics_test_controller", "test: records metrics", func() ci.Controller { return &metricsController{} })
	simulator.LoopFunctionsTypes.MustRegister("metrics_test_loop", "test: records metrics", func() simulator.LoopFunctions { return &metricsLoop{} })
}

// metricsExperiment has two robots running metrics_test_controller for
// length seconds at 10 ticks per second (0: no limit).
func metricsExperiment(t *testing.T, length string) string {
	return write(t, "metrics.argos", `<?xml version="1.0"?>
<argos-configuration>
  <!-- a comment that the run folder keeps -->
  <framework><experiment length="`+length+`" ticks_per_second="10" random_seed="0"/></framework>
  <controllers><metrics_test_controller id="mc"/></controllers>
  <loop_functions label="metrics_test_loop"/>
  <arena size="3,3,1" center="0,0,0.5">
    <e-puck id="ep0"><body position="0.5,0,0" orientation="0,0,0"/><controller config="mc"/></e-puck>
    <e-puck id="ep1"><body position="-0.5,0,0" orientation="0,0,0"/><controller config="mc"/></e-puck>
  </arena>
  <physics_engines><dynamics2d id="dyn"/></physics_engines>
  <visualization><text file="poses.tsv"/></visualization>
</argos-configuration>`)
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s is not valid CSV: %v", path, err)
	}
	return rows
}

// A headless run with --out --parquet writes the run folder; the CSV and
// the Parquet file hold the same, expected rows.
func TestRunFolder(t *testing.T) {
	t.Chdir(t.TempDir())
	exp := metricsExperiment(t, "1")
	code, _, stderr := runArgos(t, "-z", "-c", exp, "--seed", "42", "--out", "run", "--parquet", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, f := range []string{"experiment.argos", "command.txt", "run.json", "argos.log", "metrics.csv", "metrics.parquet", "poses.tsv"} {
		if _, err := os.Stat(filepath.Join("run", f)); err != nil {
			t.Errorf("the run folder has no %s", f)
		}
	}
	if _, err := os.Stat("poses.tsv"); err == nil {
		t.Error("the text visualization wrote into the working directory, not the run folder")
	}
	asRun := readFile(t, filepath.Join("run", "experiment.argos"))
	if !strings.Contains(asRun, `random_seed="42"`) || !strings.Contains(asRun, "a comment that the run folder keeps") {
		t.Errorf("experiment as run:\n%s", asRun)
	}
	if _, err := config.Parse("asrun.argos", []byte(asRun)); err != nil {
		t.Errorf("the experiment as run does not load: %v", err)
	}
	if cmd := readFile(t, filepath.Join("run", "command.txt")); !strings.HasPrefix(cmd, "argos -z -c "+exp+" --seed 42 --out run") {
		t.Errorf("command.txt: %q", cmd)
	}
	var info record.Info
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join("run", "run.json"))), &info); err != nil {
		t.Fatal(err)
	}
	if info.Status != "finished" || info.Ticks != 10 || info.Seed != 42 || info.Version == "" {
		t.Errorf("run.json: %+v", info)
	}
	if log := readFile(t, filepath.Join("run", "argos.log")); !strings.Contains(log, "ran 10 ticks") {
		t.Errorf("argos.log: %s", log)
	}

	rows := readCSV(t, filepath.Join("run", "metrics.csv"))
	if strings.Join(rows[0], ",") != record.CSVHeader {
		t.Fatalf("header %v", rows[0])
	}
	rows = rows[1:]
	// ticks 1-10: 2 robots x 2 metrics + robots + x; then final (tick 0
	// has none: the robots' first control step is in tick 1)
	if want := 10*6 + 1; len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	want := map[string]bool{
		"1,0.1,ep0,steps,1":             true,
		`1,0.1,ep1,"odd, ""quoted""",1`: true,
		"3,0.3,ep1,steps,3":             true,
		"7,0.7,,robots,2":               true,
		"10,1,,final,1":                 true,
		`10,1,ep0,"odd, ""quoted""",0`:  true,
	}
	raw := readFile(t, filepath.Join("run", "metrics.csv"))
	for line := range want {
		if !strings.Contains(raw, line+"\n") {
			t.Errorf("metrics.csv has no row %s", line)
		}
	}
	// the Parquet file holds the same rows
	pq, err := parquet.ReadFile[record.Row](filepath.Join("run", "metrics.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.ReadCSV(filepath.Join("run", "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pq) != len(back) {
		t.Fatalf("Parquet has %d rows, CSV %d", len(pq), len(back))
	}
	for i := range pq {
		a, b := pq[i], back[i]
		if a.Tick != b.Tick || a.Time != b.Time || a.Metric != b.Metric || a.Value != b.Value || (a.Robot == nil) != (b.Robot == nil) ||
			a.Robot != nil && *a.Robot != *b.Robot {
			t.Fatalf("row %d: Parquet %+v, CSV %+v", i, a, b)
		}
	}

	// argos plot draws one chart per metric
	code, out, stderr := runArgos(t, "plot", "run", "-width", "300", "-height", "200")
	if code != 0 {
		t.Fatalf("argos plot: exit %d: %s", code, stderr)
	}
	files := strings.Fields(out)
	sort.Strings(files)
	if len(files) != 5 {
		t.Fatalf("argos plot wrote %v, want 5 plots (steps, odd, robots, x, final)", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil || img.Bounds().Dx() != 300 {
			t.Errorf("%s: %v %v", f, err, img.Bounds())
		}
	}
	if !strings.Contains(out, "steps_across_2_robots.png") {
		t.Errorf("plots: %v", files)
	}
	// a second run into the same folder is refused
	if code, _, stderr := runArgos(t, "-z", "-c", exp, "--out", "run"); code != 1 || !strings.Contains(stderr, "not empty") {
		t.Errorf("reusing the run folder: exit %d, %s", code, stderr)
	}
}

// An interrupted run leaves complete, readable files for the ticks done.
func TestInterruptedRunFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	cmd, stderr := argosProcess(t, "-z", "-c", metricsExperiment(t, "0"), "--out", out, "--parquet", "--progress", "log", "--progress-every", "200ms")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	deadline := began.Add(30 * time.Second)
	for {
		// metrics are flushed at least once a second
		if st, err := os.Stat(filepath.Join(out, "metrics.csv")); err == nil && st.Size() > 2000 && time.Since(began) > 700*time.Millisecond {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("nothing recorded in 30 s: %s", stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130: %s", err, stderr)
	}
	if !strings.Contains(stderr.String(), "progress: ") {
		t.Errorf("no progress lines in the log: %s", stderr)
	}
	rows := readCSV(t, filepath.Join(out, "metrics.csv"))
	var info record.Info
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "run.json"))), &info); err != nil {
		t.Fatal(err)
	}
	if info.Status != "interrupted" || info.Ticks < 10 {
		t.Fatalf("run.json: %+v", info)
	}
	// every tick done is there, complete: 6 rows per tick from tick 1
	// (the robots' first control step), and the final row
	if want := 6*info.Ticks + 1; len(rows)-1 != want {
		t.Errorf("%d rows for %d ticks, want %d", len(rows)-1, info.Ticks, want)
	}
	if last := rows[len(rows)-1]; last[3] != "final" {
		t.Errorf("last row %v, want the final metric of PostExperiment", last)
	}
	pq, err := parquet.ReadFile[record.Row](filepath.Join(out, "metrics.parquet"))
	if err != nil {
		t.Fatalf("the Parquet file of an interrupted run does not read: %v", err)
	}
	if len(pq) != len(rows)-1 {
		t.Errorf("Parquet has %d rows, CSV %d", len(pq), len(rows)-1)
	}
	if tsv := readFile(t, filepath.Join(out, "poses.tsv")); !strings.HasSuffix(tsv, "\n") {
		t.Error("the text visualization ends with a partial row")
	}
}

// --frames writes PNG frames every k ticks; --video assembles them.
func TestFramesAndVideo(t *testing.T) {
	t.Chdir(t.TempDir())
	exp := metricsExperiment(t, "2")
	code, _, stderr := runArgos(t, "-z", "-c", exp, "--frames", "frames", "--frames-every", "5", "--frames-width", "200", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, _ := filepath.Glob(filepath.Join("frames", "frame_*.png"))
	if len(got) != 5 { // ticks 0, 5, 10, 15, 20
		t.Fatalf("frames %v, want 5", got)
	}
	if _, err := frames.FFmpeg(); err != nil {
		if os.Getenv("ARGOS_CI") == "1" {
			t.Fatal("ffmpeg is not installed, and ARGOS_CI=1: scripts/ci-setup.d/browser.sh installs it")
		}
		code, _, stderr := runArgos(t, "-z", "-c", exp, "--video", "v.mp4")
		if code != 1 || !strings.Contains(stderr, "ffmpeg is not installed") {
			t.Errorf("--video without ffmpeg: exit %d, %q", code, stderr)
		}
		t.Skip("ffmpeg is not installed")
	}
	code, _, stderr = runArgos(t, "-z", "-c", exp, "--out", "run", "--video", "run.mp4", "--frames-every", "2", "--frames-width", "160", "--progress", "off")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st, err := os.Stat("run.mp4"); err != nil || st.Size() < 1000 {
		t.Fatalf("no video: %v", err)
	}
	if got, _ := filepath.Glob(filepath.Join("run", "frames", "frame_*.png")); len(got) != 11 {
		t.Errorf("%d frames in the run folder, want 11", len(got))
	}
}

// The progress report: a bar with time, real-time factor and ETA on a
// terminal, log lines otherwise.
func TestProgress(t *testing.T) {
	t.Chdir(t.TempDir())
	exp := metricsExperiment(t, "3")
	code, _, stderr := runArgos(t, "-z", "-c", exp, "--progress", "bar")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "\r\033[K[") || !strings.Contains(stderr, "100%  t 3.0/3.0 s  tick 30/30") || !strings.Contains(stderr, "x real time") {
		t.Errorf("no progress bar: %q", stderr)
	}
	code, _, stderr = runArgos(t, "-z", "-c", exp, "--progress", "log", "--progress-every", "1ns")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`progress: +\d+%  t [\d.]+/3.0 s  tick \d+/30  [\d.]+x real time  ETA \d+:\d\d`).MatchString(stderr) || strings.Contains(stderr, "\r") {
		t.Errorf("no progress lines: %q", stderr)
	}
	// a file is not a terminal: auto writes lines
	if progress.IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
}

// argos --viz web serves the viewer until interrupted.
func TestVizWeb(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a process")
	}
	cmd, _ := argosProcess(t, "-c", metricsExperiment(t, "0"), "--viz", "web", "--viz-addr", "127.0.0.1:0")
	cmd.Stderr = nil
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	url := ""
	sc := bufio.NewScanner(pipe)
	re := regexp.MustCompile(`open (http://127\.0\.0\.1:\d+/)`)
	for url == "" && sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatal("argos --viz web printed no address")
	}
	go io.Copy(io.Discard, pipe)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("viewer.js")) {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if ee, ok := cmd.Wait().(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("after Ctrl-C the viewer exits with %v, want status 130 as headless runs", ee)
	}
	if code, _, stderr := runArgos(t, "-z", "-c", "x.argos", "--viz", "web"); code != 1 || !strings.Contains(stderr, "contradict") {
		t.Errorf("-z --viz web: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runArgos(t, "-c", "x.argos", "--viz", "qt-opengl"); code != 1 || !strings.Contains(stderr, "web") {
		t.Errorf("--viz qt-opengl: exit %d, %s", code, stderr)
	}
}

// --viz-addr moves the file's own viewer (<web> or ARGoS's <qt-opengl>);
// --viz web adds none when the file has one.
func TestVizAddrAppliesToTheFilesViewer(t *testing.T) {
	for _, tag := range []string{"qt-opengl", "web"} {
		exp := &config.Experiment{Visualizations: []*config.Node{{Name: tag, Attrs: []config.Attr{{Name: "port", Value: "8080"}}}}}
		o := &outputs{viz: "web", vizAddr: "127.0.0.1:0", vizAddrSet: true, progress: "off", stderr: io.Discard}
		if _, err := o.prepare(exp, &simulator.Options{}, logrus.New()); err != nil {
			t.Fatal(err)
		}
		n := exp.Visualizations
		if len(n) != 1 {
			t.Fatalf("<%s> and --viz web: %d viewers", tag, len(n))
		}
		if p, _ := n[0].Attr("port"); p != "0" {
			t.Errorf("<%s port> is %q after --viz-addr 127.0.0.1:0", tag, p)
		}
		if a, _ := n[0].Attr("address"); a != "127.0.0.1" {
			t.Errorf("<%s address> is %q", tag, a)
		}
	}
	exp := &config.Experiment{Visualizations: []*config.Node{{Name: "qt-opengl", Attrs: []config.Attr{{Name: "port", Value: "9000"}}}}}
	o := &outputs{vizAddr: "127.0.0.1:8080", progress: "off", stderr: io.Discard}
	o.prepare(exp, &simulator.Options{}, logrus.New())
	if p, _ := exp.Visualizations[0].Attr("port"); p != "9000" {
		t.Errorf("without --viz-addr the file's port changed to %s", p)
	}
}
