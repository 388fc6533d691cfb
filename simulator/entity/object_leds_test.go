package entity_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

func TestObjectLEDsParse(t *testing.T) {
	s, err := parse(t, `
    <cylinder id="prey" radius="0.06" height="0.1" movable="true" mass="0.1">
      <body position="1,2,0" orientation="90,0,0"/>
      <leds medium="leds">
        <led offset="0,0,0.1" anchor="origin" color="yellow"/>
        <led offset="0.05,0,0.05" color="0,255,255"/>
      </leds>
    </cylinder>`)
	if err != nil {
		t.Fatal(err)
	}
	want := []entity.ObjectLED{
		{Offset: ci.Vector3{Z: 0.1}, Color: ci.Yellow},
		{Offset: ci.Vector3{X: 0.05, Z: 0.05}, Color: ci.Cyan},
	}
	if s.LEDMedium != "leds" || len(s.LEDs) != 2 || s.LEDs[0] != want[0] || s.LEDs[1] != want[1] {
		t.Fatalf("medium %q, LEDs %+v; want leds, %+v", s.LEDMedium, s.LEDs, want)
	}

	// The LEDs ride on the body: the second one, 5 cm ahead of the
	// axis, turns with the cylinder's yaw of 90 degrees.
	o := entity.NewObjectLEDs(s, 7)
	if o.ID != "prey" || o.Body != 7 || o.Medium != "leds" {
		t.Fatalf("NewObjectLEDs = %+v", o)
	}
	b := s.Body
	for k, w := range []ci.Vector3{{X: 1, Y: 2, Z: 0.1}, {X: 1, Y: 2.05, Z: 0.05}} {
		if p := o.Position(&b, k); p.Sub(w).Length() > 1e-12 {
			t.Errorf("LED %d at %v, want %v", k, p, w)
		}
	}
	b.Pos = ci.Vector2{X: -1, Y: 0}
	b.SetYaw(math.Pi)
	b.Z = 0.2
	if p := o.Position(&b, 1); p.Sub(ci.Vector3{X: -1.05, Z: 0.25}).Length() > 1e-12 {
		t.Errorf("after a move, LED 1 at %v, want (-1.05, 0, 0.25)", p)
	}

	// Colours changed at run time come back on Reset; the spec's are
	// not shared with the arena's copy.
	o.LEDs[0].Color = ci.Black
	if s.LEDs[0].Color != ci.Yellow {
		t.Fatalf("changing the arena's LED changed the spec")
	}
	o.Reset()
	if o.LEDs[0].Color != ci.Yellow {
		t.Errorf("after Reset LED 0 is %v, want yellow", o.LEDs[0].Color)
	}

	// Copies made by <distribute> do not share their LEDs.
	c := s.Clone()
	c.LEDs[0].Color = ci.Red
	if s.LEDs[0].Color != ci.Yellow {
		t.Errorf("a clone shares its LEDs with the template")
	}
}

func TestObjectLEDsOnBox(t *testing.T) {
	s, err := parse(t, `
    <box id="beacon" size="0.2,0.2,0.3" movable="false">
      <body position="0,0,0"/>
      <leds medium="leds"><led offset="0.1,0.1,0.3" anchor="origin" color="green"/></leds>
    </box>`)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.LEDs) != 1 || s.LEDs[0].Color != ci.Green || s.Body.Shape != space.Box {
		t.Fatalf("box LEDs %+v", s.LEDs)
	}
	if o := entity.NewObjectLEDs(&entity.Spec{ID: "plain"}, 0); o != nil {
		t.Errorf("an object without LEDs got %+v", o)
	}
}

func TestObjectLEDsErrors(t *testing.T) {
	const head = `<cylinder id="p" radius="0.1" height="0.2" movable="false"><body position="0,0,0"/>`
	for _, tc := range []struct {
		name, xml string
		words     []string
	}{
		{"no medium", head + `<leds><led offset="0,0,0.2" color="red"/></leds></cylinder>`, []string{"medium"}},
		{"empty medium", head + `<leds medium=""><led offset="0,0,0.2" color="red"/></leds></cylinder>`, []string{"medium", "<led> medium"}},
		{"no led", head + `<leds medium="leds"/></cylinder>`, []string{"holds no <led>"}},
		{"no colour", head + `<leds medium="leds"><led offset="0,0,0.2"/></leds></cylinder>`, []string{"color"}},
		{"bad colour", head + `<leds medium="leds"><led offset="0,0,0.2" color="mauve"/></leds></cylinder>`, []string{"mauve"}},
		{"anchor", head + `<leds medium="leds"><led offset="0,0,0.2" anchor="top" color="red"/></leds></cylinder>`, []string{"anchor", "origin"}},
		{"far away", head + `<leds medium="leds"><led offset="3,0,0.2" color="red"/></leds></cylinder>`, []string{"offset", "on the object"}},
		{"below", head + `<leds medium="leds"><led offset="0,0,-0.1" color="red"/></leds></cylinder>`, []string{"offset"}},
		{"led attribute", head + `<leds medium="leds"><led offset="0,0,0.2" color="red" size="2"/></leds></cylinder>`, []string{"size"}},
		{"leds child", head + `<leds medium="leds"><lamp/></leds></cylinder>`, []string{"<lamp>"}},
		{"twice", head + `<leds medium="leds"><led color="red"/></leds><leds medium="leds"><led color="red"/></leds></cylinder>`, []string{"twice"}},
		{"unknown child", head + `<light/></cylinder>`, []string{"<light>", "<leds>"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(t, tc.xml)
			if err == nil {
				t.Fatalf("no error for %s", tc.xml)
			}
			for _, w := range tc.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}
