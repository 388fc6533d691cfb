package boards_test

import (
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/boards"
	"github.com/argosgo/argos/ci"
)

func TestEveryBoardChecks(t *testing.T) {
	names := boards.Names()
	if len(names) != 8 {
		t.Errorf("%d boards: %v", len(names), names)
	}
	for _, b := range boards.All() {
		if err := b.Check(); err != nil {
			t.Error(err)
		}
		if len(b.Sensors) == 0 || len(b.Actuators) == 0 || b.Description == "" {
			t.Errorf("board %q lists no devices or no description", b.Name)
		}
		if !b.HasActuator(ci.TagLEDs) {
			t.Errorf("board %q has no LEDs", b.Name)
		}
	}
}

func TestDefinitionsCannotBeChanged(t *testing.T) {
	a, _ := boards.Lookup("epuck")
	a.Serial.Port = "/dev/elsewhere"
	a.Geometry.ProximityAngles[0] = 42
	a.Calibration.ProximityOrder[0] = 3
	a.Sensors[0].Tag = "x"
	b, _ := boards.Lookup("epuck")
	if b.Serial.Port != "/dev/ttyS0" || b.Geometry.ProximityAngles[0] == 42 || b.Calibration.ProximityOrder[0] != 7 || b.Sensors[0].Tag == "x" {
		t.Errorf("changing a looked-up board changed the definition: %+v", b)
	}
	f, _ := boards.Lookup("footbot")
	f.Aseba.Vars[0].Address = 99
	if g, _ := boards.Lookup("footbot"); g.Aseba.Vars[0].Address == 99 {
		t.Error("the Aseba mapping is shared")
	}
}

func TestLookupError(t *testing.T) {
	_, err := boards.Lookup("e-puck")
	if err == nil || !strings.Contains(err.Error(), "epuck, epuck-bt") {
		t.Errorf("Lookup of an unknown board: %v", err)
	}
}

func TestFacts(t *testing.T) {
	e, _ := boards.Lookup("epuck")
	// The e-puck: 1000 steps per revolution, wheel radius 2.05 cm.
	if got := e.Geometry.WheelStepsPerCM(); math.Abs(got-1000/(2*math.Pi*2.05)) > 1e-9 {
		t.Errorf("steps per cm %v", got)
	}
	// Reading 0 is ARGoS's sensor at 17 degrees (front-left), the
	// firmware's ps7; reading 7 at 343 degrees is ps0 (front-right).
	if e.Calibration.ProximityOrder[0] != 7 || e.Calibration.ProximityOrder[7] != 0 || math.Abs(e.Geometry.ProximityAngles[0]-ci.Radians(17)) > 1e-12 {
		t.Errorf("proximity order %v, angles %v", e.Calibration.ProximityOrder, e.Geometry.ProximityAngles)
	}
	p, _ := boards.Lookup("pipuck")
	if p.I2C.Addr != 0x1F || p.I2C.ToFAddr != 0x29 || p.I2C.IMUAddr != 0x68 || p.I2C.GroundAddr != 0x60 || p.Geometry.MaxWheelSpeed != 1100 || p.Retries != 3 {
		t.Errorf("pipuck %+v", p.I2C)
	}
	m, _ := boards.Lookup("pipuck-mux")
	if m.I2C.MuxAddr != 0x70 || m.I2C.MuxChannel != 1 {
		t.Errorf("pipuck-mux %+v", m.I2C)
	}
	fb, _ := boards.Lookup("footbot")
	if v, ok := fb.Aseba.Var("proximity"); !ok || v.Size != 24 || len(fb.Geometry.ProximityAngles) != 24 {
		t.Errorf("foot-bot proximity %+v", v)
	}
}

func TestScale(t *testing.T) {
	for _, s := range []boards.Scale{{Zero: 100, One: 3500}, {Zero: 4000, One: 0}} {
		for _, v := range []float64{0, 0.25, 1} {
			if got := s.Value(s.Raw(v)); math.Abs(got-v) > 1/math.Abs(s.One-s.Zero) {
				t.Errorf("%+v: %v -> %v -> %v", s, v, s.Raw(v), got)
			}
		}
		if s.Value(-1e9) < 0 || s.Value(1e9) > 1 {
			t.Errorf("%+v does not clamp", s)
		}
	}
	if (boards.Scale{}).Value(5) != 0 {
		t.Error("a degenerate scale must read 0")
	}
}

func TestCheckFindsMistakes(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(b *boards.Board)
		want string
	}{
		{"epuck", func(b *boards.Board) { b.Serial = nil }, "needs a serial port"},
		{"pipuck", func(b *boards.Board) { b.I2C.Addr = 0 }, "needs an I²C bus"},
		{"pipuck-mux", func(b *boards.Board) { b.I2C.MuxChannel = 8 }, "mux channel 8"},
		{"footbot", func(b *boards.Board) { b.Aseba.Transport = "udp" }, "tcp or serial"},
		{"footbot", func(b *boards.Board) { b.Aseba.Vars = append(b.Aseba.Vars, b.Aseba.Vars[0]) }, "mapped twice"},
		{"epuck", func(b *boards.Board) { b.Calibration.ProximityOrder = b.Calibration.ProximityOrder[:7] }, "proximity order"},
		{"epuck", func(b *boards.Board) { b.Timeout = 0 }, "timeout"},
		{"epuck", func(b *boards.Board) { b.Protocol = "carrier-pigeon" }, "unknown protocol"},
	} {
		b, _ := boards.Lookup(tc.name)
		tc.edit(&b)
		if err := b.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check() = %v, want %q", tc.name, err, tc.want)
		}
	}
}
