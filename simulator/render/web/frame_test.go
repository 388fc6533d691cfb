package web

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator"
)

// randomSnapshot makes a snapshot of n bodies (the first r of them
// robots with nLED LEDs each) that moved from prev by up to step
// quantisation units, some bodies far.
func randomSnapshot(rng *rand.Rand, prev *snapshot, n, r, nLED int, step int) *snapshot {
	s := &snapshot{ver: 3, tick: 42, speed: 2.5, message: "hello", flags: flagDriven,
		xy: make([]uint16, 2*n), yaw: make([]uint16, n), z: make([]uint16, n)}
	s.ledOff = make([]int32, r+1)
	for k := 0; k < r; k++ {
		s.ledOff[k+1] = s.ledOff[k] + int32(nLED)
	}
	s.leds = make([]uint32, r*nLED)
	for i := 0; i < n; i++ {
		for j, v := range []*uint16{&s.xy[2*i], &s.xy[2*i+1], &s.yaw[i], &s.z[i]} {
			var base uint16
			if prev != nil {
				base = []uint16{prev.xy[2*i], prev.xy[2*i+1], prev.yaw[i], prev.z[i]}[j]
			}
			switch rng.IntN(4) {
			case 0:
				*v = base
			case 1:
				*v = uint16(int(base) + rng.IntN(2*step+1) - step)
			default:
				*v = uint16(rng.IntN(65536))
			}
		}
	}
	for k := 0; k < r; k++ {
		l := s.leds[s.ledOff[k]:s.ledOff[k+1]]
		switch rng.IntN(4) {
		case 0:
			if prev != nil {
				copy(l, prev.leds[prev.ledOff[k]:prev.ledOff[k+1]])
			}
		case 1:
			c := uint32(rng.IntN(4)) * 0x3f0000
			for j := range l {
				l[j] = c
			}
		default:
			for j := range l {
				l[j] = uint32(rng.IntN(1 << 24)) // many colours: the palette overflows
			}
		}
	}
	s.spots = []byte{1, 0}
	for range 4 {
		s.spots = appendF32(s.spots, rng.Float64())
	}
	s.spots = append(s.spots, 1, 2, 3)
	s.objLEDs = []byte{0, 0}
	return s
}

func checkState(t *testing.T, st *FrameState, s *snapshot) {
	t.Helper()
	if st.Tick != s.tick || st.Version != s.ver || st.Message != s.message || !st.Driven || st.Playing || st.Speed != float64(s.speed) {
		t.Fatalf("status: %+v", st)
	}
	for i := range s.yaw {
		if st.XY[2*i] != s.xy[2*i] || st.XY[2*i+1] != s.xy[2*i+1] || st.Yaw[i] != s.yaw[i] || st.Z[i] != s.z[i] {
			t.Fatalf("body %d: decoded (%d %d %d %d), sent (%d %d %d %d)", i, st.XY[2*i], st.XY[2*i+1], st.Yaw[i], st.Z[i],
				s.xy[2*i], s.xy[2*i+1], s.yaw[i], s.z[i])
		}
	}
	for k := 0; k+1 < len(s.ledOff); k++ {
		want := s.leds[s.ledOff[k]:s.ledOff[k+1]]
		got := st.LEDs[k]
		if got == nil {
			got = make([]uint32, len(want)) // never sent: off
		}
		if len(got) != len(want) {
			t.Fatalf("robot %d: %d LEDs, want %d", k, len(got), len(want))
		}
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("robot %d LED %d: %06x, want %06x", k, j, got[j], want[j])
			}
		}
	}
	if len(st.Spots) != 1 || st.Spots[0].Color != 0x010203 {
		t.Fatalf("spots %v", st.Spots)
	}
}

// A browser that applies every frame it gets holds the state the server
// sent, whether the frames are full or differences, and whether bodies
// moved a little or jumped.
func TestFramesRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var enc frameEncoder
	var st FrameState
	var prev *snapshot
	var buf []byte
	for i := 0; i < 50; i++ {
		s := randomSnapshot(rng, prev, 300, 120, 13, 127+i%3) // steps at the edge of the small codes
		buf = enc.encode(buf[:0], s)
		if i == 0 && buf[2]&flagFull == 0 {
			t.Fatal("the first frame is not a full one")
		}
		if i > 0 && buf[2]&flagFull != 0 {
			t.Fatal("a later frame is a full one")
		}
		if err := st.Apply(buf); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		checkState(t, &st, s)
		prev = s
	}
	// a new scene: a full frame
	s := randomSnapshot(rng, nil, 10, 2, 8, 3)
	s.ver = 4
	buf = enc.encode(buf[:0], s)
	if buf[2]&flagFull == 0 {
		t.Fatal("a new scene's frame is not a full one")
	}
	if err := st.Apply(buf); err != nil {
		t.Fatal(err)
	}
	checkState(t, &st, s)
	// nothing moved: a frame of a few dozen bytes
	buf = enc.encode(buf[:0], s)
	if len(buf) > 60 {
		t.Errorf("a frame where nothing changed takes %d bytes", len(buf))
	}
	if err := st.Apply(buf); err != nil {
		t.Fatal(err)
	}
	checkState(t, &st, s)
	// a delta applied to a state that missed the frames before is refused
	var fresh FrameState
	if err := fresh.Apply(buf); err == nil {
		t.Error("a difference was applied to an empty state")
	}
}

// Quantisation keeps positions to a few hundredths of a millimetre in a
// small arena and angles to a hundredth of a degree.
func TestQuant(t *testing.T) {
	q := Quant{X0: -2, Y0: -3, W: 4, H: 6, ZMax: 2}
	for _, p := range [][4]float64{{0, 0, 0, 0}, {-2, -3, 2, math.Pi}, {1.2345, -2.5, 0.7, -0.3}, {2, 3, 0, 2*math.Pi - 1e-9}} {
		x, y, z, a := q.Pose(q.X(p[0]), q.Y(p[1]), q.Z(p[2]), q.Yaw(p[3]))
		da := math.Abs(math.Remainder(a-p[3], 2*math.Pi))
		if math.Abs(x-p[0]) > 4/65535. || math.Abs(y-p[1]) > 6/65535. || math.Abs(z-p[2]) > 2/65535. || da > 1e-4 {
			t.Errorf("%v -> (%g %g %g %g)", p, x, y, z, a)
		}
	}
	// out of range and not finite: clamped, never a panic
	if q.X(-100) != 0 || q.X(100) != 65535 || q.X(math.NaN()) != 0 || q.Yaw(math.Inf(1)) != 0 {
		t.Error("clamping")
	}
}

// The drawing of user functions goes through frames whole; robots are
// named by their index in the scene, items on unknown robots or with
// coordinates that are not finite are left out; a drawing that did not
// change is not sent again.
func TestDrawingInFrames(t *testing.T) {
	var c simulator.Canvas
	c.Point(ci.Vector3{X: 1, Y: 2, Z: 3}, ci.Color{R: 255}, 6)
	c.Polyline([]ci.Vector3{{X: 0}, {X: 1}, {X: 1, Y: 1}}, ci.Color{G: 255, A: 128}, 2)
	c.Circle(ci.Vector3{X: -1}, 0.5, ci.Color{B: 255}, true)
	c.Box(ci.Vector3{Y: 1}, ci.Vector3{X: 0.2, Y: 0.3, Z: 0.1}, 0.5, ci.Color{R: 9, G: 9, B: 9}, false)
	c.Text(ci.Vector3{X: 0.5, Y: 0.5}, "héllo", ci.Color{R: 1})
	c.RobotText("fb1", "id fb1", ci.Color{R: 2})
	c.RobotColor("fb0", ci.Color{R: 255, G: 128})
	c.RobotColor("nobody", ci.Color{R: 255})
	c.Point(ci.Vector3{X: math.NaN()}, ci.Color{}, 3)
	robots := map[string]int{"fb0": 0, "fb1": 1}
	d := encodeDrawing(nil, c.Items(), func(id string) (int, bool) { k, ok := robots[id]; return k, ok })
	items, err := decodeDrawing(d, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 7 {
		t.Fatalf("%d items, want 7: %+v", len(items), items)
	}
	if it := items[1]; it.Kind != simulator.ItemLine || len(it.Points) != 3 || it.Color.A != 128 || it.Width != 2 {
		t.Errorf("polyline: %+v", it)
	}
	if it := items[0]; it.Color.A != 255 || it.Points[0] != (ci.Vector3{X: 1, Y: 2, Z: 3}) || it.Size != 6 {
		t.Errorf("point: %+v", it)
	}
	if it := items[3]; it.Kind != simulator.ItemBox || it.Fill || math.Abs(it.Size3.Y-0.3) > 1e-6 || math.Abs(it.Yaw-0.5) > 1e-6 {
		t.Errorf("box: %+v", it)
	}
	if it := items[4]; it.Text != "héllo" {
		t.Errorf("text: %+v", it)
	}
	if it := items[5]; it.Kind != simulator.ItemRobotText || it.Robot != 1 || it.Text != "id fb1" {
		t.Errorf("robot text: %+v", it)
	}
	if it := items[6]; it.Kind != simulator.ItemRobotColor || it.Robot != 0 || it.Color.G != 128 {
		t.Errorf("robot colour: %+v", it)
	}
	if _, err := decodeDrawing(d, 1); err == nil {
		t.Error("a drawing naming robot 1 of 1 decoded")
	}

	// in frames: sent once, then marked as the same
	s := &snapshot{ver: 1, xy: make([]uint16, 4), yaw: make([]uint16, 2), z: make([]uint16, 2), ledOff: []int32{0, 0, 0}, spots: []byte{0, 0}, objLEDs: []byte{0, 0},
		drawing: d, drawSeq: 1}
	var enc frameEncoder
	var st FrameState
	first := enc.encode(nil, s)
	if err := st.Apply(first); err != nil {
		t.Fatal(err)
	}
	if !st.HasDrawing || len(st.Drawing) != 7 {
		t.Fatalf("drawing after the first frame: %v", st.Drawing)
	}
	second := enc.encode(nil, s)
	if len(second) >= len(first)-len(d) || second[2]&flagDrawingSame == 0 {
		t.Errorf("the unchanged drawing was sent again (%d then %d bytes)", len(first), len(second))
	}
	if err := st.Apply(second); err != nil || len(st.Drawing) != 7 {
		t.Fatalf("after the second frame: %v, %d items", err, len(st.Drawing))
	}
	// without user functions: no drawing at all
	s2 := *s
	s2.drawing, s2.drawSeq = nil, 0
	if err := st.Apply(enc.encode(nil, &s2)); err != nil || st.HasDrawing || st.Drawing != nil {
		t.Fatalf("without user functions: %v, %v", err, st.Drawing)
	}
}

// seedFrames are the frames FuzzFrameState starts from (and that
// testdata/fuzz/FuzzFrameState holds): full and difference frames, LEDs,
// a drawing.
func seedFrames() [][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	var enc frameEncoder
	var out [][]byte
	s1 := randomSnapshot(rng, nil, 6, 3, 4, 5)
	var c simulator.Canvas
	c.Polyline([]ci.Vector3{{X: 0}, {X: 1}}, ci.Color{R: 1}, 1)
	c.RobotText("r", "x", ci.Color{})
	s1.drawing = encodeDrawing(nil, c.Items(), func(string) (int, bool) { return 2, true })
	s1.drawSeq = 1
	out = append(out, enc.encode(nil, s1))
	s2 := randomSnapshot(rng, s1, 6, 3, 4, 5)
	s2.drawing, s2.drawSeq = s1.drawing, 1
	out = append(out, enc.encode(nil, s2))
	return out
}

// The seeds in testdata are the frames seedFrames makes: a change of the
// format shows here first.
func TestFuzzSeedsAreCurrent(t *testing.T) {
	for i, f := range seedFrames() {
		name := filepath.Join("testdata", "fuzz", "FuzzFrameState", "seed"+strconv.Itoa(i))
		want := "go test fuzz v1\n[]byte(" + strconv.Quote(string(f)) + ")\n"
		if os.Getenv("ARGOS_UPDATE_SEEDS") == "1" {
			os.MkdirAll(filepath.Dir(name), 0o755)
			if err := os.WriteFile(name, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, []byte(want)) {
			t.Errorf("%s is not the current seed (ARGOS_UPDATE_SEEDS=1 go test -run TestFuzzSeedsAreCurrent writes it): %v", name, err)
		}
	}
}

// Frames come from the network: whatever the bytes, decoding returns an
// error or a state, never a panic, and a refused frame leaves the state
// as it was.
func FuzzFrameState(f *testing.F) {
	for _, s := range seedFrames() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var st FrameState
		_ = st.Apply(seedFrames()[0])
		before := st.Tick
		if err := st.Apply(data); err != nil && st.Tick != before {
			t.Fatal("a refused frame changed the state")
		}
		_ = st.Apply(data) // and again, on whatever state it left
	})
}
