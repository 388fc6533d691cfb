package simlink

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/argosgo/argos/ci"
)

// The decoders must never panic and must consume exactly what they
// accept; the seeds are in testdata/fuzz.

func FuzzRead(f *testing.F) {
	f.Add([]byte{5, 0, 0, 0, FrameBye, 3, 'b', 'y', 'e'})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := NewConn(bytes.NewBuffer(data))
		for range 4 {
			typ, body, err := c.Read()
			if err != nil {
				return
			}
			var fr Frame
			switch typ {
			case FrameHello:
				if h, err := ParseHello(body); err == nil {
					if h2, err := ParseHello(AppendHello(nil, h)); err != nil || !reflect.DeepEqual(h, h2) {
						t.Fatalf("hello %+v encodes to %+v, %v", h, h2, err)
					}
				}
			case FrameWelcome:
				_, _ = ParseWelcome(body)
			case FrameSense, FrameAct:
				if err := ParseFrame(typ, body, &fr); err == nil {
					var fr2 Frame
					if err := ParseFrame(typ, AppendFrame(nil, typ, &fr), &fr2); err != nil || fr2.Tick != fr.Tick || fr2.Stop != fr.Stop || len(fr2.Devices) != len(fr.Devices) {
						t.Fatalf("frame %+v encodes to %+v, %v", fr, fr2, err)
					}
				}
			default:
				_, _ = ParseReason(body)
			}
		}
	})
}

func FuzzDevices(f *testing.F) {
	f.Add(byte(KindProximity), []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, k byte, data []byte) {
		if s, err := NewSensor(Kind(k)); err == nil {
			_ = s.Decode(data)
		}
		_, _ = ParseMessages(data, nil)
		_ = ApplyActuator(KindSteering, &fakeWheels{}, data)
		_ = ApplyActuator(KindMessaging, &fakeSender{}, data)
		_ = ApplyActuator(KindRAB, &fakeRAB{}, data)
		_ = ApplyActuator(KindLEDs, &LEDsActuator{colors: make([]ci.Color, 3)}, data)
	})
}
