package devices_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/argosgo/argos/ci"
	"github.com/argosgo/argos/simulator/devices"
	"github.com/argosgo/argos/simulator/entity"
)

// crowd fills a 4 m arena around robot 0 (a foot-bot at the origin) with
// n foot-bots in random poses, their beacons and LED 0 lit red, every one
// sending on the range-and-bearing medium; a light and a few walls.
func crowd(b *testing.B, n int) (*arena, *entity.Robot) {
	a := newWorld(b, 4, true)
	rng := rand.New(rand.NewPCG(1, 2))
	me := a.robot(entity.FootBot, "me", 0, 0, 0, "")
	rabPair(b, me, "")
	for len(a.w.Robots) < n+1 {
		x, y := (rng.Float64()-0.5)*3.6, (rng.Float64()-0.5)*3.6
		free := true
		for _, r := range a.w.Robots {
			if r.B().Pos.Sub(ci.Vector2{X: x, Y: y}).Length() < 0.2 {
				free = false
			}
		}
		if !free {
			continue
		}
		r := a.robot(entity.FootBot, fmt.Sprint("r", len(a.w.Robots)), x, y, rng.Float64()*360, "")
		l := dev[ledActuator](b, r, "actuators", `<leds/>`)
		l.SetSingleColor(12, ci.Red)
		l.SetSingleColor(0, ci.Red)
		l.Apply()
		rabPair(b, r, "", byte(len(a.w.Robots)))
	}
	addBox(a.sp, 1, 0, 0.05, 1, 0.5, 0)
	addBox(a.sp, -1, 1, 1, 0.05, 0.5, 30)
	a.light(1.5, 1.5, 0.5, 3, ci.Yellow)
	a.update()
	return a, me
}

// BenchmarkSensors measures one Update of each sensor of issue 3 on a
// foot-bot among 30 others (0 allocations per robot and tick).
func BenchmarkSensors(b *testing.B) {
	a, me := crowd(b, 30)
	a.w.Floor = stripes
	a.w.Spots = []entity.Spot{{Pos: ci.Vector3{X: 0.5}, Radius: 0.02, Color: ci.Green}}
	scan := dev[scannerAct](b, me, "actuators", `<footbot_distance_scanner/>`)
	scan.SetRPM(60)
	scan.Apply()
	for _, c := range []struct{ name, xml string }{
		{"footbot_light", `<footbot_light noise_level="0.01"/>`},
		{"light", `<light noise_level="0.01"/>`},
		{"footbot_motor_ground", `<footbot_motor_ground noise_level="0.01"/>`},
		{"footbot_base_ground", `<footbot_base_ground/>`},
		{"ground", `<ground/>`},
		{"colored_blob_omnidirectional_camera", `<colored_blob_omnidirectional_camera medium="leds" noise_std_dev="0.01"/>`},
		{"range_and_bearing", `<range_and_bearing medium="rab" noise_std_dev="0.01" packet_drop_prob="0.1"/>`},
		{"footbot_distance_scanner/spinning", `<footbot_distance_scanner/>`},
		{"footbot_turret_encoder", `<footbot_turret_encoder/>`},
		{"battery", `<battery/>`},
		{"positioning/noise", `<positioning pos_noise_range="-0.01:0.01" angle_noise_range="-1:1"/>`},
		{"differential_steering/noise", `<differential_steering vel_noise_range="-1:1"/>`},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := dev[devices.Sensor](b, me, "sensors", c.xml)
			if cam, ok := s.(ci.ColoredBlobCamera); ok {
				cam.Enable()
			}
			s.Update()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Update()
			}
			b.StopTimer()
			switch d := s.(type) {
			case ci.ColoredBlobCamera:
				b.ReportMetric(float64(len(d.Blobs())), "blobs")
			case ci.RangeAndBearingSensor:
				b.ReportMetric(float64(len(d.Packets())), "packets")
			case ci.DistanceScannerSensor:
				b.ReportMetric(float64(len(d.Readings())), "readings")
			}
		})
	}
}

// Sensors do not allocate once they run: the property behind the
// benchmarks, checked as a test.
func TestSensorsDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("allocation counting")
	}
	a := newWorld(t, 4, true)
	me := a.robot(entity.FootBot, "me", 0, 0, 0, "")
	rx := rabPair(t, me, `noise_std_dev="0.01" packet_drop_prob="0.1"`)
	for k := 0; k < 20; k++ {
		ang := 2 * math.Pi * float64(k) / 20
		r := a.robot(entity.FootBot, fmt.Sprint("r", k), 0.7*math.Cos(ang), 0.7*math.Sin(ang), 0, "")
		l := dev[ledActuator](t, r, "actuators", `<leds/>`)
		l.SetAllColors(ci.Red)
		l.Apply()
		rabPair(t, r, "", byte(k))
	}
	a.light(1, 1, 0.5, 2, ci.Yellow)
	a.w.Spots = []entity.Spot{{Pos: ci.Vector3{X: 0.5}, Radius: 0.02, Color: ci.Green}}
	a.update()
	cam := dev[camera](t, me, "sensors", `<colored_blob_omnidirectional_camera medium="leds"/>`)
	cam.Enable()
	scan := dev[scannerAct](t, me, "actuators", `<footbot_distance_scanner/>`)
	scan.SetRPM(30)
	scan.Apply()
	sensors := []devices.Sensor{rx, cam,
		dev[devices.Sensor](t, me, "sensors", `<footbot_light noise_level="0.01"/>`),
		dev[devices.Sensor](t, me, "sensors", `<light/>`),
		dev[devices.Sensor](t, me, "sensors", `<ground noise_level="0.01"/>`),
		dev[devices.Sensor](t, me, "sensors", `<footbot_distance_scanner noise_range="-1:1"/>`),
		dev[devices.Sensor](t, me, "sensors", `<battery/>`),
		dev[devices.Sensor](t, me, "sensors", `<footbot_turret_encoder/>`),
		dev[devices.Sensor](t, me, "sensors", `<positioning pos_noise_range="-0.01:0.01"/>`),
	}
	for _, s := range sensors {
		s.Update()
		if n := testing.AllocsPerRun(20, s.Update); n != 0 {
			t.Errorf("%T allocates %v times per Update", s, n)
		}
	}
	if len(rx.Packets()) < 15 || len(cam.Blobs()) < 10 {
		t.Fatalf("the crowd is not sensed: %d packets, %d blobs", len(rx.Packets()), len(cam.Blobs()))
	}
}
