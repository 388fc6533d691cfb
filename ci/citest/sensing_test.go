package citest

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/argosgo/argos/ci"
)

func TestLight(t *testing.T) {
	l := NewFootBotLight()
	var s ci.Light = l
	if l.Len() != 24 || len(s.Readings()) != 24 {
		t.Fatalf("foot-bot light ring has %d sensors, want 24", l.Len())
	}
	p := NewFootBotProximity()
	for i, r := range s.Readings() {
		if r.Angle != p.Readings()[i].Angle || r.Value != 0 {
			t.Errorf("sensor %d: %+v, want angle %v and value 0", i, r, p.Readings()[i].Angle)
		}
	}
	l.Set(3, 0.5)
	if s.Readings()[3].Value != 0.5 {
		t.Errorf("Set(3, 0.5) reads %v", s.Readings()[3].Value)
	}
	l.SetAll(0.1, 0.2)
	if got := s.Readings(); got[0].Value != 0.1 || got[1].Value != 0.2 || got[3].Value != 0 {
		t.Errorf("SetAll(0.1, 0.2): %v %v %v", got[0].Value, got[1].Value, got[3].Value)
	}
	// A light on the left peaks the sensors around 90 degrees and leaves
	// the right side dark.
	l.SetToward(math.Pi/2, 1)
	best := 0
	for i, r := range s.Readings() {
		if r.Value > s.Readings()[best].Value {
			best = i
		}
		if math.Sin(r.Angle) < 0 && r.Value != 0 {
			t.Errorf("sensor %d on the right reads %v", i, r.Value)
		}
	}
	if a := ci.Degrees(s.Readings()[best].Angle); a < 80 || a > 100 {
		t.Errorf("brightest sensor at %v degrees, want about 90", a)
	}
	custom := NewLight(0, 1)
	if custom.Len() != 2 || custom.Readings()[1].Angle != 1 {
		t.Errorf("NewLight(0, 1): %+v", custom.Readings())
	}
}

func TestGround(t *testing.T) {
	g := NewFootBotMotorGround()
	var s ci.Ground = g
	want := []ci.Vector2{{X: 0.063, Y: 0.0116}, {X: -0.063, Y: 0.0116}, {X: -0.063, Y: -0.0116}, {X: 0.063, Y: -0.0116}}
	if g.Len() != 4 {
		t.Fatalf("%d motor ground sensors, want 4", g.Len())
	}
	for i, r := range s.Readings() {
		if r.Offset != want[i] || r.Value != 1 {
			t.Errorf("sensor %d: %+v, want offset %v on white", i, r, want[i])
		}
	}
	g.SetAll(0.5)
	g.Set(0, 0)
	if got := s.Readings(); got[0].Value != 0 || got[1].Value != 0.5 || got[3].Value != 0.5 {
		t.Errorf("after SetAll(0.5), Set(0, 0): %+v", got)
	}
}

func TestBlobCamera(t *testing.T) {
	c := &BlobCamera{}
	var s ci.ColoredBlobCamera = c
	c.Set(ci.Blob{Color: ci.Red, Angle: 1, Distance: 0.5})
	if s.Blobs() != nil {
		t.Error("a disabled camera sees blobs")
	}
	s.Enable()
	if got := s.Blobs(); len(got) != 1 || got[0].Color != ci.Red || !c.Enabled || c.Enables != 1 {
		t.Errorf("enabled camera: %+v (enabled %v, %d enables)", got, c.Enabled, c.Enables)
	}
	s.Disable()
	if s.Blobs() != nil || c.Enabled || c.Disables != 1 {
		t.Errorf("disabled again: %v, enabled %v", s.Blobs(), c.Enabled)
	}
}

func TestRangeAndBearing(t *testing.T) {
	r := NewRangeAndBearing(10)
	var a ci.RangeAndBearingActuator = r
	var s ci.RangeAndBearingSensor = r
	a.SetByte(0, 2)
	a.SetData([]byte{7, 8})
	a.SetByte(9, 1)
	if fmt.Sprint(r.Data) != "[7 8 0 0 0 0 0 0 0 1]" {
		t.Errorf("payload %v", r.Data)
	}
	a.ClearData()
	if fmt.Sprint(r.Data) != "[0 0 0 0 0 0 0 0 0 0]" {
		t.Errorf("after ClearData: %v", r.Data)
	}
	if len(s.Packets()) != 0 {
		t.Errorf("packets before Receive: %v", s.Packets())
	}
	r.Receive([]byte{1}, []byte{2, 3})
	if p := s.Packets(); len(p) != 2 || p[0].Data[0] != 1 || p[1].Data[1] != 3 {
		t.Errorf("packets %+v", p)
	}
	for _, tc := range []struct {
		do   func()
		want string
	}{
		{func() { a.SetData(make([]byte, 11)) }, "11 bytes for a 10-byte payload"},
		{func() { a.SetByte(10, 1) }, "SetByte(10)"},
		{func() { a.SetByte(-1, 1) }, "SetByte(-1)"},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), tc.want) {
					t.Errorf("panic %v, want one mentioning %q", p, tc.want)
				}
			}()
			tc.do()
		}()
	}
}

func TestGripper(t *testing.T) {
	g := &Gripper{}
	var a ci.Gripper = g
	a.Lock()
	if a.Gripping() || !g.Locked {
		t.Errorf("nothing in reach: Gripping %v, Locked %v", a.Gripping(), g.Locked)
	}
	g.InReach = true
	a.Lock()
	if !a.Gripping() || g.Locks != 2 {
		t.Errorf("object in reach: Gripping %v after %d locks", a.Gripping(), g.Locks)
	}
	g.InReach = false // the object stays gripped while the robot moves
	if !a.Gripping() {
		t.Error("lost the object")
	}
	a.Unlock()
	if a.Gripping() || g.Locked || g.Unlocks != 1 {
		t.Errorf("after Unlock: Gripping %v, Locked %v, %d unlocks", a.Gripping(), g.Locked, g.Unlocks)
	}
}
