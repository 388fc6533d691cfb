package record

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/argosgo/argos/config"
)

// File names inside a run folder.
const (
	ExperimentFile = "experiment.argos"
	CommandFile    = "command.txt"
	InfoFile       = "run.json"
	LogFile        = "argos.log"
	CSVFile        = "metrics.csv"
	ParquetFile    = "metrics.parquet"
)

// Folder is a run folder being written.
type Folder struct {
	dir  string
	info Info
}

// Info is what run.json says about a run.
type Info struct {
	Command    []string  `json:"command"`
	Version    string    `json:"version"`
	GoVersion  string    `json:"go_version"`
	Experiment string    `json:"experiment"` // the file given on the command line
	Seed       uint64    `json:"seed"`
	Threads    int       `json:"threads"`
	Started    time.Time `json:"started"`
	Finished   time.Time `json:"finished,omitzero"`
	Ticks      int       `json:"ticks"`
	Seconds    float64   `json:"simulated_seconds"`
	// Status is "running", "finished", "interrupted" or "error: ...".
	Status string `json:"status"`
}

// Create makes the run folder dir: it must not exist or be empty, so that
// no earlier run's data is mixed in or overwritten.
func Create(dir string) (*Folder, error) {
	if dir == "" {
		return nil, errors.New("record: no run folder given; pass a directory name to --out")
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("record: run folder %q exists and is not empty; choose a new folder (one per run) or remove it", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("record: cannot create run folder: %w; check the path and its permissions", err)
	}
	return &Folder{dir: dir}, nil
}

// Dir returns the folder's path.
func (f *Folder) Dir() string { return f.dir }

// Path returns the path of a file in the folder.
func (f *Folder) Path(name string) string { return filepath.Join(f.dir, name) }

// Overrides are the framework settings the command line changed; nil
// fields were left as the file has them.
type Overrides struct {
	Threads *int
	// Length is the experiment's length in seconds.
	Length *float64
}

// WriteExperiment writes the experiment file as run: data is the file's
// content as read, with random_seed set to seed (and the settings the
// command line changed).
func (f *Folder) WriteExperiment(exp *config.Experiment, data []byte, seed uint64, o Overrides) error {
	out, err := AsRun(exp, data, seed, o)
	if err != nil {
		return err
	}
	return f.write(ExperimentFile, out)
}

// WriteCommand writes command.txt (the command line, shell-quoted, so that
// it can be pasted to repeat the run) and starts run.json.
func (f *Folder) WriteCommand(info Info) error {
	if info.Version == "" {
		info.Version = Version()
	}
	if info.GoVersion == "" {
		info.GoVersion = runtime.Version()
	}
	if info.Status == "" {
		info.Status = "running"
	}
	f.info = info
	line := ShellQuote(info.Command) + "\n"
	line += "# version " + info.Version + ", " + info.GoVersion + ", started " + info.Started.Format(time.RFC3339) + "\n"
	if err := f.write(CommandFile, []byte(line)); err != nil {
		return err
	}
	return f.writeInfo()
}

// Finish completes run.json with how the run ended.
func (f *Folder) Finish(ticks int, seconds float64, status string) error {
	f.info.Finished = time.Now().UTC().Round(time.Millisecond)
	f.info.Ticks, f.info.Seconds, f.info.Status = ticks, seconds, status
	return f.writeInfo()
}

func (f *Folder) writeInfo() error {
	b, err := json.MarshalIndent(f.info, "", "  ")
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return f.write(InfoFile, append(b, '\n'))
}

func (f *Folder) write(name string, data []byte) error {
	if err := os.WriteFile(f.Path(name), data, 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}

// Version returns the version of the running binary: the module version,
// or the VCS revision it was built from (with "+dirty" for uncommitted
// changes), or "devel". A binary of another module (a project's own
// argos) also names the ARGoS-Go version it links, as "MODULE VERSION,
// github.com/argosgo/argos VERSION".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := mainVersion(bi)
	if bi.Main.Path == "" || bi.Main.Path == argosModule {
		return v
	}
	for _, d := range bi.Deps {
		if d.Path == argosModule {
			dv := d.Version
			if d.Replace != nil {
				dv += " => " + d.Replace.Path
			}
			return bi.Main.Path + " " + v + ", " + argosModule + " " + dv
		}
	}
	return bi.Main.Path + " " + v
}

const argosModule = "github.com/argosgo/argos"

func mainVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if v != "" && v != "(devel)" {
		return v
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return rev + dirty
	}
	return "devel"
}

// ShellQuote joins args into one line a POSIX shell reads back as args.
func ShellQuote(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if a != "" && strings.IndexFunc(a, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
		}) < 0 {
			b.WriteString(a)
			continue
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}

// AsRun returns the experiment file's content with random_seed set to
// seed in its <experiment> element (and threads in <system>, length in
// <experiment> when o sets them); everything else, comments included, is
// kept as written.
func AsRun(exp *config.Experiment, data []byte, seed uint64, o Overrides) ([]byte, error) {
	fw := exp.Framework.Node
	if fw == nil {
		return nil, errors.New("record: the experiment has no <framework>")
	}
	out := data
	var err error
	if e := fw.FirstChild("experiment"); e != nil {
		if o.Length != nil {
			if out, err = setAttr(out, e, "length", strconv.FormatFloat(*o.Length, 'g', -1, 64)); err != nil {
				return nil, err
			}
		}
		if out, err = setAttr(out, e, "random_seed", strconv.FormatUint(seed, 10)); err != nil {
			return nil, err
		}
	}
	if threads := o.Threads; threads != nil {
		if s := fw.FirstChild("system"); s != nil {
			out, err = setAttr(out, s, "threads", strconv.Itoa(*threads))
		} else {
			out, err = insertAfterStart(out, fw, `<system threads="`+strconv.Itoa(*threads)+`" />`)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// setAttr sets attribute name of element n to value.
func setAttr(data []byte, n *config.Node, name, value string) ([]byte, error) {
	lt, gt, err := config.StartTag(data, n, 0)
	if err != nil {
		return nil, err
	}
	return config.SetAttr(data, lt, gt, name, value), nil
}

func insertAfterStart(data []byte, n *config.Node, text string) ([]byte, error) {
	_, gt, err := config.StartTag(data, n, 0)
	if err != nil {
		return nil, err
	}
	if data[gt] == '/' {
		return nil, fmt.Errorf("record: <%s> is empty", n.Name)
	}
	return join(data[:gt+1], []byte(text), data[gt+1:]), nil
}

func join(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
