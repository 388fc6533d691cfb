package sweep

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

// WorkRequest asks a worker process (argos sweep worker) to run one
// experiment as `argos -z -c File --out Out --progress off` would.
type WorkRequest struct {
	File    string `json:"file"`
	Out     string `json:"out"`
	Threads *int   `json:"threads,omitempty"`
}

// Args returns the argos command line of the request.
func (r WorkRequest) Args() []string {
	args := []string{"-z", "-c", r.File, "--out", r.Out, "--progress", "off"}
	if r.Threads != nil {
		args = append(args, "--threads", strconv.Itoa(*r.Threads))
	}
	return args
}

// WorkReply is a worker's answer: the run's exit status and what it wrote
// on stderr (its last 64 KiB).
type WorkReply struct {
	Code   int    `json:"code"`
	Stderr string `json:"stderr"`
}

// ServeWorker is argos sweep worker: it reads one WorkRequest per line
// from in, runs it with run (argoscli.Run) and writes one WorkReply per
// line to out, until in ends. A worker runs many cells one after the
// other, which spares each run the start of a process; the sweep starts
// a new worker when one dies, and records the run it was making as
// failed, so that a crash still stops one run only.
func ServeWorker(in io.Reader, out io.Writer, run func(args []string, stdout, stderr io.Writer) int) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req WorkRequest
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			return fmt.Errorf("sweep: worker: bad request: %w", err)
		}
		var stderr tailBuffer
		code := run(req.Args(), io.Discard, &stderr)
		if err := enc.Encode(WorkReply{Code: code, Stderr: stderr.String()}); err != nil {
			return fmt.Errorf("sweep: worker: %w", err)
		}
	}
	return sc.Err()
}

// worker is a running argos sweep worker, owned by one goroutine of the
// pool.
type worker struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *tailBuffer
}

func startWorker(p *Plan, opt Options) (*worker, error) {
	cmd := exec.Command(opt.Binary, "sweep", "worker")
	cmd.Dir = p.WorkDir
	cmd.Env = append(os.Environ(), opt.Env...)
	w := &worker{cmd: cmd, stderr: &tailBuffer{}}
	cmd.Stderr = w.stderr
	var err error
	if w.in, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	w.out = bufio.NewReaderSize(stdout, 128<<10)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sweep: cannot start %s: %w", opt.Binary, err)
	}
	return w, nil
}

// errWorkerDied says the worker ended in the middle of a run.
var errWorkerDied = errors.New("the argos process died")

// do sends a request and waits for the reply. When ctx ends first, the
// worker is interrupted (SIGINT: the run stops and writes what it has)
// and, if it does not answer within 10 s, killed. timeout > 0 kills the
// worker after that long.
func (w *worker) do(ctx context.Context, req WorkRequest, timeout time.Duration) (WorkReply, error) {
	line, _ := json.Marshal(req)
	if _, err := w.in.Write(append(line, '\n')); err != nil {
		return WorkReply{}, fmt.Errorf("%w: %v", errWorkerDied, err)
	}
	type answer struct {
		rep WorkReply
		err error
	}
	done := make(chan answer, 1)
	go func() {
		b, err := w.out.ReadBytes('\n')
		if err != nil {
			done <- answer{err: fmt.Errorf("%w: %v", errWorkerDied, err)}
			return
		}
		var rep WorkReply
		if err := json.Unmarshal(b, &rep); err != nil {
			done <- answer{err: fmt.Errorf("sweep: worker: bad reply %q: %w", clip(string(b)), err)}
			return
		}
		done <- answer{rep: rep}
	}()
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case a := <-done:
		return a.rep, a.err
	case <-expired:
		w.cmd.Process.Kill()
		<-done
		return WorkReply{}, errTimeout
	case <-ctx.Done():
		w.cmd.Process.Signal(syscall.SIGINT)
		select {
		case a := <-done:
			return a.rep, a.err
		case <-time.After(10 * time.Second):
			w.cmd.Process.Kill()
			<-done
			return WorkReply{}, ctx.Err()
		}
	}
}

var errTimeout = errors.New("timed out")

// stop ends the worker: its input closes, and it exits.
func (w *worker) stop() error {
	w.in.Close()
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		w.cmd.Process.Kill()
		return <-done
	}
}

// death returns why a worker died, from its stderr.
func (w *worker) death() string {
	err := w.stop()
	if err == nil {
		err = errWorkerDied
	}
	return failure(w.stderr.String(), err)
}
