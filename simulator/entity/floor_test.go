package entity_test

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

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
	chunk("IHDR", append(ihdr, 8, 2, 0, 0, 0)) // 8-bit RGB
	chunk("IDAT", []byte{0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1})
	chunk("IEND", nil)
	return b.Bytes()
}

func parseFloor(t *testing.T, attrs string) (*entity.Spec, error) {
	t.Helper()
	parse, err := entity.Types.Lookup("floor")
	if err != nil {
		t.Fatal(err)
	}
	n, err := config.ParseTree("exp.argos", []byte("\n<floor id=\"floor\" "+attrs+"/>"))
	if err != nil {
		t.Fatal(err)
	}
	return parse(n)
}

// A floor image whose header claims 150000 x 150000 pixels is refused
// from its header, without decoding 90 GB of pixels.
func TestFloorImagePixelLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.png")
	if err := os.WriteFile(path, lyingPNG(150000, 150000), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := parseFloor(t, `source="image" path="`+path+`"`)
	runtime.ReadMemStats(&after)
	want := []string{"exp.argos:2: <floor id=\"floor\">: attribute path=", "is 150000 x 150000 pixels; a floor may have at most 16777216 pixels"}
	for _, w := range want {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v does not mention %q", err, w)
		}
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("refusing the image allocated %d MB", alloc>>20)
	}
	// a wide image within the limit is decoded
	ok := filepath.Join(t.TempDir(), "ok.png")
	img := image.NewGray(image.Rect(0, 0, 4096, 1))
	img.Set(0, 0, color.White)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(ok, buf.Bytes(), 0o644)
	if _, err := parseFloor(t, `source="image" path="`+ok+`"`); err != nil {
		t.Errorf("a 4096 x 1 floor: %v", err)
	}
}

func TestFloorImageMustBeARegularFile(t *testing.T) {
	paths := []string{t.TempDir()}
	if runtime.GOOS == "linux" {
		paths = append(paths, "/dev/zero")
	}
	for _, p := range paths {
		_, err := parseFloor(t, `source="image" path="`+p+`"`)
		if err == nil || !strings.Contains(err.Error(), "not a regular file; give the path of a PNG, JPEG or GIF file") ||
			!strings.Contains(err.Error(), "exp.argos:2:") {
			t.Errorf("path %s: %v", p, err)
		}
	}
}

// Loop functions sample the floor at pixels_per_meter: a resolution that
// would take more than MaxFloorPixels for the arena is refused at set-up.
func TestFloorSamplingResolution(t *testing.T) {
	if _, err := parseFloor(t, `source="loop_functions" pixels_per_meter="-5"`); err == nil || !strings.Contains(err.Error(), "must be positive") {
		t.Errorf("negative resolution: %v", err)
	}
	s, err := parseFloor(t, `source="loop_functions" pixels_per_meter="1000"`)
	if err != nil {
		t.Fatal(err)
	}
	small := &entity.World{Space: space.New(ci.Vector3{}, ci.Vector3{X: 4, Y: 4, Z: 1})}
	if err := s.Setup(small); err != nil {
		t.Errorf("4 m arena at 1000 pixels per metre: %v", err)
	}
	large := &entity.World{Space: space.New(ci.Vector3{}, ci.Vector3{X: 100, Y: 100, Z: 1})}
	err = s.Setup(large)
	for _, w := range []string{"exp.argos:2:", "pixels_per_meter", "1e+10 pixels", "lower pixels_per_meter to at most 40"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("100 m arena at 1000 pixels per metre: %v does not mention %q", err, w)
		}
	}
}
