package simlink

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/argosgo/argos/ci"
)

func TestHelloWelcomeRoundTrip(t *testing.T) {
	h := Hello{Version: Version, RobotID: "fb0", Token: "secret", Sensors: []string{"footbot_proximity", "messaging"}, Actuators: []string{"differential_steering", "leds"}}
	got, err := ParseHello(AppendHello(nil, h))
	if err != nil || !reflect.DeepEqual(got, h) {
		t.Fatalf("hello: %+v, %v; want %+v", got, err, h)
	}
	w := Welcome{Version: Version, TicksPerSecond: 10, Mode: RealTime, Params: []int{0, 13}}
	gw, err := ParseWelcome(AppendWelcome(nil, w))
	if err != nil || !reflect.DeepEqual(gw, w) {
		t.Fatalf("welcome: %+v, %v; want %+v", gw, err, w)
	}
	if _, err := ParseWelcome(AppendWelcome(nil, Welcome{Mode: 7})); !errors.Is(err, ErrMalformed) {
		t.Errorf("mode 7 accepted: %v", err)
	}
}

func TestFrameRoundTripAndTruncation(t *testing.T) {
	f := Frame{Tick: 123456, Stop: true, Devices: [][]byte{{1, 2, 3}, {}, bytes.Repeat([]byte{9}, 300)}}
	body := AppendFrame(nil, FrameAct, &f)
	var g Frame
	if err := ParseFrame(FrameAct, body, &g); err != nil {
		t.Fatal(err)
	}
	if g.Tick != f.Tick || !g.Stop || len(g.Devices) != 3 || !bytes.Equal(g.Devices[2], f.Devices[2]) || len(g.Devices[1]) != 0 {
		t.Fatalf("got %+v", g)
	}
	for n := 0; n < len(body); n++ {
		if err := ParseFrame(FrameAct, body[:n], &g); !errors.Is(err, ErrMalformed) {
			t.Fatalf("a body cut at %d of %d bytes decoded: %v", n, len(body), err)
		}
	}
	if err := ParseFrame(FrameAct, append(body, 0), &g); !errors.Is(err, ErrMalformed) {
		t.Fatalf("a trailing byte was accepted: %v", err)
	}
	bad := AppendFrame(nil, FrameSense, &f)
	if err := ParseFrame(FrameAct, bad, &g); err == nil {
		t.Fatal("a Sense parsed as an Act with a flags byte that is a count")
	}
}

func TestConnLengthChecked(t *testing.T) {
	var buf bytes.Buffer
	c := NewConn(&buf)
	if err := c.Write(FrameBye, func(b []byte) []byte { return AppendReason(b, "done") }); err != nil {
		t.Fatal(err)
	}
	c2 := NewConn(bytes.NewBuffer(buf.Bytes()))
	typ, body, err := c2.Read()
	if err != nil || typ != FrameBye {
		t.Fatalf("%d %v", typ, err)
	}
	if r, err := ParseReason(body); err != nil || r != "done" {
		t.Fatalf("%q %v", r, err)
	}
	for _, raw := range [][]byte{
		{0, 0, 0, 0},                // empty frame
		{0xff, 0xff, 0xff, 0x7f, 1}, // over MaxFrame
		{2, 0, 0, 0, 99, 0},         // unknown type
	} {
		if _, _, err := NewConn(bytes.NewBuffer(raw)).Read(); !errors.Is(err, ErrMalformed) {
			t.Errorf("%v: %v", raw, err)
		}
	}
	if _, _, err := NewConn(bytes.NewBuffer([]byte{9, 0, 0, 0, 6, 1})).Read(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short frame: %v", err)
	}
}

type fakeProx []ci.ProximityReading

func (f fakeProx) Readings() []ci.ProximityReading { return f }

type fakeWheels struct{ l, r float64 }

func (f *fakeWheels) SetLinearVelocity(l, r float64) { f.l, f.r = l, r }

type fakeInbox []ci.Message

func (f fakeInbox) Inbox() []ci.Message { return f }

type fakeSender struct{ got []ci.Message }

func (f *fakeSender) Send(topic, to string, p []byte) {
	f.got = append(f.got, ci.Message{Topic: topic, To: to, Payload: append([]byte(nil), p...)})
}
func (f *fakeSender) Topics() []string { return []string{"a"} }

func TestDevicesBothSides(t *testing.T) {
	prox := fakeProx{{Value: 0.25, Angle: 0.5}, {Value: 1, Angle: -3}}
	p, err := AppendSensor(nil, KindProximity, prox)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSensor(KindProximity)
	if err := s.Decode(p); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.(*ProximitySensor).Readings(), []ci.ProximityReading(prox)) {
		t.Fatalf("proximity: %v", s.(*ProximitySensor).Readings())
	}
	if _, err := AppendSensor(nil, KindLight, prox); err == nil {
		t.Error("a proximity device sent as light")
	}

	in := fakeInbox{{Topic: "a", From: "x", Payload: []byte{1, 2}}, {Topic: "b", From: "y", To: "fb0"}}
	p, _ = AppendSensor(nil, KindMessagingSensor, in)
	ms, _ := NewSensor(KindMessagingSensor)
	if err := ms.Decode(p); err != nil {
		t.Fatal(err)
	}
	got := ms.(*MessagingSensor).Inbox()
	if len(got) != 2 || got[0].From != "x" || !bytes.Equal(got[0].Payload, []byte{1, 2}) || got[1].To != "fb0" {
		t.Fatalf("inbox %+v", got)
	}

	a, _ := NewActuator(KindSteering, 0)
	a.(ci.DifferentialSteeringActuator).SetLinearVelocity(3, -4)
	var w fakeWheels
	if err := ApplyActuator(KindSteering, &w, a.AppendPayload(nil)); err != nil || w.l != 3 || w.r != -4 {
		t.Fatalf("wheels %+v %v", w, err)
	}
	a.Stop()
	if err := ApplyActuator(KindSteering, &w, a.AppendPayload(nil)); err != nil || w.l != 0 || w.r != 0 {
		t.Fatalf("stopped wheels %+v %v", w, err)
	}

	m, _ := NewActuator(KindMessaging, 0)
	m.(ci.MessagingActuator).Send("a", "", []byte("hi"))
	var snd fakeSender
	payload := m.AppendPayload(nil)
	if err := ApplyActuator(KindMessaging, &snd, payload); err != nil || len(snd.got) != 1 || string(snd.got[0].Payload) != "hi" {
		t.Fatalf("sent %+v %v", snd.got, err)
	}
	if len(m.(*MessagingActuator).Pending()) != 0 {
		t.Error("messages stay queued after they went out")
	}
	m.(ci.MessagingActuator).Send("z", "", nil)
	if err := ApplyActuator(KindMessaging, &snd, m.AppendPayload(nil)); err == nil {
		t.Error("a message on a topic the actuator does not carry was sent")
	}
}

type fakeRABSensor []ci.RABPacket

func (f fakeRABSensor) Packets() []ci.RABPacket { return f }

type fakeRAB struct{ data [4]byte }

func (f *fakeRAB) SetData(d []byte) {
	if len(d) > len(f.data) {
		panic("too long")
	}
	copy(f.data[:], d)
}
func (f *fakeRAB) SetByte(i int, b byte) { f.data[i] = b }
func (f *fakeRAB) ClearData()            { f.data = [4]byte{} }

// The packets' data of a tick lie in one buffer the sensor reuses: each
// packet keeps its own bytes, however the buffer grew while decoding,
// and a tick no larger than the last decodes without allocating.
func TestRABSensorReusesItsData(t *testing.T) {
	in := fakeRABSensor{{Range: 1, Data: []byte{1}}, {Range: 2}, {Range: 3, Data: bytes.Repeat([]byte{3}, 300)}, {Range: 4, Data: []byte{4, 4}}}
	p, err := AppendSensor(nil, KindRABSensor, in)
	if err != nil {
		t.Fatal(err)
	}
	s := &RABSensor{}
	for range 2 {
		if err := s.Decode(p); err != nil {
			t.Fatal(err)
		}
		got := s.Packets()
		if len(got) != len(in) {
			t.Fatalf("%d packets, want %d", len(got), len(in))
		}
		for i := range in {
			if got[i].Range != in[i].Range || !bytes.Equal(got[i].Data, in[i].Data) {
				t.Errorf("packet %d: %+v, want %+v", i, got[i], in[i])
			}
		}
		// appending to one packet's data does not write over the next's
		_ = append(got[0].Data, 99)
		if len(got[1].Data) != 0 || got[2].Data[0] != 3 {
			t.Errorf("an append to packet 0 reached the others: %+v", got[1:3])
		}
	}
	if a := testing.AllocsPerRun(10, func() { s.Decode(p) }); a != 0 {
		t.Errorf("decoding a tick as large as the last allocates %v times", a)
	}
}

func TestRangeAndBearingBothSides(t *testing.T) {
	in := fakeRABSensor{{Range: 100, HorizontalBearing: 0.5, Data: []byte{7, 8}}}
	p, err := AppendSensor(nil, SensorKindOf(ci.TagRangeAndBearing), in)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewSensor(KindRABSensor)
	if err := s.Decode(p); err != nil {
		t.Fatal(err)
	}
	if got := s.(*RABSensor).Packets(); len(got) != 1 || got[0].Range != 100 || !bytes.Equal(got[0].Data, []byte{7, 8}) {
		t.Fatalf("packets %+v", got)
	}
	a, _ := NewActuator(ActuatorKindOf(ci.TagRangeAndBearing), 0)
	a.(ci.RangeAndBearingActuator).SetByte(2, 9)
	var dev fakeRAB
	if err := ApplyActuator(KindRAB, &dev, a.AppendPayload(nil)); err != nil || dev.data != [4]byte{0, 0, 9, 0} {
		t.Fatalf("payload %v, %v", dev.data, err)
	}
	a.(ci.RangeAndBearingActuator).SetData([]byte{1, 2, 3, 4, 5})
	if err := ApplyActuator(KindRAB, &dev, a.AppendPayload(nil)); err == nil {
		t.Error("a payload over the robot's size was set")
	}
}

func TestParseMerge(t *testing.T) {
	got, err := ParseMerge(" epuck_proximity:max, positioning:virtual ,light:real")
	if err != nil || got["epuck_proximity"] != "max" || got["positioning"] != "virtual" || got["light"] != "real" {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"epuck_proximity", "epuck_proximity:min", ":max", "positioning:max"} {
		if _, err := ParseMerge(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

type fakeCamera struct {
	on    bool
	blobs []ci.Blob
}

func (f *fakeCamera) Enable()  { f.on = true }
func (f *fakeCamera) Disable() { f.on = false }
func (f *fakeCamera) Blobs() []ci.Blob {
	if !f.on {
		return nil
	}
	return f.blobs
}

func TestCameraBothSides(t *testing.T) {
	cam := &fakeCamera{blobs: []ci.Blob{{Color: ci.Red, Angle: 1, Distance: 0.5}}}
	p, err := AppendSensor(nil, SensorKindOf(ci.TagOmnidirectionalCamera), cam)
	if err != nil {
		t.Fatal(err)
	}
	if !cam.on {
		t.Error("the simulation's camera was not enabled for the attached controller")
	}
	s, _ := NewSensor(KindCamera)
	if err := s.Decode(p); err != nil {
		t.Fatal(err)
	}
	c := s.(*CameraSensor)
	if len(c.Blobs()) != 0 {
		t.Error("a disabled camera reports blobs")
	}
	c.Enable()
	if b := c.Blobs(); len(b) != 1 || b[0] != cam.blobs[0] {
		t.Errorf("blobs %+v", b)
	}
}
