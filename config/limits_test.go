package config

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// expectErr fails unless err is an *Error at file:line whose message
// holds every fragment and is at most maxMessage bytes plus the position.
func expectErr(t *testing.T, err error, at string, fragments ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one at %s mentioning %q", at, fragments)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %q is a %T, want *Error", err, err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, at+": ") {
		t.Errorf("error %q does not start with %q", clip(msg, 300), at)
	}
	if len(msg) > maxMessage+200 {
		t.Errorf("error is %d bytes long, want at most about %d", len(msg), maxMessage)
	}
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("error %q does not mention %q", clip(msg, 300), f)
		}
	}
}

func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.argos")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	f.Close()
	cases := []struct {
		path string
		want []string
	}{
		{dir, []string{"is a directory, not a regular file", "give the path of an .argos file"}},
		{big, []string{"is 67108865 bytes long, over the limit of 64 MiB"}},
	}
	if runtime.GOOS == "linux" {
		cases = append(cases, struct {
			path string
			want []string
		}{"/dev/zero", []string{`"/dev/zero" is a device, not a regular file`}})
	}
	for _, c := range cases {
		done := make(chan error, 1)
		go func() { _, err := Load(c.path); done <- err }()
		var err error
		select {
		case err = <-done:
		case <-time.After(20 * time.Second): // reading /dev/zero never ends
			t.Fatalf("Load(%s) is still reading after 20 s", c.path)
		}
		if err == nil {
			t.Fatalf("Load(%s): no error", c.path)
		}
		for _, w := range append(c.want, "config: ") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("Load(%s): error %q does not mention %q", c.path, err, w)
			}
		}
	}
}

func TestCapsOnNamesAndIDs(t *testing.T) {
	hugeID := strings.Repeat("r", 20<<20) // 20 MB: refused before decoding
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <arena size="1,1,1"><box id="`+hugeID+`"/></arena>`))),
		"x.argos:6", `"<box id=\"rrrr`, "runs for 20971532 bytes")
	longID := strings.Repeat("r", 10000)
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <arena size="1,1,1"><box id="`+longID+`"/></arena>`))),
		"x.argos:6", "<box>: attribute id=", "is 10000 bytes long; ids may be at most 256 bytes")
	ok := strings.Repeat("r", MaxIDLen)
	if _, err := Parse("x.argos", with(6, `  <arena size="1,1,1"><box id="`+ok+`"/></arena>`)); err != nil {
		t.Errorf("an id of %d bytes: %v", MaxIDLen, err)
	}
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <arena size="1,1,1"><`+strings.Repeat("b", 1000)+`/></arena>`))),
		"x.argos:6", "has a name of 1000 bytes; names may be at most 256 bytes")
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <arena size="1,1,1"><box `+strings.Repeat("a", 300)+`="1"/></arena>`))),
		"x.argos:6", "has a name of 300 bytes")
}

func mustFail(_ any, err error) error { return err }

// A huge attribute value is refused by a scan before the XML decoder
// reads it, and the message quotes a few dozen characters of it.
func TestHugeValueIsRefused(t *testing.T) {
	huge := strings.Repeat("x", 50<<20)
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <arena size="1,1,1"><box id="b" size="`+huge+`"/></arena>`))),
		"x.argos:6", `"<box id=\"b\" size=\"xxxx`, "runs for 52428821 bytes without another tag", "may be at most 1 MiB")
	big := strings.Repeat("x", 2<<20)
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <arena size="1,1,1">`+big+`</arena>`))),
		"x.argos:6", `"<arena size=\"1,1,1\">xxx`, "runs for 2097172 bytes")
	expectErr(t, mustFail(Parse("x.argos", with(6, `  <!-- `+big+` -->`))),
		"x.argos:6", "runs for 2097162 bytes")
	if _, err := Parse("x.argos", with(6, `  <arena size="1,1,1"><!-- `+strings.Repeat("x", MaxTagLen-10)+`--></arena>`)); err != nil {
		t.Errorf("a comment just under the limit: %v", err)
	}
}

// Values up to the limit are quoted in a few dozen characters, and a value
// made of commas is not split into a part per comma.
func TestLongValuesAreClipped(t *testing.T) {
	long := strings.Repeat("x", 1_000_000)
	for _, c := range []struct {
		line string
		want []string
	}{
		{`  <arena size="` + long + `"/>`, []string{`<arena>: attribute size="xxxxxxxx`, "... (1000000 bytes in all)", "has 1 value; write three numbers"}},
		{`  <arena size="1,1,` + long + `"/>`, []string{`"xxxxx`, "(1000004 bytes in all)", "(1000000 bytes in all)\" is not a number"}},
		{`  <arena size="1,1,1"><box id="b" color="` + long + `"/></arena>`, nil},
	} {
		x, err := Parse("x.argos", with(6, c.line))
		if c.want == nil { // the simulator reads it: ask as it would
			if err != nil {
				t.Fatal(err)
			}
			_, err = x.Arena.Children[0].Color("color")
			expectErr(t, err, "x.argos:6", `<box id="b">: attribute color="xxxx`, "(1000000 bytes in all)", "is not a colour")
			continue
		}
		expectErr(t, err, "x.argos:6", c.want...)
	}
	commas := strings.Repeat(",", MaxTagLen-100)
	x, err := Parse("x.argos", with(6, `  <arena size="1,1,1"><box id="b" size="`+commas+`"/><box id="c" color="`+commas+`"/><box id="d" layout="`+commas+`"/></arena>`))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err1 := x.Arena.Children[0].Vector3("size")
	_, err2 := x.Arena.Children[1].Color("color")
	_, err3 := parseLayout(x.Arena.Children[2])
	runtime.ReadMemStats(&after)
	for _, err := range []error{err1, err2, err3} {
		expectErr(t, err, "x.argos:6", "has 1048477 comma-separated values")
	}
	// Splitting the three values would allocate 16 bytes per comma (48 MB).
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("reading three lists of a million commas allocated %d KB", alloc>>10)
	}
}

func TestErrorfClipsLongArguments(t *testing.T) {
	n := &Node{Name: "box", File: "x.argos", Line: 3, Attrs: []Attr{{Name: "id", Value: strings.Repeat("i", 5000)}}}
	err := n.Errorf("value %q and a list %s; fix it", strings.Repeat("v", 10<<20), strings.Repeat("a, ", 100))
	msg := err.Error()
	if len(msg) > 1500 {
		t.Errorf("message of %d bytes: %q", len(msg), clip(msg, 300))
	}
	for _, w := range []string{"x.argos:3: <box id=", "(5000 bytes in all)", "(10485760 bytes in all)", strings.Repeat("a, ", 100) + "; fix it"} {
		if !strings.Contains(msg, w) {
			t.Errorf("message %q does not hold %q", clip(msg, 300), w)
		}
	}
	long := (&Error{File: "x.argos", Line: 1, Msg: strings.Repeat("é", 10000) + " do this"}).Error()
	if len(long) > maxMessage+100 || !strings.HasSuffix(long, " do this") || !strings.Contains(long, "bytes left out") || !strings.HasPrefix(long, "x.argos:1: éé") {
		t.Errorf("capped message: %d bytes, %q...%q", len(long), clip(long, 40), long[len(long)-40:])
	}
	if !strings.Contains(long, "é [...") { // cut on a rune boundary
		t.Errorf("capped message is cut inside a rune: %q", clip(long[maxMessage/2-10:], 40))
	}
}

func TestTooManyElements(t *testing.T) {
	var b strings.Builder
	b.WriteString("<argos-configuration>\n")
	for range MaxElements {
		b.WriteString("<a/>")
	}
	b.WriteString("</argos-configuration>")
	expectErr(t, mustFail(ParseTree("x.argos", []byte(b.String()))),
		"x.argos:2", "more than 1000000 elements", "<distribute>")
}

func TestFrameworkAndDistributeLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		at   string
		want []string
	}{
		{"threads", with(3, "<system threads=\"1000000\"/>\n<experiment ticks_per_second=\"10\"/>"),
			"x.argos:3", []string{`<system>: attribute threads="1000000": at most 1024 threads are allowed`}},
		{"quantity", with(6, distributeArena(`quantity="100000000000" max_trials="10"`)),
			"x.argos:10", []string{`<entity>: attribute quantity="100000000000": at most 1000000 entities may be placed`}},
		{"max_trials", with(6, distributeArena(`quantity="10" max_trials="1000000000"`)),
			"x.argos:10", []string{`attribute max_trials="1000000000": at most 1000000 trials per entity`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			x, err := Parse("x.argos", c.data)
			if err == nil {
				_, err = ParseDistribute(x.Arena.Children[0])
			}
			expectErr(t, err, c.at, c.want...)
		})
	}
	x, err := Parse("x.argos", with(3, "<system threads=\"1024\"/>\n<experiment ticks_per_second=\"10\"/>"))
	if err != nil || x.Framework.Threads != MaxThreads {
		t.Errorf("threads=%d: %v", MaxThreads, err)
	}
}

func distributeArena(entityAttrs string) string {
	return `  <arena size="1,1,1">
    <distribute>
      <position method="uniform" min="0,0,0" max="1,1,0"/>
      <orientation method="constant" values="0,0,0"/>
      <entity ` + entityAttrs + `><box id="b" size="0.1,0.1,0.1"/></entity>
    </distribute>
  </arena>`
}
