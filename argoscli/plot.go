package argoscli

import (
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/argosgo/argos/simulator/record"
	"github.com/argosgo/argos/simulator/render/plot"
)

// runPlot implements `argos plot RUN_DIR`: one PNG per metric of the run
// folder's metrics.csv, in RUN_DIR/plots (or -o DIR).
func runPlot(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("argos plot", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the plots into `DIR` (default RUN_DIR/plots)")
	w := fs.Int("width", 900, "width of a plot in pixels")
	h := fs.Int("height", 500, "height of a plot in pixels")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: argos plot [-o DIR] RUN_DIR\n\nDraws every metric of RUN_DIR/metrics.csv (a run folder of argos --out) over simulated time:\nper-tick metrics as a line, per-robot metrics as the mean across robots with\nthe bands of one standard deviation and of the lowest to the highest robot.\n\n")
		fs.PrintDefaults()
	}
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitOf(err)
	}
	if len(rest) != 1 {
		fmt.Fprintln(stderr, "argos plot: give one run folder: argos plot RUN_DIR")
		return 1
	}
	if *w < 200 || *h < 150 || *w > 8000 || *h > 8000 {
		fmt.Fprintln(stderr, "argos plot: -width and -height must be 200-8000 and 150-8000 pixels")
		return 1
	}
	dir := rest[0]
	rows, err := record.ReadCSV(filepath.Join(dir, record.CSVFile))
	if err != nil {
		fmt.Fprintf(stderr, "argos plot: %v\n", err)
		return 1
	}
	if len(rows) == 0 {
		fmt.Fprintf(stderr, "argos plot: %s has no rows: the run recorded no metrics (loop functions record with Simulator.Metrics, controllers with ci.Metrics)\n", filepath.Join(dir, record.CSVFile))
		return 1
	}
	if *out == "" {
		*out = filepath.Join(dir, "plots")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "argos plot: %v\n", err)
		return 1
	}
	used := map[string]int{}
	for _, c := range append(plot.Metrics(rows), plot.Histograms(rows)...) {
		name := fileName(c.Title)
		if n := used[name]; n > 0 {
			name = fmt.Sprintf("%s_%d", name, n+1)
		}
		used[name]++
		p := filepath.Join(*out, name+".png")
		f, err := os.Create(p)
		if err == nil {
			err = png.Encode(f, c.Render(*w, *h))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "argos plot: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, p)
	}
	return 0
}

// fileName turns a metric's title into a file name.
func fileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 || strings.Trim(b.String(), "._") == "" {
		return "metric"
	}
	return b.String()
}

// parseInterspersed parses args with fs, letting flags come before and
// after the positional arguments, which it returns.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return rest, nil
}

// exitOf is the exit status of a failed flag parse: 0 for -h.
func exitOf(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}
