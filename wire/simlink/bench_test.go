package simlink

import (
	"net"
	"testing"

	"github.com/argosgo/argos/ci"
)

// BenchmarkLoopbackExchange is the protocol alone over loopback TCP: a
// Sense with a foot-bot's 24 proximity readings out, an Act with wheel
// speeds back (the simulator's tick is not included; see
// simulator/remote's BenchmarkExchange for that).
func BenchmarkLoopbackExchange(b *testing.B) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer ln.Close()
	go func() {
		nc, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			return
		}
		defer nc.Close()
		nc.(*net.TCPConn).SetNoDelay(true)
		c := NewConn(nc)
		prox := &ProximitySensor{}
		wheels := &SteeringActuator{Left: 5, Right: 5}
		var f Frame
		var payload []byte
		for {
			typ, body, err := c.Read()
			if err != nil || typ != FrameSense {
				return
			}
			if ParseFrame(typ, body, &f) != nil || prox.Decode(f.Devices[0]) != nil {
				return
			}
			payload = wheels.AppendPayload(payload[:0])
			act := Frame{Tick: f.Tick, Devices: [][]byte{payload}}
			if c.Write(FrameAct, func(x []byte) []byte { return AppendFrame(x, FrameAct, &act) }) != nil {
				return
			}
		}
	}()
	nc, err := ln.Accept()
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	nc.(*net.TCPConn).SetNoDelay(true)
	c := NewConn(nc)
	ring := make(fakeProx, 24)
	for i := range ring {
		ring[i] = ci.ProximityReading{Value: float64(i) / 24, Angle: float64(i) * 0.26}
	}
	var wheels fakeWheels
	var sense, act Frame
	var payload []byte
	b.ResetTimer()
	for i := range b.N {
		payload, _ = AppendSensor(payload[:0], KindProximity, ring)
		sense = Frame{Tick: uint64(i + 1), Devices: [][]byte{payload}}
		if err := c.Write(FrameSense, func(x []byte) []byte { return AppendFrame(x, FrameSense, &sense) }); err != nil {
			b.Fatal(err)
		}
		typ, body, err := c.Read()
		if err != nil {
			b.Fatal(err)
		}
		if err := ParseFrame(typ, body, &act); err != nil || act.Tick != uint64(i+1) {
			b.Fatalf("act %+v: %v", act, err)
		}
		if err := ApplyActuator(KindSteering, &wheels, act.Devices[0]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "exchanges/s")
}
