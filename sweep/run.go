package sweep

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/argosgo/argos/simulator/record"
)

// Names inside a sweep folder.
const (
	PlanFile     = "plan.json"       // the plan: parameters, metrics, every cell
	CellsDir     = "cells"           // cells/000012.argos: the experiment of cell 12
	RunsDir      = "runs"            // runs/000012/: cell 12's run folder (argos --out)
	ResultFile   = "sweep.json"      // runs/000012/sweep.json: how the run ended; written last
	TableCSV     = "results.csv"     // the table
	TableParquet = "results.parquet" // the same rows
)

// Result is how one run ended, as runs/NNNNNN/sweep.json keeps it. A
// cell counts as done when this file exists.
type Result struct {
	Cell     int    `json:"cell"`
	Key      string `json:"key"`
	Seed     uint64 `json:"seed"`
	Status   string `json:"status"` // "finished" or "failed"
	Error    string `json:"error,omitempty"`
	ExitCode int    `json:"exit_code"`
	Ticks    int    `json:"ticks"`
	// SimulatedSeconds is the simulated time the run covered.
	SimulatedSeconds float64 `json:"simulated_seconds"`
	// LoopSeconds is the wall time of the run's simulation loop, as the
	// run logs it; WallSeconds the whole process's, start-up included.
	LoopSeconds float64 `json:"loop_seconds"`
	WallSeconds float64 `json:"wall_seconds"`
}

// Options set how a sweep runs.
type Options struct {
	// Out is the sweep folder.
	Out string
	// Jobs is how many runs go at once (default: the number of cores).
	Jobs int
	// Binary is the argos program that runs each cell (default: this
	// program). Each run is a process of its own, so that a crash stops
	// only that run.
	Binary string
	// Env is added to the environment of every run.
	Env []string
	// Progress receives the progress bar (nil: none); ProgressMode is
	// auto (a bar on a terminal, lines every ProgressEvery otherwise), bar,
	// log or off.
	Progress      io.Writer
	ProgressMode  string
	ProgressEvery time.Duration
	// FreshProcess runs every cell in a new process (argos -c CELL); by
	// default each of the Jobs workers is one argos process (argos sweep
	// worker) running cell after cell, and a worker that dies is replaced,
	// its run recorded as failed.
	FreshProcess bool
	// InProcess, when set, runs the cells in this process with the given
	// argos command (argoscli's), for a process that is itself one run
	// (irace's target-runner).
	InProcess func(args []string, stdout, stderr io.Writer) int
	// RetryFailed runs failed cells again instead of keeping their error.
	RetryFailed bool
	// Timeout stops a run that takes longer (0: no limit); it is then
	// recorded as failed.
	Timeout time.Duration
}

func (o *Options) defaults() error {
	if o.Out == "" {
		return errors.New("sweep: no output folder; give --out DIR")
	}
	if o.Jobs <= 0 {
		o.Jobs = runtime.NumCPU()
	}
	if o.Binary == "" {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("sweep: cannot find the argos binary to run: %w", err)
		}
		o.Binary = self
	}
	if o.ProgressMode == "" {
		o.ProgressMode = "auto"
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 10 * time.Second
	}
	return nil
}

// Summary counts what a call to [RunCells] or [Run] did.
type Summary struct {
	Cells   int // cells asked for
	Skipped int // done before (resumed)
	Ran     int // run now and finished
	Failed  int // run now and failed
	Left    int // not run: interrupted
	// Wall is the time the call took; LoopSeconds the sum of the loop
	// times of the runs it made (both to measure the sweep's overhead).
	Wall        time.Duration
	LoopSeconds float64
}

func cellName(i int) string { return fmt.Sprintf("%06d", i) }

// CellFile returns the experiment file of cell i in a sweep folder.
func CellFile(out string, i int) string {
	return filepath.Join(out, CellsDir, cellName(i)+".argos")
}

// RunDir returns the run folder of cell i in a sweep folder.
func RunDir(out string, i int) string { return filepath.Join(out, RunsDir, cellName(i)) }

// Prepare makes the sweep folder: plan.json and the experiment file of
// every cell. A folder that already holds a sweep must hold the same
// cells (the same experiments), so that its runs are resumed, never mixed
// with another sweep's.
func Prepare(p *Plan, out string) error {
	for _, d := range []string{out, filepath.Join(out, CellsDir), filepath.Join(out, RunsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("sweep: cannot create the sweep folder: %w", err)
		}
	}
	if old, err := ReadPlan(out); err == nil {
		if len(old.Cells) != len(p.Cells) || old.Experiment != p.Experiment {
			return fmt.Errorf("sweep: %s holds another sweep (%d cells of %s); give a new --out, or delete the folder to start over", out, len(old.Cells), old.Experiment)
		}
	} else if entries, _ := os.ReadDir(out); len(entries) > 2 {
		return fmt.Errorf("sweep: %s is not empty and holds no sweep; give a new --out", out)
	}
	for _, c := range p.Cells {
		exp, err := p.CellExperiment(c)
		if err != nil {
			return err
		}
		path := CellFile(out, c.Index)
		if cur, err := os.ReadFile(path); err == nil {
			if !bytes.Equal(cur, exp) {
				return fmt.Errorf("sweep: %s holds another sweep: cell %d differs (the sweep file or %s changed); give a new --out, or delete the folder to start over", out, c.Index, filepath.Base(p.Experiment))
			}
			continue
		}
		if err := writeAtomic(path, exp); err != nil {
			return err
		}
	}
	return p.save(out)
}

// ReadResult reads a cell's sweep.json; ok is false when the cell has
// not finished.
func ReadResult(out string, i int) (Result, bool) {
	var r Result
	b, err := os.ReadFile(filepath.Join(RunDir(out, i), ResultFile))
	if err != nil || json.Unmarshal(b, &r) != nil {
		return r, false
	}
	return r, true
}

// Run runs every cell of the plan that is not done yet, then writes the
// table. When ctx is cancelled (Ctrl-C), the runs under way are
// interrupted and left to be run again, the finished ones stay, and the
// table holds the finished runs.
func Run(ctx context.Context, p *Plan, opt Options) (Summary, error) {
	if err := opt.defaults(); err != nil {
		return Summary{}, err
	}
	if err := Prepare(p, opt.Out); err != nil {
		return Summary{}, err
	}
	idx := make([]int, len(p.Cells))
	for i := range idx {
		idx[i] = i
	}
	sum, err := RunCells(ctx, p, idx, opt)
	if _, terr := WriteTable(opt.Out); err == nil {
		err = terr
	}
	return sum, err
}

// RunCells runs the given cells of a prepared sweep folder on opt.Jobs
// workers, skipping those already done. It returns ctx's error when
// interrupted.
func RunCells(ctx context.Context, p *Plan, cells []int, opt Options) (Summary, error) {
	if err := opt.defaults(); err != nil {
		return Summary{}, err
	}
	start := time.Now()
	sum := Summary{Cells: len(cells)}
	var todo []int
	for _, i := range cells {
		if i < 0 || i >= len(p.Cells) {
			return sum, fmt.Errorf("sweep: no cell %d; the sweep has %d", i, len(p.Cells))
		}
		if r, ok := ReadResult(opt.Out, i); ok && (r.Status == "finished" || !opt.RetryFailed) {
			sum.Skipped++
			continue
		}
		todo = append(todo, i)
	}
	prog := newProgress(opt, len(cells), sum.Skipped)
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		next = make(chan int)
		errs []error
	)
	for w := 0; w < min(opt.Jobs, max(len(todo), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var slot *worker
			defer func() {
				if slot != nil {
					slot.stop()
				}
			}()
			for i := range next {
				r, err := runCell(ctx, p, i, opt, &slot)
				mu.Lock()
				switch {
				case err != nil && ctx.Err() != nil:
					sum.Left++
				case err != nil:
					errs = append(errs, err)
					sum.Left++
				case r.Status == "finished":
					sum.Ran++
					sum.LoopSeconds += r.LoopSeconds
				default:
					sum.Failed++
					sum.LoopSeconds += r.LoopSeconds
				}
				mu.Unlock()
				prog.add(err == nil, err == nil && r.Status != "finished")
			}
		}()
	}
feed:
	for k, i := range todo {
		select {
		case next <- i:
		case <-ctx.Done():
			mu.Lock()
			sum.Left += len(todo) - k
			mu.Unlock()
			break feed
		}
	}
	close(next)
	wg.Wait()
	prog.finish()
	sum.Wall = time.Since(start)
	if ctx.Err() != nil {
		return sum, ctx.Err()
	}
	return sum, errors.Join(errs...)
}

var loopRe = regexp.MustCompile(`ran (\d+) ticks \([^)]*\) in ([0-9.]+) s`)

// runCell runs one cell in a process of its own. It returns an error only
// when the run could not be made or was interrupted; a run that fails is
// a Result with Status "failed".
func runCell(ctx context.Context, p *Plan, i int, opt Options, slot **worker) (Result, error) {
	dir := RunDir(opt.Out, i)
	file := CellFile(opt.Out, i)
	exp, err := os.ReadFile(file)
	if err != nil {
		return Result{}, fmt.Errorf("sweep: cell %d: %w; prepare the sweep folder again", i, err)
	}
	key := p.Key(p.Cells[i], exp)
	if err := os.RemoveAll(dir); err != nil {
		return Result{}, fmt.Errorf("sweep: cell %d: cannot clear its unfinished run folder: %w", i, err)
	}
	absFile, _ := filepath.Abs(file)
	absDir, _ := filepath.Abs(dir)
	req := WorkRequest{File: absFile, Out: absDir, Threads: p.Threads}
	start := time.Now()
	r := Result{Cell: i, Key: key, Seed: p.Cells[i].Seed, Status: "finished"}
	var runErr error
	switch {
	case opt.InProcess != nil:
		var stderr tailBuffer
		if r.ExitCode = opt.InProcess(req.Args(), io.Discard, &stderr); r.ExitCode != 0 {
			runErr = errors.New(failure(stderr.String(), fmt.Errorf("exit status %d", r.ExitCode)))
		}
	case opt.FreshProcess:
		r.ExitCode, runErr = runFresh(ctx, p, req, opt)
	default:
		r.ExitCode, runErr = runInWorker(ctx, p, req, opt, slot)
	}
	r.WallSeconds = time.Since(start).Seconds()
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	if runErr != nil {
		r.Status = "failed"
		r.Error = runErr.Error()
	}
	if b, err := os.ReadFile(filepath.Join(dir, record.InfoFile)); err == nil {
		var info record.Info
		if json.Unmarshal(b, &info) == nil {
			r.Ticks, r.SimulatedSeconds = info.Ticks, info.Seconds
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, record.LogFile)); err == nil {
		if m := loopRe.FindSubmatch(b); m != nil {
			r.LoopSeconds, _ = strconv.ParseFloat(string(m[2]), 64)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, fmt.Errorf("sweep: cell %d: %w", i, err)
	}
	b, _ := json.MarshalIndent(r, "", "  ")
	return r, writeAtomic(filepath.Join(dir, ResultFile), append(b, '\n'))
}

// runFresh runs a request in a process of its own; it returns the exit
// status and, for a failed run, its error.
func runFresh(ctx context.Context, p *Plan, req WorkRequest, opt Options) (int, error) {
	runCtx := ctx
	if opt.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, opt.Binary, req.Args()...)
	cmd.Dir = p.WorkDir
	cmd.Env = append(os.Environ(), opt.Env...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var stderr tailBuffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	switch {
	case err == nil:
		return code, nil
	case runCtx.Err() != nil && ctx.Err() == nil:
		return code, fmt.Errorf("timed out after %s", opt.Timeout)
	}
	return code, errors.New(failure(stderr.String(), err))
}

// runInWorker runs a request in the goroutine's worker process, starting
// one when there is none (or the last one died).
func runInWorker(ctx context.Context, p *Plan, req WorkRequest, opt Options, slot **worker) (int, error) {
	if *slot == nil {
		w, err := startWorker(p, opt)
		if err != nil {
			return -1, err
		}
		*slot = w
	}
	w := *slot
	rep, err := w.do(ctx, req, opt.Timeout)
	switch {
	case errors.Is(err, errTimeout):
		w.stop()
		*slot = nil
		return -1, fmt.Errorf("timed out after %s", opt.Timeout)
	case err != nil:
		msg := w.death()
		*slot = nil
		return -1, errors.New(msg)
	case rep.Code != 0:
		return rep.Code, errors.New(failure(rep.Stderr, fmt.Errorf("exit status %d", rep.Code)))
	}
	return 0, nil
}

// failure picks the message of a failed run from its stderr: argos's own
// one-line error, or the first line of a crash.
func failure(stderr string, err error) string {
	var first, crash, last string
	sc := bufio.NewScanner(strings.NewReader(stderr))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		last = line
		if first == "" && strings.HasPrefix(line, "argos: ") {
			first = strings.TrimPrefix(line, "argos: ")
		}
		if crash == "" && (strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")) {
			crash = line
		}
	}
	msg := first
	if msg == "" {
		msg = crash
	}
	if msg == "" {
		msg = last
	}
	if msg == "" {
		return err.Error()
	}
	if len(msg) > 2000 {
		msg = msg[:2000] + "..."
	}
	return msg + " (" + err.Error() + ")"
}

// tailBuffer keeps the first and the last 32 KiB written to it.
type tailBuffer struct {
	head, tail []byte
	dropped    bool
}

const tailKeep = 32 << 10

func (t *tailBuffer) Write(b []byte) (int, error) {
	n := len(b)
	if room := tailKeep - len(t.head); room > 0 {
		k := min(room, len(b))
		t.head = append(t.head, b[:k]...)
		b = b[k:]
	}
	t.tail = append(t.tail, b...)
	if len(t.tail) > tailKeep {
		t.tail = append(t.tail[:0], t.tail[len(t.tail)-tailKeep:]...)
		t.dropped = true
	}
	return n, nil
}

func (t *tailBuffer) String() string {
	if t.dropped {
		return string(t.head) + "\n...\n" + string(t.tail)
	}
	return string(t.head) + string(t.tail)
}
