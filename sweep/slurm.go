package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Files of the Slurm support, under the sweep folder.
const (
	SlurmDir    = "slurm"
	SlurmScript = "sweep.sbatch" // slurm/sweep.sbatch
	SlurmJob    = "job"          // slurm/job: the job id sbatch gave
)

// SlurmOptions set the job array.
type SlurmOptions struct {
	Partition string // --partition (empty: the cluster's default)
	Time      string // --time, like 00:30:00 (empty: the partition's default)
	Mem       string // --mem, like 1G (empty: the default)
	// ArrayLimit caps how many tasks run at once (the %K of --array).
	ArrayLimit int
	// Chunk is how many cells each task runs (0: one per cell, or as
	// many as keep the array within 1000 tasks).
	Chunk int
	// CPUs is each task's --cpus-per-task, and how many of its cells it
	// runs at once (default 1).
	CPUs int
	// Binary is the argos program the tasks run (default: this one); it
	// and the sweep folder must be on a file system every node sees.
	Binary string
	// Sbatch is the sbatch command (default "sbatch").
	Sbatch string
	// Env is added to sbatch's environment, which the tasks inherit.
	Env []string
}

// maxArray is the array size Slurm allows by default (MaxArraySize=1001).
const maxArray = 1000

func (o *SlurmOptions) defaults(cells int) error {
	if o.CPUs <= 0 {
		o.CPUs = 1
	}
	if o.Chunk <= 0 {
		o.Chunk = max(1, (cells+maxArray-1)/maxArray)
	}
	if o.ArrayLimit < 0 {
		return fmt.Errorf("sweep: --array-limit %d: give a positive number of tasks, or 0 for no limit", o.ArrayLimit)
	}
	if o.Sbatch == "" {
		o.Sbatch = "sbatch"
	}
	if o.Binary == "" {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("sweep: cannot find the argos binary for the tasks: %w", err)
		}
		o.Binary = self
	}
	for _, v := range []struct{ flag, val string }{{"--partition", o.Partition}, {"--time", o.Time}, {"--mem", o.Mem}} {
		if strings.ContainsAny(v.val, " \t\n\r'\"\\$`;") {
			return fmt.Errorf("sweep: %s %q: a Slurm value has no spaces or quotes", v.flag, v.val)
		}
	}
	return nil
}

// Tasks returns how many array tasks the plan takes.
func (p *Plan) Tasks() int {
	c := max(p.Chunk, 1)
	return (len(p.Cells) + c - 1) / c
}

// TaskCells returns the cells array task t runs: a contiguous chunk, the
// same whichever node runs it.
func (p *Plan) TaskCells(t int) []int {
	c := max(p.Chunk, 1)
	var out []int
	for i := t * c; i < min((t+1)*c, len(p.Cells)); i++ {
		out = append(out, i)
	}
	return out
}

// TaskIndex returns the array task to run: flag when it is 0 or more,
// else SLURM_ARRAY_TASK_ID, else JOB_COMPLETION_INDEX (Kubernetes Indexed
// Jobs).
func TaskIndex(flag int) (int, error) {
	if flag >= 0 {
		return flag, nil
	}
	for _, name := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return 0, fmt.Errorf("sweep: %s=%q is not a task index", name, v)
			}
			return n, nil
		}
	}
	return 0, errors.New("sweep: no task index: give --task-index N, or run inside a Slurm job array (SLURM_ARRAY_TASK_ID) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)")
}

// RunTask runs the cells of array task t of a prepared sweep folder.
func RunTask(ctx context.Context, out string, t int, opt Options) (Summary, error) {
	p, err := ReadPlan(out)
	if err != nil {
		return Summary{}, err
	}
	if t >= p.Tasks() {
		return Summary{}, fmt.Errorf("sweep: task %d: the sweep has tasks 0 to %d", t, p.Tasks()-1)
	}
	opt.Out = out
	return RunCells(ctx, p, p.TaskCells(t), opt)
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// SlurmScriptText returns the sbatch script of the sweep's job array.
func SlurmScriptText(p *Plan, out string, o SlurmOptions) string {
	var b strings.Builder
	tasks := p.Tasks()
	array := fmt.Sprintf("0-%d", tasks-1)
	if o.ArrayLimit > 0 {
		array += "%" + strconv.Itoa(o.ArrayLimit)
	}
	fmt.Fprintf(&b, "#!/bin/sh\n# Written by argos sweep for %s: %d cells, %d per task.\n", filepath.Base(p.Spec), len(p.Cells), max(p.Chunk, 1))
	fmt.Fprintf(&b, "#SBATCH --job-name=argos-sweep\n#SBATCH --array=%s\n#SBATCH --cpus-per-task=%d\n", array, o.CPUs)
	if o.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", o.Partition)
	}
	if o.Time != "" {
		fmt.Fprintf(&b, "#SBATCH --time=%s\n", o.Time)
	}
	if o.Mem != "" {
		fmt.Fprintf(&b, "#SBATCH --mem=%s\n", o.Mem)
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(out, SlurmDir, "task-%a.out"))
	fmt.Fprintf(&b, "#SBATCH --chdir=%s\n#SBATCH --export=ALL\n", out)
	fmt.Fprintf(&b, "exec %s sweep task --jobs %d %s\n", shellQuote(o.Binary), o.CPUs, shellQuote(out))
	return b.String()
}

// SubmitSlurm prepares the sweep folder, writes slurm/sweep.sbatch and
// submits it with sbatch. It returns the job id.
func SubmitSlurm(ctx context.Context, p *Plan, out string, o SlurmOptions) (string, error) {
	if err := o.defaults(len(p.Cells)); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("sweep: %w", err)
	}
	out = abs
	p.Chunk = o.Chunk
	if err := Prepare(p, out); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(out, SlurmDir), 0o755); err != nil {
		return "", fmt.Errorf("sweep: %w", err)
	}
	script := filepath.Join(out, SlurmDir, SlurmScript)
	if err := os.WriteFile(script, []byte(SlurmScriptText(p, out, o)), 0o755); err != nil {
		return "", fmt.Errorf("sweep: %w", err)
	}
	if _, err := exec.LookPath(o.Sbatch); err != nil {
		return "", fmt.Errorf("sweep: %s is not installed here (%v); submit %s from a machine of the cluster", o.Sbatch, err, script)
	}
	cmd := exec.CommandContext(ctx, o.Sbatch, "--parsable", script)
	cmd.Env = append(os.Environ(), o.Env...)
	cmd.Dir = out
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("sweep: sbatch %s: %v: %s", script, err, strings.TrimSpace(stderr.String()))
	}
	id := strings.TrimSpace(stdout.String())
	if i := strings.IndexByte(id, ';'); i >= 0 {
		id = id[:i]
	}
	if _, err := strconv.ParseUint(id, 10, 64); err != nil {
		return "", fmt.Errorf("sweep: sbatch printed %q, not a job id", id)
	}
	return id, writeAtomic(filepath.Join(out, SlurmDir, SlurmJob), []byte(id+"\n"))
}

// Status is how far a sweep folder is.
type Status struct {
	Cells, Finished, Failed, Missing int
	// Job is the Slurm job id, when the sweep was submitted; Queue counts
	// its array tasks still in the queue by state (PENDING, RUNNING, ...),
	// empty when none is left; QueueErr says why the queue could not be
	// read.
	Job      string
	Queue    map[string]int
	QueueErr error
}

// ReadStatus counts the cells of a sweep folder and, for a Slurm sweep,
// asks squeue about its tasks.
func ReadStatus(ctx context.Context, out string) (Status, error) {
	p, err := ReadPlan(out)
	if err != nil {
		return Status{}, err
	}
	st := Status{Cells: len(p.Cells)}
	for _, c := range p.Cells {
		r, ok := ReadResult(out, c.Index)
		switch {
		case !ok:
			st.Missing++
		case r.Status == "finished":
			st.Finished++
		default:
			st.Failed++
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, SlurmDir, SlurmJob)); err == nil {
		st.Job = strings.TrimSpace(string(b))
		st.Queue, st.QueueErr = squeue(ctx, st.Job)
	}
	return st, nil
}

var jobRe = regexp.MustCompile(`^[0-9]+$`)

// squeue counts the job's tasks still queued, by state.
func squeue(ctx context.Context, job string) (map[string]int, error) {
	if !jobRe.MatchString(job) {
		return nil, fmt.Errorf("sweep: %q is not a Slurm job id", job)
	}
	cmd := exec.CommandContext(ctx, "squeue", "-h", "-r", "-j", job, "-o", "%T")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		// a job that has left the queue altogether is "Invalid job id"
		if strings.Contains(msg, "Invalid job id") {
			return map[string]int{}, nil
		}
		return nil, fmt.Errorf("sweep: squeue: %v: %s", err, msg)
	}
	q := map[string]int{}
	for _, f := range strings.Fields(stdout.String()) {
		q[f]++
	}
	return q, nil
}

// String says what a status holds, in one line.
func (s Status) String() string {
	out := fmt.Sprintf("%d cells: %d finished, %d failed, %d to run", s.Cells, s.Finished, s.Failed, s.Missing)
	if s.Job != "" {
		switch {
		case s.QueueErr != nil:
			out += fmt.Sprintf("; Slurm job %s: %v", s.Job, s.QueueErr)
		case len(s.Queue) == 0:
			out += fmt.Sprintf("; Slurm job %s has left the queue", s.Job)
		default:
			var parts []string
			for k, v := range s.Queue {
				parts = append(parts, fmt.Sprintf("%d %s", v, strings.ToLower(k)))
			}
			sort.Strings(parts)
			out += fmt.Sprintf("; Slurm job %s: %s", s.Job, strings.Join(parts, ", "))
		}
	}
	return out
}

// WaitSlurm polls the queue until the sweep's job has no task left in it.
func WaitSlurm(ctx context.Context, out string, every time.Duration) (Status, error) {
	for {
		st, err := ReadStatus(ctx, out)
		if err != nil {
			return st, err
		}
		if st.Job == "" {
			return st, fmt.Errorf("sweep: %s was not submitted to Slurm", out)
		}
		if st.QueueErr != nil {
			return st, st.QueueErr
		}
		if len(st.Queue) == 0 {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(every):
		}
	}
}
