package argoscli

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/argosgo/argos/simulator"
	"github.com/sirupsen/logrus"
)

// oneLine fails unless the run exited 1 with one line on stderr that
// starts with "argos: " and holds every fragment.
func oneLine(t *testing.T, code int, stderr string, fragments ...string) {
	t.Helper()
	msg := strings.TrimSpace(stderr)
	if code != 1 || strings.Count(msg, "\n") != 0 || !strings.HasPrefix(msg, "argos: ") {
		t.Fatalf("exit %d, want 1 with one line starting with \"argos: \"; stderr (%d bytes):\n%.2000s", code, len(stderr), stderr)
	}
	if len(msg) > 5000 {
		t.Errorf("the message is %d bytes long", len(msg))
	}
	for _, f := range fragments {
		if !strings.Contains(msg, f) {
			t.Errorf("message %.500q does not mention %q", msg, f)
		}
	}
}

func TestFlagMistakesGetOneLine(t *testing.T) {
	exp := write(t, "e.argos", goodHead+`<arena size="3,3,1" center="0,0,0.5"/></argos-configuration>`)
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--seed", "-1", "-c", exp}, []string{`invalid value "-1" for flag -seed`, "integer from 0 to 18446744073709551615", "run argos -h for the flags"}},
		{[]string{"--seed", "seven", "-c", exp}, []string{`invalid value "seven" for flag -seed`}},
		{[]string{"--no-such-flag"}, []string{"flag provided but not defined: -no-such-flag"}},
		{[]string{"--threads", "x"}, []string{`invalid value "x" for flag -threads`}},
		{[]string{"--threads", "1000000", "-c", exp}, []string{"--threads 1000000: give 0", "to 1024"}},
		{[]string{"--threads", "-2", "-c", exp}, []string{"--threads -2"}},
		{[]string{"--video-fps", "-1", "--video", "v.mp4", "-c", exp}, []string{"--video-fps -1: give a positive number of frames per second"}},
		{[]string{"--video-fps", "NaN", "--video", "v.mp4", "-c", exp}, []string{"--video-fps NaN"}},
		{[]string{"--video-fps", "25", "-c", exp}, []string{"--video-fps", "add --video FILE.mp4"}},
		{[]string{"--frames", t.TempDir(), "--frames-width", "100000", "-c", exp}, []string{"--frames-width 100000: give 16 to 8192 pixels"}},
		{[]string{"--progress-every", "0s", "-c", exp}, []string{"--progress-every 0s"}},
		{[]string{"--length", "NaN", "-c", exp}, []string{"--length NaN"}},
		{[]string{"-z", "--length", "0.01", "-c", exp}, []string{"--length 0.01 is shorter than one tick (0.1 s"}},
		{[]string{"-z", "--length", "1e300", "-c", exp}, []string{"--length 1e+300 would last more than 2^53 ticks"}},
	} {
		t.Run(strings.Join(c.args[:min(2, len(c.args))], " "), func(t *testing.T) {
			t.Chdir(t.TempDir())
			code, _, stderr := runArgos(t, c.args...)
			oneLine(t, code, stderr, c.want...)
		})
	}
	code, _, stderr := runArgos(t, "-h")
	if code != 0 || !strings.Contains(stderr, "usage: argos -c FILE.argos") || !strings.Contains(stderr, "-seed") {
		t.Errorf("-h: exit %d, %q", code, stderr)
	}
}

// hostile returns an experiment with the arena content and <system>.
func hostile(system, arena string) string {
	return strings.Replace(goodHead, `<system threads="0"/>`, system, 1) + `<arena size="3,3,1" center="0,0,0.5">` + arena + `</arena>
  <physics_engines><dynamics2d id="dyn"/></physics_engines></argos-configuration>`
}

// Hostile inputs end with exit 1 and a file:line message, in bounded
// memory (each of these used to run out of it, or to echo megabytes).
func TestHostileInputsOneLine(t *testing.T) {
	robot := `<foot-bot id="fb0"><body position="0,0,0" orientation="0,0,0"/><controller config="fdc"/></foot-bot>`
	dir := t.TempDir()
	png := filepath.Join(dir, "huge.png")
	if err := os.WriteFile(png, lyingPNG(150000, 150000), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, content string
		want          []string
	}{
		{"quantity", hostile(`<system threads="0"/>`, `<distribute><position method="uniform" min="-1,-1,0" max="1,1,0"/>
      <orientation method="constant" values="0,0,0"/>
      <entity quantity="100000000000" max_trials="100"><foot-bot id="fb"><controller config="fdc"/></foot-bot></entity></distribute>`),
			[]string{"bad.argos:13: <entity>: attribute quantity=\"100000000000\": at most 1000000 entities"}},
		{"floor image", hostile(`<system threads="0"/>`, `<floor id="floor" source="image" path="`+png+`"/>`+robot),
			[]string{"bad.argos:11: <floor id=\"floor\">", "is 150000 x 150000 pixels"}},
		{"threads", hostile(`<system threads="1000000"/>`, robot),
			[]string{`bad.argos:3: <system>: attribute threads="1000000": at most 1024 threads`}},
		{"huge value", hostile(`<system threads="0"/>`, `<box id="b" size="`+strings.Repeat("9", 50<<20)+`"/>`+robot),
			[]string{`bad.argos:11: "<box id=\"b\" size=\"999`, "runs for 52428", "may be at most 1 MiB"}},
		{"huge id", hostile(`<system threads="0"/>`, `<foot-bot id="`+strings.Repeat("f", 20<<20)+`"/>`),
			[]string{`bad.argos:11: "<foot-bot id=\"fff`, "runs for 20971"}},
		{"long id", hostile(`<system threads="0"/>`, `<foot-bot id="`+strings.Repeat("f", 5000)+`"/>`),
			[]string{`bad.argos:11: <foot-bot>: attribute id=`, "ids may be at most 256 bytes"}},
		{"long value", hostile(`<system threads="0"/>`, `<box id="b" size="`+strings.Repeat("9", 500000)+`"/>`+robot),
			[]string{`bad.argos:11: <box id="b">: attribute size="99999`, "(500000 bytes in all)"}},
		{"misspelled param", strings.Replace(hostile(`<system threads="0"/>`, robot), `velocity="5"`, `velocty="5"`, 1),
			[]string{`bad.argos:8: <params>: unknown attribute "velocty" (did you mean "velocity"?)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			path := write(t, "bad.argos", c.content)
			code, _, stderr := runArgos(t, "-z", "-c", path)
			oneLine(t, code, stderr, c.want...)
		})
	}
	t.Run("not a regular file", func(t *testing.T) {
		paths := []string{t.TempDir()}
		if runtime.GOOS == "linux" {
			paths = append(paths, "/dev/zero")
		}
		for _, p := range paths {
			code, _, stderr := runArgos(t, "-z", "-c", p)
			oneLine(t, code, stderr, "not a regular file")
		}
	})
}

// Ctrl-C during the set-up of the simulator ends the run as an interrupt.
func TestInterruptDuringSetUp(t *testing.T) {
	t.Chdir(t.TempDir())
	exp := write(t, "e.argos", hostile(`<system threads="0"/>`, `<foot-bot id="fb0"><body position="0,0,0" orientation="0,0,0"/><controller config="fdc"/></foot-bot>`))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	log := logrus.New()
	log.SetOutput(os.Stderr)
	outs := &outputs{progress: "off", stderr: os.Stderr}
	err := runExperiment(ctx, exp, simulator.Options{Logger: log}, log, outs)
	if !errors.Is(err, errInterrupted) {
		t.Errorf("runExperiment with a cancelled context: %v, want errInterrupted", err)
	}
}

// lyingPNG returns a PNG of a few dozen bytes whose header claims w x h
// pixels.
func lyingPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	chunk("IHDR", append(ihdr, 8, 2, 0, 0, 0))
	chunk("IDAT", []byte{0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1})
	chunk("IEND", nil)
	return b.Bytes()
}
