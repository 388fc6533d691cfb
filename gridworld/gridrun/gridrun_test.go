package gridrun_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/argosgo/argos/gridworld/gridrun"
	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/simulator/render/plot"
	"github.com/sirupsen/logrus"

	_ "github.com/argosgo/argos/gridworld/density"
	_ "github.com/argosgo/argos/gridworld/taskalloc"
)

func quiet() *logrus.Logger {
	l := logrus.New()
	l.SetOutput(io.Discard)
	return l
}

func opts(out string) gridrun.Options {
	return gridrun.Options{Out: out, Progress: "off", Log: quiet(), Stderr: io.Discard, Headless: true, Args: []string{"argos", "-c", "x"}}
}

func readInfo(t *testing.T, dir string) record.Info {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, record.InfoFile))
	if err != nil {
		t.Fatal(err)
	}
	var info record.Info
	if err := json.Unmarshal(b, &info); err != nil {
		t.Fatal(err)
	}
	return info
}

// ParSwarm's small task allocation from its file: it runs until every
// demand is met and leaves a run folder with its metrics.
func TestTaskAllocationRunFolder(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	res, err := gridrun.Run(context.Background(), filepath.Join("testdata", "task_small.argos"), opts(out))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Finished || res.Rounds == 0 || res.Rounds >= 3000 || res.Seed != 11 {
		t.Fatalf("result %+v", res)
	}
	info := readInfo(t, out)
	if info.Status != "finished" || info.Ticks != res.Rounds || info.Seed != 11 {
		t.Errorf("run.json: %+v", info)
	}
	exp, err := os.ReadFile(filepath.Join(out, record.ExperimentFile))
	if err != nil || !bytes.Contains(exp, []byte(`random_seed="11"`)) || !bytes.Contains(exp, []byte(`<grid size="50,50"`)) {
		t.Errorf("experiment.argos: %v\n%s", err, exp)
	}
	rows, err := record.ReadCSV(filepath.Join(out, record.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	last := map[string]float64{}
	perRound := 0
	for _, r := range rows {
		last[r.Metric] = r.Value
		if r.Metric == "residual_demand" {
			perRound++
		}
	}
	if perRound != res.Rounds+1 || last["residual_demand"] != 0 || last["committed_agents"] != 80 || last["tasks_done"] != 16 || last["rounds"] != float64(res.Rounds) {
		t.Errorf("%d rows of residual_demand for %d rounds; last values %v", perRound, res.Rounds, last)
	}
	if log, err := os.ReadFile(filepath.Join(out, record.LogFile)); err != nil || !strings.Contains(string(log), "the program finished") {
		t.Errorf("argos.log: %v\n%s", err, log)
	}
}

// The density estimates end up in the run folder, and argos plot's
// histogram is made from them.
func TestDensityHistogram(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	res, err := gridrun.Run(context.Background(), filepath.Join("testdata", "density_small.argos"), opts(out))
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds != 20 || !res.Finished {
		t.Fatalf("result %+v", res)
	}
	rows, err := record.ReadCSV(filepath.Join(out, record.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	h := plot.Histograms(rows)
	if len(h) != 1 || !strings.Contains(h[0].Title, "density_estimate over 300 robots") {
		t.Fatalf("histograms: %d", len(h))
	}
}

// Same seed, same metrics, whatever the thread count; --length and
// --seed override the file, and the run folder says so.
func TestThreadsAndOverrides(t *testing.T) {
	var files [][]byte
	for _, th := range []int{0, 1, 2, 4} {
		out := filepath.Join(t.TempDir(), "run")
		o := opts(out)
		o.Threads = &th
		seed, length := uint64(99), 40.0
		o.Seed, o.Length = &seed, &length
		res, err := gridrun.Run(context.Background(), filepath.Join("testdata", "task_small.argos"), o)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rounds != 40 || res.Seed != 99 || res.Threads != th {
			t.Fatalf("threads %d: %+v", th, res)
		}
		b, err := os.ReadFile(filepath.Join(out, record.CSVFile))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, b)
		exp, _ := os.ReadFile(filepath.Join(out, record.ExperimentFile))
		if !bytes.Contains(exp, []byte(`length="40"`)) || !bytes.Contains(exp, []byte(`random_seed="99"`)) {
			t.Errorf("experiment.argos does not hold the overrides:\n%s", exp)
		}
	}
	for i := 1; i < len(files); i++ {
		if !bytes.Equal(files[i], files[0]) {
			t.Errorf("metrics.csv differs between threads 0 and run %d", i)
		}
	}
}

func TestInterruptedRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := gridrun.Run(ctx, filepath.Join("testdata", "task_small.argos"), opts(out))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want the context's", err)
	}
	if info := readInfo(t, out); info.Status != "interrupted" {
		t.Errorf("run.json status %q", info.Status)
	}
}

func TestBadProgramParamsSayWhere(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	_, err := gridrun.Run(context.Background(), filepath.Join("testdata", "bad_program.argos"), opts(out))
	if err == nil || !strings.Contains(err.Error(), "bad_program.argos:9: <params>: attribute tasks=\"0\"") {
		t.Fatalf("error %v", err)
	}
	if info := readInfo(t, out); !strings.HasPrefix(info.Status, "error: ") {
		t.Errorf("run.json status %q", info.Status)
	}
}

// The file's <web> opens the grid view; it starts paused and shows the
// world; Play runs it.
func TestWebView(t *testing.T) {
	o := opts("")
	o.Headless = false
	urls := make(chan string, 1)
	o.WebReady = func(u string) { urls <- u }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := gridrun.Run(ctx, filepath.Join("testdata", "density_small.argos"), o)
		done <- err
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-done:
		t.Fatalf("the run ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("no web view")
	}
	get := func() map[string]any {
		r, err := http.Get(url + "frame?after=-1")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		var f map[string]any
		json.NewDecoder(r.Body).Decode(&f)
		return f
	}
	if f := get(); f["round"] != 0.0 || f["paused"] != true || f["agents"] != 300.0 {
		t.Errorf("first frame: round %v paused %v agents %v", f["round"], f["paused"], f["agents"])
	}
	r, err := http.Post(url+"control?cmd=play", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if f := get(); f["finished"] == true && f["round"] == 20.0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if f := get(); f["finished"] != true {
		t.Errorf("after play: %v", f["round"])
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("a finished run whose view is closed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the run does not end when its context does")
	}
}

// finish="false" keeps a task allocation going after every demand is
// met, to the experiment's length; by default it ends there.
func TestTaskAllocationFinishParam(t *testing.T) {
	for _, c := range []struct {
		finish string
		want   func(r gridrun.Result) bool
	}{
		{`finish="false"`, func(r gridrun.Result) bool { return r.Rounds == 30 && !r.Finished }},
		{``, func(r gridrun.Result) bool { return r.Rounds < 30 && r.Finished }},
	} {
		f := filepath.Join(t.TempDir(), "ta.argos")
		os.WriteFile(f, []byte(`<argos-configuration><framework><experiment length="30" random_seed="2"/></framework>
<arena><grid size="10,10"/><agents program="task_allocation" quantity="400" radius="2"><params tasks="4" demand="8" `+c.finish+`/></agents></arena></argos-configuration>`), 0o644)
		res, err := gridrun.Run(context.Background(), f, opts(""))
		if err != nil {
			t.Fatal(err)
		}
		if !c.want(res) {
			t.Errorf("%q: %d rounds, finished %v", c.finish, res.Rounds, res.Finished)
		}
	}
}
