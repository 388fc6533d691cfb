package entity_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/entity"
	"github.com/argosgo/argos/simulator/space"
)

func TestEyeBotModel(t *testing.T) {
	m := entity.EyeBot
	// ARGoS 3's eyebot_entity.cpp and pointmass3d_eyebot_model.cpp, float
	// literals in single precision
	if m.Type != "eye-bot" || m.Radius != 0.25 || m.Height != f32(0.566) || m.Mass != 1 {
		t.Errorf("geometry %+v", m)
	}
	if m.LEDs != 33 || len(m.LEDMounts) != 33 {
		t.Fatalf("%d LEDs, %d mounts; want 2 rings of 16 and 1 below", m.LEDs, len(m.LEDMounts))
	}
	for i, mt := range m.LEDMounts[:32] {
		wantA := ci.NormalizeAngle(math.Pi/16 + float64(i%16)*math.Pi/8)
		wantH := f32(0.1535)
		if i >= 16 {
			wantH = f32(0.1635)
		}
		if math.Abs(mt.Angle-wantA) > 1e-12 || mt.Radius != 0.255 || mt.Height != wantH {
			t.Errorf("LED %d at %+v, want angle %g radius 0.255 height %g", i, mt, wantA, wantH)
		}
	}
	// the rays start on the LED ring, 0.255 m from the centre
	if p := m.Proximity; p.Tag != ci.TagEyeBotProximity || len(p.Angles) != 24 || p.Range != 3 || p.Height != f32(0.1635) || p.Radius != 0.255 ||
		math.Abs(p.Angles[0]-math.Pi/24) > 1e-12 || p.Response(0.5) != entity.FootBotProximityResponse(0.5) {
		t.Errorf("proximity ring %+v", p)
	}
	if l := m.Light; l.Tag != ci.TagEyeBotLight || len(l.Angles) != 24 || l.Height != f32(0.1635) {
		t.Errorf("light ring %+v", l)
	}
	if m.RAB.Range != 3 || m.RAB.DataSize != 10 {
		t.Errorf("RAB %+v, want ARGoS's 3 m and 10 bytes", m.RAB)
	}
	if d := entity.EyeBotDevices(); math.Abs(d.CameraAperture-ci.Radians(30)) > 1e-15 || d.CameraRange != 2 ||
		d.CameraFocalLength != 0.035 || d.CameraWidth != 640 || d.CameraHeight != 480 {
		t.Errorf("camera %+v", d)
	}
	// The simulator stops every robot with SetWheels(0, 0): it must not
	// make the eye-bot's drive NaN.
	sp := space.New(ci.Vector3{Z: 1}, ci.Vector3{X: 4, Y: 4, Z: 2})
	r := &entity.Robot{Model: m, Space: sp, Body: sp.Add(space.Body{Movable: true})}
	r.SetWheels(0, 0)
	if d := r.Drive(); d.V != 0 || d.W != 0 {
		t.Errorf("SetWheels(0, 0) gives drive %g, %g", d.V, d.W)
	}
}

func TestParseEyeBot(t *testing.T) {
	s, err := parse(t, `<eye-bot id="eb0" rab_range="4" camera_aperture="45" camera_range="3" camera_focal_length="0.07">
      <body position="0.4,2.3,0.25" orientation="45,0,0"/>
      <controller config="ebc"/>
    </eye-bot>`)
	if err != nil {
		t.Fatal(err)
	}
	b := s.Body
	if s.Robot != entity.EyeBot || s.ControllerID != "ebc" || !s.Posed || !b.Movable || b.Type != "eye-bot" ||
		b.Radius != 0.25 || b.Height != f32(0.566) || b.Pos != (ci.Vector2{X: 0.4, Y: 2.3}) || b.Z != 0.25 ||
		math.Abs(b.Yaw-math.Pi/4) > 1e-12 || b.Flight() != nil {
		t.Errorf("spec %+v body %+v", s, b)
	}
	ap, rng, focal, err := entity.EyeBotCamera(s.Node)
	if err != nil || math.Abs(ap-ci.Radians(45)) > 1e-15 || rng != 3 || focal != 0.07 {
		t.Errorf("camera %g %g %g %v", ap, rng, focal, err)
	}
	for _, tc := range []struct{ xml, want string }{
		{`<eye-bot id="e"><body position="0,0,0"/></eye-bot>`, "controller"},
		{`<eye-bot id="e" colour="red"><body position="0,0,0"/><controller config="c"/></eye-bot>`, "colour"},
		{`<eye-bot id="e"><body position="0,0,-1"/><controller config="c"/></eye-bot>`, "below the floor"},
		{`<eye-bot id="e" camera_aperture="95"><body position="0,0,0"/><controller config="c"/></eye-bot>`, "camera_aperture"},
		{`<eye-bot id="e" camera_range="0"><body position="0,0,0"/><controller config="c"/></eye-bot>`, "camera_range"},
		{`<eye-bot id="e" rab_range="-1"><body position="0,0,0"/><controller config="c"/></eye-bot>`, "rab_range"},
		{`<eye-bot id="e"><body position="0,0,0"/><controller config="c"/><wheels/></eye-bot>`, "wheels"},
		{`<eye-bot id="e"><body position="0,0,1" orientation="0,10,0"/><controller config="c"/></eye-bot>`, "turn about Z"},
	} {
		_, err := parse(t, tc.xml)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one about %q", tc.xml, err, tc.want)
		}
	}
}
