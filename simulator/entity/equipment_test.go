package entity_test

import (
	"math"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/config"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

// The equipment of the models is where ARGoS 3 puts it (docs/robots.md).
func TestEquipmentGeometry(t *testing.T) {
	fb, ep := entity.FootBot, entity.EPuck
	if len(fb.LEDMounts) != fb.LEDs || len(ep.LEDMounts) != ep.LEDs {
		t.Fatalf("LED mounts: %d for %d foot-bot LEDs, %d for %d e-puck LEDs", len(fb.LEDMounts), fb.LEDs, len(ep.LEDMounts), ep.LEDs)
	}
	for i := 0; i < 12; i++ {
		want := ci.NormalizeAngle(math.Pi/12 + float64(i)*math.Pi/6)
		if m := fb.LEDMounts[i]; math.Abs(m.Angle-want) > 1e-12 || m.Height != float64(float32(0.085)) {
			t.Errorf("foot-bot LED %d at %.4f rad, %.3f m; want %.4f rad, 0.085 m", i, m.Angle, m.Height, want)
		}
	}
	if b := fb.LEDMounts[12]; b.Radius != 0 || b.Height <= fb.Height {
		t.Errorf("the beacon is at %+v, want on top of the body", b)
	}
	if len(fb.Light.Angles) != 24 || len(ep.Light.Angles) != 8 {
		t.Fatalf("light rings of %d and %d sensors", len(fb.Light.Angles), len(ep.Light.Angles))
	}
	for i, a := range fb.Light.Angles {
		if a != fb.Proximity.Angles[i] {
			t.Errorf("foot-bot light %d at %g, proximity at %g: the rings share their angles", i, a, fb.Proximity.Angles[i])
		}
	}
	for i, a := range ep.Light.Angles {
		if want := ci.NormalizeAngle(ci.Radians(22.5 + 45*float64(i))); math.Abs(a-want) > 1e-12 {
			t.Errorf("e-puck light %d at %.1f deg, want %.1f", i, ci.Degrees(a), ci.Degrees(want))
		}
	}
	bw := 0
	for _, g := range fb.Ground {
		if g.BlackWhite {
			bw++
		}
		if r := g.Offset.Length(); r > fb.Radius {
			t.Errorf("ground sensor at %v lies outside the body", g.Offset)
		}
	}
	if len(fb.Ground) != 12 || bw != 8 || len(ep.Ground) != 3 {
		t.Errorf("%d foot-bot ground sensors (%d black-and-white), %d e-puck ones; want 12 (8), 3", len(fb.Ground), bw, len(ep.Ground))
	}
	// single-precision constants, as in ARGoS (0.1f, 0.8f, 0.086f)
	if fb.RAB != (entity.RABBoard{Range: 3, DataSize: 10, Height: float64(float32(0.1))}) ||
		ep.RAB != (entity.RABBoard{Range: float64(float32(0.8)), DataSize: 2, Height: float64(float32(0.086))}) {
		t.Errorf("range-and-bearing boards %+v and %+v", fb.RAB, ep.RAB)
	}
	if h := fb.OmniCamera.Height * math.Tan(fb.OmniCamera.Aperture); math.Abs(h-0.793) > 0.002 {
		t.Errorf("the foot-bot camera sees %.3f m around, ARGoS says 0.794", h)
	}
}

func TestGrippableAndGray(t *testing.T) {
	for _, c := range []struct {
		b    space.Body
		want bool
	}{{space.Body{Movable: true}, true}, {space.Body{}, false}, {space.Body{Movable: true, Removed: true}, false}} {
		if got := entity.Grippable(&c.b); got != c.want {
			t.Errorf("Grippable(%+v) = %v", c.b, got)
		}
	}
	for _, c := range []struct {
		c    ci.Color
		want float64
	}{{ci.White, 1}, {ci.Black, 0}, {ci.Red, 0.299}, {ci.Green, 0.587}, {ci.Gray50, 127.0 / 255}} {
		if got := entity.Gray(c.c); math.Abs(got-c.want) > 1e-7 {
			t.Errorf("Gray(%v) = %g, want %g", c.c, got, c.want)
		}
	}
	// ARGoS sums in single precision: grey 120 reads 0.47058826521331187
	// (ARGoS 3's motor ground sweep), not 120/255
	if got := entity.Gray(ci.Color{R: 120, G: 120, B: 120}); got != 0.47058826521331187 {
		t.Errorf("Gray(120, 120, 120) = %v, want ARGoS's 0.47058826521331187", got)
	}
}

// SampleFloor keeps the colour of each pixel of the loop functions'
// floor; the floor entity refuses what it cannot use.
func TestFloor(t *testing.T) {
	nest := func(p ci.Vector2) ci.Color {
		if p.X > 1 {
			return ci.Gray50
		}
		return ci.White
	}
	f := entity.SampleFloor(nest, ci.Vector2{X: -2, Y: -2}, ci.Vector2{X: 2, Y: 2}, 10)
	for _, c := range []struct {
		x    float64
		want ci.Color
	}{{1.06, ci.Gray50}, {0.94, ci.White}, {-5, ci.White}, {5, ci.Gray50}} {
		if got := f(ci.Vector2{X: c.x}); got != c.want {
			t.Errorf("sampled floor at x = %g is %v, want %v", c.x, got, c.want)
		}
	}
	parse, err := entity.Types.Lookup("floor")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{`<floor id="f"/>`, `<floor id="f" source="image"/>`, `<floor id="f" source="image" path="/nonexistent.png"/>`,
		`<floor id="f" source="loop_functions" pixels_per_meter="many"/>`, `<floor id="f" source="loop_functions" colour="red"/>`} {
		n, err := config.ParseTree("x.argos", []byte(bad))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parse(n); err == nil {
			t.Errorf("%s was accepted", bad)
		}
	}
	n, _ := config.ParseTree("x.argos", []byte(`<floor id="floor" source="loop_functions" pixels_per_meter="50"/>`))
	s, err := parse(n)
	if err != nil {
		t.Fatal(err)
	}
	if s.Embodied || s.Setup == nil || !s.Posed {
		t.Errorf("floor spec %+v: want a posed, non-embodied entity with a Setup", s)
	}
}
