package traces_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator"

	_ "github.com/argosgo/argos/controllers/diffusion"
	_ "github.com/argosgo/argos/controllers/fixed_wheels"
	_ "github.com/argosgo/argos/loop_functions/trace"
	_ "github.com/argosgo/argos/simulator/devices"
	_ "github.com/argosgo/argos/simulator/physics/dynamics2d"
)

// pose is one row of a trace.
type pose struct{ x, y, yaw float64 }

// trace holds a trace file: the poses by tick and id, and the ticks and
// ids in file order.
type trace struct {
	at    map[int]map[string]pose
	ticks []int
}

func (tr *trace) ids(tick int) []string {
	var ids []string
	for id := range tr.at[tick] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// readTrace reads a trace file, gzipped when its name ends in .gz.
func readTrace(path string) (*trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		defer z.Close()
		r = z
	}
	tr := &trace{at: map[int]map[string]pose{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) != 5 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 5", path, n, len(fs))
		}
		tick, err := strconv.Atoi(fs[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		var v [3]float64
		for k := range v {
			if v[k], err = strconv.ParseFloat(fs[2+k], 64); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, n, err)
			}
		}
		if tr.at[tick] == nil {
			tr.at[tick] = map[string]pose{}
			tr.ticks = append(tr.ticks, tick)
		}
		tr.at[tick][fs[1]] = pose{v[0], v[1], v[2]}
	}
	return tr, sc.Err()
}

func reference(t *testing.T, name string) *trace {
	t.Helper()
	tr, err := readTrace(filepath.Join("testdata", name+".tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// run runs testdata/name.argos, after edit when edit is not nil, through
// ARGoS-Go with the given thread count and returns the trace its
// trace_loop_functions wrote.
func run(t *testing.T, name string, threads int, edit func([]byte) []byte) *trace {
	t.Helper()
	return runInto(t, name, threads, edit, t.TempDir())
}

// runInto is run with the output in dir.
func runInto(t *testing.T, name string, threads int, edit func([]byte) []byte, dir string) *trace {
	t.Helper()
	path := filepath.Join("testdata", name+".argos")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		data = edit(data)
	}
	exp, err := config.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := simulator.New(exp, simulator.Options{OutputDir: dir, Threads: &threads})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sim.Close(); err != nil {
		t.Fatal(err)
	}
	tr, err := readTrace(filepath.Join(dir, name+".tsv"))
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func angleDiff(a, b float64) float64 { return math.Remainder(a-b, 2*math.Pi) }

// worst is the largest difference between two traces.
type worst struct {
	pos, yaw       float64
	posAt, yawAt   int
	posID, yawID   string
	firstOver      int // first tick with a position difference over the tolerance, -1 if none
	firstOverID    string
	firstOverValue float64
}

// compare checks that ours has exactly the ticks and ids of ref and
// returns the largest differences; tol is the position tolerance for
// firstOver.
func compare(t *testing.T, ours, ref *trace, tol float64) worst {
	t.Helper()
	w := worst{firstOver: -1}
	if fmt.Sprint(ours.ticks) != fmt.Sprint(ref.ticks) {
		t.Fatalf("traced ticks %v, want ARGoS's %v", short(ours.ticks), short(ref.ticks))
	}
	for _, tick := range ref.ticks {
		if a, b := ours.ids(tick), ref.ids(tick); fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("tick %d: entities %v, want ARGoS's %v", tick, a, b)
		}
		for _, id := range ref.ids(tick) {
			r, o := ref.at[tick][id], ours.at[tick][id]
			d := math.Hypot(o.x-r.x, o.y-r.y)
			if d > w.pos {
				w.pos, w.posAt, w.posID = d, tick, id
			}
			if a := math.Abs(angleDiff(o.yaw, r.yaw)); a > w.yaw {
				w.yaw, w.yawAt, w.yawID = a, tick, id
			}
			if d > tol && w.firstOver < 0 {
				w.firstOver, w.firstOverID, w.firstOverValue = tick, id, d
			}
		}
	}
	return w
}

func short(ticks []int) string {
	if len(ticks) <= 6 {
		return fmt.Sprint(ticks)
	}
	return fmt.Sprintf("[%d %d %d ... %d] (%d ticks)", ticks[0], ticks[1], ticks[2], ticks[len(ticks)-1], len(ticks))
}

func (w worst) String() string {
	s := fmt.Sprintf("largest position difference %.3g m (%s, tick %d), largest yaw difference %.3g rad (%s, tick %d)",
		w.pos, w.posID, w.posAt, w.yaw, w.yawID, w.yawAt)
	if w.firstOver >= 0 {
		s += fmt.Sprintf("; first over the tolerance at tick %d (%s, %.3g m)", w.firstOver, w.firstOverID, w.firstOverValue)
	}
	return s
}

var distributeRE = regexp.MustCompile(`(?s)<distribute>.*?</distribute>`)
var entityRE = regexp.MustCompile(`(?s)<entity\s+quantity="(\d+)"[^>]*>\s*(.*?)\s*</entity>`)
var idRE = regexp.MustCompile(`\bid="([^"]*)"`)

// placeAsARGoS replaces the <distribute> blocks of an experiment by the
// entities ARGoS placed, at the poses of the tick-0 block of ref, so that
// ARGoS-Go starts from ARGoS's initial state.
func placeAsARGoS(t *testing.T, ref *trace) func([]byte) []byte {
	return func(data []byte) []byte {
		return distributeRE.ReplaceAllFunc(data, func(block []byte) []byte {
			m := entityRE.FindSubmatch(block)
			if m == nil {
				t.Fatalf("no <entity quantity> in %s", block)
			}
			n, _ := strconv.Atoi(string(m[1]))
			tmpl := string(m[2])
			base := idRE.FindStringSubmatch(tmpl)[1]
			tag := strings.Fields(strings.TrimPrefix(tmpl, "<"))[0]
			var out strings.Builder
			for i := 0; i < n; i++ {
				id := fmt.Sprintf("%s%d", base, i)
				p, ok := ref.at[0][id]
				if !ok {
					t.Fatalf("ARGoS's tick 0 has no %s", id)
				}
				body := fmt.Sprintf(`<body position="%s,%s,0" orientation="%s,0,0" />`,
					g17(p.x), g17(p.y), g17(p.yaw*180/math.Pi))
				e := idRE.ReplaceAllString(tmpl, `id="`+id+`"`)
				if strings.HasSuffix(e, "/>") && strings.Count(e, "<") == 1 {
					e = strings.TrimSuffix(e, "/>") + ">" + body + "</" + tag + ">"
				} else {
					k := strings.Index(e, ">")
					e = e[:k+1] + body + e[k+1:]
				}
				out.WriteString(e + "\n")
			}
			return []byte(out.String())
		})
	}
}

func g17(v float64) string { return strconv.FormatFloat(v, 'g', 17, 64) }
